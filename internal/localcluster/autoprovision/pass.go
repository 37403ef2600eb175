package autoprovision

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// passCtx is what the steps of one pass share.
type passCtx struct {
	ctx context.Context
	w   *world
	cfg *Config
	// needed are the pools a waiting group needs this pass.
	needed map[string]bool
	next   time.Time
	failed bool
}

func (pc *passCtx) wake(t time.Time) { pc.next = earliest(pc.next, t) }

// pass looks at everything once and does what is due. It returns when
// the next pass is due by time alone (zero: only when something changes).
func (c *Controller) pass(ctx context.Context) time.Time {
	pc := &passCtx{ctx: ctx, w: c.observe(c.clock.Now()), cfg: c.config(), needed: map[string]bool{}}
	c.preemptSpot(pc)
	c.recycle(pc)
	c.provision(pc)
	c.cancelUnneeded(pc)
	c.createDue(pc)
	c.scaleDown(pc)
	for name := range c.pools {
		queued, _ := c.queued(name)
		if len(pc.w.byPool[name]) == 0 && queued == 0 && !pc.needed[name] {
			delete(c.pools, name)
		}
	}
	if pc.failed {
		pc.wake(pc.w.now.Add(retryAfter))
	}
	return pc.next
}

// report logs an API error of a step; the pass is repeated soon.
func (c *Controller) report(pc *passCtx, err error) {
	if err != nil && pc.ctx.Err() == nil {
		c.log("%v (retrying in %s)", err, retryAfter)
		pc.failed = true
	}
}

// deleteNode removes a node; its pods are then deleted by the pod garbage
// collector, as when a VM goes away.
func (c *Controller) deleteNode(pc *passCtx, name string) bool {
	if err := c.client.CoreV1().Nodes().Delete(pc.ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		c.report(pc, fmt.Errorf("delete node %s: %w", name, err))
		return false
	}
	c.deleting[name] = true
	delete(c.created, name)
	delete(c.unneeded, name)
	if n := pc.w.nodes[name]; n != nil {
		c.removed[name] = n.pool
	}
	pc.w.remove(name)
	return true
}

// preemptSpot deletes the spot nodes beyond each zone's spot capacity,
// newest first, as GKE preempts Spot VMs when Compute Engine takes the
// capacity back.
func (c *Controller) preemptSpot(pc *passCtx) {
	byZone := map[capKey][]*node{}
	for _, n := range pc.w.nodes {
		if n.kind == computeclass.Spot {
			k := capKey{n.kind, n.obj.Labels[corev1.LabelInstanceTypeStable], n.obj.Labels[wellknown.ZoneLabel]}
			byZone[k] = append(byZone[k], n)
		}
	}
	keys := slices.SortedFunc(maps.Keys(byZone), func(a, b capKey) int { return strings.Compare(a.machine+"/"+a.zone, b.machine+"/"+b.zone) })
	for _, k := range keys {
		nodes := byZone[k]
		z, _ := zoneCapacity(pc.cfg, computeclass.Spot, k.machine, k.zone)
		if len(nodes) <= z.MaxNodes {
			continue
		}
		sort.Slice(nodes, func(i, j int) bool {
			a, b := nodes[i].obj.CreationTimestamp, nodes[j].obj.CreationTimestamp
			if !a.Equal(&b) {
				return b.Before(&a)
			}
			return nodes[i].name > nodes[j].name
		})
		var gone []string
		for _, n := range nodes[:len(nodes)-z.MaxNodes] {
			if c.deleteNode(pc, n.name) {
				gone = append(gone, n.name)
				c.eventNode(n.name, EventPreempted, fmt.Sprintf("spot capacity of %s in %s is down to %d: the Spot VM is preempted; its pods fail", k.machine, k.zone, z.MaxNodes))
			}
		}
		if len(gone) > 0 {
			c.log("spot capacity of %s in %s is down to %d: preempted %s: %s", k.machine, k.zone, z.MaxNodes, plural(len(gone), "spot node"), strings.Join(gone, ", "))
		}
	}
}

// class returns a class by name; nil when it does not exist.
func (c *Controller) class(name string) *cloudv1.ComputeClass {
	cc, err := c.classes.Get(name)
	if err != nil {
		return nil
	}
	return cc
}

// recycle takes each node through its life (DecideLife): removed at its
// end of life; a flex-start node with node recycling gets a replacement
// queued in its pool, is cordoned once the replacement is Ready, and
// removed the drain time later.
func (c *Controller) recycle(pc *passCtx) {
	w := pc.w
	for _, name := range slices.Sorted(maps.Keys(w.nodes)) {
		n := w.nodes[name]
		if n == nil {
			continue
		}
		lt, _ := computeclass.NodeRunWindow(c.class(computeclass.NodeClass(n.obj)), n.obj)
		if lt.End.IsZero() {
			continue
		}
		replacement, replaced := w.replacedBy[name]
		life := NodeLife{Lifetime: lt, Replacement: replaced, RecycledAt: n.recycledAt}
		if r := w.nodes[replacement]; replacement != "" && r != nil {
			life.ReplacementReady = r.ready
		}
		step, next := DecideLife(life, pc.cfg.DrainTime, w.now)
		pc.wake(next)
		switch step {
		case EndOfLife:
			if c.deleteNode(pc, name) {
				c.log("removed %s (node pool %s): its end of life (%s, maxRunDurationSeconds after its creation) has come", name, n.pool, timeOfDay(lt.End))
				c.eventNode(name, EventEndOfLife, fmt.Sprintf("maxRunDurationSeconds (%s) have passed since the node was created: it is removed", lt.End.Sub(lt.Created)))
			}
		case Drained:
			if c.deleteNode(pc, name) {
				why := fmt.Sprintf("drained %s after its replacement was Ready", pc.cfg.DrainTime)
				c.log("removed %s (node pool %s): %s", name, n.pool, why)
				c.eventNode(name, EventRemoved, "recycled node removed: "+why)
			}
		case RequestReplacement:
			p := c.pools[n.pool]
			if p == nil || n.cordoned {
				continue
			}
			c.enqueue(p, 1, name, w)
			c.log("recycling %s (node pool %s): its end of life is %s; a replacement is queued in its node pool", name, n.pool, timeOfDay(lt.End))
			c.eventNode(name, EventRecycling, fmt.Sprintf("node recycling started: the node ends at %s; a replacement is queued in node pool %s", lt.End.UTC().Format(time.RFC3339), n.pool))
			pc.wake(w.now)
		case Cordon:
			if err := c.cordon(pc, name, w.now); err != nil {
				c.report(pc, err)
				continue
			}
			gone := earliest(w.now.Add(pc.cfg.DrainTime), lt.End)
			n.cordoned, n.recycledAt = true, w.now
			c.cordoned[name] = w.now
			pc.wake(gone)
			c.log("cordoned %s (node pool %s): its replacement %s is Ready; its pods keep running until it is removed at %s", name, n.pool, replacement, timeOfDay(gone))
			c.eventNode(name, EventCordoned, fmt.Sprintf("replacement %s is Ready: the node is cordoned; its pods keep running until it is removed at %s", replacement, gone.UTC().Format(time.RFC3339)))
		}
	}
}

// cordon marks a node unschedulable and records when.
func (c *Controller) cordon(pc *passCtx, name string, now time.Time) error {
	api := c.client.CoreV1().Nodes()
	cur, err := api.Get(pc.ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("cordon node %s: %w", name, err)
	}
	cur.Spec.Unschedulable = true
	if cur.Annotations == nil {
		cur.Annotations = map[string]string{}
	}
	cur.Annotations[CordonedAnnotation] = now.UTC().Format(time.RFC3339)
	if _, err := api.Update(pc.ctx, cur, metav1.UpdateOptions{FieldManager: fieldManager}); err != nil {
		return fmt.Errorf("cordon node %s: %w", name, err)
	}
	return nil
}

// cancelUnneeded drops queued nodes nobody waits for any more: new nodes
// of pools no group needs, replacements of nodes that are gone.
func (c *Controller) cancelUnneeded(pc *passCtx) {
	dropped := map[string]int{}
	keep := c.queue[:0]
	for _, r := range c.queue {
		switch {
		case c.pools[r.pool] == nil:
		case r.replaces != "" && pc.w.nodes[r.replaces] == nil:
			c.log("the replacement of %s (node pool %s) is no longer queued: %s is gone", r.replaces, r.pool, r.replaces)
		case r.replaces == "" && !pc.needed[r.pool]:
			dropped[r.pool]++
		default:
			keep = append(keep, r)
			continue
		}
		if p := c.pools[r.pool]; p != nil {
			pc.w.usage.Queued[capKey{p.kind, p.machine, p.zone}]--
		}
	}
	c.queue = keep
	for _, pool := range slices.Sorted(maps.Keys(dropped)) {
		c.log("node pool %s: %s no longer queued: no pod waits for them", pool, plural(dropped[pool], "node"))
	}
}

// createDue creates the queued nodes whose time has come: spot and
// on-demand ones their delay after they were queued, if the zone still
// has room; flex-start ones one by one, each machine type and zone giving
// one per interval while under its capacity, each at least its delay
// after it was queued.
func (c *Controller) createDue(pc *passCtx) {
	w := pc.w
	flexTaken := map[capKey]bool{}
	keep := c.queue[:0]
	for _, r := range c.queue {
		p := c.pools[r.pool]
		capacity := capacityOf(pc.cfg, p.kind)
		machine := pc.cfg.Machine(p.machine)
		key := capKey{p.kind, p.machine, p.zone}
		z, configured := zoneCapacity(pc.cfg, p.kind, p.machine, p.zone)
		if capacity == nil || machine == nil {
			keep = append(keep, r) // waits for the configuration to come back
			continue
		}
		due := r.queuedAt.Add(capacity.Delay)
		if p.kind == computeclass.FlexStart {
			if flexTaken[key] {
				keep = append(keep, r)
				continue
			}
			flexTaken[key] = true
			if last, ok := c.obtained[key]; ok {
				due = latest(due, last.Add(capacity.Interval))
			}
		}
		if w.now.Before(due) {
			pc.wake(due)
			keep = append(keep, r)
			continue
		}
		if !configured || w.usage.Nodes[key] >= z.MaxNodes {
			if p.kind == computeclass.FlexStart {
				keep = append(keep, r) // waits until capacity frees up
				continue
			}
			w.usage.Queued[key]--
			c.log("node pool %s: the %s capacity of %s in %s has no room any more; a queued node is dropped", p.name, p.kind, p.machine, p.zone)
			continue
		}
		if !c.createNode(pc, p, machine, r) {
			keep = append(keep, r)
			continue
		}
		if p.kind == computeclass.FlexStart {
			c.obtained[key] = w.now
			pc.wake(w.now.Add(capacity.Interval))
		}
	}
	c.queue = keep
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// createNode creates the next node of a pool for a request.
func (c *Controller) createNode(pc *passCtx, p *pool, m *nodepools.AutoMachine, r *request) bool {
	w := pc.w
	name := fmt.Sprintf("%s-%d", p.name, p.next)
	n := m.Template.BuildNode(name)
	maps.Copy(n.Labels, p.labels)
	n.Labels[wellknown.NodePoolLabel] = p.name
	n.Labels[wellknown.ZoneLabel] = p.zone
	if p.region != "" {
		n.Labels[corev1.LabelTopologyRegion] = p.region
	}
	n.Labels[nodepools.AutoProvisionedLabel] = "true"
	n.Annotations[PriorityAnnotation] = strconv.Itoa(p.priority)
	if p.group != "" {
		n.Annotations[GroupAnnotation] = p.group
	}
	if r.replaces != "" {
		n.Annotations[ReplacesAnnotation] = r.replaces
	}
	// The apiserver sets its own; a fake clientset keeps this one.
	n.CreationTimestamp = metav1.NewTime(w.now)
	created, err := c.client.CoreV1().Nodes().Create(pc.ctx, n, metav1.CreateOptions{FieldManager: fieldManager})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		c.report(pc, fmt.Errorf("node pool %s: create node %s: %w", p.name, name, err))
		return false
	}
	p.next++
	if err != nil { // already there: take the next name next time
		return false
	}
	c.created[name] = created
	nd := &node{obj: created, name: name, pool: p.name, kind: p.kind, replaces: r.replaces, used: corev1.ResourceList{}}
	w.nodes[name] = nd
	w.byPool[p.name] = append(w.byPool[p.name], nd)
	key := capKey{p.kind, p.machine, p.zone}
	w.usage.Nodes[key]++
	w.usage.Queued[key]--
	if r.replaces != "" {
		w.replacedBy[r.replaces] = name
	}
	life := ""
	if created.CreationTimestamp.IsZero() {
		created.CreationTimestamp = metav1.NewTime(w.now)
	}
	if lt, _ := computeclass.NodeRunWindow(c.class(p.class), created); !lt.End.IsZero() {
		life = "; ends at " + dateAndTime(lt.End)
		if !lt.RecycleAt.IsZero() {
			life += ", recycled from " + dateAndTime(lt.RecycleAt)
		}
	}
	what := ""
	if r.replaces != "" {
		what = ", replacing " + r.replaces
	}
	c.log("created %s node %s in node pool %s (%s, %s)%s%s", p.kind, name, p.name, p.machine, p.zone, what, life)
	c.eventNode(name, EventCreated, fmt.Sprintf("%s node of class %s, priority %d, in node pool %s%s%s", p.kind, p.class, p.priority, p.name, what, life))
	return true
}

// scaleDown removes nodes no pod has used for the scale-down unneeded
// time, unless a waiting group needs their pool, pods of a removed node
// of their pool are still there (their workload restarts onto the pool
// once they are gone), they replace a node that is still there, or they
// are being recycled (their drain decides).
func (c *Controller) scaleDown(pc *passCtx) {
	w := pc.w
	for name := range c.unneeded {
		if w.nodes[name] == nil {
			delete(c.unneeded, name)
		}
	}
	held := map[string]bool{}
	for name, pool := range c.removed {
		pods, _ := c.pods.ByIndex(nodeNameIndex, name)
		stays := false
		for _, o := range pods {
			if p, ok := o.(*corev1.Pod); ok && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				stays = true
			}
		}
		if stays {
			held[pool] = true
		} else {
			delete(c.removed, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(w.nodes)) {
		n := w.nodes[name]
		if n == nil {
			continue
		}
		if n.pods > 0 || !n.recycledAt.IsZero() || pc.needed[n.pool] || held[n.pool] || (n.replaces != "" && w.nodes[n.replaces] != nil) {
			delete(c.unneeded, name)
			continue
		}
		since, ok := c.unneeded[name]
		if !ok {
			since = w.now
			c.unneeded[name] = since
		}
		end := since.Add(pc.cfg.ScaleDownUnneededTime)
		if w.now.Before(end) {
			pc.wake(end)
			continue
		}
		if c.deleteNode(pc, name) {
			c.log("removed %s (node pool %s): no pod used it for %s", name, n.pool, pc.cfg.ScaleDownUnneededTime)
			c.eventNode(name, EventScaleDown, fmt.Sprintf("node removed by scale-down: no pod used it for %s", pc.cfg.ScaleDownUnneededTime))
		}
	}
}
