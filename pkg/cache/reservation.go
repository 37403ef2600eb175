package cache

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Reservation holds a set of domains, one per confined slice, for one
// attempt of a workload: capacity for every pod of every slice is kept from
// every other pod until the workload is bound, released, or times out.
type Reservation struct {
	Key     workload.Key
	UID     types.UID
	Attempt int32
	// Domains maps slice index to the domain (node label value) it holds;
	// DomainKeys maps it to the label key. Unconfined slices have neither.
	Domains    map[int]string
	DomainKeys map[int]string
	// Staged is JobSet's leaders-first placement: the gate is every leader.
	Staged bool
	// Deadline is the gate deadline before commit, the follower deadline after.
	Deadline  time.Time
	Committed bool
	// Reserved maps pods that passed Reserve to their slice.
	Reserved map[types.UID]int
}

// NodeState is a node and what pods already on it (bound or assumed) request.
type NodeState struct {
	Node      *corev1.Node
	Requested workload.Resources
}

// PlanResult is the PreFilter answer for a pod.
type PlanResult struct {
	Verdict
	// Nodes restricts the pod to its slice's reserved domain; nil means no
	// restriction (plain pods, unconfined gangs).
	Nodes sets.Set[string]
	// Failure is set when no reservation could be made.
	Failure *planner.Failure
	// Placed describes a reservation made by this call, for an event.
	Placed string
	// Acts are what the scheduler must do (an expired reservation released).
	Acts Actions
}

// Plan makes sure the pod's workload holds a reservation, planning every
// slice at once from the nodes when it holds none, and returns the nodes the
// pod may use. The nodes are only built for gang pods.
func (c *Cache) Plan(pod *corev1.Pod, nodeStates func() []NodeState) PlanResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, w := c.classifyLocked(pod)
	res := PlanResult{Verdict: v}
	if !v.Gang || v.Wait || v.Unresolvable {
		return res
	}
	nodes := nodeStates()
	now := c.opts.Clock.Now()
	r := c.reservations[w.Key]
	if r != nil && !r.Committed && now.After(r.Deadline) {
		res.Acts.merge(c.releaseLocked(w.Key, "the reservation timed out"))
		r = nil
	}
	if r == nil && c.satisfiedLocked(w) {
		// The gang already runs whole (a PodGroup with more pods than
		// minMember, or a replacement pod): the pod joins its slice's
		// domain without a new reservation.
		if d, ok := c.boundDomainsLocked(w, nodes)[v.Member.Slice]; ok {
			res.Nodes = nodesIn(nodes, w.Slices[v.Member.Slice].DomainKey, d.domain)
		}
		return res
	}
	if r == nil {
		var fail *planner.Failure
		r, fail = c.reserveLocked(w, pod, nodes, now)
		if fail != nil {
			c.waiting[w.Key] = true
			res.Failure = fail
			return res
		}
		delete(c.waiting, w.Key)
		c.reservations[w.Key] = r
		res.Placed = describePlacement(w, r)
	}
	if d, ok := r.Domains[v.Member.Slice]; ok {
		res.Nodes = nodesIn(nodes, r.DomainKeys[v.Member.Slice], d)
	}
	return res
}

func nodesIn(nodes []NodeState, key, domain string) sets.Set[string] {
	out := sets.New[string]()
	for _, n := range nodes {
		if n.Node.Labels[key] == domain {
			out.Insert(n.Node.Name)
		}
	}
	return out
}

// satisfiedLocked reports whether at least every pod the gang needs is
// bound for its current attempt.
func (c *Cache) satisfiedLocked(w *workload.Workload) bool {
	bound := 0
	for _, e := range c.members[w.Key] {
		if e.nodeName != "" && !e.assumed && !e.terminal && e.member.RestartAttempt == w.RestartAttempt {
			bound++
		}
	}
	return bound >= w.TotalPods()
}

// reserveLocked plans all slices of w.
func (c *Cache) reserveLocked(w *workload.Workload, pod *corev1.Pod, nodes []NodeState, now time.Time) (*Reservation, *planner.Failure) {
	staged, _ := c.countMembersLocked(w, pod)
	r := &Reservation{
		Key: w.Key, UID: w.UID, Attempt: w.RestartAttempt, Staged: staged,
		Domains: map[int]string{}, DomainKeys: map[int]string{},
		Deadline: now.Add(c.opts.PermitTimeout), Reserved: map[types.UID]int{},
	}
	// Slices are planned per domain key; nodes given to an earlier key's
	// slices are not offered to a later key's.
	byKey := map[string][]int{}
	for i, s := range w.Slices {
		if s.DomainKey != "" {
			byKey[s.DomainKey] = append(byKey[s.DomainKey], i)
		}
	}
	keys := slices.Sorted(maps.Keys(byKey))
	taken := sets.New[string]()
	reservedBy := c.nodeReservationsLocked(nodes, w.Key)
	bound := c.boundDomainsLocked(w, nodes)
	for _, key := range keys {
		domains, nodeByName := c.domainsLocked(key, nodes, w.Key, taken, reservedBy)
		req := planner.Request{Workload: w.Key.String()}
		members := c.representativesLocked(w, pod)
		for _, i := range byKey[key] {
			s := &w.Slices[i]
			tmpl := members[i]
			if tmpl == nil {
				tmpl = s.Template
			}
			if tmpl == nil {
				tmpl = &pod.Spec
			}
			request := workload.PodRequests(tmpl)
			req.Slices = append(req.Slices, planner.SliceDemand{
				Index:     i,
				Pods:      s.Pods,
				Request:   request,
				Qualifies: qualifier(tmpl, nodeByName),
				Describe:  describeSelector(tmpl),
				Fixed:     bound[i].domain,
				Bound:     bound[i].pods,
			})
		}
		plan, fail := planner.MakePlan(req, domains)
		if fail != nil {
			return nil, fail
		}
		for i, d := range plan {
			r.Domains[i] = d
			r.DomainKeys[i] = key
			for _, n := range nodes {
				if n.Node.Labels[key] == d {
					taken.Insert(n.Node.Name)
				}
			}
		}
	}
	return r, nil
}

// representativesLocked picks, per slice, the spec of a live member pod of
// the current attempt (a leader if there is one): admission adds to pods what
// their template lacks (GKE's and ExtendedResourceToleration's accelerator
// tolerations), and the pods are what must fit. Under staged placement every
// slice has its leader by the time a plan is made; followers created later
// are pinned to their leader's domain anyway.
func (c *Cache) representativesLocked(w *workload.Workload, pod *corev1.Pod) map[int]*corev1.PodSpec {
	out := map[int]*corev1.PodSpec{}
	leader := map[int]bool{}
	consider := func(m workload.Member, spec *corev1.PodSpec) {
		if m.RestartAttempt != w.RestartAttempt || m.Slice >= len(w.Slices) || spec == nil {
			return
		}
		if out[m.Slice] == nil || (m.Leader && !leader[m.Slice]) {
			out[m.Slice] = spec
			leader[m.Slice] = m.Leader
		}
	}
	if m, ok, err := workload.MemberOf(pod); ok && err == nil {
		consider(m, &pod.Spec)
	}
	for _, e := range c.members[w.Key] {
		if !e.terminal {
			consider(e.member, e.spec)
		}
	}
	return out
}

// domainsLocked groups nodes into the domains of key, with who holds each.
func (c *Cache) domainsLocked(key string, nodes []NodeState, self workload.Key, taken sets.Set[string], reservedBy map[string]workload.Key) ([]planner.Domain, map[string]*corev1.Node) {
	byName := map[string]*planner.Domain{}
	nodeByName := make(map[string]*corev1.Node, len(nodes))
	var order []string
	for _, n := range nodes {
		value, ok := n.Node.Labels[key]
		if !ok {
			continue
		}
		nodeByName[n.Node.Name] = n.Node
		d := byName[value]
		if d == nil {
			d = &planner.Domain{Name: value}
			byName[value] = d
			order = append(order, value)
		}
		alloc := workload.FromList(n.Node.Status.Allocatable)
		d.Nodes = append(d.Nodes, planner.Node{
			Name:        n.Node.Name,
			Allocatable: alloc,
			Free:        alloc.Sub(n.Requested),
			Usable:      nodeUsable(n.Node),
		})
		holder := ""
		if taken.Has(n.Node.Name) {
			holder = self.String() + " (another key)"
		} else if k, ok := reservedBy[n.Node.Name]; ok && k != self {
			holder = k.String()
		} else {
			for k := range c.holders[n.Node.Name] {
				if k != self {
					holder = k.String()
					break
				}
			}
		}
		if holder != "" && d.Holder == "" {
			d.Holder = holder
		}
	}
	sort.Strings(order)
	out := make([]planner.Domain, 0, len(order))
	for _, name := range order {
		out = append(out, *byName[name])
	}
	return out, nodeByName
}

// nodeReservationsLocked maps each node in a domain reserved by a workload
// other than self to that workload.
func (c *Cache) nodeReservationsLocked(nodes []NodeState, self workload.Key) map[string]workload.Key {
	out := map[string]workload.Key{}
	for k, r := range c.reservations {
		if k == self {
			continue
		}
		for i, d := range r.Domains {
			key := r.DomainKeys[i]
			for _, n := range nodes {
				if n.Node.Labels[key] == d {
					out[n.Node.Name] = k
				}
			}
		}
	}
	return out
}

// boundDomainsLocked finds, per confined slice, the domain its bound pods of
// the current attempt sit in: a restarted scheduler keeps those slices where
// they are and plans only the rest.
type boundSlice struct {
	domain string
	pods   int
}

func (c *Cache) boundDomainsLocked(w *workload.Workload, nodes []NodeState) map[int]boundSlice {
	labels := make(map[string]map[string]string, len(nodes))
	for _, n := range nodes {
		labels[n.Node.Name] = n.Node.Labels
	}
	out := map[int]boundSlice{}
	for _, e := range c.members[w.Key] {
		if e.nodeName == "" || e.terminal || e.member.RestartAttempt != w.RestartAttempt || e.member.Slice >= len(w.Slices) {
			continue
		}
		key := w.Slices[e.member.Slice].DomainKey
		if key == "" {
			continue
		}
		if v, ok := labels[e.nodeName][key]; ok {
			b := out[e.member.Slice]
			b.domain = v
			b.pods++
			out[e.member.Slice] = b
		}
	}
	return out
}

func nodeUsable(n *corev1.Node) bool {
	if n.Spec.Unschedulable {
		return false
	}
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// qualifier says whether a node passes a slice template's node selector,
// required node affinity and NoSchedule/NoExecute taints.
func qualifier(tmpl *corev1.PodSpec, nodes map[string]*corev1.Node) func(string, *planner.Node) bool {
	affinity := nodeaffinity.GetRequiredNodeAffinity(&corev1.Pod{Spec: *tmpl})
	memo := map[string]bool{}
	return func(_ string, n *planner.Node) bool {
		if ok, seen := memo[n.Name]; seen {
			return ok
		}
		node := nodes[n.Name]
		ok := node != nil
		if ok {
			match, err := affinity.Match(node)
			ok = err == nil && match
		}
		if ok {
			_, untolerated := corev1helpers.FindMatchingUntoleratedTaint(logger, node.Spec.Taints, tmpl.Tolerations, func(t *corev1.Taint) bool {
				return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
			}, true)
			ok = !untolerated
		}
		memo[n.Name] = ok
		return ok
	}
}

// describeSelector renders a template's node selector for users, e.g.
// "gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4".
func describeSelector(tmpl *corev1.PodSpec) string {
	keys := slices.Sorted(maps.Keys(tmpl.NodeSelector))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%s", strings.TrimPrefix(k, "cloud.google.com/"), tmpl.NodeSelector[k]))
	}
	return strings.Join(parts, ", ")
}

func describePlacement(w *workload.Workload, r *Reservation) string {
	if len(r.Domains) == 0 {
		return fmt.Sprintf("reserved %d pods of %s (unconfined)", w.TotalPods(), w.Key)
	}
	idx := slices.Sorted(maps.Keys(r.Domains))
	parts := make([]string, 0, len(idx))
	for _, i := range idx {
		parts = append(parts, fmt.Sprintf("slice %d (%s) on %s=%s", i, w.Slices[i].Name, strings.TrimPrefix(r.DomainKeys[i], "cloud.google.com/"), r.Domains[i]))
	}
	return "reserved " + strings.Join(parts, ", ")
}
