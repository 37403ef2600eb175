package state

import (
	"maps"
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/tas"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Snapshot is a copy of the part of the state a decision needs, taken once
// per scheduling cycle. Decisions read and change only the snapshot; what
// they decide is committed back with State.Apply. RemoveWorkload lets a
// decision ask "what if this workload were gone" and undo the answer.
type Snapshot struct {
	Generation uint64
	// Nodes holds every node of the domains the decision may use.
	Nodes map[string]*NodeView
	// Domains lists, per domain key, its domains' values (sorted) and
	// their node names (sorted); in a snapshot for planning, only those
	// the workload's pods may select (see snapshot).
	Domains map[string]map[string][]string
	// values are, per domain key, the values of Domains sorted, as the
	// state's index keeps them (see DomainValues).
	values map[string][]string
	// Elided lists, per domain key, the domains of Domains whose nodes a
	// snapshot for planning left out of Nodes (see snapshot): those
	// another workload's pods hold. Nil in a full snapshot.
	Elided map[string]map[string]bool
	// narrowed: a snapshot for planning left out of Domains the domains
	// in which no node carries the labels the workload's pods select, or
	// (roomy) left out every node but those of the domains that could take
	// its pod sets required in one domain of a level.
	narrowed, roomy bool
	// Workloads holds every workload with pods on the snapshot's nodes or a
	// reservation, by key.
	Workloads map[workload.Key]*WorkloadView
	// Self is the workload being placed.
	Self *WorkloadView
	// Quota is set when Self waits to be admitted through a queue: the
	// plan must charge it too.
	Quota *QuotaDecision
	// ClusterQueues are those the snapshot's workloads are charged to, as
	// the state held them: shared, for the state replaces a ClusterQueue
	// rather than changing it.
	ClusterQueues map[string]*quota.ClusterQueue
	// AtomicKey is the node label every slice of Self must share one
	// value of (e.g. topology.kubernetes.io/zone), "" for none. When it is
	// set, the nodes of Self's placed pods are all in Nodes: they pin the
	// value the rest of the workload must use.
	AtomicKey string
	// NodeSelector are labels every node of Self must carry: those of the
	// capacity provisioned for it (nil: none).
	NodeSelector provisioning.Selector
	// Now is when the snapshot was taken: node lifetimes are read at it.
	Now time.Time
	// RunUntil, when set, is when Self's run would end if placed now (its
	// maximum run duration from Now): nodes that go away earlier cut it
	// short.
	RunUntil time.Time
	// Qualifiers memoises, per scheduling signature, which nodes a pod
	// spec may use (selectors, affinity, taints): nodes do not change
	// within a snapshot, so every plan made on it (preemption simulates
	// many) shares the answers.
	Qualifiers map[string]func(node string) bool
	// Trees memoises the topology trees plans on this snapshot read (by
	// topology.TreeKey of levels and flavor labels, and atomic scope):
	// nodes' labels do not change within a snapshot, so preemption's many
	// simulations build each once. A snapshot of every node comes with
	// the index's cached trees its workload may read (indexTrees).
	Trees map[string]*topology.Tree
}

// NodeView is one node in a snapshot.
type NodeView struct {
	Node *topology.Node
	// Free is allocatable less what pods on the node request and less
	// what other workloads' reservations still plan to put there. It may
	// be the node's own Allocatable map (a node nothing takes room on):
	// it is replaced, never changed in place.
	Free workload.Resources
	// Holders counts the pods holding the node's domains, by holder.
	Holders map[workload.Holder]int
	// Leaving is what pods being deleted still request on the node: room
	// that frees itself without anyone being evicted.
	Leaving workload.Resources
	// Reserved is set when the node lies in a confined domain reserved
	// for a slice of another workload.
	Reserved    bool
	ReservedBy  workload.Key
	ReservedFor int
	// Kept is set when the node is kept for the workload being placed
	// (its restart hold): where it ran before it restarted.
	Kept bool
}

// WorkloadView is a workload in a snapshot.
type WorkloadView struct {
	Key    workload.Key
	Holder workload.Holder
	Model  *workload.Workload
	// Priority is the highest priority among its live pods.
	Priority int32
	// Pods are its live placed pods, any attempt.
	Pods []PodView
	// Members are its live pods of the current attempt, placed or not,
	// sorted by name. They are the state's own records, shared: the state
	// replaces a pod's record when the pod changes (Reserve, Unreserve and
	// the informer's updates each index a new copy) and never alters one a
	// snapshot may hold, but for the holder index fields (holds,
	// heldDomain) that no decision reads.
	Members []*Pod
	// Active lists the slices that make up the gang now.
	Active []int
	Staged bool
	// Rejected maps domains where its pods failed other filters to why.
	Rejected map[topology.DomainRef]string
	// Reserved is true while the workload holds a reservation.
	Reserved bool
	// Outstanding is, per node, the room its reservation still plans there
	// (taken from the Free of other workloads' snapshots).
	Outstanding map[string]workload.Resources
	// Charge is what its admission charged its queue (nil: none).
	Charge *quota.Charge
	// Created is when its object was created; Started when its current
	// or last attempt was placed whole (zero: never).
	Created, Started time.Time
	// Evicting is set while another workload's preemption evicts it: its
	// pods may still be live (eviction is asynchronous), but its domains
	// are kept for that preemptor, so it is no candidate for another.
	Evicting bool
}

// PodView is a placed pod in a snapshot.
type PodView struct {
	UID     types.UID
	Node    string
	Request workload.Resources
	Holds   bool
}

// Requested reports what the pods on a node request, as the scheduler's
// own snapshot of the cycle counts it (assumed pods included).
type Requested func(node string) (workload.Resources, bool)

// Snapshot copies what placing the workload of key needs: the nodes of the
// domains of every key its active slices use (all nodes when a slice is
// unconfined), their holders and reservations, and the workloads on them.
func (s *State) Snapshot(key workload.Key, requested Requested) *Snapshot {
	return s.snapshot(key, requested, false)
}

// snapshot takes a snapshot under the state's lock, and reads the cycle's
// snapshot of nodes (requested) once it is released.
//
// A snapshot for planning (forPlan; PodCycle.Plan) is for a plan that is
// to succeed. The domains in which no node carries the labels every pod of
// the workload selects (another accelerator's or topology's pools, say)
// are left out of it; the domains in which another workload's pods hold a
// node are listed in Domains but their nodes are left out (Elided), and so
// are the workloads only they hold. No plan can use such a domain, and in
// a cluster mostly held, or of many kinds of node, they are most of the
// nodes: a gang's plan then costs what the free part of the nodes it may
// use costs, not what the whole cluster does. Domains the workload's own
// pods run in are always kept. Why a plan fails, and what preemption could
// free, read the domains left out: a plan that fails on a snapshot with
// Partial set is made again on a full one (FullPlan). The snapshot is full
// when a slice is unconfined or the gang must land under one value of an
// atomic key, as those read every candidate node.
func (s *State) snapshot(key workload.Key, requested Requested, forPlan bool) *Snapshot {
	s.mu.Lock() // Track may extend the domain index.
	sn := s.copier.snapshotLocked(key, forPlan)
	s.mu.Unlock()
	sn.subtractRequested(requested)
	return sn
}

// DomainValues lists the values of key's domains (Domains), sorted. The
// slice may be shared: callers must not modify it.
func (sn *Snapshot) DomainValues(key string) []string {
	if v, ok := sn.values[key]; ok {
		return v
	}
	return slices.Sorted(maps.Keys(sn.Domains[key]))
}

// Partial reports whether the snapshot left out held domains' nodes, or
// domains the workload's pods do not select.
func (sn *Snapshot) Partial() bool { return len(sn.Elided) > 0 || sn.narrowed }

// Roomy reports whether a snapshot for planning holds only the domains
// that could take its workload's pod sets, each in one domain of its level
// (see topologyNodesLocked): unlike the other narrowings, a plan on it may
// fail where one on every node succeeds, which PreFilter makes then; a
// preferred pod set is planned on it as if required (a plan that climbed a
// level there would not be the fleet's).
func (sn *Snapshot) Roomy() bool { return sn.roomy }

func (cp copier) snapshotLocked(key workload.Key, forPlan bool) *Snapshot {
	s := cp.s
	w := s.workloads.of(key)
	sn := &Snapshot{
		Generation:    s.generation,
		Nodes:         map[string]*NodeView{},
		Domains:       map[string]map[string][]string{},
		values:        map[string][]string{},
		Workloads:     map[workload.Key]*WorkloadView{},
		ClusterQueues: map[string]*quota.ClusterQueue{},
	}
	if w == nil || w.model == nil {
		return sn
	}
	active := w.active()
	keys := map[string]bool{}
	all := false
	for _, i := range active {
		if k := w.model.Slices[i].DomainKey; k != "" {
			keys[k] = true
		} else {
			all = true
		}
	}
	sn.AtomicKey = cp.atomicKeyLocked(w)
	var own map[string]bool // nodes of the workload's placed pods
	if forPlan && !all && sn.AtomicKey == "" {
		own = map[string]bool{}
		for _, p := range w.members {
			if p.Node != "" {
				own[p.Node] = true
			}
		}
	}
	var selected map[string]string // labels every pod of w selects
	if own != nil {
		selected = selectedLabels(w, active)
	}
	var names []string
	for k := range keys {
		s.nodes.Track(k)
		sorted := s.nodes.Values(k)
		if len(selected) > 0 {
			if sel := cp.selectableDomainsLocked(selected, k); len(sel) < len(sorted) {
				// Only the domains w's pods may select, and those its
				// own pods run in, are listed.
				sorted = cp.withOwnDomainsLocked(sel, k, own)
				sn.narrowed = true
			}
		}
		sn.values[k] = sorted
		values := make(map[string][]string, len(sorted))
		var elided map[string]bool
		for _, v := range sorted {
			nodes := s.nodes.NodesOf(topology.DomainRef{Key: k, Value: v})
			values[v] = nodes
			if own != nil && s.domainHolders.heldByOther(nodes, workload.Holder{Key: key, UID: w.model.UID}, own) {
				if elided == nil {
					elided = map[string]bool{}
				}
				elided[v] = true
				continue
			}
			names = append(names, nodes...)
		}
		sn.Domains[k] = values
		if elided != nil {
			if sn.Elided == nil {
				sn.Elided = map[string]map[string]bool{}
			}
			sn.Elided[k] = elided
		}
	}
	sn.Quota = cp.quotaDecisionLocked(w)
	if all {
		names = s.nodes.AllNodes()
		if forPlan && sn.AtomicKey == "" {
			if within, ok := cp.topologyNodesLocked(w, active, sn.Quota); ok {
				// Only the domains that could take its pod sets: a plan
				// that fails on them is made again on every node.
				names, sn.narrowed, sn.roomy = within, true, true
			}
		}
	}
	sn.NodeSelector = cp.provisionedSelectorLocked(w)
	sn.Now = s.opts.Clock.Now()
	if limit, err := cp.maxRunLocked(w); err == nil && limit > 0 {
		sn.RunUntil = sn.Now.Add(limit)
	}
	if sn.AtomicKey != "" && !all {
		// Placed pods pin the value. Their nodes are in Nodes through
		// their slices' domains, unless a node lacks its slice's domain
		// label (a pod bound elsewhere): it pins all the same.
		for _, p := range w.members {
			if p.Node != "" && p.Live() && w.current(p) && s.nodes.Node(p.Node) != nil {
				names = append(names, p.Node)
			}
		}
	}
	sn.Nodes = make(map[string]*NodeView, len(names))
	for _, name := range names {
		if _, done := sn.Nodes[name]; done {
			continue
		}
		sn.Nodes[name] = cp.nodeViewLocked(name, key)
	}
	for name := range sn.Nodes {
		for p := range s.pods.on(name) {
			if p.Gang && p.MemberErr == nil && p.Live() {
				cp.viewLocked(sn, p.Member.Key)
			}
		}
	}
	for k := range s.reservations.all() {
		cp.viewLocked(sn, k)
	}
	sn.Self = cp.viewLocked(sn, key)
	if all && sn.AtomicKey == "" && !sn.roomy {
		// A snapshot of the roomiest domains has its trees built from
		// its own few nodes by the plan: the index's span the fleet.
		sn.Trees = indexTrees(s.nodes, w.model, active, sn.Quota)
	}
	return sn
}

// indexTrees hands a snapshot of every node the topology trees the plan of
// model's active pod sets may read, from the index's cache: built once
// and kept until a node's labels change, rather than once per decision
// (each costs a pass over the nodes and a sort). They are those of the
// levels a pod set's request names above the host (a workload outside
// queues, or admitted) and, while it waits in a queue, those of its
// ClusterQueue's flavors that name a Topology. A flavor label with an
// empty value (also admitting nodes without the label) is left to the
// plan, which builds that tree from the snapshot as before (nil: none).
func indexTrees(ix *topology.Index, model *workload.Workload, active []int, q *QuotaDecision) map[string]*topology.Tree {
	var out map[string]*topology.Tree
	add := func(levels []string, selector map[string]string) {
		for _, v := range selector {
			if v == "" {
				return
			}
		}
		if out == nil {
			out = map[string]*topology.Tree{}
		}
		key := topology.TreeKey(levels, selector)
		if _, ok := out[key]; !ok {
			out[key] = ix.Tree(levels, selector)
		}
	}
	asks := false
	for _, i := range active {
		if r := model.Slices[i].Topology; r != nil {
			asks = true
			add(tas.QueuelessLevels(r), nil)
		}
	}
	if !asks || q == nil || q.ClusterQueue == nil || q.View == nil {
		return out
	}
	for _, g := range q.ClusterQueue.Groups {
		for _, name := range g.Flavors {
			if f := q.View.Flavor(name); f != nil && f.TopologyLevels != nil {
				add(f.TopologyLevels, f.NodeLabels)
			}
		}
	}
	return out
}

// selectedLabels are the node labels every pod of w's active slices must
// carry: the nodeSelector entries that their templates and w's current
// members all share (nil: none). A node without one of them can take none
// of w's pods. Members are read too, since the plan sizes and qualifies
// each pod by its own spec.
func selectedLabels(w *Workload, active []int) map[string]string {
	var common map[string]string
	first := true
	narrow := func(spec *corev1.PodSpec) bool {
		if spec == nil {
			common = nil
		} else if first {
			common = maps.Clone(spec.NodeSelector)
		} else {
			maps.DeleteFunc(common, func(k, v string) bool {
				got, ok := spec.NodeSelector[k]
				return !ok || got != v
			})
		}
		first = false
		return len(common) > 0
	}
	for _, i := range active {
		if !narrow(w.model.Slices[i].Template) {
			return nil
		}
	}
	for _, p := range w.members {
		if w.current(p) && !narrow(p.Spec) {
			return nil
		}
	}
	return common
}

// selectableDomainsLocked lists, sorted, the values of key's domains in
// which a node carries every label of selected. The list is cached until
// a node changes (callers must not modify it): it costs a pass over the
// nodes that carry them, which gangs of one kind ask for again and again.
func (cp copier) selectableDomainsLocked(selected map[string]string, key string) []string {
	s := cp.s
	cacheKey := labelsKey(selected) + "|" + key
	if values, ok := s.selectable[cacheKey]; ok {
		return values
	}
	seen := map[string]bool{}
	values := []string{}
	for _, name := range cp.nodesCarryingLocked(selected) {
		if v, ok := s.nodes.DomainOf(name, key); ok && !seen[v] {
			seen[v] = true
			values = append(values, v)
		}
	}
	slices.Sort(values)
	s.selectable[cacheKey] = values
	return values
}

// withOwnDomainsLocked is selectable (sorted values of key) with the
// values of the domains the nodes in own are in added: a plan reads the
// domains a workload's pods run in, whatever they carry.
func (cp copier) withOwnDomainsLocked(selectable []string, key string, own map[string]bool) []string {
	s := cp.s
	out, cloned := selectable, false
	for name := range own {
		v, ok := s.nodes.DomainOf(name, key)
		if !ok {
			continue
		}
		i, found := slices.BinarySearch(out, v)
		if found {
			continue
		}
		if !cloned {
			out, cloned = slices.Clone(selectable), true // the cached list is shared
		}
		out = slices.Insert(out, i, v)
	}
	return out
}

// atomicKeyLocked is the node label every slice of w must share one value
// of: the workload's own, or the zone when its queue provisions capacity
// (provisioned capacity comes in one zone, and the workload goes there).
func (cp copier) atomicKeyLocked(w *Workload) string {
	s := cp.s
	if k := w.model.AtomicKey; k != "" {
		return k
	}
	if c, _ := s.queues.checkOfLocked(w); c != nil {
		return wellknown.ZoneLabel
	}
	return ""
}

// nodeViewLocked is node name as a snapshot for self's workload holds it.
// Its Free is the node's allocatable less what other workloads'
// reservations still plan there; what pods on it request is taken off once
// the lock is released (subtractRequested).
func (cp copier) nodeViewLocked(name string, self workload.Key) *NodeView {
	s := cp.s
	n := s.nodes.Node(name)
	// The holder map is shared, not copied: the state replaces a node's
	// map rather than change it (holdLocked), and so does a simulation on
	// the snapshot (Remove). A snapshot copies every node its workload
	// may use, for each gang planned: what a node costs here is paid
	// nodes × gangs times.
	v := &NodeView{Node: n, Holders: s.domainHolders.nodeHolders[name]}
	// Shared until something is taken off: most nodes of a large fleet
	// have no reservation planned on them, and copying their allocatable
	// was most of a snapshot's cost.
	free := n.Allocatable
	for k, out := range s.reservations.room.outstanding[name] {
		if k != self {
			free = free.Sub(out)
		}
	}
	v.Free = free
	for p := range s.pods.on(name) {
		if p.Deleting {
			if v.Leaving == nil {
				v.Leaving = workload.Resources{}
			}
			v.Leaving.AddScaled(p.Request, 1)
		}
	}
	if ref, ok := s.reservations.room.nodeReserved[name]; ok && ref.key != self {
		v.Reserved, v.ReservedBy, v.ReservedFor = true, ref.key, ref.slice
	} else if k, ok := s.applier.claimedForOther(name, self, true); ok {
		v.Reserved, v.ReservedBy, v.ReservedFor = true, k, -1
	}
	v.Kept = s.claims.nodes[name] == self
	return v
}

func (cp copier) viewLocked(sn *Snapshot, key workload.Key) *WorkloadView {
	s := cp.s
	if v := sn.Workloads[key]; v != nil {
		return v
	}
	w := s.workloads.of(key)
	v := &WorkloadView{Key: key, Rejected: map[topology.DomainRef]string{}}
	sn.Workloads[key] = v
	if w == nil {
		return v
	}
	v.Model = w.model
	v.Charge = s.book.ChargeOf(key)
	if v.Charge != nil {
		if sn.ClusterQueues == nil {
			sn.ClusterQueues = map[string]*quota.ClusterQueue{}
		}
		sn.ClusterQueues[v.Charge.ClusterQueue] = s.book.ClusterQueue(v.Charge.ClusterQueue)
	}
	v.Started = w.placedAt
	v.Evicting = s.claims.isEvicting(key)
	if w.model != nil {
		v.Created = w.model.Created
		v.Holder = workload.Holder{Key: key, UID: w.model.UID}
		v.Active = w.active()
		v.Staged = w.staged()
	}
	if r := s.reservations.of(key); r != nil {
		v.Reserved = true
		for _, sr := range r.Slices {
			for _, slot := range sr.Slots {
				if slot.Count <= 0 {
					continue
				}
				if v.Outstanding == nil {
					v.Outstanding = map[string]workload.Resources{}
				}
				out := v.Outstanding[slot.Node]
				if out == nil {
					out = workload.Resources{}
					v.Outstanding[slot.Node] = out
				}
				for name, q := range sr.Shapes[slot.Shape].Request {
					out[name] += q * int64(slot.Count)
				}
			}
		}
	}
	now := s.opts.Clock.Now()
	for d, r := range w.rejected {
		if now.Sub(r.at) < s.opts.RejectionMemory {
			v.Rejected[d] = r.reason
		}
	}
	first := true
	for _, p := range w.members {
		if !p.Live() {
			continue
		}
		if first || p.Priority > v.Priority {
			v.Priority, first = p.Priority, false
		}
		if p.Node != "" {
			v.Pods = append(v.Pods, PodView{UID: p.UID, Node: p.Node, Request: p.Request, Holds: p.holds != nil})
		}
		if w.current(p) {
			v.Members = append(v.Members, p)
		}
	}
	sort.Slice(v.Members, func(a, b int) bool { return v.Members[a].Name < v.Members[b].Name })
	sort.Slice(v.Pods, func(a, b int) bool { return v.Pods[a].UID < v.Pods[b].UID })
	return v
}
