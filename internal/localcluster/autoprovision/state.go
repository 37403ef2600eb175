package autoprovision

import (
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// pool is a node pool it created.
type pool struct {
	name, class string
	priority    int
	kind        computeclass.Capacity
	machine     string
	zone        string
	region      string
	// labels are the class's labels of its nodes (computeclass.NodeLabels).
	labels map[string]string
	// exclusive pools serve one group at a time: group, "" while free.
	exclusive bool
	group     string
	// next numbers its next node.
	next int
}

// request is a node queued for a pool.
type request struct {
	seq      uint64
	pool     string
	queuedAt time.Time
	// replaces names the node it recycles; "" for a new node.
	replaces string
}

// node is what a pass knows of one of its nodes.
type node struct {
	obj  *corev1.Node
	name string
	pool string
	kind computeclass.Capacity
	// ready: Ready, and the node lifecycle controller lifted the taints
	// every new node starts with: pods can be placed.
	ready      bool
	cordoned   bool
	replaces   string
	recycledAt time.Time
	// pods counts the pods bound to it that have not ended, active those
	// of them not being deleted; used is the requests of the pods.
	pods, active int
	used         corev1.ResourceList
}

// world is what a pass sees.
type world struct {
	now   time.Time
	nodes map[string]*node
	// byPool lists each pool's nodes by name.
	byPool map[string][]*node
	// replacedBy maps a node to its replacement's name.
	replacedBy map[string]string
	usage      Usage
}

// observe builds the world of a pass from the informers and what the
// controller created or deleted and has not seen there yet. Pools it does
// not know (it restarted) are rebuilt from their nodes.
func (c *Controller) observe(now time.Time) *world {
	w := &world{now: now, nodes: map[string]*node{}, byPool: map[string][]*node{}, replacedBy: map[string]string{}, usage: NewUsage()}
	list, _ := c.nodes.List(labels.Everything())
	seen := map[string]bool{}
	for _, n := range list {
		seen[n.Name] = true
		delete(c.created, n.Name)
	}
	for name := range c.deleting {
		if !seen[name] {
			delete(c.deleting, name)
		}
	}
	for name := range c.cordoned {
		if !seen[name] {
			delete(c.cordoned, name)
		}
	}
	for _, n := range c.created {
		list = append(list, n)
	}
	for _, n := range list {
		if c.deleting[n.Name] || n.Labels[wellknown.NodePoolLabel] == "" {
			continue
		}
		nd := &node{obj: n, name: n.Name, pool: n.Labels[wellknown.NodePoolLabel], kind: computeclass.NodeCapacity(n),
			ready: faults.NodeHealth(n) == faults.Healthy, cordoned: n.Spec.Unschedulable, replaces: n.Annotations[ReplacesAnnotation], used: corev1.ResourceList{}}
		if t, err := time.Parse(time.RFC3339, n.Annotations[CordonedAnnotation]); err == nil {
			nd.recycledAt = t
			delete(c.cordoned, n.Name)
		} else if t, ok := c.cordoned[n.Name]; ok {
			// Cordoned by this controller; the informer lags behind.
			nd.recycledAt, nd.cordoned = t, true
		}
		pods, _ := c.pods.ByIndex(nodeNameIndex, n.Name)
		for _, o := range pods {
			p, ok := o.(*corev1.Pod)
			if !ok || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
				continue
			}
			nd.pods++
			if p.DeletionTimestamp == nil {
				nd.active++
			}
			for name, q := range resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}) {
				sum := nd.used[name]
				sum.Add(q)
				nd.used[name] = sum
			}
		}
		w.nodes[n.Name] = nd
		w.byPool[nd.pool] = append(w.byPool[nd.pool], nd)
		if nd.replaces != "" {
			w.replacedBy[nd.replaces] = n.Name
		}
		w.usage.Nodes[capKey{nd.kind, n.Labels[corev1.LabelInstanceTypeStable], n.Labels[wellknown.ZoneLabel]}]++
		c.adopt(n)
	}
	for _, nodes := range w.byPool {
		sort.Slice(nodes, func(i, j int) bool { return nodes[i].name < nodes[j].name })
	}
	for _, r := range c.queue {
		if p := c.pools[r.pool]; p != nil {
			w.usage.Queued[capKey{p.kind, p.machine, p.zone}]++
		}
		if r.replaces != "" {
			w.replacedBy[r.replaces] = ""
		}
	}
	return w
}

// adopt rebuilds the pool of a node it does not know.
func (c *Controller) adopt(n *corev1.Node) {
	name := n.Labels[wellknown.NodePoolLabel]
	p := c.pools[name]
	if p == nil {
		group := n.Annotations[GroupAnnotation]
		p = &pool{name: name, class: n.Labels[wellknown.ComputeClassLabel], priority: priorityOf(n), kind: computeclass.NodeCapacity(n),
			machine: n.Labels[corev1.LabelInstanceTypeStable], zone: n.Labels[wellknown.ZoneLabel], region: n.Labels[corev1.LabelTopologyRegion],
			labels: map[string]string{}, exclusive: group != "", group: group}
		for _, k := range []string{wellknown.ComputeClassLabel, wellknown.SpotLabel, wellknown.FlexStartLabel, corev1.LabelInstanceTypeStable,
			wellknown.MachineFamilyLabel, wellknown.GPUAcceleratorLabel, wellknown.TPUAcceleratorLabel, wellknown.TPUTopologyLabel} {
			if v, ok := n.Labels[k]; ok {
				p.labels[k] = v
			}
		}
		c.pools[name] = p
	}
	if i, err := strconv.Atoi(strings.TrimPrefix(n.Name, name+"-")); err == nil && i >= p.next {
		p.next = i + 1
	}
}

// live are a pool's nodes that serve it on: not cordoned, and not
// replaced or being replaced (a replacement, queued or there, counts in
// their place).
func (w *world) live(pool string) []*node {
	var out []*node
	for _, n := range w.byPool[pool] {
		if _, replaced := w.replacedBy[n.name]; !n.cordoned && !replaced {
			out = append(out, n)
		}
	}
	return out
}

// busy reports whether a pod not being deleted is bound to a node of the
// pool: a pool whose pods are going (their JobSet restarts) is free for
// the group that comes back.
func (w *world) busy(pool string) bool {
	for _, n := range w.byPool[pool] {
		if n.active > 0 {
			return true
		}
	}
	return false
}

// queued counts the requests of a pool; replacements counts those that
// replace a node.
func (c *Controller) queued(pool string) (all, replacements int) {
	for _, r := range c.queue {
		if r.pool == pool {
			all++
			if r.replaces != "" {
				replacements++
			}
		}
	}
	return all, replacements
}

// enqueue queues n nodes for a pool.
func (c *Controller) enqueue(p *pool, n int, replaces string, w *world) {
	for range n {
		c.seq++
		c.queue = append(c.queue, &request{seq: c.seq, pool: p.name, queuedAt: w.now, replaces: replaces})
		w.usage.Queued[capKey{p.kind, p.machine, p.zone}]++
	}
	if replaces != "" {
		w.replacedBy[replaces] = ""
	}
}

// remove takes a node out of the world once it is deleted.
func (w *world) remove(name string) {
	n := w.nodes[name]
	if n == nil {
		return
	}
	delete(w.nodes, name)
	nodes := w.byPool[n.pool]
	for i, o := range nodes {
		if o.name == name {
			w.byPool[n.pool] = append(nodes[:i:i], nodes[i+1:]...)
			break
		}
	}
	w.usage.Nodes[capKey{n.kind, n.obj.Labels[corev1.LabelInstanceTypeStable], n.obj.Labels[wellknown.ZoneLabel]}]--
	if n.replaces != "" && w.replacedBy[n.replaces] == name {
		delete(w.replacedBy, n.replaces)
	}
}
