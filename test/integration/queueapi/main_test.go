// Package queueapi_test installs the generated multislice.dev CRDs on a real
// kube-apiserver and checks what it serves: the example manifests apply as
// written and are defaulted, invalid objects are rejected by the schemas'
// validation rules, and the printer columns resolve.
package queueapi_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
