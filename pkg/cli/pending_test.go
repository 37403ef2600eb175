package cli

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// pendingCluster has a ClusterQueue cq with LocalQueues lq in namespaces
// ns and other, and these JobSets of one 2-pod slice waiting in it:
//
//	ns/low     priority 0,   created at Epoch+1m, pods exist, QuotaExceeded
//	ns/high    priority 100, created at Epoch+2m, no pods, QuotaExceeded
//	ns/older   priority 0,   created at Epoch,    WaitingInQueue
//	other/peer priority 0,   created at Epoch+1m, its pods say WaitingForDomains
//
// and ns/running, admitted. Their Workload objects were created in the
// opposite order: the JobSets' creation decides.
func pendingCluster() Cluster {
	js := func(ns, name string, created time.Duration) *jobsetv1alpha2.JobSet {
		return builders.Unit{Namespace: ns, Scheduler: "multislice-scheduler"}.JobSet(name).Created(builders.Epoch.Add(created)).ReplicatedJob("slice", 1, 2).Obj()
	}
	wl := func(ns, name string, prio int32, created time.Duration) *builders.WorkloadBuilder {
		return builders.Workload(KindJobSet, ns, name, "lq").Priority(prio).Created(builders.Epoch.Add(time.Hour-created)).
			PodSet(name+"-slice-0", 2, tpu, "4", wellknown.NodePoolLabel)
	}
	low, older, peer := js("ns", "low", time.Minute), js("ns", "older", 0), js("other", "peer", time.Minute)
	var pods []*corev1.Pod
	for _, p := range builders.Members(low) {
		pods = append(pods, builders.Edit(p).Gate("multislice").Obj())
	}
	for _, p := range builders.Members(peer) {
		pods = append(pods, builders.Edit(p).Held("WaitingForDomains", "no free v5e pool").Obj())
	}
	return Cluster{
		Now:           now,
		JobSets:       []*jobsetv1alpha2.JobSet{low, js("ns", "high", 2*time.Minute), older, peer, js("ns", "running", 0)},
		Pods:          pods,
		ClusterQueues: []*multislicev1alpha1.ClusterQueue{builders.ClusterQueue("cq").Quota("v5e", tpu, "8").Obj()},
		LocalQueues:   []*multislicev1alpha1.LocalQueue{builders.LocalQueue("ns", "lq", "cq"), builders.LocalQueue("other", "lq", "cq")},
		Workloads: []*multislicev1alpha1.Workload{
			wl("ns", "low", 0, time.Minute).Waiting("QuotaExceeded", "insufficient quota in ClusterQueue cq").Obj(),
			wl("ns", "high", 100, 2*time.Minute).Waiting("QuotaExceeded", "insufficient quota in ClusterQueue cq").Obj(),
			wl("ns", "older", 0, 0).Waiting("WaitingInQueue", "waiting behind JobSet ns/high").Obj(),
			wl("other", "peer", 0, time.Minute).Waiting(multislicev1alpha1.ReasonPending, "waiting to be admitted").Obj(),
			wl("ns", "running", 0, 0).Admitted("cq", "v5e", "pool-1").Obj(),
		},
	}
}

func pending(kind, ns, name, cq string, pos int, prio int32, created time.Duration, reason, msg string, pods int) PendingWorkload {
	w := PendingWorkload{
		Workload: WorkloadRef{kind, ns, name}, ClusterQueue: cq, Position: pos, Priority: prio,
		Created: builders.Epoch.Add(created), Reason: reason, Message: msg, Pods: pods,
	}
	if cq != "" {
		w.WorkloadObject, w.LocalQueue = "jobset-"+name, "lq"
	}
	return w
}

func TestPending(t *testing.T) {
	queued := []PendingWorkload{
		pending(KindJobSet, "ns", "high", "cq", 1, 100, 2*time.Minute, "QuotaExceeded", "insufficient quota in ClusterQueue cq", 0),
		pending(KindJobSet, "ns", "older", "cq", 2, 0, 0, "WaitingInQueue", "waiting behind JobSet ns/high", 0),
		pending(KindJobSet, "ns", "low", "cq", 3, 0, time.Minute, "QuotaExceeded", "insufficient quota in ClusterQueue cq", 2),
		pending(KindJobSet, "other", "peer", "cq", 4, 0, time.Minute, "WaitingForDomains", "no free v5e pool", 2),
	}
	unqueued := builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}
	cases := map[string]struct {
		edit   func(*Cluster)
		filter PendingFilter
		want   []PendingWorkload
	}{
		"priority, then the JobSets' creation, then name; a pod's reason beats Pending": {
			want: queued,
		},
		"a namespace keeps its positions in the ClusterQueue": {
			filter: PendingFilter{Namespace: "other"},
			want:   queued[3:],
		},
		"one ClusterQueue": {
			filter: PendingFilter{ClusterQueue: "nope"},
			want:   []PendingWorkload{},
		},
		"workloads of no queue come last, their pods saying why": {
			edit: func(c *Cluster) {
				c.Pods = append(c.Pods,
					unqueued.Pod("solo").Priority(5).Held("Unschedulable", "0/3 nodes are available").Obj(),
					unqueued.Pod("gated").Gate("x").Created(builders.Epoch.Add(-time.Minute)).Obj(),
					unqueued.Pod("bound").Running("n").Obj(),
				)
			},
			filter: PendingFilter{Namespace: "ns"},
			want: append(queued[:3:3],
				pending(KindPod, "ns", "solo", "", 1, 5, 0, "Unschedulable", "0/3 nodes are available", 1),
				pending(KindPod, "ns", "gated", "", 2, 0, -time.Minute, ReasonSchedulingGated, "its pods have scheduling gates and no scheduler has said why they wait yet", 1),
			),
		},
		"a missing LocalQueue; evicted; suspended and finished workloads do not wait": {
			edit: func(c *Cluster) {
				c.LocalQueues = c.LocalQueues[:1]
				c.Workloads[0] = builders.Workload(KindJobSet, "ns", "low", "lq").Waiting("QuotaExceeded", "insufficient quota").
					Condition(multislicev1alpha1.WorkloadEvicted, metav1.ConditionTrue, "Preempted", "Preempted by JobSet ns/high").Created(builders.Epoch).Obj()
				c.Workloads[1] = builders.Workload(KindJobSet, "ns", "high", "lq").Waiting("Suspended", "Its owner is suspended").Obj()
				c.Workloads[2] = builders.Workload(KindJobSet, "ns", "older", "lq").Condition(multislicev1alpha1.WorkloadFinished, metav1.ConditionTrue, "Succeeded", "").Obj()
				c.Workloads[3] = builders.Workload(KindJobSet, "other", "peer", "lq").Waiting("LocalQueueNotFound", "LocalQueue other/lq does not exist").Obj()
			},
			want: []PendingWorkload{
				func() PendingWorkload {
					w := pending(KindJobSet, "ns", "low", "cq", 1, 0, time.Minute, "QuotaExceeded", "insufficient quota", 2)
					w.Evicted = "Preempted: Preempted by JobSet ns/high"
					return w
				}(),
				func() PendingWorkload {
					w := pending(KindJobSet, "other", "peer", "", 1, 0, time.Minute, "LocalQueueNotFound", "LocalQueue other/lq does not exist", 2)
					w.WorkloadObject, w.LocalQueue = "jobset-peer", "lq"
					return w
				}(),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := pendingCluster()
			if tc.edit != nil {
				tc.edit(&c)
			}
			got := Pending(&c, tc.filter)
			if got.Order != PendingOrder {
				t.Errorf("Order %q, want %q", got.Order, PendingOrder)
			}
			if diff := cmp.Diff(tc.want, got.Workloads, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Pending (-want +got):\n%s", diff)
			}
		})
	}
}
