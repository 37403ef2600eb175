package timeline

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/autoprovision"
)

// nodeLifeReasons are the events the simulated node auto-provisioning
// records on its nodes, one per step of their life.
var nodeLifeReasons = map[string]bool{
	autoprovision.EventCreated:   true,
	autoprovision.EventRecycling: true,
	autoprovision.EventCordoned:  true,
	autoprovision.EventRemoved:   true,
	autoprovision.EventEndOfLife: true,
	autoprovision.EventPreempted: true,
	autoprovision.EventScaleDown: true,
}

// autoProvisioningEvent reports what node auto-provisioning did: each
// step of a node's life (creation, recycling, cordon, removal,
// preemption, scale-down), and the scale-up a pod triggered or why it did
// not. Each event once, whatever its later updates. It reports whether
// the event was one of these.
func (t *Timeline) autoProvisioningEvent(e *corev1.Event) bool {
	obj := e.InvolvedObject
	var subject string
	switch {
	case obj.Kind == "Node" && nodeLifeReasons[e.Reason]:
		subject = "node " + obj.Name
	case obj.Kind == "Pod" && (e.Reason == autoprovision.EventTriggeredScaleUp || e.Reason == autoprovision.EventNotTriggerScaleUp):
		subject = podSubject(obj.Name)
	default:
		return false
	}
	key := "event " + obj.Kind + " " + obj.Name + " " + e.Reason + " " + e.Message
	if !t.told[key] {
		t.told[key] = true
		t.emit(subject, "%s", e.Message)
	}
	return true
}
