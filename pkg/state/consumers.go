package state

import (
	"fmt"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// The pods that consume a ProvisioningRequest their user made
// (workload.SourceProvisioningRequest) are one gang. Its head waits gated
// until the request is Provisioned, then plans the gang on the nodes the
// request reports (its node pools), all or none; a request that failed,
// whose booking expired or whose capacity was revoked before its pods were
// placed leaves them waiting, with a Warning, for a new request. Nothing
// is written to the request: it belongs to its user and to the
// provisioner.

// Reasons a consumer's pods wait for their request.
const (
	ReasonWaitingForProvisioning = "WaitingForProvisioning"
	// ReasonProvisioningRequestEnded prefixes the request's deciding
	// condition (Failed, BookingExpired, CapacityRevoked).
	ReasonProvisioningRequestEnded = "ProvisioningRequest"
	ReasonProvisioningRequestGone  = "ProvisioningRequestNotFound"
)

// consumerGate says why a consumer gang waits for its request (nil: it
// does not).
func consumerGate(key workload.Key, c *workload.Consumption) *checkWait {
	switch {
	case c.Ended != "":
		return &checkWait{reason: ReasonProvisioningRequestEnded + c.Ended, message: fmt.Sprintf("ProvisioningRequest %s/%s: %s (%s) before its pods were placed; they wait for a new request of that name",
			key.Namespace, key.Name, c.Ended, c.Message), needsAction: true}
	case !c.Provisioned:
		return &checkWait{reason: ReasonWaitingForProvisioning, message: fmt.Sprintf("waiting for ProvisioningRequest %s/%s to be Provisioned: %s", key.Namespace, key.Name, c.Message)}
	}
	return nil
}

// ConsumerMissingMessage is why a consumer pod waits while its request
// does not exist.
func ConsumerMissingMessage(key workload.Key) string {
	return fmt.Sprintf("ProvisioningRequest %s/%s does not exist: the pod consumes it (annotation %s); create the request, or remove the annotation",
		key.Namespace, key.Name, wellknown.ConsumeProvisioningRequestAnnotation)
}

// consumerEventsLocked are the events of a consumer gang's request moving
// from old to now: provisioned, or gone before its pods were placed.
func (fd Feed) consumerEventsLocked(w *Workload, old *workload.Workload) []Event {
	if w.model == nil || w.model.Consumes == nil || w.placedWhole() {
		return nil
	}
	now := w.model.Consumes
	if now.Provisioned && now.Ended == "" && (old == nil || old.Consumes == nil || !old.Consumes.Provisioned) {
		where := "wherever its pods' selectors allow"
		if len(now.NodeSelector) > 0 {
			where = "on the nodes with " + provisioning.Selector(now.NodeSelector).String()
		}
		return []Event{{Ref: w.ref, Reason: "Provisioned", Message: fmt.Sprintf("ProvisioningRequest %s is provisioned; placing its %d pods %s, all or none", w.key.Name, w.model.Slices[0].Pods, where)}}
	}
	return nil
}

// consumerDeletedLocked is the Warning for a consumed request deleted
// while its pods still wait, and those pods, to say so.
func (fd Feed) consumerDeletedLocked(w *Workload) Actions {
	s := fd.s
	if w.key.Source != workload.SourceProvisioningRequest || w.placedWhole() {
		return Actions{}
	}
	pending := s.pendingLocked(w)
	if len(pending) == 0 {
		return Actions{}
	}
	return Actions{Activate: pending, Events: []Event{{Ref: w.ref, Warning: true, Reason: ReasonProvisioningRequestGone,
		Message: fmt.Sprintf("ProvisioningRequest %s was deleted before its pods were placed; %d pods wait for a request of that name", w.key.Name, len(pending))}}}
}
