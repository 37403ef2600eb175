package state

import (
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// The book of charges is kept from events; Reconcile checks it against the
// API now and then. What the API shows of a quota-managed workload is its
// pods on nodes (the pod lister's, which the informer fills before the
// state sees the event). A workload charged with none of them — and no
// reservation or provisioning check of the leader's under way — holds
// quota nothing uses; one with pods on nodes and no charge uses quota the
// queues do not count. Either is drift: reported (metric and event) and
// corrected. A difference seen once may be an event still on its way, so
// only one seen on two reconciles in a row counts.

// DriftKind says how the book differed from the API.
type DriftKind string

const (
	// DriftUncharged: pods of the workload are on nodes, and its queue's
	// usage does not count them.
	DriftUncharged DriftKind = "uncharged"
	// DriftPhantom: the workload is charged, and nothing of it is on a
	// node or under way.
	DriftPhantom DriftKind = "phantom"
	// DriftStaleView: the state and the API disagree on how many of the
	// workload's pods are on nodes.
	DriftStaleView DriftKind = "stale_view"
)

// Drift is one difference between the book and the API.
type Drift struct {
	Key  workload.Key
	Kind DriftKind
	// ClusterQueue is the queue whose usage is wrong ("" when unknown).
	ClusterQueue string
	Message      string
	// Fixed is true when the book was corrected.
	Fixed bool
}

// Reconcile compares the book with pods, the API's pods (every pod the
// scheduler's lister holds), and corrects what differed on this and the
// previous reconcile alike. It returns what it found.
func (up Upkeep) Reconcile(pods []*corev1.Pod) ([]Drift, Actions) {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	onNodes := map[workload.Key]int{}
	for _, pod := range pods {
		if pod.Spec.NodeName == "" || pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue
		}
		p := s.podLocked(pod)
		if p.Gang && p.MemberErr == nil {
			onNodes[p.Member.Key]++
		}
	}
	keys := map[workload.Key]bool{}
	for k := range onNodes {
		keys[k] = true
	}
	for k := range s.workloads.byKeys() {
		keys[k] = true
	}
	for _, k := range s.book.Charged() {
		keys[k] = true
	}
	found := map[workload.Key]Drift{}
	for k := range keys {
		if d, ok := up.driftLocked(k, onNodes[k]); ok {
			found[k] = d
		}
	}
	var out []Drift
	var acts Actions
	for _, k := range slices.SortedFunc(maps.Keys(found), compareKeys) {
		d := found[k]
		if prev, seen := s.suspects[k]; !seen || prev != d.Kind {
			continue
		}
		d.Fixed, acts = up.fixDriftLocked(d, acts)
		out = append(out, d)
	}
	s.suspects = map[workload.Key]DriftKind{}
	for k, d := range found {
		s.suspects[k] = d.Kind
	}
	return out, acts
}

// driftLocked says how key's charge differs from the api pods it has on
// nodes, if it does.
func (up Upkeep) driftLocked(key workload.Key, api int) (Drift, bool) {
	s := up.s
	w := s.workloads.of(key)
	c := s.book.ChargeOf(key)
	d := Drift{Key: key}
	if c != nil {
		d.ClusterQueue = c.ClusterQueue
	}
	if w == nil {
		if c != nil && api == 0 {
			d.Kind, d.Message = DriftPhantom, fmt.Sprintf("%s is charged to ClusterQueue %s and is known no more", key, c.ClusterQueue)
			return d, true
		}
		return d, false
	}
	if have := w.boundOnNodes(); have != api {
		d.Kind, d.Message = DriftStaleView, fmt.Sprintf("the scheduler sees %d pods of %s on nodes, the API %d", have, key, api)
		return d, true
	}
	switch {
	case c != nil && api == 0 && !s.holdsQuotaLocked(w):
		d.Kind, d.Message = DriftPhantom, fmt.Sprintf("%s is charged to ClusterQueue %s with nothing on a node or under way", key, c.ClusterQueue)
		return d, true
	case c == nil && api > 0 && s.queues.awaitingAdmissionLocked(w):
		d.Kind = DriftUncharged
		d.Message = fmt.Sprintf("%d pods of %s are on nodes, and its queue does not count them", api, key)
		if cq, p := s.book.Resolve(key.Namespace, s.queues.queueNameLocked(w)); p != nil {
			d.Message += ": " + p.Message
		} else {
			d.ClusterQueue = cq.Name
		}
		return d, true
	}
	return d, false
}

// fixDriftLocked corrects the book for d as far as the state can, and
// reports whether it did.
func (up Upkeep) fixDriftLocked(d Drift, acts Actions) (bool, Actions) {
	s := up.s
	w := s.workloads.of(d.Key)
	switch d.Kind {
	case DriftPhantom:
		if w != nil {
			before := s.book.ChargeOf(d.Key) != nil
			acts.merge(s.settleQuotaLocked(w))
			return before && s.book.ChargeOf(d.Key) == nil, acts
		}
		if c := s.book.Release(d.Key); c != nil {
			s.bumpLocked()
			acts.Wake = append(acts.Wake, c.ClusterQueue)
			return true, acts
		}
	case DriftUncharged:
		if w != nil && s.rechargeLocked(w, &acts) {
			s.bumpLocked()
			return true, acts
		}
	}
	return false, acts
}

// boundOnNodes counts the workload's pods bound to a node as the API shows
// them: live ones and those being deleted, not the ones assumed while
// their binding is pending (those the API cannot show yet).
func (w *Workload) boundOnNodes() int {
	n := 0
	for _, p := range w.members {
		if p.Node != "" && !p.Assumed && (p.Live() || p.Deleting) {
			n++
		}
	}
	return n
}
