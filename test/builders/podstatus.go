package builders

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Held gives the pod the PodScheduled=False condition a scheduler writes
// on a pod it holds back: reason and message.
func (b *PodBuilder) Held(reason, message string) *PodBuilder {
	return b.scheduledCondition(corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: reason, Message: message})
}

// ScheduledAt gives the pod the PodScheduled=True condition of a binding
// at t.
func (b *PodBuilder) ScheduledAt(t time.Time) *PodBuilder {
	return b.scheduledCondition(corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(t)})
}

func (b *PodBuilder) scheduledCondition(c corev1.PodCondition) *PodBuilder {
	conds := b.pod.Status.Conditions[:0:0]
	for _, x := range b.pod.Status.Conditions {
		if x.Type != corev1.PodScheduled {
			conds = append(conds, x)
		}
	}
	b.pod.Status.Conditions = append(conds, c)
	return b
}

// Event is a core/v1 event of reason and message on the object kind
// ns/name (UID uid, "" for any), recorded at t by multislice-scheduler.
func Event(kind, ns, name, uid, eventType, reason, message string, t time.Time) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:          metav1.ObjectMeta{Namespace: ns, Name: name + "." + reason, CreationTimestamp: metav1.NewTime(t)},
		InvolvedObject:      corev1.ObjectReference{Kind: kind, Namespace: ns, Name: name, UID: types.UID(uid)},
		Type:                eventType,
		Reason:              reason,
		Message:             message,
		EventTime:           metav1.NewMicroTime(t),
		ReportingController: "multislice-scheduler",
		Action:              "Scheduling",
	}
}
