package metrics

import (
	"strings"
	"testing"

	"k8s.io/component-base/metrics/legacyregistry"
	"k8s.io/component-base/metrics/testutil"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// A queue report sets usage, nominal quota and borrowing per ClusterQueue,
// flavor and resource, in resource units; queues gone from the next report
// lose their series.
func TestRecordQueues(t *testing.T) {
	Register()
	tpu := quota.FlavorResource{Flavor: "v5e", Resource: "google.com/tpu"}
	RecordQueues(state.QueueReport{ClusterQueues: map[string]*state.ClusterQueueReport{
		"cq": {Pending: 1, Admitted: 2, Usage: quota.Usage{tpu: 24000}, Nominal: quota.Usage{tpu: 16000}, Borrowed: quota.Usage{tpu: 8000}},
	}})
	want := `
# HELP multislice_quota_nominal [ALPHA] Nominal quota per ClusterQueue, flavor and resource (resource units: chips, cores, bytes).
# TYPE multislice_quota_nominal gauge
multislice_quota_nominal{cluster_queue="cq",flavor="v5e",resource="google.com/tpu"} 16
# HELP multislice_quota_usage [ALPHA] Quota in use per ClusterQueue, flavor and resource (resource units: chips, cores, bytes).
# TYPE multislice_quota_usage gauge
multislice_quota_usage{cluster_queue="cq",flavor="v5e",resource="google.com/tpu"} 24
# HELP multislice_quota_borrowed [ALPHA] Quota a ClusterQueue borrows from its cohort beyond its nominal quota, per flavor and resource.
# TYPE multislice_quota_borrowed gauge
multislice_quota_borrowed{cluster_queue="cq",flavor="v5e",resource="google.com/tpu"} 8
`
	for _, name := range []string{"multislice_quota_nominal", "multislice_quota_usage", "multislice_quota_borrowed"} {
		if err := testutil.GatherAndCompare(legacyregistry.DefaultGatherer, strings.NewReader(want), name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	RecordQueues(state.QueueReport{})
	if err := testutil.GatherAndCompare(legacyregistry.DefaultGatherer, strings.NewReader(""), "multislice_quota_nominal"); err != nil {
		t.Errorf("a queue gone keeps its series: %v", err)
	}
}
