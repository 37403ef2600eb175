// Package lifetimes_test runs the scheduler against a real apiserver with
// GKE's ComputeClass API: flex-start nodes live for their class's maximum
// run and are recycled before its end, and plans take that into account.
package lifetimes_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
