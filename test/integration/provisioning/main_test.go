// Package provisioning_test checks provisioning admission checks end to end
// on a real kube-apiserver: quota reserved first, a ProvisioningRequest per
// attempt, pods placed only once the capacity exists, in one zone;
// failures retried; the maximum run duration enforced. A small provisioner
// in the tests stands in for the cluster autoscaler.
package provisioning_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
