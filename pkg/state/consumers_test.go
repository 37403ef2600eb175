package state_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// consumerKey is the gang of the pods that consume request name in ns.
func consumerKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceProvisioningRequest, Namespace: "ns", Name: name}
}

// consumers are n one-GPU pods consuming request req.
func consumers(req string, n int) []*corev1.Pod {
	var out []*corev1.Pod
	for i := range n {
		out = append(out, builders.Pod("ns", fmt.Sprintf("%s-%d", req, i)).UID(fmt.Sprintf("%s-uid-%d", req, i)).
			Scheduler(unit.Scheduler).NoRequests().Request(wellknown.ResourceGPU, "1").
			Annotation(wellknown.DeprecatedConsumeProvisioningRequestAnnotation, req).Obj())
	}
	return out
}

// feedRequest feeds a user-made request of count pods with conditions, as
// the informer would.
func (f *fixture) feedRequest(name string, count int32, details map[string]autoscalingv1.Detail, conds ...string) state.Actions {
	f.t.Helper()
	req := &autoscalingv1.ProvisioningRequest{}
	req.Namespace, req.Name, req.UID = "ns", name, types.UID(name+"-uid")
	req.Spec.PodSets = []autoscalingv1.PodSet{{Count: count}}
	req.Status.ProvisioningClassDetails = details
	for _, c := range conds {
		req.Status.Conditions = append(req.Status.Conditions, metav1.Condition{Type: c, Status: metav1.ConditionTrue})
	}
	w, err := provisioning.Consumer(req)
	if err != nil {
		f.t.Fatalf("Consumer: %v", err)
	}
	return f.s.Feed().UpsertSource(consumerKey(name), w, nil, provisioning.ConsumedRef("ns", name, req.UID))
}

// The pods of a user-made request wait while it is missing or pending,
// then plan all together on the pool it reports; a request that ends
// first, or is deleted, leaves them waiting with a reason the user acts on.
func TestConsumersWaitForTheirRequest(t *testing.T) {
	pools := append(builders.NodePool("decoy").Nodes(2).GPU("nvidia-l4", 1).Build(),
		builders.NodePool("provisioned").Nodes(2).GPU("nvidia-l4", 1).Build()...)
	f := newFixture(t, pools...)
	f.s.Feed().SetAPI(workload.SourceProvisioningRequest, state.APIServed)
	pods := consumers("req", 2)
	f.addPods(pods...)

	v := f.admit(pods[0])
	if !v.Wait || v.QueueReason != state.ReasonProvisioningRequestGone || !v.QueueNeedsAction || v.Ref.Kind != "ProvisioningRequest" {
		t.Fatalf("before the request exists: %+v", v)
	}
	notAQueueRejection(t, f, pods[0], state.ReasonProvisioningRequestGone)
	acts := f.feedRequest("req", 2, nil, autoscalingv1.Accepted)
	if len(acts.Activate) != 2 {
		t.Errorf("a new request activates %d pods, want its 2", len(acts.Activate))
	}
	h := head(t, f, pods)
	if v := f.admit(h); !v.Wait || v.QueueReason != state.ReasonWaitingForProvisioning || v.QueueNeedsAction || !strings.Contains(v.Message, "ns/req to be Provisioned") {
		t.Fatalf("while pending: %+v", v)
	}
	notAQueueRejection(t, f, h, state.ReasonWaitingForProvisioning)

	acts = f.feedRequest("req", 2, map[string]autoscalingv1.Detail{provisioning.NodePoolDetail: "provisioned"}, autoscalingv1.Accepted, autoscalingv1.Provisioned)
	if len(acts.Events) != 1 || acts.Events[0].Reason != "Provisioned" || acts.Events[0].Warning {
		t.Errorf("provisioned: events %+v, want one Normal Provisioned", acts.Events)
	}
	if v := f.admit(h); v.Wait || v.Unresolvable {
		t.Fatalf("once provisioned: %+v", v)
	}
	r := f.mustPlan(consumerKey("req"))
	for _, slot := range r.Slices[0].Slots {
		if !strings.HasPrefix(slot.Node, "provisioned-") {
			t.Errorf("planned on %s, want only the provisioned pool's nodes", slot.Node)
		}
	}

	// Deleted before its pods were placed: they are woken to say so.
	acts = f.s.Feed().DeleteSource(consumerKey("req"))
	if len(acts.Activate) != 2 || len(acts.Events) != 1 || !acts.Events[0].Warning || acts.Events[0].Reason != state.ReasonProvisioningRequestGone {
		t.Errorf("deleted: %+v", acts)
	}
	if v := f.admit(h); !v.Wait || v.QueueReason != state.ReasonProvisioningRequestGone {
		t.Errorf("after the deletion: %+v", v)
	}
}

// notAQueueRejection checks that PreEnqueue holds pod, a consumer of a
// request its user made, for reason, and counts no queue rejection: the
// pod is in no queue.
func notAQueueRejection(t *testing.T, f *fixture, pod *corev1.Pod, reason string) {
	t.Helper()
	out := admission.PreEnqueue(f.s, pod, time.Minute)
	if out.Pass || out.Hold.Reason != reason {
		t.Errorf("PreEnqueue = %+v, want the pod held for %s", out, reason)
	}
	if out.QueueRejection != "" {
		t.Errorf("PreEnqueue counts queue rejection %q for a pod of no queue", out.QueueRejection)
	}
}

func TestConsumerGate(t *testing.T) {
	for name, tc := range map[string]struct {
		conds             []string
		wait, needsAction bool
		reason            string
	}{
		"not accepted":     {wait: true, reason: state.ReasonWaitingForProvisioning},
		"accepted":         {conds: []string{autoscalingv1.Accepted}, wait: true, reason: state.ReasonWaitingForProvisioning},
		"provisioned":      {conds: []string{autoscalingv1.Accepted, autoscalingv1.Provisioned}},
		"failed":           {conds: []string{autoscalingv1.Accepted, autoscalingv1.Failed}, wait: true, needsAction: true, reason: "ProvisioningRequestFailed"},
		"booking expired":  {conds: []string{autoscalingv1.Provisioned, autoscalingv1.BookingExpired}, wait: true, needsAction: true, reason: "ProvisioningRequestBookingExpired"},
		"capacity revoked": {conds: []string{autoscalingv1.Provisioned, autoscalingv1.CapacityRevoked}, wait: true, needsAction: true, reason: "ProvisioningRequestCapacityRevoked"},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.NodePool("pool").Nodes(1).GPU("nvidia-l4", 1).Build()...)
			f.s.Feed().SetAPI(workload.SourceProvisioningRequest, state.APIServed)
			pods := consumers("req", 1)
			f.feedRequest("req", 1, nil, tc.conds...)
			f.addPods(pods...)
			v := f.admit(pods[0])
			if v.Wait != tc.wait || v.QueueReason != tc.reason || v.QueueNeedsAction != tc.needsAction {
				t.Errorf("verdict %+v; want wait %v, reason %q, needs action %v", v, tc.wait, tc.reason, tc.needsAction)
			}
		})
	}
}
