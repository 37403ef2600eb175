package state

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// blockedPods are plain pods a reservation kept off nodes, to activate when
// reservations end (at most maxBlocked of them). It has its own lock, not
// State.mu: Filter records into it under the read lock.
type blockedPods struct {
	mu   sync.Mutex
	pods map[types.UID]PodRef
}

// maxBlocked bounds the pods remembered: past it, the others wait for
// their own queueing hints.
const maxBlocked = 100000

func (b *blockedPods) record(pod *corev1.Pod) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pods) < maxBlocked {
		b.pods[pod.UID] = PodRef{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}
	}
}

// take returns the pods remembered, and forgets them.
func (b *blockedPods) take() []PodRef {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pods) == 0 {
		return nil
	}
	out := make([]PodRef, 0, len(b.pods))
	for _, ref := range b.pods {
		out = append(out, ref)
	}
	clear(b.pods)
	return out
}

// forget drops the pod of uid.
func (b *blockedPods) forget(uid types.UID) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pods, uid)
}
