package provisioner

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

// Reasons of the events the provisioner records on a ProvisioningRequest,
// one per step it takes, so that `kubectl describe provisioningrequest`
// and a demo's timeline tell the request's story. Those named after a
// condition type go with that condition becoming True.
const (
	// EventAccepted: the request is queued (condition Accepted).
	EventAccepted = autoscalingv1.Accepted
	// EventWaitingForCapacity: no zone has room for all of its nodes now;
	// recorded again when what it waits for changes.
	EventWaitingForCapacity = "WaitingForCapacity"
	// EventWaitingForPodTemplate: a pod set's PodTemplate does not exist
	// yet.
	EventWaitingForPodTemplate = "WaitingForPodTemplate"
	// EventCreatingNodes: its node pool is being created in one zone.
	EventCreatingNodes = "CreatingNodes"
	// EventProvisioned: its nodes are Ready (condition Provisioned).
	EventProvisioned = autoscalingv1.Provisioned
	// EventInUse: a pod consuming it was bound to one of its nodes.
	EventInUse = "InUse"
	// EventUnneeded: every pod that consumed it has ended; its nodes go
	// after UnneededTime unless another one starts.
	EventUnneeded = "Unneeded"
	// EventFailed: it can never be provisioned (condition Failed).
	EventFailed = autoscalingv1.Failed
	// EventCapacityRevoked: its maxRunDurationSeconds passed (condition
	// CapacityRevoked).
	EventCapacityRevoked = autoscalingv1.CapacityRevoked
	// EventBookingExpired: no pod used its nodes in time (condition
	// BookingExpired).
	EventBookingExpired = autoscalingv1.BookingExpired
	// EventNodesRemoved: its nodes were deleted.
	EventNodesRemoved = "NodesRemoved"
)

// eventActions is the action of each event reason (events.k8s.io/v1
// requires one): what the provisioner did, or failed to do.
var eventActions = map[string]string{
	EventAccepted:              "Queue",
	EventWaitingForCapacity:    "Queue",
	EventWaitingForPodTemplate: "Queue",
	EventCreatingNodes:         "Provision",
	EventProvisioned:           "Provision",
	EventInUse:                 "Observe",
	EventUnneeded:              "Observe",
	EventFailed:                "Provision",
	EventCapacityRevoked:       "Reclaim",
	EventBookingExpired:        "Reclaim",
	EventNodesRemoved:          "Reclaim",
}

// warningEvents are the reasons recorded as warnings: the request's
// capacity is lost, or never comes.
var warningEvents = map[string]bool{EventFailed: true, EventCapacityRevoked: true, EventBookingExpired: true}

// newEventBroadcaster returns a broadcaster writing events.k8s.io/v1
// events through client, and a recorder that reports as the provisioner.
// The broadcaster sends nothing until Run starts it.
func newEventBroadcaster(client kubernetes.Interface) (events.EventBroadcaster, events.EventRecorder) {
	b := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	return b, b.NewRecorder(scheme.Scheme, fieldManager)
}

// requestReference is the object reference of a request's events. A
// reference rather than the object: a request whose nodes are removed
// after it was deleted still gets its events.
func requestReference(ref Ref, uid types.UID) *corev1.ObjectReference {
	return &corev1.ObjectReference{
		APIVersion: autoscalingv1.SchemeGroupVersion.String(),
		Kind:       "ProvisioningRequest",
		Namespace:  ref.Namespace,
		Name:       ref.Name,
		UID:        uid,
	}
}

// report tells a step taken for a request: a line of the log
// ("queued provisioning: <namespace>/<name><sep><message>") and an event
// on the request with the message.
func (c *Controller) report(t *tracked, reason, sep, message string) {
	c.logf("queued provisioning: %s%s%s", t.ref, sep, message)
	if c.recorder == nil || t.ref.Namespace == "" || t.ref.Name == "" {
		return
	}
	eventType := corev1.EventTypeNormal
	if warningEvents[reason] {
		eventType = corev1.EventTypeWarning
	}
	c.recorder.Eventf(requestReference(t.ref, t.uid), nil, eventType, reason, eventActions[reason], "%s", message)
}
