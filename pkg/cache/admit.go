package cache

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const exclusiveAnnotation = wellknown.ExclusiveTopologyAnnotation

// Verdict classifies a pod for the scheduling cycle.
type Verdict struct {
	// Gang is false for pods scheduled as plain pods.
	Gang   bool
	Member workload.Member
	// Wait is true when the pod must not be tried yet (PreEnqueue).
	Wait bool
	// Unresolvable is true when only a change to the pod's or workload's
	// objects can help (malformed input, finished workload, stale attempt).
	Unresolvable bool
	Message      string
	// Ref names the workload object for events.
	Ref corev1.ObjectReference
}

// Admit decides whether a pod may enter the active queue: a gang pod waits
// until every member that can exist yet exists (all pods; only the leaders
// under JobSet's staged exclusive placement), or its workload already holds
// a reservation its followers join.
func (c *Cache) Admit(pod *corev1.Pod) Verdict {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, w := c.classifyLocked(pod)
	if !v.Gang || v.Wait || v.Unresolvable {
		return v
	}
	if r := c.reservations[v.Member.Key]; r != nil && r.Attempt == w.RestartAttempt {
		return v
	}
	staged, perSlice := c.countMembersLocked(w, pod)
	if staged {
		missing := 0
		for i := range w.Slices {
			if perSlice[i].leaders == 0 {
				missing++
			}
		}
		if missing > 0 {
			v.Wait = true
			v.Message = fmt.Sprintf("waiting for the first pod of %d of %d Jobs of %s to be created", missing, len(w.Slices), w.Key)
		}
		return v
	}
	have := 0
	for i := range w.Slices {
		have += min(perSlice[i].pods, w.Slices[i].Pods)
	}
	if total := w.TotalPods(); have < total {
		v.Wait = true
		v.Message = fmt.Sprintf("waiting for %d of %d pods of %s to be created", total-have, total, w.Key)
	}
	return v
}

// classifyLocked reads the pod's membership and its workload's state.
func (c *Cache) classifyLocked(pod *corev1.Pod) (Verdict, *workload.Workload) {
	m, isMember, err := workload.MemberOf(pod)
	if !isMember {
		return Verdict{}, nil
	}
	if err != nil {
		return Verdict{Gang: true, Unresolvable: true, Message: err.Error()}, nil
	}
	if !c.apis[m.Key.Source] {
		// The API is not served here: schedule as a plain pod.
		return Verdict{}, nil
	}
	v := Verdict{Gang: true, Member: m}
	s, ok := c.sources[m.Key]
	if !ok {
		v.Wait = true
		v.Message = fmt.Sprintf("waiting for %s to be observed", m.Key)
		return v, nil
	}
	v.Ref = s.ref
	if s.err != nil {
		v.Unresolvable = true
		v.Message = s.err.Error()
		return v, nil
	}
	w := s.w
	switch {
	case w.Finished:
		v.Unresolvable, v.Message = true, fmt.Sprintf("%s is finished, suspended or being deleted", w.Key)
	case m.Key.Source == workload.SourceJobSet && m.RestartAttempt < w.RestartAttempt:
		v.Unresolvable, v.Message = true, fmt.Sprintf("the pod belongs to restart attempt %d of %s, which is at attempt %d", m.RestartAttempt, w.Key, w.RestartAttempt)
	case m.Key.Source == workload.SourceJobSet && m.RestartAttempt > w.RestartAttempt:
		v.Wait, v.Message = true, fmt.Sprintf("waiting to observe restart attempt %d of %s", m.RestartAttempt, w.Key)
	case m.Slice >= len(w.Slices):
		v.Unresolvable, v.Message = true, fmt.Sprintf("the pod names Job index %d, but %s has %d Jobs", m.Slice, w.Key, len(w.Slices))
	}
	return v, w
}

type sliceCount struct {
	pods, leaders int
}

// countMembersLocked counts the live members of the workload's current
// attempt per slice (pod itself included), and reports whether the workload
// is placed in JobSet's staged way (leaders first).
func (c *Cache) countMembersLocked(w *workload.Workload, pod *corev1.Pod) (bool, []sliceCount) {
	counts := make([]sliceCount, len(w.Slices))
	staged := false
	seenSelf := false
	count := func(e *podEntry) {
		if e.terminal || e.member.RestartAttempt != w.RestartAttempt || e.member.Slice >= len(w.Slices) {
			return
		}
		counts[e.member.Slice].pods++
		if e.member.Leader {
			counts[e.member.Slice].leaders++
		}
		if e.stagedLeader {
			staged = true
		}
	}
	for _, e := range c.members[w.Key] {
		if e.uid == pod.UID {
			seenSelf = true
		}
		count(e)
	}
	if !seenSelf {
		m, _, _ := workload.MemberOf(pod)
		count(&podEntry{uid: pod.UID, member: m, stagedLeader: m.Leader && hasOwnJobAffinity(pod)})
	}
	return staged && w.Key.Source == workload.SourceJobSet && w.Confined(), counts
}

// hasOwnJobAffinity reports whether JobSet's pod webhook gave this leader a
// required pod affinity to its own Job: its followers will be created only
// after it is bound.
func hasOwnJobAffinity(pod *corev1.Pod) bool {
	a := pod.Spec.Affinity
	if a == nil || a.PodAffinity == nil {
		return false
	}
	for _, term := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		if term.LabelSelector == nil {
			continue
		}
		for _, e := range term.LabelSelector.MatchExpressions {
			if e.Key == wellknown.JobKeyLabel {
				return true
			}
		}
		if _, ok := term.LabelSelector.MatchLabels[wellknown.JobKeyLabel]; ok {
			return true
		}
	}
	return false
}
