// Package topology indexes nodes by the values of the label keys workloads
// confine their slices with (node pools, zones, …), so finding the domains
// of a key and the nodes of a domain costs the size of the answer, not a
// scan of the cluster. It is fed node objects by its owner, which also
// serialises access: Index does no locking of its own.
package topology

import (
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// DomainRef names one domain: the nodes whose label Key has value Value.
type DomainRef struct {
	Key, Value string
}

// Node is what planning needs of a node.
type Node struct {
	Name        string
	Obj         *corev1.Node
	Allocatable workload.Resources
	// Usable is false for nodes that take no new pods: NotReady or cordoned.
	Usable bool
	// Lifetime is when the node goes away by itself (zero: not known to).
	Lifetime NodeLifetime
}

// NodeLifetime is when a node that lives for a bounded time (flex-start,
// queued provisioning) goes away, and when its replacement starts being
// made.
type NodeLifetime struct {
	// End is when the node is removed, and its pods with it (zero: never).
	End time.Time
	// Recycle, when set, is when its replacement starts being provisioned
	// (End less the recycling lead time): from then on the node is on its
	// way out, and new work goes elsewhere when it can.
	Recycle time.Time
}

// Ending reports whether the node is being replaced at now.
func (l NodeLifetime) Ending(now time.Time) bool {
	return !l.Recycle.IsZero() && !now.Before(l.Recycle) || !l.End.IsZero() && !now.Before(l.End)
}

// Labels returns the node's labels.
func (n *Node) Labels() map[string]string { return n.Obj.Labels }

// Index is the set of nodes and, for every tracked key, its domains.
type Index struct {
	nodes map[string]*Node
	// lifetimes are set apart from the node objects (they come from the
	// node's class): kept across updates of the node.
	lifetimes map[string]NodeLifetime
	// domains maps a tracked key to its values and their sorted node names.
	domains map[string]map[string][]string
	// sorted memoises Values per key until a value appears or goes.
	sorted map[string][]string
	// trees are the Trees asked for, until a node change could alter them.
	trees trees
	// all memoises AllNodes until a node is added or deleted (nil: not
	// listed since).
	all []string
}

// New returns an empty index.
func New() *Index {
	return &Index{nodes: map[string]*Node{}, lifetimes: map[string]NodeLifetime{}, domains: map[string]map[string][]string{}, sorted: map[string][]string{}}
}

// Change is what a node update did to the domains of tracked keys.
type Change struct {
	// Domains lists the domains whose membership or node health changed.
	Domains []DomainRef
	// Failed is true when the node went from usable to unusable (or away).
	Failed bool
	// Moved is true when a node already known left or joined a domain
	// (its value of an indexed key changed, or was added or removed).
	Moved bool
}

// Upsert adds or replaces a node.
func (ix *Index) Upsert(obj *corev1.Node) Change {
	old := ix.nodes[obj.Name]
	if old == nil {
		ix.dropTrees(nil, obj.Labels)
		ix.all = nil
	} else {
		ix.dropTrees(old.Obj.Labels, obj.Labels)
	}
	n := &Node{Name: obj.Name, Obj: obj, Allocatable: workload.FromList(obj.Status.Allocatable), Usable: Usable(obj), Lifetime: ix.lifetimes[obj.Name]}
	ix.nodes[obj.Name] = n
	var ch Change
	for key, values := range ix.domains {
		oldV, hadOld := "", false
		if old != nil {
			oldV, hadOld = old.Obj.Labels[key]
		}
		newV, hasNew := obj.Labels[key]
		if hadOld && (!hasNew || oldV != newV) {
			values[oldV] = remove(values[oldV], obj.Name)
			if len(values[oldV]) == 0 {
				delete(values, oldV)
				delete(ix.sorted, key)
			}
			ch.Domains = append(ch.Domains, DomainRef{key, oldV})
			ch.Moved = true
		}
		if hasNew && (!hadOld || oldV != newV) {
			if _, ok := values[newV]; !ok {
				delete(ix.sorted, key)
			}
			values[newV] = insert(values[newV], obj.Name)
			ch.Domains = append(ch.Domains, DomainRef{key, newV})
			ch.Moved = ch.Moved || old != nil
		} else if hasNew && old != nil && old.Usable != n.Usable {
			ch.Domains = append(ch.Domains, DomainRef{key, newV})
		}
	}
	ch.Failed = old != nil && old.Usable && !n.Usable
	return ch
}

// Delete removes a node.
func (ix *Index) Delete(name string) Change {
	old := ix.nodes[name]
	if old == nil {
		return Change{}
	}
	ix.dropTrees(old.Obj.Labels, nil)
	ix.all = nil
	delete(ix.nodes, name)
	delete(ix.lifetimes, name)
	ch := Change{Failed: true}
	for key, values := range ix.domains {
		if v, ok := old.Obj.Labels[key]; ok {
			values[v] = remove(values[v], name)
			if len(values[v]) == 0 {
				delete(values, v)
				delete(ix.sorted, key)
			}
			ch.Domains = append(ch.Domains, DomainRef{key, v})
		}
	}
	return ch
}

// SetLifetime records when a node goes away (a zero NodeLifetime: it does not
// by itself), and reports whether a known node's changed. The node's entry
// is replaced, not changed: snapshots that hold the old one keep what they
// read.
func (ix *Index) SetLifetime(name string, l NodeLifetime) bool {
	if ix.lifetimes[name] == l {
		return false
	}
	if l == (NodeLifetime{}) {
		delete(ix.lifetimes, name)
	} else {
		ix.lifetimes[name] = l
	}
	old := ix.nodes[name]
	if old == nil {
		return false
	}
	n := *old
	n.Lifetime = l
	ix.nodes[name] = &n
	return true
}

// Track makes sure the domains of key are indexed; the first call for a key
// scans every node once.
func (ix *Index) Track(key string) {
	if _, ok := ix.domains[key]; ok || key == "" {
		return
	}
	values := map[string][]string{}
	for name, n := range ix.nodes {
		if v, ok := n.Obj.Labels[key]; ok {
			values[v] = append(values[v], name)
		}
	}
	for v := range values {
		sort.Strings(values[v])
	}
	ix.domains[key] = values
}

// Node returns a node by name.
func (ix *Index) Node(name string) *Node { return ix.nodes[name] }

// Len is the number of nodes.
func (ix *Index) Len() int { return len(ix.nodes) }

// Values lists the domains of a tracked key, sorted. The slice is shared:
// callers must not modify it.
func (ix *Index) Values(key string) []string {
	if out, ok := ix.sorted[key]; ok {
		return out
	}
	values, tracked := ix.domains[key]
	out := make([]string, 0, len(values))
	for v := range values {
		out = append(out, v)
	}
	sort.Strings(out)
	if tracked {
		ix.sorted[key] = out
	}
	return out
}

// NodesOf lists the node names of a domain of a tracked key, sorted. The
// slice is shared: callers must not modify it.
func (ix *Index) NodesOf(d DomainRef) []string { return ix.domains[d.Key][d.Value] }

// DomainOf returns the value of key on a node.
func (ix *Index) DomainOf(node, key string) (string, bool) {
	n := ix.nodes[node]
	if n == nil || key == "" {
		return "", false
	}
	v, ok := n.Obj.Labels[key]
	return v, ok
}

// Bounded lists, sorted, the nodes known to go away by themselves: those
// given a NodeLifetime (flex-start nodes, mostly; few in any cluster).
func (ix *Index) Bounded() []string {
	out := make([]string, 0, len(ix.lifetimes))
	for name := range ix.lifetimes {
		if ix.nodes[name] != nil {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// AllNodes lists every node name, sorted. The list is kept until a node
// is added or deleted, for a snapshot of every node asks for it each
// decision: callers must not modify it.
func (ix *Index) AllNodes() []string {
	if ix.all != nil {
		return ix.all
	}
	out := make([]string, 0, len(ix.nodes))
	for name := range ix.nodes {
		out = append(out, name)
	}
	sort.Strings(out)
	ix.all = out
	return out
}

// Usable reports whether a node takes new pods at all: Ready and not
// cordoned. Taints are a matter of each pod's tolerations.
func Usable(n *corev1.Node) bool {
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

func insert(list []string, name string) []string {
	i, found := slices.BinarySearch(list, name)
	if found {
		return list
	}
	// Copy on write: slices handed out by NodesOf stay valid.
	out := make([]string, 0, len(list)+1)
	out = append(out, list[:i]...)
	out = append(out, name)
	return append(out, list[i:]...)
}

func remove(list []string, name string) []string {
	i, found := slices.BinarySearch(list, name)
	if !found {
		return list
	}
	out := make([]string, 0, len(list)-1)
	out = append(out, list[:i]...)
	return append(out, list[i+1:]...)
}
