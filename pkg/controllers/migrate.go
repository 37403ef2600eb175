package controllers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// The Migrator moves this scheduler's pods off flex-start nodes being
// recycled (seed 001: once a node's replacement is Ready, GKE cordons it
// and removes it a while later, and whatever still runs there dies with
// it). It keys on what the API shows of a node: its ComputeClass's
// lifetime has reached its recycling start, and it is cordoned
// (state.Recycling). Each round it lists what runs on such nodes
// (state.Recycled) and, for each unit:
//
//   - a slice of a gang moves whole or not at all: once the planner finds
//     room for the whole slice again on nodes that last (its own pool,
//     which the replacements join, or another free domain), the nodes are
//     kept for it (state.Decision.Hold) and every placed pod of the slice
//     is evicted through the Eviction API; until then it waits, and says why;
//   - a plain pod is evicted on its own, and the scheduler's filters place
//     the one its owner recreates;
//   - a pod no controller would recreate (a bare pod) is not evicted: that
//     would end it sooner than the node does.
//
// The apiserver marks an evicted pod DisruptionTarget, so a Job whose
// podFailurePolicy ignores that condition recreates it without counting a
// failure. Every eviction is told on the pod and the workload (Normal);
// a unit that cannot move is told once (Normal), and as a Warning once it
// has waited MigrationPatience or its node's end is that close. Rounds are
// idempotent: a unit whose pods are already being evicted, or were
// evicted moments ago, is left alone; one that is not moved is decided
// again next round. Only the leader moves anything.

// Reasons of the Migrator's events.
const (
	// ReasonMigrating (Normal): the pod, or the workload's slice, is
	// evicted to move off a node being recycled.
	ReasonMigrating = "Migrating"
	// ReasonMigrationWaiting (Normal): it should move, and waits for room.
	ReasonMigrationWaiting = "MigrationWaiting"
	// ReasonMigrationBlocked (Warning): it has waited too long, or its
	// node ends soon: it will die with the node unless what blocks it
	// changes.
	ReasonMigrationBlocked = "MigrationBlocked"
)

const (
	// MigrationPatience is how long a unit waits to move before its wait
	// is a warning. A node pool's replacements come seconds apart (one
	// per VM obtained), so a slice whose other nodes are still being
	// replaced waits that long without anyone needing to act.
	MigrationPatience = 30 * time.Second
	// migrateInterval is how often the Migrator looks again without being
	// woken: waits end by pods being placed or nodes becoming Ready.
	migrateInterval = 2 * time.Second
	// migratedMemory is how long pods just evicted are taken as on their
	// way out, while the informer has yet to show them being deleted.
	migratedMemory = time.Minute
)

// Move is what the Migrator decided for one unit in one round.
type Move struct {
	Unit state.MigrationUnit
	// Evict: its pods are evicted now. Otherwise it waits (Why), a
	// warning when Warn.
	Evict bool
	// Target says where it goes ("" for a plain pod).
	Target string
	Why    string
	Warn   bool
	// UnderWay: its pods are already being evicted; nothing was done.
	UnderWay bool
}

// Migrator moves pods off recycled nodes; see above.
type Migrator struct {
	st      *state.State
	evictor *Evictor
	events  *EventSink
	pods    corelisters.PodLister
	leading func() bool
	clock   clock.PassiveClock

	mu sync.Mutex
	// waitingSince is when each unit (by ID) was first found unable to
	// move; recent are pods evicted by a round, until when they are taken
	// as on their way out.
	waitingSince map[string]time.Time
	recent       map[types.UID]time.Time
	kick         chan struct{}
}

// NewMigrator returns a Migrator deciding on st at st's clock, evicting
// with evictor, telling events, reading pods from pods, acting while
// leading says this replica leads.
func NewMigrator(st *state.State, evictor *Evictor, events *EventSink, pods corelisters.PodLister, leading func() bool) *Migrator {
	return &Migrator{st: st, evictor: evictor, events: events, pods: pods, leading: leading, clock: st.Clock(),
		waitingSince: map[string]time.Time{}, recent: map[types.UID]time.Time{}, kick: make(chan struct{}, 1)}
}

// Kick makes the Migrator look again soon (a node was cordoned).
func (m *Migrator) Kick() {
	select {
	case m.kick <- struct{}{}:
	default:
	}
}

// Run moves pods off recycled nodes until ctx ends. It runs on the leader.
func (m *Migrator) Run(ctx context.Context) {
	timer := time.NewTimer(migrateInterval)
	defer timer.Stop()
	for {
		m.Round(ctx)
		timer.Reset(migrateInterval)
		select {
		case <-ctx.Done():
			return
		case <-m.kick:
		case <-timer.C:
		}
	}
}

// Round decides, and carries out, what each unit on recycled nodes does
// now; it returns the decisions (none on a standby).
func (m *Migrator) Round(ctx context.Context) []Move {
	if !m.leading() {
		return nil
	}
	now := m.clock.Now()
	units := m.st.Upkeep().Recycled()
	m.mu.Lock()
	for uid, until := range m.recent {
		if !now.Before(until) {
			delete(m.recent, uid)
		}
	}
	seen := map[string]bool{}
	m.mu.Unlock()
	moves := make([]Move, 0, len(units))
	for _, u := range units {
		seen[u.ID()] = true
		mv := m.decide(u, now)
		m.act(ctx, mv, now)
		moves = append(moves, mv)
	}
	m.mu.Lock()
	for id := range m.waitingSince {
		if !seen[id] {
			delete(m.waitingSince, id)
		}
	}
	m.mu.Unlock()
	return moves
}

// decide is what unit u does at now. A slice's nodes are kept for it
// here, when it moves.
func (m *Migrator) decide(u state.MigrationUnit, now time.Time) Move {
	mv := Move{Unit: u}
	m.mu.Lock()
	for _, p := range u.Pods {
		if _, ok := m.recent[p.UID]; ok || m.evictor.Evicting(p.UID) {
			mv.UnderWay = true
		}
	}
	m.mu.Unlock()
	if mv.UnderWay {
		return mv
	}
	if why := m.uncontrolled(u); why != "" {
		return m.wait(mv, why, now, true)
	}
	if u.Plain() {
		mv.Evict = true
		return mv
	}
	if u.Blocked != "" {
		return m.wait(mv, u.Blocked, now, false)
	}
	// A copy of the workload as it would stand without the slice, the
	// plan on it alone, and one write-back that holds where the slice goes
	// (and refuses it if the state moved meanwhile).
	r, fail := admission.PlanMove(m.st.SnapshotForMove(u.Key, u.Slice), u)
	if fail != nil {
		return m.wait(mv, "no room to place it whole again on nodes that last: "+fail.Message, now, false)
	}
	if err := m.st.Apply(state.Decision{Key: u.Key, Hold: r}).Refused; err != nil {
		return m.wait(mv, err.Error(), now, false)
	}
	mv.Evict, mv.Target = true, describeTarget(r, u.Slice)
	return mv
}

// uncontrolled says which pod of u no controller would recreate ("" when
// every one has one): evicting it would only end it sooner.
func (m *Migrator) uncontrolled(u state.MigrationUnit) string {
	for _, p := range u.Pods {
		pod, err := m.pods.Pods(p.Namespace).Get(p.Name)
		if err != nil || pod.UID != p.UID {
			continue
		}
		if metav1.GetControllerOf(pod) == nil {
			return fmt.Sprintf("pod %s/%s has no controller that would recreate it: it is not evicted, and ends with its node", p.Namespace, p.Name)
		}
	}
	return ""
}

// wait records that mv's unit waits for why; warn at once when the user
// must act whatever the time.
func (m *Migrator) wait(mv Move, why string, now time.Time, warn bool) Move {
	m.mu.Lock()
	since, ok := m.waitingSince[mv.Unit.ID()]
	if !ok {
		since = now
		m.waitingSince[mv.Unit.ID()] = now
	}
	m.mu.Unlock()
	ends := mv.Unit.Ends
	mv.Why = why
	mv.Warn = warn || now.Sub(since) >= MigrationPatience || (!ends.IsZero() && ends.Sub(now) <= MigrationPatience)
	return mv
}

// act carries out mv and tells it.
func (m *Migrator) act(ctx context.Context, mv Move, now time.Time) {
	u := mv.Unit
	switch {
	case mv.UnderWay:
		return
	case !mv.Evict:
		msg := fmt.Sprintf("%s should move off %s, and %s: %s", u.Describe(), describeRecycled(u), waitVerb(u), mv.Why)
		for _, p := range u.Pods {
			if !slices.Contains(u.Recycled, p.Node) {
				continue
			}
			if pod := m.pod(p); pod != nil {
				if mv.Warn {
					m.events.WarnPod(pod, nil, ReasonMigrationBlocked, msg)
				} else {
					m.events.NormalPod(pod, ReasonMigrationWaiting, msg)
				}
			}
		}
		if mv.Warn {
			m.events.WarnAbout(refOf(u), relatedOf(u), ReasonMigrationBlocked, msg)
		} else {
			m.events.NormalAbout(refOf(u), relatedOf(u), ReasonMigrationWaiting, msg)
		}
		return
	}
	m.mu.Lock()
	delete(m.waitingSince, u.ID())
	refs := make([]state.PodRef, 0, len(u.Pods))
	for _, p := range u.Pods {
		refs = append(refs, p.PodRef)
		m.recent[p.UID] = now.Add(migratedMemory)
	}
	m.mu.Unlock()
	var msg string
	if u.Plain() {
		msg = fmt.Sprintf("evicted to move off %s: its owner recreates it elsewhere", describeRecycled(u))
	} else {
		msg = fmt.Sprintf("%s moves whole off %s: its %d pod(s) are evicted and go to %s", u.Describe(), describeRecycled(u), len(u.Pods), mv.Target)
	}
	klog.FromContext(ctx).Info("Moving pods off nodes being recycled", "unit", u.Describe(), "nodes", u.Recycled, "pods", len(refs), "target", mv.Target)
	// Each slice's move is told, however soon after another's.
	m.events.NormalAbout(refOf(u), relatedOf(u), ReasonMigrating, msg)
	for _, p := range u.Pods {
		if pod := m.pod(p); pod != nil {
			m.events.NormalPod(pod, ReasonMigrating, msg)
		}
	}
	m.evictor.EvictViaAPI(ctx, refs, ReasonMigrating, msg)
}

func (m *Migrator) pod(p state.MigratingPod) *corev1.Pod {
	pod, err := m.pods.Pods(p.Namespace).Get(p.Name)
	if err != nil || pod.UID != p.UID {
		return nil
	}
	return pod
}

func refOf(u state.MigrationUnit) *corev1.ObjectReference {
	if u.Ref.Name == "" {
		return nil
	}
	return &u.Ref
}

// relatedOf is the pod events about u on its workload are related to: its
// first pod on a recycled node (each move's pods are new ones).
func relatedOf(u state.MigrationUnit) *corev1.ObjectReference {
	for _, p := range u.Pods {
		if slices.Contains(u.Recycled, p.Node) {
			return &corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}
		}
	}
	return nil
}

// describeRecycled names u's recycled nodes and when they are gone at
// the latest: "node n1 (recycled: cordoned once its replacement was
// Ready; gone by 2025-01-01T01:00:00Z at the latest)".
func describeRecycled(u state.MigrationUnit) string {
	what, its := "node ", "its replacement was"
	if len(u.Recycled) > 1 {
		what, its = "nodes ", "their replacements were"
	}
	gone := ""
	if !u.Ends.IsZero() {
		gone = "; gone by " + u.Ends.UTC().Format(time.RFC3339) + " at the latest"
	}
	return what + strings.Join(u.Recycled, ", ") + " (recycled: cordoned once " + its + " Ready" + gone + ")"
}

func waitVerb(u state.MigrationUnit) string {
	if u.Plain() {
		return "is not moved"
	}
	return "moves only whole; it waits"
}

// describeTarget says where the plan puts slice: "cloud.google.com/
// gke-nodepool=pool-a", or the nodes of an unconfined slice.
func describeTarget(r *state.Reservation, slice int) string {
	sr := r.Slices[slice]
	if sr == nil {
		return "where the scheduler places it"
	}
	if sr.Domain != "" {
		return sr.DomainKey + "=" + sr.Domain
	}
	var nodes []string
	for _, s := range sr.Slots {
		if !slices.Contains(nodes, s.Node) {
			nodes = append(nodes, s.Node)
		}
	}
	return "nodes " + strings.Join(nodes, ", ")
}
