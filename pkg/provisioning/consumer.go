package provisioning

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// UserMade reports whether a request was made by its user rather than by
// a queue's admission check (those are owned by the Workload object they
// provision for, and their pods are members of that workload).
func UserMade(req *autoscalingv1.ProvisioningRequest) bool {
	for _, o := range req.OwnerReferences {
		if o.Kind == "Workload" && o.APIVersion == multislicev1alpha1.SchemeGroupVersion.String() {
			return false
		}
	}
	return true
}

// ConsumerKey is the workload key of the pods that consume req.
func ConsumerKey(req *autoscalingv1.ProvisioningRequest) workload.Key {
	return workload.Key{Source: workload.SourceProvisioningRequest, Namespace: req.Namespace, Name: req.Name}
}

// Consumer is the gang of the pods that consume a user-made request: its
// podSets' pods in all, and what its conditions say.
func Consumer(req *autoscalingv1.ProvisioningRequest) (*workload.Workload, error) {
	pods := 0
	for _, ps := range req.Spec.PodSets {
		pods += int(min(max(ps.Count, 0), 1<<20))
	}
	return workload.FromConsumedRequest(ConsumerKey(req), req.UID, req.CreationTimestamp.Time, pods, req.DeletionTimestamp != nil, Consumption(req))
}

// Consumption reads what a request's conditions mean for the pods that
// consume it.
func Consumption(req *autoscalingv1.ProvisioningRequest) workload.Consumption {
	outcome, msg := Read(req.Status.Conditions)
	c := workload.Consumption{Message: msg}
	switch outcome {
	case Provisioned:
		c.Provisioned = true
		// A user-made request has no config: its capacity is the node
		// pools the provisioner reports.
		if sel, _ := NodeSelector(&Check{}, req.Status.ProvisioningClassDetails); sel != nil {
			c.NodeSelector = sel
		}
	case Failed:
		c.Ended = autoscalingv1.Failed
	case BookingExpired:
		c.Ended = autoscalingv1.BookingExpired
	case CapacityRevoked:
		c.Ended = autoscalingv1.CapacityRevoked
	}
	return c
}

// ConsumedRef is the event reference of a consumed request.
func ConsumedRef(namespace, name string, uid types.UID) corev1.ObjectReference {
	return corev1.ObjectReference{Kind: "ProvisioningRequest", APIVersion: autoscalingv1.SchemeGroupVersion.String(), Namespace: namespace, Name: name, UID: uid}
}
