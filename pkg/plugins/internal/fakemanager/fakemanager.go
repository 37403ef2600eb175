// Package fakemanager is an admission.Manager for the plugins' tests: it
// answers what the test told it and records every call, so that a test of
// the framework glue checks the glue alone — how each answer becomes a
// framework status, what reaches the manager — without a state or an
// engine. It is internal to pkg/plugins and imported by tests only.
package fakemanager

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Manager is the fake. Build it with New and its answering methods; read
// what it was asked with Calls. Safe for concurrent use (preemption asks
// Victim from parallel goroutines).
type Manager struct {
	mu    sync.Mutex
	calls []Call
	// cycles are the cycles PreFilter handed out, in order: a Call names
	// a cycle by its place here, plus one (0: nil, -1: not one of them).
	cycles []*admission.Cycle

	preEnqueue   *admission.Status
	preFilter    *admission.Status
	nodes        sets.Set[string]
	filter       *admission.Status
	readsFree    bool
	postFilter   *admission.Status
	handled      bool
	preempt      *admission.Status
	victimOK     bool
	victimGang   bool
	reservation  uint64
	permit       *admission.Status
	permitWait   time.Duration
	sortKeys     map[string]admission.SortKey
	waiting      sets.Set[string]
	plansOn      map[string]sets.Set[string]
	snapshotSeen admission.NodeSnapshot
}

var _ admission.Manager = &Manager{}

// New is a manager that lets everything through: no status, every node,
// Victim allowed, no reservation, no wait, and sort keys made of what the
// queue says (priority, queueing time, the pod's name).
func New() *Manager {
	return &Manager{victimOK: true, sortKeys: map[string]admission.SortKey{}, waiting: sets.New[string](), plansOn: map[string]sets.Set[string]{}}
}

// Call is one call the manager received. Pod is namespace/name; Cycle
// numbers the cycle passed (see Manager.cycles); the other fields are the
// call's arguments where it has them.
type Call struct {
	Method      string
	Pod         string
	Node        string
	Cycle       int
	Reservation uint64
	// Free is what Filter's free closure returned, when the manager read
	// it (ReadsFree).
	Free workload.Resources
	// Failure is what PostFilter was told.
	Failure *admission.FilterFailure
	// Victims are Victim's victims, namespace/name.
	Victims []string
	// Snapshot: PreFilter or Preempt was given a snapshot of nodes.
	Snapshot bool
	Priority int32
	Queued   time.Time
	Profile  admission.Profile
}

// ---- answers ----

// PreEnqueueAnswers makes PreEnqueue answer st.
func (m *Manager) PreEnqueueAnswers(st *admission.Status) *Manager { m.preEnqueue = st; return m }

// PreFilterAnswers makes PreFilter answer nodes (nil: every node) and st.
func (m *Manager) PreFilterAnswers(nodes sets.Set[string], st *admission.Status) *Manager {
	m.nodes, m.preFilter = nodes, st
	return m
}

// FilterAnswers makes Filter answer st.
func (m *Manager) FilterAnswers(st *admission.Status) *Manager { m.filter = st; return m }

// ReadsFree makes Filter read what the node has left (free), as the
// engine does only when a reservation's room is at stake.
func (m *Manager) ReadsFree() *Manager { m.readsFree = true; return m }

// PostFilterAnswers makes PostFilter answer st.
func (m *Manager) PostFilterAnswers(st *admission.Status) *Manager { m.postFilter = st; return m }

// PreemptAnswers makes Preempt answer handled and st.
func (m *Manager) PreemptAnswers(handled bool, st *admission.Status) *Manager {
	m.handled, m.preempt = handled, st
	return m
}

// VictimAnswers makes Victim answer ok and gang.
func (m *Manager) VictimAnswers(ok, gang bool) *Manager {
	m.victimOK, m.victimGang = ok, gang
	return m
}

// ReserveAnswers makes Reserve answer the reservation id.
func (m *Manager) ReserveAnswers(id uint64) *Manager { m.reservation = id; return m }

// PermitAnswers makes Permit answer st and wait.
func (m *Manager) PermitAnswers(st *admission.Status, wait time.Duration) *Manager {
	m.permit, m.permitWait = st, wait
	return m
}

// SortKeyOf makes SortKey answer key for the pod named pod (namespace/name).
func (m *Manager) SortKeyOf(pod string, key admission.SortKey) *Manager {
	m.sortKeys[pod] = key
	return m
}

// WaitingForCapacity makes WaitsForCapacity true for the pods named
// (namespace/name).
func (m *Manager) WaitingForCapacity(pods ...string) *Manager {
	m.waiting.Insert(pods...)
	return m
}

// PlansOnNodes makes PlansOn true for pod (namespace/name) on nodes.
func (m *Manager) PlansOnNodes(pod string, nodes ...string) *Manager {
	m.plansOn[pod] = sets.New(nodes...)
	return m
}

// ---- what it was asked ----

// Calls returns the calls received so far, in order.
func (m *Manager) Calls() []Call {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Call(nil), m.calls...)
}

// Cycle returns the n-th cycle PreFilter handed out (from 1).
func (m *Manager) Cycle(n int) *admission.Cycle {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.cycles[n-1]
}

// Snapshot is the last snapshot of nodes PreFilter or Preempt was given.
func (m *Manager) Snapshot() admission.NodeSnapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.snapshotSeen
}

func (m *Manager) record(c Call) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, c)
}

// cycleNo numbers c; the caller holds mu.
func (m *Manager) cycleNo(c *admission.Cycle) int {
	if c == nil {
		return 0
	}
	for i, known := range m.cycles {
		if known == c {
			return i + 1
		}
	}
	return -1
}

func (m *Manager) withCycle(c *admission.Cycle, call Call) {
	m.mu.Lock()
	call.Cycle = m.cycleNo(c)
	m.mu.Unlock()
	m.record(call)
}

// Name is how calls name a pod: namespace/name.
func Name(pod *corev1.Pod) string {
	if pod == nil {
		return ""
	}
	return pod.Namespace + "/" + pod.Name
}

// ---- admission.Manager ----

// AddProfile implements admission.Manager.
func (m *Manager) AddProfile(p admission.Profile) { m.record(Call{Method: "AddProfile", Profile: p}) }

// PreEnqueue implements admission.Manager.
func (m *Manager) PreEnqueue(_ context.Context, pod *corev1.Pod) *admission.Status {
	m.record(Call{Method: "PreEnqueue", Pod: Name(pod)})
	return m.preEnqueue
}

// PreFilter implements admission.Manager: each call hands out a new cycle.
func (m *Manager) PreFilter(_ context.Context, pod *corev1.Pod, nodes admission.NodeSnapshot) (*admission.Cycle, sets.Set[string], *admission.Status) {
	c := &admission.Cycle{}
	m.mu.Lock()
	m.cycles = append(m.cycles, c)
	m.snapshotSeen = nodes
	m.calls = append(m.calls, Call{Method: "PreFilter", Pod: Name(pod), Cycle: len(m.cycles), Snapshot: nodes != nil})
	m.mu.Unlock()
	return c, m.nodes, m.preFilter
}

// Filter implements admission.Manager.
func (m *Manager) Filter(c *admission.Cycle, pod *corev1.Pod, node *corev1.Node, free func() workload.Resources) *admission.Status {
	call := Call{Method: "Filter", Pod: Name(pod), Node: node.Name}
	if m.readsFree {
		call.Free = free()
	}
	m.withCycle(c, call)
	return m.filter
}

// PostFilter implements admission.Manager.
func (m *Manager) PostFilter(_ context.Context, c *admission.Cycle, pod *corev1.Pod, f admission.FilterFailure) *admission.Status {
	m.withCycle(c, Call{Method: "PostFilter", Pod: Name(pod), Failure: &f})
	return m.postFilter
}

// Preempt implements admission.Manager.
func (m *Manager) Preempt(_ context.Context, c *admission.Cycle, pod *corev1.Pod, nodes admission.NodeSnapshot) (bool, *admission.Status) {
	m.mu.Lock()
	m.snapshotSeen = nodes
	m.mu.Unlock()
	m.withCycle(c, Call{Method: "Preempt", Pod: Name(pod), Snapshot: nodes != nil})
	return m.handled, m.preempt
}

// Victim implements admission.Manager.
func (m *Manager) Victim(preemptor *corev1.Pod, victims []*corev1.Pod, node string) (bool, bool) {
	call := Call{Method: "Victim", Pod: Name(preemptor), Node: node}
	for _, v := range victims {
		call.Victims = append(call.Victims, Name(v))
	}
	m.record(call)
	return m.victimOK, m.victimGang
}

// Reserve implements admission.Manager.
func (m *Manager) Reserve(pod *corev1.Pod, node string) uint64 {
	m.record(Call{Method: "Reserve", Pod: Name(pod), Node: node, Reservation: m.reservation})
	return m.reservation
}

// Unreserve implements admission.Manager.
func (m *Manager) Unreserve(_ context.Context, pod *corev1.Pod, reservation uint64) {
	m.record(Call{Method: "Unreserve", Pod: Name(pod), Reservation: reservation})
}

// Permit implements admission.Manager.
func (m *Manager) Permit(_ context.Context, pod *corev1.Pod) (*admission.Status, time.Duration) {
	m.record(Call{Method: "Permit", Pod: Name(pod)})
	return m.permit, m.permitWait
}

// SortKey implements admission.Manager.
func (m *Manager) SortKey(pod *corev1.Pod, priority int32, queued time.Time) admission.SortKey {
	m.record(Call{Method: "SortKey", Pod: Name(pod), Priority: priority, Queued: queued})
	if k, ok := m.sortKeys[Name(pod)]; ok {
		return k
	}
	return admission.SortKey{Priority: priority, Since: queued, Pod: pod.Name}
}

// WaitsForCapacity implements admission.Manager.
func (m *Manager) WaitsForCapacity(pod *corev1.Pod) bool {
	m.record(Call{Method: "WaitsForCapacity", Pod: Name(pod)})
	return m.waiting.Has(Name(pod))
}

// PlansOn implements admission.Manager.
func (m *Manager) PlansOn(pod *corev1.Pod, node string) bool {
	m.record(Call{Method: "PlansOn", Pod: Name(pod), Node: node})
	return m.plansOn[Name(pod)].Has(node)
}
