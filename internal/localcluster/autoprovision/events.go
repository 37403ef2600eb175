package autoprovision

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
)

// Reasons of the events it records: on pods, the cluster autoscaler's own
// (TriggeredScaleUp, NotTriggerScaleUp); on nodes, one per step of their
// life.
const (
	// EventTriggeredScaleUp (pod): nodes are being created for its group.
	EventTriggeredScaleUp = "TriggeredScaleUp"
	// EventNotTriggerScaleUp (pod): no priority of its class can give its
	// group nodes now; recorded again when why changes.
	EventNotTriggerScaleUp = "NotTriggerScaleUp"
	// EventCreated (node): the node was created.
	EventCreated = "AutoProvisioned"
	// EventRecycling (node): its recycling started; a replacement is
	// queued in its node pool.
	EventRecycling = "RecyclingStarted"
	// EventCordoned (node): its replacement is Ready; it is cordoned, its
	// pods keep running until it is removed.
	EventCordoned = "Recycled"
	// EventRemoved (node): it was removed after its drain time.
	EventRemoved = "Deprovisioned"
	// EventEndOfLife (node): its maxRunDurationSeconds passed; removed.
	EventEndOfLife = "EndOfLife"
	// EventPreempted (node): the spot capacity went below the spot nodes
	// there are; removed, as GKE preempts a Spot VM.
	EventPreempted = "SpotPreempted"
	// EventScaleDown (node): no pod used it for the scale-down unneeded
	// time; removed.
	EventScaleDown = "ScaleDown"
)

var eventActions = map[string]string{
	EventTriggeredScaleUp:  "ScaleUp",
	EventNotTriggerScaleUp: "ScaleUp",
	EventCreated:           "ScaleUp",
	EventRecycling:         "Recycle",
	EventCordoned:          "Recycle",
	EventRemoved:           "Recycle",
	EventEndOfLife:         "Reclaim",
	EventPreempted:         "Reclaim",
	EventScaleDown:         "ScaleDown",
}

var warningEvents = map[string]bool{EventEndOfLife: true, EventPreempted: true}

func newEventBroadcaster(client kubernetes.Interface) (events.EventBroadcaster, events.EventRecorder) {
	b := events.NewBroadcaster(&events.EventSinkImpl{Interface: client.EventsV1()})
	return b, b.NewRecorder(scheme.Scheme, fieldManager)
}

// log writes one line of its log.
func (c *Controller) log(format string, args ...any) {
	c.logf("node auto-provisioning: %s", fmt.Sprintf(format, args...))
}

// eventPod records an event on a pod.
func (c *Controller) eventPod(p *corev1.Pod, reason, message string) {
	if c.recorder == nil || p == nil {
		return
	}
	c.recorder.Eventf(p, nil, eventType(reason), reason, eventActions[reason], "%s", message)
}

// eventNode records an event on a node, by reference: a node removed
// still gets its events.
func (c *Controller) eventNode(name string, reason, message string) {
	if c.recorder == nil {
		return
	}
	ref := &corev1.ObjectReference{APIVersion: "v1", Kind: "Node", Name: name, UID: "", Namespace: ""}
	if n, err := c.nodes.Get(name); err == nil {
		ref.UID = n.UID
	}
	c.recorder.Eventf(ref, nil, eventType(reason), reason, eventActions[reason], "%s", message)
}

func eventType(reason string) string {
	if warningEvents[reason] {
		return corev1.EventTypeWarning
	}
	return corev1.EventTypeNormal
}
