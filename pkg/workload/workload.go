// Package workload is the scheduler's model of gang workloads: a Workload is
// a set of Slices, and a Slice is a set of pods that must land together in
// one exclusive topology domain. Every source (JobSet, scheduler-plugins
// PodGroup) is mapped into this model, so placement, quota and preemption
// reason about one shape. The package imports no scheduler framework types.
package workload

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Source is the kind of object a workload is derived from.
type Source string

const (
	SourceJobSet   Source = "JobSet"
	SourcePodGroup Source = "PodGroup"
)

// Key identifies a workload across its restarts.
type Key struct {
	Source    Source
	Namespace string
	Name      string
}

func (k Key) String() string { return string(k.Source) + " " + k.Namespace + "/" + k.Name }

// Compare orders keys by source, namespace and name, without formatting
// them (queue order and victim choice compare many).
func (k Key) Compare(o Key) int {
	if c := strings.Compare(string(k.Source), string(o.Source)); c != 0 {
		return c
	}
	if c := strings.Compare(k.Namespace, o.Namespace); c != 0 {
		return c
	}
	return strings.Compare(k.Name, o.Name)
}

// Slice is one unit of exclusive placement: all of its pods land in one
// domain (when DomainKey is set) that no other slice shares.
type Slice struct {
	// Index is the slice's position in the workload (JobSet: the Job's global index).
	Index int
	// Name names the slice for people (JobSet: the Job name).
	Name string
	// Pods is how many pods the slice has (JobSet: the Job's parallelism).
	Pods int
	// Request is what each pod asks for.
	Request Resources
	// Template is the pod spec the slice's pods are created from; its node
	// selector, affinity and tolerations decide which nodes qualify.
	Template *corev1.PodSpec
	// DomainKey is the node label whose value is the slice's domain; empty
	// means the slice is not confined (the workload is still all-or-nothing).
	DomainKey string
	// Group is the slice's startup group. The workload's owner creates a
	// group's pods only once earlier groups are running or complete (JobSet
	// dependsOn or startupPolicy InOrder), so each group is admitted as a gang
	// of its own, planned around the domains earlier groups already hold.
	// Group 0 is created at once.
	Group int
	// ReplicatedJob names the JobSet replicated Job the slice is a Job of.
	ReplicatedJob string
	// Topology, when set, is where the slice's pod set may go in a
	// topology of nested levels (its pod template's Kueue annotations).
	// A pod set is the slices of one JobSet replicated Job, or a Job's one
	// slice; all its slices carry the same request, and such a slice is
	// never confined (DomainKey is ""): the topology decides its nodes.
	Topology *TopologyRequest
}

// PodSet is the slices of one pod set: those of one replicated Job (a
// Job's one slice), in index order, and their pods in all.
type PodSet struct {
	Name    string
	Slices  []int
	Pods    int32
	Request *TopologyRequest
}

// TopologyPodSets lists the pod sets of w whose slices carry a topology
// request, among the slices in (indexes into w.Slices, in any order), in
// the order of their first slice.
func (w *Workload) TopologyPodSets(in []int) []PodSet {
	var out []PodSet
	at := map[string]int{}
	for _, i := range slices.Sorted(slices.Values(in)) {
		s := &w.Slices[i]
		if s.Topology == nil {
			continue
		}
		name := s.ReplicatedJob
		if name == "" {
			name = s.Name
		}
		j, ok := at[name]
		if !ok {
			j = len(out)
			at[name] = j
			out = append(out, PodSet{Name: name, Request: s.Topology})
		}
		out[j].Slices = append(out[j].Slices, i)
		out[j].Pods += int32(s.Pods)
	}
	return out
}

// Workload is a gang: all of its slices are placed, or none.
type Workload struct {
	Key     Key
	UID     types.UID
	Created time.Time
	// RestartAttempt is the current attempt (JobSet status.restarts); pods
	// of older attempts are not members.
	RestartAttempt int32
	Slices         []Slice
	// Groups is the number of startup groups (at least 1).
	Groups int
	// SucceededJobs counts, per replicated Job, the Jobs its owner reports
	// succeeded (JobSet status): their pods are gone and hold nothing.
	SucceededJobs map[string]int32
	// Finished workloads (completed, failed, suspended) hold nothing.
	Finished bool
	// Failed is set for finished workloads that failed; Suspended for
	// those their owner suspended (they may resume).
	Failed, Suspended bool
	// QueueName is the LocalQueue the workload is admitted through ("":
	// not quota-managed).
	QueueName string
	// AtomicKey, when set, is a node label every slice of the workload
	// lands under one value of (e.g. topology.kubernetes.io/zone: all
	// slices in one zone), all or nothing.
	AtomicKey string
	// ProvisioningAnnotations are the owner's provreq.kueue.x-k8s.io/
	// annotations: parameters of the ProvisioningRequests made for it.
	ProvisioningAnnotations map[string]string
	// Consumes is set for the pods of a ProvisioningRequest their user
	// made (SourceProvisioningRequest): what the request says now.
	Consumes *Consumption
	// Children, for a CompositePodGroup, are its child PodGroups and the
	// slice each is: their pods name only the child, and are members of
	// this workload's slice.
	Children map[Key]int
}

// Confined reports whether any slice is confined to a domain.
func (w *Workload) Confined() bool {
	for _, s := range w.Slices {
		if s.DomainKey != "" {
			return true
		}
	}
	return false
}

// Member says which workload and slice a pod belongs to.
type Member struct {
	Key   Key
	Slice int
	// Leader is true for the pod with Job completion index 0.
	Leader bool
	// HasIndex is false for pods of non-indexed Jobs and PodGroups.
	HasIndex bool
	// Index is the pod's Job completion index, when HasIndex and the pod
	// is a Job's (JobSet's or a Job's own).
	Index          int
	RestartAttempt int32
	// OwnerUID is the UID of the object the pod was created for (JobSet:
	// the jobset-uid label), empty when the pod does not say. A pod whose
	// OwnerUID differs from its workload's UID belongs to a deleted object
	// of the same name.
	OwnerUID types.UID
	// Topology is the topology request a LeaderWorkerSet worker's own
	// annotations make ("" for none): its group is placed as its leader
	// asks, and a worker asking otherwise is refused (StandingIn).
	Topology string
}

// Holder identifies one incarnation of a workload: a JobSet deleted and
// recreated under the same name is another holder.
type Holder struct {
	Key Key
	UID types.UID
}

func (h Holder) String() string { return h.Key.String() }

// Blocks is the one rule for "another holder blocks this domain": h, a
// workload whose confined slice runs in a domain, keeps own out of it
// unless h is own. The pods of a deleted object of the same name (own's
// Key, another UID) are another holder and block too: the new object must
// not join a domain its predecessor's pods still run in. own nil (a pod
// of no workload that may hold) is blocked by every holder. The planner,
// Filter, a reservation's validation, restart holds and the CLI's `why`
// all decide with it.
func (h Holder) Blocks(own *Holder) bool { return own == nil || h != *own }

// Standing is where a pod stands in the workload it names.
type Standing int

const (
	// Current: the pod is of the workload as it is now.
	Current Standing = iota
	// Stale: the pod can never be placed for it (the workload is
	// finished, was deleted and recreated, restarted past the pod's
	// attempt, or has no such slice).
	Stale
	// Ahead: the pod is of a restart attempt not observed yet.
	Ahead
)

// StandingIn is the one rule for whether member m, a pod's membership,
// belongs to model as it is now, and if not, why. PreFilter, PreEnqueue
// and PostFilter all classify a pod's membership with it.
func StandingIn(m Member, model *Workload) (Standing, string) {
	switch {
	case model.Finished:
		return Stale, fmt.Sprintf("%s is finished, suspended or being deleted", m.Key)
	case m.OwnerUID != "" && model.UID != "" && m.OwnerUID != model.UID:
		return Stale, fmt.Sprintf("the pod belongs to a deleted %s of the same name (uid %s; the current one is %s)", m.Key, m.OwnerUID, model.UID)
	case m.Key.Source == SourceJobSet && m.RestartAttempt < model.RestartAttempt:
		return Stale, fmt.Sprintf("the pod belongs to restart attempt %d of %s, which is at attempt %d", m.RestartAttempt, m.Key, model.RestartAttempt)
	case m.Key.Source == SourceJobSet && m.RestartAttempt > model.RestartAttempt:
		return Ahead, fmt.Sprintf("waiting to observe restart attempt %d of %s", m.RestartAttempt, m.Key)
	case m.Slice >= len(model.Slices):
		return Stale, fmt.Sprintf("the pod names Job index %d, but %s has %d Jobs", m.Slice, m.Key, len(model.Slices))
	case m.Key.Source == SourceLeaderWorkerSet:
		return lwsStanding(m, model)
	}
	return Current, ""
}

// Compare orders holders by Key, then UID.
func (h Holder) Compare(o Holder) int {
	if c := h.Key.Compare(o.Key); c != 0 {
		return c
	}
	return strings.Compare(string(h.UID), string(o.UID))
}

// FirstBlocking is the least holder of holders, in Compare's order, that
// Blocks own; false when none does. The least, not any: the answer (and
// the message built from it) must not depend on map order.
func FirstBlocking[V any](holders map[Holder]V, own *Holder) (Holder, bool) {
	return FirstBlockingOf(maps.Keys(holders), own)
}

// FirstBlockingOf is FirstBlocking over a sequence of holders.
func FirstBlockingOf(holders iter.Seq[Holder], own *Holder) (Holder, bool) {
	var first Holder
	found := false
	for h := range holders {
		if h.Blocks(own) && (!found || h.Compare(first) < 0) {
			first, found = h, true
		}
	}
	return first, found
}
