package cli

import (
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// CheckExplanation is where a workload stands in one admission check of
// its ClusterQueue.
type CheckExplanation struct {
	Name string `json:"name"`
	// Controller is the AdmissionCheck's controllerName ("" when the
	// AdmissionCheck does not exist); Active its Active condition.
	Controller string `json:"controller,omitempty"`
	Active     string `json:"active,omitempty"`
	// State is the Workload object's (Pending, Ready, Retry, Rejected;
	// "" before the scheduler wrote one).
	State   string    `json:"state,omitempty"`
	Message string    `json:"message,omitempty"`
	Since   time.Time `json:"since,omitzero"`
	// Request is its latest ProvisioningRequest.
	Request *RequestExplanation `json:"request,omitempty"`
}

// RequestExplanation is a ProvisioningRequest's state.
type RequestExplanation struct {
	Name       string            `json:"name"`
	Class      string            `json:"class"`
	Conditions []ConditionLine   `json:"conditions,omitempty"`
	Details    map[string]string `json:"details,omitempty"`
	// Missing is set when pods consume a request that does not exist.
	Missing bool `json:"missing,omitempty"`
}

// ConditionLine is one condition of an object.
type ConditionLine struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// explainChecks lists the admission checks of the workload's ClusterQueue
// and those its Workload object reports, in that order.
func (c *Cluster) explainChecks(wl *multislicev1alpha1.Workload) []CheckExplanation {
	var names []string
	if lq := find(c.LocalQueues, wl.Namespace, wl.Spec.QueueName); lq != nil {
		if cq := find(c.ClusterQueues, "", lq.Spec.ClusterQueue); cq != nil {
			names = cq.Spec.CheckNames()
		}
	}
	for _, s := range wl.Status.AdmissionChecks {
		if !slices.Contains(names, s.Name) {
			names = append(names, s.Name)
		}
	}
	var out []CheckExplanation
	for _, name := range names {
		ce := CheckExplanation{Name: name}
		if ac := find(c.AdmissionChecks, "", name); ac != nil {
			ce.Controller = ac.Spec.ControllerName
			if a := condition(ac.Status.Conditions, multislicev1alpha1.AdmissionCheckActive); a != nil {
				ce.Active = string(a.Status)
				if a.Status != metav1.ConditionTrue {
					ce.Active += " (" + a.Reason + ": " + a.Message + ")"
				}
			}
		} else {
			ce.Active = "the AdmissionCheck does not exist"
		}
		for _, s := range wl.Status.AdmissionChecks {
			if s.Name == name {
				ce.State, ce.Message, ce.Since = s.State, s.Message, s.LastTransitionTime.Time
			}
		}
		ce.Request = c.latestRequest(wl, name)
		out = append(out, ce)
	}
	return out
}

// latestRequest is the newest ProvisioningRequest the scheduler made for
// the Workload object's check (named <workload>-<check>-<attempt>, owned
// by the Workload object).
func (c *Cluster) latestRequest(wl *multislicev1alpha1.Workload, check string) *RequestExplanation {
	prefix := wl.Name + "-" + check + "-"
	var latest *autoscalingv1.ProvisioningRequest
	for _, pr := range c.ProvisioningRequests {
		if pr.Namespace != wl.Namespace || !strings.HasPrefix(pr.Name, prefix) || !ownedByUID(pr.OwnerReferences, wl.UID) {
			continue
		}
		if latest == nil || pr.CreationTimestamp.After(latest.CreationTimestamp.Time) ||
			(pr.CreationTimestamp.Equal(&latest.CreationTimestamp) && pr.Name > latest.Name) {
			latest = pr
		}
	}
	if latest == nil {
		return nil
	}
	return explainRequest(latest)
}

// consumedRequest is the ProvisioningRequest the workload's pods consume
// (user-made; nil when they consume none).
func (c *Cluster) consumedRequest(ref WorkloadRef, pods []*corev1.Pod) *RequestExplanation {
	name := ""
	if ref.Kind == KindProvisioningRequest {
		name = ref.Name
	}
	for _, p := range pods {
		if name != "" {
			break
		}
		name, _ = workload.ConsumedRequest(p.Annotations)
	}
	if name == "" {
		return nil
	}
	pr := find(c.ProvisioningRequests, ref.Namespace, name)
	if pr == nil {
		return &RequestExplanation{Name: name, Missing: true}
	}
	return explainRequest(pr)
}

func explainRequest(pr *autoscalingv1.ProvisioningRequest) *RequestExplanation {
	r := &RequestExplanation{Name: pr.Name, Class: pr.Spec.ProvisioningClassName}
	for _, cond := range pr.Status.Conditions {
		r.Conditions = append(r.Conditions, ConditionLine{Type: cond.Type, Status: string(cond.Status), Reason: cond.Reason, Message: cond.Message})
	}
	if len(pr.Status.ProvisioningClassDetails) > 0 {
		r.Details = map[string]string{}
		for _, k := range slices.Sorted(maps.Keys(pr.Status.ProvisioningClassDetails)) {
			r.Details[k] = string(pr.Status.ProvisioningClassDetails[k])
		}
	}
	return r
}
