package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Health of a node pool, worst first.
const (
	// HealthFailed: a node of the pool is not Ready.
	HealthFailed = "failed"
	// HealthRecycling: a flex-start node of the pool is past its
	// recycling start (or its end of life): it goes away soon.
	HealthRecycling = "recycling"
	// HealthCordoned: a node of the pool is cordoned.
	HealthCordoned = "cordoned"
	// HealthOK: every node is Ready and schedulable.
	HealthOK = "ok"
)

var healthRank = map[string]int{HealthOK: 0, HealthCordoned: 1, HealthRecycling: 2, HealthFailed: 3}

// Pool is one domain (node pool) of the fleet.
type Pool struct {
	Name        string `json:"name"`
	Accelerator string `json:"accelerator,omitempty"`
	Topology    string `json:"topology,omitempty"`
	Zone        string `json:"zone,omitempty"`
	Nodes       int    `json:"nodes"`
	// Health is ok, cordoned, recycling or failed (the worst node's);
	// Problems say which node and why.
	Health   string   `json:"health"`
	Problems []string `json:"problems,omitempty"`
	// Resource is the pool's accelerator resource (google.com/tpu,
	// nvidia.com/gpu); Capacity its allocatable total, Used what bound
	// pods request of it.
	Resource string `json:"resource,omitempty"`
	Capacity int64  `json:"capacity,omitempty"`
	Used     int64  `json:"used,omitempty"`
	// Holders are the workloads with live pods on the pool, longest
	// holding first; none: the pool is free.
	Holders []Holder `json:"holders,omitempty"`
	// Recycles is the earliest recycling start of its nodes (flex-start
	// with node recycling: their replacements are asked for then), Ends
	// their earliest end of life, by their ComputeClass; zero: none.
	Recycles time.Time `json:"recycles,omitzero"`
	Ends     time.Time `json:"ends,omitzero"`
	// Lifetimes are those of its nodes that have one, by name.
	Lifetimes []NodeLifetime `json:"lifetimes,omitempty"`
	// TopologyName names the Topology its nodes are arranged by, and
	// Domains are that Topology's top-level domains in the pool (none:
	// no Topology's levels are on every node; see arrangeByTopology).
	TopologyName string       `json:"topologyName,omitempty"`
	Domains      []PoolDomain `json:"domains,omitempty"`
}

// NodeLifetime is when a node goes away by itself, as its ComputeClass
// says (pkg/computeclass): its recycling start (zero: not recycled) and
// its end of life; Phase is Running, Recycling or Ended now, and
// Cordoned says whether it is cordoned (a recycled node is, once its
// replacement is Ready: its pods are then moved off it).
type NodeLifetime struct {
	Node     string             `json:"node"`
	Phase    computeclass.Phase `json:"phase"`
	Recycles time.Time          `json:"recycles,omitzero"`
	Ends     time.Time          `json:"ends"`
	Cordoned bool               `json:"cordoned,omitempty"`
}

// Free reports whether no live pod is bound to the pool.
func (p *Pool) Free() bool { return len(p.Holders) == 0 }

// Holder is a workload holding a pool.
type Holder struct {
	Workload WorkloadRef `json:"workload"`
	// UID is the object its pods were created for, when they say (a
	// deleted and recreated object of the same name is another holder).
	UID      types.UID `json:"uid,omitempty"`
	Priority int32     `json:"priority"`
	// Since is when its first pod on the pool was bound.
	Since time.Time `json:"since,omitzero"`
	Pods  int       `json:"pods"`
}

// Pools lists every node pool (nodes labelled cloud.google.com/gke-nodepool)
// with its accelerator, health and holders, by name.
func Pools(c *Cluster) []Pool {
	pools, nodesOf := domains(c, wellknown.NodePoolLabel)
	if len(c.Topologies) == 0 {
		return pools
	}
	podsOn := map[string][]*corev1.Pod{}
	for _, p := range c.Pods {
		if bound(p) {
			podsOn[p.Spec.NodeName] = append(podsOn[p.Spec.NodeName], p)
		}
	}
	classes := map[string]*cloudv1.ComputeClass{}
	for _, cc := range c.ComputeClasses {
		classes[cc.Name] = cc
	}
	topologies := slices.Clone(c.Topologies)
	slices.SortFunc(topologies, func(a, b *multislicev1alpha1.Topology) int { return strings.Compare(a.Name, b.Name) })
	for i := range pools {
		arrangeByTopology(c, topologies, &pools[i], nodesOf[pools[i].Name], podsOn, classes)
	}
	return pools
}

// domains lists the domains of a node label key (the nodes of each of its
// values) as Pools does for node pools, and the nodes of each.
func domains(c *Cluster, key string) ([]Pool, map[string][]*corev1.Node) {
	nodesOf := map[string][]*corev1.Node{}
	poolOf := map[string]string{}
	for _, n := range c.Nodes {
		if name := n.Labels[key]; name != "" {
			nodesOf[name] = append(nodesOf[name], n)
			poolOf[n.Name] = name
		}
	}
	podsOn := map[string][]*corev1.Pod{}
	for _, p := range c.Pods {
		if pool, ok := poolOf[p.Spec.NodeName]; ok && bound(p) {
			podsOn[pool] = append(podsOn[pool], p)
		}
	}
	classes := map[string]*cloudv1.ComputeClass{}
	for _, cc := range c.ComputeClasses {
		classes[cc.Name] = cc
	}
	out := make([]Pool, 0, len(nodesOf))
	for _, name := range slices.Sorted(maps.Keys(nodesOf)) {
		nodes := nodesOf[name]
		slices.SortFunc(nodes, func(a, b *corev1.Node) int { return strings.Compare(a.Name, b.Name) })
		p := Pool{Name: name, Nodes: len(nodes), Health: HealthOK}
		p.Accelerator = distinct(nodes, func(n *corev1.Node) string {
			if a := n.Labels[wellknown.TPUAcceleratorLabel]; a != "" {
				return a
			}
			return n.Labels[wellknown.GPUAcceleratorLabel]
		})
		p.Topology = distinct(nodes, func(n *corev1.Node) string { return n.Labels[wellknown.TPUTopologyLabel] })
		p.Zone = distinct(nodes, func(n *corev1.Node) string { return n.Labels[wellknown.ZoneLabel] })
		p.Resource = string(acceleratorResource(nodes))
		for _, n := range nodes {
			if lt, ok := nodeLifetime(c, classes, n); ok {
				p.Lifetimes = append(p.Lifetimes, lt)
				p.Recycles = earliest(p.Recycles, lt.Recycles)
				p.Ends = earliest(p.Ends, lt.Ends)
			}
			health, why := nodeHealth(c, classes, n)
			if healthRank[health] > healthRank[p.Health] {
				p.Health = health
			}
			if why != "" {
				p.Problems = append(p.Problems, why)
			}
			if p.Resource != "" {
				q := n.Status.Allocatable[corev1.ResourceName(p.Resource)]
				p.Capacity += q.Value()
			}
		}
		p.Holders = c.holders(podsOn[name])
		p.Used = acceleratorUsed(podsOn[name], p.Resource)
		out = append(out, p)
	}
	return out, nodesOf
}

// acceleratorUsed is how much of resource (whole units; "": none) pods
// request.
func acceleratorUsed(pods []*corev1.Pod, resource string) int64 {
	var used int64
	if resource == "" {
		return 0
	}
	for _, pod := range pods {
		used += workload.PodRequests(&pod.Spec)[corev1.ResourceName(resource)] / 1000
	}
	return used
}

// acceleratorResource is the accelerator resource nodes offer, by their
// labels ("" for CPU pools).
func acceleratorResource(nodes []*corev1.Node) corev1.ResourceName {
	for _, n := range nodes {
		if n.Labels[wellknown.TPUAcceleratorLabel] != "" {
			return wellknown.ResourceTPU
		}
		if n.Labels[wellknown.GPUAcceleratorLabel] != "" {
			return wellknown.ResourceGPU
		}
	}
	return ""
}

// distinct joins the distinct non-empty values of f over nodes.
func distinct(nodes []*corev1.Node, f func(*corev1.Node) string) string {
	var vals []string
	for _, n := range nodes {
		if v := f(n); v != "" && !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	return strings.Join(vals, ",")
}

// nodeHealth is one node's health and, unless ok, why.
func nodeHealth(c *Cluster, classes map[string]*cloudv1.ComputeClass, n *corev1.Node) (string, string) {
	ready := false
	readyWhy := "no Ready condition"
	for _, cond := range n.Status.Conditions {
		if cond.Type == corev1.NodeReady {
			ready = cond.Status == corev1.ConditionTrue
			readyWhy = fmt.Sprintf("Ready=%s", cond.Status)
			if cond.Reason != "" {
				readyWhy += " (" + cond.Reason + ")"
			}
		}
	}
	if !ready {
		return HealthFailed, n.Name + ": " + readyWhy
	}
	if phase, at := lifetimePhase(c, classes, n); phase != computeclass.Running {
		what := "recycling since " + at.UTC().Format(time.RFC3339)
		if phase == computeclass.Ended {
			what = "past its end of life " + at.UTC().Format(time.RFC3339)
		}
		return HealthRecycling, n.Name + ": " + what
	}
	if n.Spec.Unschedulable {
		return HealthCordoned, n.Name + ": cordoned"
	}
	return HealthOK, ""
}

// lifetimePhase is where a node stands in the lifetime its ComputeClass
// gives it (computeclass.NodeRunWindow; a flex-start node of no class
// known here ends after 7 days), with the time its phase began.
func lifetimePhase(c *Cluster, classes map[string]*cloudv1.ComputeClass, n *corev1.Node) (computeclass.Phase, time.Time) {
	lt := classRunWindow(c, classes, n)
	switch phase := lt.PhaseAt(c.Now); phase {
	case computeclass.Ended:
		return phase, lt.End
	case computeclass.Recycling:
		return phase, lt.RecycleAt
	default:
		return phase, time.Time{}
	}
}

// classRunWindow is the run window n's ComputeClass gives it (zero for a
// node of no class that is not flex-start).
func classRunWindow(c *Cluster, classes map[string]*cloudv1.ComputeClass, n *corev1.Node) computeclass.RunWindow {
	name := computeclass.NodeClass(n)
	if name == "" && computeclass.NodeCapacity(n) != computeclass.FlexStart {
		return computeclass.RunWindow{}
	}
	var class *cloudv1.ComputeClass
	if c.ComputeClassesServed {
		class = classes[name]
	}
	lt, _ := computeclass.NodeRunWindow(class, n)
	return lt
}

// nodeLifetime is n's lifetime as listed; ok is false for a node that
// does not go away by itself.
func nodeLifetime(c *Cluster, classes map[string]*cloudv1.ComputeClass, n *corev1.Node) (NodeLifetime, bool) {
	lt := classRunWindow(c, classes, n)
	if lt.End.IsZero() {
		return NodeLifetime{}, false
	}
	return NodeLifetime{Node: n.Name, Phase: lt.PhaseAt(c.Now), Recycles: lt.RecycleAt, Ends: lt.End, Cordoned: n.Spec.Unschedulable}, true
}

// earliest is the earlier of two times, a zero time counting as none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// holders groups the live pods bound to a pool by workload.
func (c *Cluster) holders(pods []*corev1.Pod) []Holder {
	by := map[workload.Holder]*Holder{}
	for _, p := range pods {
		ref := c.WorkloadOf(p)
		id := holderOf(p, ref)
		h := by[id]
		if h == nil {
			h = &Holder{Workload: ref, UID: id.UID, Priority: podPriority(p), Since: boundSince(p)}
			by[id] = h
		}
		h.Pods++
		h.Priority = max(h.Priority, podPriority(p))
		if t := boundSince(p); t.Before(h.Since) {
			h.Since = t
		}
	}
	var out []Holder
	for _, h := range by {
		out = append(out, *h)
	}
	slices.SortFunc(out, func(a, b Holder) int {
		if c := a.Since.Compare(b.Since); c != 0 {
			return c
		}
		return a.id().Compare(b.id())
	})
	return out
}

// holderOf is the holder pod, of workload ref, counts for: its workload
// and the UID of the object it was created for, when it says.
func holderOf(pod *corev1.Pod, ref WorkloadRef) workload.Holder {
	h := workload.Holder{Key: ref.key()}
	if m, ok, err := workload.MemberOf(pod); ok && err == nil {
		h.UID = m.OwnerUID
	}
	return h
}

// id is h as the scheduler's rules see it.
func (h Holder) id() workload.Holder { return workload.Holder{Key: h.Workload.key(), UID: h.UID} }
