package admission_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// withQueue gives st LocalQueue ns/lq in a ClusterQueue of chips TPU
// chips of nominal quota.
func withQueue(st *state.State, chips int64) {
	st.Feed().SetAPI(state.QueueAPI, state.APIServed)
	st.Feed().SetFlavor(&quota.Flavor{Name: "f"})
	st.Feed().SetClusterQueue(&quota.ClusterQueue{Name: "cq", FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{"f"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: "f", Resource: wellknown.ResourceTPU}: {Nominal: chips * 1000}}})
	st.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: prefilterUnit.Namespace, Name: "lq", ClusterQueue: "cq"})
}

// PreEnqueue lets a pod into the active queue, or says why it waits and
// how to show it: a member behind its gang's head, a workload its queue
// keeps waiting (its whole gang shown why), a malformed one (a Warning on
// the pod); a queued plain pod is charged as it passes.
func TestPreEnqueue(t *testing.T) {
	const permitTimeout = time.Minute

	t.Run("a plain pod passes", func(t *testing.T) {
		st := prefilterState(t, 1)
		pod := prefilterUnit.Pod("web").Obj()
		st.Feed().UpsertPod(pod)
		if out := admission.PreEnqueue(st, pod, permitTimeout); !out.Pass || !out.Later.Empty() {
			t.Errorf("outcome %+v, want it let through", out)
		}
	})

	t.Run("a gang plans through its head; the others wait behind it, weakly held", func(t *testing.T) {
		st := prefilterState(t, 2)
		pods := addJobSet(t, st, "train", 2)
		passed := 0
		for _, p := range pods {
			out := admission.PreEnqueue(st, p, permitTimeout)
			if out.Pass {
				passed++
				continue
			}
			if !out.HoldWeak || out.Hold.Reason != state.ReasonWaitingForGang || !strings.Contains(out.Message, "to find room for") || out.Event.Reason != "" {
				t.Errorf("member %s: %+v, want it held behind the head, with no event", p.Name, out)
			}
		}
		if passed != 1 {
			t.Errorf("%d members passed, want the head alone", passed)
		}
	})

	t.Run("a workload its queue cannot admit waits gated, its whole gang shown why", func(t *testing.T) {
		st := prefilterState(t, 2)
		withQueue(st, 8)
		first := addJobSet(t, st, "first", 1, func(b *builders.JobSetBuilder) { b.Annotation(wellknown.QueueNameLabel, "lq") })
		for _, p := range first {
			if out := admission.PreEnqueue(st, p, permitTimeout); out.Pass {
				if pf := prefilter(st, p, func(state.Actions) {}); pf.Code != admission.Proceed {
					t.Fatalf("the first workload was not admitted: %+v", pf)
				}
			}
		}
		pods := addJobSet(t, st, "second", 1, func(b *builders.JobSetBuilder) { b.Annotation(wellknown.QueueNameLabel, "lq") })
		waiting := 0
		for _, p := range pods {
			out := admission.PreEnqueue(st, p, permitTimeout)
			if out.Pass {
				t.Fatalf("%s passed with the queue's quota in use", p.Name)
			}
			if out.QueueRejection == "" {
				continue // behind its head
			}
			waiting++
			if out.QueueRejection != quota.ReasonQuotaExceeded || out.Event.Reason != out.QueueRejection || out.Event.Warning || out.OnPod ||
				len(out.HoldAll) != len(pods) || out.Hold != out.Event || out.Ref.Name != "second" {
				t.Errorf("head %s: %+v, want a Normal %s event and every member held for it", p.Name, out, quota.ReasonQuotaExceeded)
			}
		}
		if waiting != 1 {
			t.Errorf("%d pods carry the queue's verdict, want the head alone", waiting)
		}
	})

	t.Run("a malformed workload's pod is blocked, with a Warning on the pod", func(t *testing.T) {
		st := prefilterState(t, 1)
		js := prefilterUnit.JobSet("broken").ReplicatedJob("slice", 1, 2).Obj()
		key := workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name}
		st.Feed().UpsertSource(key, nil, errors.New("spec.replicatedJobs[0]: no pods"), corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
		pod := builders.Members(js)[0]
		st.Feed().UpsertPod(pod)
		out := admission.PreEnqueue(st, pod, permitTimeout)
		if out.Pass || !out.OnPod || !out.Event.Warning || out.Event.Reason != state.ReasonGangBlocked || out.Hold != out.Event || out.HoldAll != nil {
			t.Errorf("outcome %+v, want a GangBlocked Warning on the pod, which is held for it", out)
		}
	})

	t.Run("a queued plain pod is charged as it passes", func(t *testing.T) {
		st := prefilterState(t, 1)
		withQueue(st, 8)
		pod := prefilterUnit.Pod("p").TPU("4").Label(wellknown.QueueNameLabel, "lq").Obj()
		st.Feed().UpsertPod(pod)
		out := admission.PreEnqueue(st, pod, permitTimeout)
		if !out.Pass {
			t.Fatalf("outcome %+v, want it let through", out)
		}
		key := workload.Key{Source: workload.SourcePod, Namespace: pod.Namespace, Name: pod.Name}
		if v := st.Snapshot(key, func(string) (workload.Resources, bool) { return nil, false }).Workloads[key]; v == nil || v.Charge == nil {
			t.Error("not charged as it passed")
		}
	})
}
