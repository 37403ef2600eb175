package cache

import (
	"fmt"
	"maps"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Allowed reports whether pod may go on node as far as exclusivity goes: a
// node in a domain reserved for a slice takes only that slice's pods, and a
// confined slice never shares a domain with another workload's slice.
func (c *Cache) Allowed(pod *corev1.Pod, node *corev1.Node) (bool, string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, isMember, err := workload.MemberOf(pod)
	gang := isMember && err == nil && c.apis[m.Key.Source]
	return c.allowedLocked(pod, m, gang, node)
}

// Exclusions lists, once per scheduling cycle, which of the candidate nodes
// Allowed would refuse the pod, with the reason, so Filter (run per node)
// only looks up. It is nil when nothing is excluded, the common case for
// plain pods. Callers pass only the nodes Filter will see (a gang member's
// reserved domain), which keeps this O(candidates).
func (c *Cache) Exclusions(pod *corev1.Pod, candidates func() []*corev1.Node) map[string]string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	m, isMember, err := workload.MemberOf(pod)
	gang := isMember && err == nil && c.apis[m.Key.Source]
	if len(c.reservations) == 0 && !gang {
		return nil
	}
	var out map[string]string
	for _, n := range candidates() {
		if ok, reason := c.allowedLocked(pod, m, gang, n); !ok {
			if out == nil {
				out = map[string]string{}
			}
			out[n.Name] = reason
		}
	}
	return out
}

func (c *Cache) allowedLocked(pod *corev1.Pod, m workload.Member, gang bool, node *corev1.Node) (bool, string) {
	for k, r := range c.reservations {
		for i, d := range r.Domains {
			if node.Labels[r.DomainKeys[i]] != d {
				continue
			}
			if gang && k == m.Key && i == m.Slice {
				return true, ""
			}
			return false, fmt.Sprintf("node is in %s=%s, reserved for slice %d of %s", r.DomainKeys[i], d, i, k)
		}
	}
	if !gang {
		return true, ""
	}
	r := c.reservations[m.Key]
	if s := c.sources[m.Key]; r == nil && s != nil && s.w != nil && !c.satisfiedLocked(s.w) {
		// Without a reservation a member has nowhere to go. Saying so keeps
		// the default preemption, which simulates pod by pod, from evicting
		// pods to make room for one member of a gang.
		return false, fmt.Sprintf("%s holds no reserved domains", m.Key)
	}
	if r != nil {
		if d, ok := r.Domains[m.Slice]; ok && node.Labels[r.DomainKeys[m.Slice]] != d {
			return false, fmt.Sprintf("slice %d of %s holds %s=%s", m.Slice, m.Key, r.DomainKeys[m.Slice], d)
		}
	}
	if pod.Annotations[exclusiveAnnotation] != "" || c.opts.DefaultDomainKey != "" {
		for k := range c.holders[node.Name] {
			if k != m.Key {
				return false, fmt.Sprintf("node is held by %s", k)
			}
		}
	}
	return true, ""
}

// Reserve records that pod is assumed on node.
func (c *Cache) Reserve(pod *corev1.Pod, nodeName string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.pods[pod.UID]
	if e == nil {
		// Reserve can run before the informer delivers the pod to us.
		c.upsertPodLocked(pod)
		e = c.pods[pod.UID]
	}
	c.unindexLocked(e)
	ne := *e
	ne.nodeName, ne.assumed = nodeName, true
	c.pods[pod.UID] = &ne
	c.indexLocked(&ne)
	if !ne.isMember || ne.memberErr != nil {
		return
	}
	if r := c.reservations[ne.member.Key]; r != nil {
		r.Reserved[pod.UID] = ne.member.Slice
	}
}

// Unreserve undoes Reserve. Before its gate passes a workload is all or
// nothing: one member failing releases the reservation and rejects every
// other waiting member.
func (c *Cache) Unreserve(pod *corev1.Pod) Actions {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.pods[pod.UID]
	if e == nil {
		return Actions{}
	}
	if e.assumed {
		c.unindexLocked(e)
		ne := *e
		ne.nodeName, ne.assumed = "", false
		c.pods[pod.UID] = &ne
		c.indexLocked(&ne)
		e = &ne
	}
	if !e.isMember || e.memberErr != nil {
		return Actions{}
	}
	r := c.reservations[e.member.Key]
	if r == nil {
		return Actions{}
	}
	delete(r.Reserved, pod.UID)
	if r.Committed {
		return Actions{}
	}
	return c.releaseLocked(e.member.Key, fmt.Sprintf("pod %s/%s of the gang could not be placed", pod.Namespace, pod.Name))
}

// PermitResult is the Permit answer for a pod.
type PermitResult struct {
	// Allow lets the pod bind now; with Wait false and Allow false the pod
	// is rejected (its reservation is gone).
	Allow bool
	Wait  time.Duration
	// AllowWaiting lists the waiting members to let through with this pod.
	AllowWaiting []types.UID
	// Committed describes the placement when this pod completed the gate.
	Committed string
	Message   string
	Ref       corev1.ObjectReference
}

// Permit holds gang pods until every required member is reserved: every pod
// of every slice, or every leader under staged placement.
func (c *Cache) Permit(pod *corev1.Pod) PermitResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, w := c.classifyLocked(pod)
	if !v.Gang || w == nil {
		return PermitResult{Allow: true}
	}
	r := c.reservations[w.Key]
	if r == nil && c.satisfiedLocked(w) {
		return PermitResult{Allow: true}
	}
	if r == nil || r.Attempt != w.RestartAttempt {
		return PermitResult{Message: fmt.Sprintf("the reservation of %s was released", w.Key), Ref: v.Ref}
	}
	if r.Committed {
		return PermitResult{Allow: true}
	}
	need, have := c.gateLocked(w, r)
	if have < need {
		wait := r.Deadline.Sub(c.opts.Clock.Now())
		if wait <= 0 {
			return PermitResult{Message: fmt.Sprintf("%s did not get %d required pods reserved in time", w.Key, need), Ref: v.Ref}
		}
		return PermitResult{Wait: wait, Message: fmt.Sprintf("waiting for %d of %d gang members of %s to be reserved", need-have, need, w.Key), Ref: v.Ref}
	}
	r.Committed = true
	r.Deadline = c.opts.Clock.Now().Add(c.opts.FollowerTimeout)
	res := PermitResult{Allow: true, Committed: describePlacement(w, r), Ref: v.Ref}
	for uid := range r.Reserved {
		if uid != pod.UID {
			res.AllowWaiting = append(res.AllowWaiting, uid)
		}
	}
	slices.Sort(res.AllowWaiting)
	c.settleLocked(w.Key)
	return res
}

// gateLocked counts the members the gate needs and those reserved or bound.
func (c *Cache) gateLocked(w *workload.Workload, r *Reservation) (need, have int) {
	perSlice := make([]int, len(w.Slices))
	for _, e := range c.members[w.Key] {
		if e.terminal || e.nodeName == "" || e.member.RestartAttempt != r.Attempt || e.member.Slice >= len(w.Slices) {
			continue
		}
		if r.Staged && !e.member.Leader {
			continue
		}
		perSlice[e.member.Slice]++
	}
	for i, s := range w.Slices {
		want := s.Pods
		if r.Staged {
			want = 1
		}
		need += want
		have += min(perSlice[i], want)
	}
	return need, have
}

// settleLocked drops a committed reservation once every pod of every slice
// is bound: from then on the bound pods themselves hold the domains.
func (c *Cache) settleLocked(key workload.Key) {
	r := c.reservations[key]
	s := c.sources[key]
	if r == nil || !r.Committed || s == nil || s.w == nil {
		return
	}
	bound := 0
	for _, e := range c.members[key] {
		if !e.terminal && e.nodeName != "" && !e.assumed && e.member.RestartAttempt == r.Attempt {
			bound++
		}
	}
	if bound >= s.w.TotalPods() {
		delete(c.reservations, key)
	}
}

// releaseLocked drops key's reservation, rejecting its waiting members and
// activating workloads that wait for domains.
func (c *Cache) releaseLocked(key workload.Key, reason string) Actions {
	r := c.reservations[key]
	if r == nil {
		return Actions{}
	}
	delete(c.reservations, key)
	acts := Actions{Reason: reason}
	if !r.Committed {
		for uid := range r.Reserved {
			acts.Reject = append(acts.Reject, uid)
		}
		slices.Sort(acts.Reject)
	}
	acts.Activate = c.waitingPodsLocked()
	return acts
}

// Expire releases reservations past their deadline: uncommitted ones whose
// gate never passed, and committed ones whose followers never came.
func (c *Cache) Expire() Actions {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.opts.Clock.Now()
	var acts Actions
	for _, key := range slices.SortedFunc(maps.Keys(c.reservations), func(a, b workload.Key) int {
		return compareKeys(a, b)
	}) {
		if r := c.reservations[key]; now.After(r.Deadline) {
			reason := "its pods were not all reserved in time"
			if r.Committed {
				reason = "its followers did not appear in time"
			}
			acts.merge(c.releaseLocked(key, fmt.Sprintf("the reservation of %s expired: %s", key, reason)))
		}
	}
	return acts
}

func compareKeys(a, b workload.Key) int {
	switch {
	case a.String() < b.String():
		return -1
	case a.String() > b.String():
		return 1
	}
	return 0
}

// ReservationOf returns a copy of key's reservation, for tests and diagnostics.
func (c *Cache) ReservationOf(key workload.Key) (Reservation, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.reservations[key]
	if r == nil {
		return Reservation{}, false
	}
	out := *r
	out.Domains = maps.Clone(r.Domains)
	out.DomainKeys = maps.Clone(r.DomainKeys)
	out.Reserved = maps.Clone(r.Reserved)
	return out, true
}

// Created returns when key's object was created, for queue ordering.
func (c *Cache) Created(key workload.Key) (time.Time, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s := c.sources[key]
	if s == nil || s.w == nil {
		return time.Time{}, false
	}
	return s.w.Created, true
}

// PodsOf lists the known pods of a workload, for events and diagnostics.
func (c *Cache) PodsOf(key workload.Key) []types.UID {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return slices.Sorted(maps.Keys(c.members[key]))
}
