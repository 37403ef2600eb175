// Package gang_test checks multislice gang admission end to end on a real
// kube-apiserver: JobSets whose pods arrive all at once and JobSets whose
// pods arrive the way JobSet's exclusive-placement webhook stages them.
package gang_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
