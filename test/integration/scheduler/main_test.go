// Package scheduler_test runs multislice-scheduler, built exactly as the
// binary is, against a real kube-apiserver and etcd.
package scheduler_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
