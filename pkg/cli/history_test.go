package cli

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// admittedAt is Workload ns/owner of JobSet owner admitted in ClusterQueue
// cq at t.
func admittedAt(owner, cq string, t time.Time) *multislicev1alpha1.Workload {
	wl := builders.Workload(KindJobSet, "ns", owner, "lq").PodSet("slice", 2, wellknown.ResourceTPU, "4", wellknown.NodePoolLabel).Admitted(cq, "v5e", "pool-1").Obj()
	for i := range wl.Status.Conditions {
		wl.Status.Conditions[i].LastTransitionTime = metav1.NewTime(t)
	}
	return wl
}

func TestHistory(t *testing.T) {
	at := func(m int) time.Time { return builders.Epoch.Add(time.Duration(m) * time.Minute) }
	train := WorkloadRef{KindJobSet, "ns", "train"}
	low := WorkloadRef{KindJobSet, "ns", "low"}
	repeated := builders.Event("JobSet", "ns", "low", "low-uid", corev1.EventTypeWarning, "Preempted", "evicted whole by JobSet ns/train", at(3))
	repeated.Count = 2
	cases := map[string]struct {
		cluster Cluster
		want    []Happening
	}{
		"nothing happened": {},
		"an admitted Workload object, not a waiting one": {
			cluster: Cluster{Workloads: []*multislicev1alpha1.Workload{
				admittedAt("train", "cq", at(1)),
				builders.Workload(KindJobSet, "ns", "next", "lq").Waiting("QuotaExceeded", "insufficient quota").Obj(),
			}},
			want: []Happening{{Time: at(1), What: HappeningAdmitted, Workload: train, Message: "by ClusterQueue cq: The workload is admitted",
				ID: "admitted/jobset-train-wl-uid/2025-01-01T00:01:00Z"}},
		},
		"the scheduler's events on workloads, newest first; others left out": {
			cluster: Cluster{Events: []*corev1.Event{
				builders.Event("JobSet", "ns", "train", "train-uid", corev1.EventTypeNormal, "Placed", "placed slice-0 on pool-1", at(1)),
				builders.Event("JobSet", "ns", "train", "train-uid", corev1.EventTypeNormal, "Preempting", "evicting JobSet ns/low", at(2)),
				builders.Event("JobSet", "ns", "low", "low-uid", corev1.EventTypeWarning, "FailedScheduling", "0/4 nodes are available", at(2)),
				builders.Event("JobSet", "ns", "low", "low-uid", corev1.EventTypeWarning, "MaximumRunDurationExceeded", "ran for 1h", at(4)),
				repeated,
			}},
			want: []Happening{
				{Time: at(4), What: HappeningEvicted, Workload: low, Message: "ran for 1h", ID: "event/ns/low.MaximumRunDurationExceeded/0"},
				{Time: at(3), What: HappeningPreempted, Workload: low, Message: "evicted whole by JobSet ns/train", ID: "event/ns/low.Preempted/2"},
				{Time: at(2), What: HappeningPreempting, Workload: train, Message: "evicting JobSet ns/low", ID: "event/ns/train.Preempting/0"},
				{Time: at(1), What: HappeningPlaced, Workload: train, Message: "placed slice-0 on pool-1", ID: "event/ns/train.Placed/0"},
			},
		},
		"ties in time in ID order": {
			cluster: Cluster{
				Workloads: []*multislicev1alpha1.Workload{admittedAt("train", "cq", at(1))},
				Events:    []*corev1.Event{builders.Event("JobSet", "ns", "train", "train-uid", corev1.EventTypeNormal, "Placed", "placed", at(1))},
			},
			want: []Happening{
				{Time: at(1), What: HappeningAdmitted, Workload: train, Message: "by ClusterQueue cq: The workload is admitted", ID: "admitted/jobset-train-wl-uid/2025-01-01T00:01:00Z"},
				{Time: at(1), What: HappeningPlaced, Workload: train, Message: "placed", ID: "event/ns/train.Placed/0"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, History(&tc.cluster)); diff != "" {
				t.Errorf("History (-want +got):\n%s", diff)
			}
		})
	}
}
