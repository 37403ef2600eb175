// Package provisioner is the local cluster's stand-in for GKE's queued
// provisioning (Dynamic Workload Scheduler): a provider of the
// queued-provisioning.gke.io class of the cluster autoscaler's
// ProvisioningRequest API (autoscaling.x-k8s.io/v1).
//
// For each request of that class it sets Accepted at once. Once the
// configured delay has passed, requests are served in creation order: the
// first one gets a whole node pool — nodes for every pod of every pod set,
// all in one zone — as soon as a zone has room for all of it, and
// Provisioned once those nodes are Ready; the requests behind it wait. A request no zone could ever
// hold, or whose pods no node could ever run, gets Failed at once. The
// nodes are removed when every pod that consumed the request has ended,
// when the request is deleted, when its maxRunDurationSeconds have passed
// (CapacityRevoked, as when GKE reclaims the VMs) or when no pod has used
// them within the booking time (BookingExpired).
//
// Each step it takes for a request is a line of its log and an event on
// the request (events.go), as the cluster autoscaler records its own.
//
// The decisions (demand.go, queue.go, nodes.go, lifecycle.go) are pure
// functions of the objects and the time; controller.go feeds them from
// informers and carries them out.
package provisioner

import (
	"fmt"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// RequestAnnotation on a provisioned node names its ProvisioningRequest as
// <namespace>/<name>, for people. A namespace and name together do not fit
// in a label value, so the label that selects a request's nodes is
// nodepools.ProvisionedLabel, holding the request's UID — which also tells a
// request from one re-created under the same name.
const RequestAnnotation = "localcluster.multislice-scheduler.io/provisioning-request"

// Condition reasons this provisioner writes.
const (
	// ReasonAccepted: the request is queued.
	ReasonAccepted = "Accepted"
	// ReasonProvisioned: the nodes exist and are Ready.
	ReasonProvisioned = "Provisioned"
	// ReasonNotProvisioned is GKE's reason for Provisioned=False while a
	// request waits for capacity, or for its new nodes to be Ready.
	ReasonNotProvisioned = "NotProvisioned"
	// ReasonPodTemplateNotFound: a pod set's PodTemplate does not exist
	// (yet); the request waits for it.
	ReasonPodTemplateNotFound = "PodTemplateNotFound"
	// ReasonInvalidRequest: the request itself is malformed (pod sets,
	// parameters).
	ReasonInvalidRequest = "InvalidRequest"
	// ReasonNotSatisfiable: no provisioned node could ever run the pods
	// (their requests or node selector do not fit the configured machine
	// and zones).
	ReasonNotSatisfiable = "NotSatisfiable"
	// ReasonExceedsZoneCapacity: the request needs more nodes than any
	// zone it may use holds.
	ReasonExceedsZoneCapacity = "ExceedsZoneCapacity"
	// ReasonBookingExpired: no pod used the nodes within the booking time.
	ReasonBookingExpired = "BookingExpired"
	// ReasonMaxRunDurationExceeded: maxRunDurationSeconds have passed since
	// the nodes were provisioned; they are reclaimed.
	ReasonMaxRunDurationExceeded = "MaxRunDurationExceeded"
)

// Config is the queuedProvisioning block of the node pool file.
type Config = nodepools.QueuedProvisioning

// Handles reports whether the provisioner serves a request: only GKE's
// queued provisioning class.
func Handles(req *autoscalingv1.ProvisioningRequest) bool {
	return req.Spec.ProvisioningClassName == wellknown.QueuedProvisioningClass
}

// Ref names a request.
type Ref struct {
	Namespace, Name string
}

func (r Ref) String() string { return r.Namespace + "/" + r.Name }

func refOf(req *autoscalingv1.ProvisioningRequest) Ref {
	return Ref{Namespace: req.Namespace, Name: req.Name}
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
