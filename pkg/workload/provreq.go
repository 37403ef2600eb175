package workload

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// provisioningAnnotations picks an owner's provreq.kueue.x-k8s.io/
// annotations (nil when it has none).
func provisioningAnnotations(annotations map[string]string) map[string]string {
	var out map[string]string
	for k, v := range annotations {
		if strings.HasPrefix(k, wellknown.ProvReqAnnotationPrefix) {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}

// SourceProvisioningRequest is a ProvisioningRequest its user made (not
// one a queue's admission check made) together with the pods that consume
// it: pods of no other workload that carry the consume annotation. They
// are one gang, the request's pods: they wait until the request is
// Provisioned and are then placed all or none on the capacity provisioned
// for it (GKE's Dynamic Workload Scheduler without Kueue).
const SourceProvisioningRequest Source = "ProvisioningRequest"

// Consumption is what a consumed ProvisioningRequest says now.
type Consumption struct {
	// Provisioned: the capacity exists and is booked for the pods.
	Provisioned bool
	// Ended, when set, is why the request can no longer be consumed (a
	// condition type: Failed, BookingExpired, CapacityRevoked); its pods
	// wait for their user to make a new request.
	Ended string
	// Message is the deciding condition's message.
	Message string
	// NodeSelector, once provisioned, is where the capacity is: node label
	// key → the values a node may carry (nil: wherever the pods' own
	// selectors allow).
	NodeSelector map[string][]string
}

// ConsumedRequest names the ProvisioningRequest a pod consumes ("" for
// none), under the current annotation key or the deprecated one; naming
// two different requests is an error.
func ConsumedRequest(annotations map[string]string) (string, error) {
	current, deprecated := annotations[wellknown.ConsumeProvisioningRequestAnnotation], annotations[wellknown.DeprecatedConsumeProvisioningRequestAnnotation]
	switch {
	case current != "" && deprecated != "" && current != deprecated:
		return "", fmt.Errorf("annotations %s=%q and %s=%q name different ProvisioningRequests",
			wellknown.ConsumeProvisioningRequestAnnotation, current, wellknown.DeprecatedConsumeProvisioningRequestAnnotation, deprecated)
	case current != "":
		return current, nil
	}
	return deprecated, nil
}

// ConsumerMember makes a pod that consumes a ProvisioningRequest a member
// of that request's gang (ok false for pods that consume none).
func ConsumerMember(pod *corev1.Pod) (Member, bool, error) {
	name, err := ConsumedRequest(pod.Annotations)
	obj := fmt.Sprintf("Pod %s/%s", pod.Namespace, pod.Name)
	switch {
	case err != nil:
		return Member{}, true, &InvalidError{obj, "metadata.annotations", err.Error()}
	case name == "":
		return Member{}, false, nil
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return Member{}, true, &InvalidError{obj, "metadata.annotations[" + wellknown.ConsumeProvisioningRequestAnnotation + "]", fmt.Sprintf("%q is not a ProvisioningRequest name: %s", name, strings.Join(errs, "; "))}
	}
	return Member{Key: Key{Source: SourceProvisioningRequest, Namespace: pod.Namespace, Name: name}}, true, nil
}

// FromConsumedRequest is the gang of a user-made ProvisioningRequest of
// pods pods in all (the sum of its podSets' counts): one unconfined slice,
// sized from each member's own spec when it is planned, as its pods may
// come from several templates. The caller reads the request's conditions
// into consumes.
func FromConsumedRequest(key Key, uid types.UID, created time.Time, pods int, deleting bool, consumes Consumption) (*Workload, error) {
	obj := fmt.Sprintf("ProvisioningRequest %s/%s", key.Namespace, key.Name)
	if pods <= 0 || pods > maxPods {
		return nil, &InvalidError{obj, "spec.podSets[*].count", fmt.Sprintf("%d pods in all; a gang has 1 to %d", pods, maxPods)}
	}
	return &Workload{
		Key: key, UID: uid, Created: created,
		Slices:   []Slice{{Index: 0, Name: key.Name, Pods: pods}},
		Groups:   1,
		Finished: deleting,
		Consumes: &consumes,
	}, nil
}
