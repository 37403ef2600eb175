package provisioning_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func userRequest(details map[string]autoscalingv1.Detail, conds ...metav1.Condition) *autoscalingv1.ProvisioningRequest {
	req := &autoscalingv1.ProvisioningRequest{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "req", UID: "uid"}}
	req.Spec.PodSets = []autoscalingv1.PodSet{{Count: 2}, {Count: 3}}
	req.Status.Conditions = conds
	req.Status.ProvisioningClassDetails = details
	return req
}

func cond(typ string, msg string) metav1.Condition {
	return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Message: msg}
}

func TestConsumption(t *testing.T) {
	pool := map[string]autoscalingv1.Detail{provisioning.NodePoolDetail: "pool-a, pool-b"}
	for name, tc := range map[string]struct {
		req  *autoscalingv1.ProvisioningRequest
		want workload.Consumption
	}{
		"new":      {req: userRequest(nil), want: workload.Consumption{Message: "not yet accepted by a provisioner"}},
		"accepted": {req: userRequest(nil, cond(autoscalingv1.Accepted, "")), want: workload.Consumption{Message: "accepted by the provisioner"}},
		"provisioned in pools": {req: userRequest(pool, cond(autoscalingv1.Provisioned, "ready")),
			want: workload.Consumption{Provisioned: true, Message: "ready", NodeSelector: map[string][]string{wellknown.NodePoolLabel: {"pool-a", "pool-b"}}}},
		"provisioned, nowhere said": {req: userRequest(nil, cond(autoscalingv1.Provisioned, "ready")), want: workload.Consumption{Provisioned: true, Message: "ready"}},
		"failed":                    {req: userRequest(nil, cond(autoscalingv1.Failed, "no GPUs")), want: workload.Consumption{Ended: autoscalingv1.Failed, Message: "no GPUs"}},
		"booking expired": {req: userRequest(pool, cond(autoscalingv1.Provisioned, "ready"), cond(autoscalingv1.BookingExpired, "unused")),
			want: workload.Consumption{Ended: autoscalingv1.BookingExpired, Message: "unused"}},
		"revoked": {req: userRequest(pool, cond(autoscalingv1.Provisioned, "ready"), cond(autoscalingv1.CapacityRevoked, "gone")),
			want: workload.Consumption{Ended: autoscalingv1.CapacityRevoked, Message: "gone"}},
	} {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, provisioning.Consumption(tc.req)); diff != "" {
				t.Errorf("Consumption (-want +got):\n%s", diff)
			}
		})
	}
}

// A request's gang counts every pod set's pods; requests a queue's check
// made (owned by their Workload object) are not users' to consume.
func TestConsumer(t *testing.T) {
	req := userRequest(nil)
	w, err := provisioning.Consumer(req)
	if err != nil {
		t.Fatal(err)
	}
	if w.Key != provisioning.ConsumerKey(req) || w.Slices[0].Pods != 5 || w.UID != "uid" {
		t.Errorf("model %+v", w)
	}
	if !provisioning.UserMade(req) {
		t.Error("a request without owner is not user-made")
	}
	req.OwnerReferences = []metav1.OwnerReference{{APIVersion: multislicev1alpha1.SchemeGroupVersion.String(), Kind: "Workload", Name: "w", UID: "w"}}
	if provisioning.UserMade(req) {
		t.Error("a request owned by a Workload object is user-made")
	}
}

func TestSelectorString(t *testing.T) {
	s := provisioning.Selector{wellknown.NodePoolLabel: {"a", "b"}, wellknown.ZoneLabel: {"z"}}
	if got, want := s.String(), "cloud.google.com/gke-nodepool in (a, b); topology.kubernetes.io/zone=z"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
