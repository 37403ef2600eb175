package autoprovision

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
)

// provision gives each group of the demand the nodes it needs: its pool
// topped up, a free pool of its class, or a new pool from the first
// priority of its class that can be provisioned. It records in
// pc.needed the pools waiting groups need.
func (c *Controller) provision(pc *passCtx) {
	w := pc.w
	objs := c.pods.List()
	pods := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			pods = append(pods, p)
		}
	}
	groups := Groups(pods, c.jobLookup, func(name string) string {
		if n := w.nodes[name]; n != nil {
			return n.pool
		}
		return ""
	})
	active := map[string]bool{}
	for _, g := range groups {
		active[g.Key] = true
	}
	for key := range c.told {
		if !active[key] {
			delete(c.told, key)
		}
	}
	rooms := map[string][]*slot{}
	for _, g := range groups {
		class := c.class(g.Class)
		switch {
		case class == nil:
			c.wait(g, fmt.Sprintf("ComputeClass %s does not exist", g.Class))
			continue
		case computeclass.Validate(class) != nil:
			c.wait(g, fmt.Sprintf("ComputeClass %s is invalid: %s", g.Class, strings.ReplaceAll(computeclass.Validate(class).Error(), "\n", "; ")))
			continue
		case class.Spec.NodePoolAutoCreation == nil || !class.Spec.NodePoolAutoCreation.Enabled:
			c.wait(g, fmt.Sprintf("ComputeClass %s does not enable nodePoolAutoCreation: its pods wait for node pools labelled with it", g.Class))
			continue
		}
		if g.Exclusive || g.Pool != "" {
			c.provisionExclusive(pc, g, class, active)
			continue
		}
		if rooms[g.Class] == nil {
			rooms[g.Class] = c.sharedRoom(pc, g.Class)
		}
		rooms[g.Class] = c.provisionShared(pc, g, class, rooms[g.Class])
	}
}

// wait tells a group, once per change, why it gets no nodes: a line of
// the log and NotTriggerScaleUp on its first pending pod.
func (c *Controller) wait(g *Group, why string) {
	if c.told[g.Key] == why {
		return
	}
	c.told[g.Key] = why
	c.log("%s waits: %s", g.Ref, why)
	c.eventPod(g.Pending[0], EventNotTriggerScaleUp, "pod didn't trigger scale-up: "+why)
}

// scaledUp tells a group its nodes are coming: a line of the log and
// TriggeredScaleUp on each of its pending pods.
func (c *Controller) scaledUp(g *Group, msg string) {
	c.told[g.Key] = ""
	c.log("%s: %s", g.Ref, msg)
	for _, p := range g.Pending {
		c.eventPod(p, EventTriggeredScaleUp, "pod triggered scale-up: "+msg)
	}
}

// provisionExclusive serves a group that takes a node pool of its own (or
// whose pods are pinned to one): its pool topped up, else a free pool of
// its class that is big enough, else a new one.
func (c *Controller) provisionExclusive(pc *passCtx, g *Group, class *cloudv1.ComputeClass, active map[string]bool) {
	w := pc.w
	var p *pool
	if g.Pool != "" {
		if p = c.pools[g.Pool]; p == nil {
			return // pinned to a pool that is not ours
		}
	} else {
		for _, name := range slices.Sorted(maps.Keys(c.pools)) {
			if c.pools[name].group == g.Key {
				p = c.pools[name]
				break
			}
		}
	}
	if p != nil {
		pc.needed[p.name] = true
		need := c.poolNodes(pc, p, g)
		queued, _ := c.queued(p.name)
		short := need - len(w.live(p.name)) - queued
		if short <= 0 {
			return
		}
		z, ok := zoneCapacity(pc.cfg, p.kind, p.machine, p.zone)
		if p.kind == computeclass.FlexStart || (ok && w.usage.Free(p.kind, z) >= short) {
			c.enqueue(p, short, "", w)
			c.scaledUp(g, fmt.Sprintf("node pool %s is %s short: %s queued", p.name, plural(short, "node"), plural(short, string(p.kind)+" node")))
			return
		}
		if g.Pool != "" {
			c.wait(g, fmt.Sprintf("node pool %s is %s short and its %s capacity in %s has no room", p.name, plural(short, "node"), p.kind, p.zone))
			return
		}
		c.log("%s gives up node pool %s: it is %s short and its %s capacity in %s has no room", g.Ref, p.name, plural(short, "node"), p.kind, p.zone)
		p.group = ""
		delete(pc.needed, p.name)
	}
	if p := c.freePool(pc, g, class, active); p != nil {
		p.group = g.Key
		pc.needed[p.name] = true
		c.scaledUp(g, fmt.Sprintf("takes node pool %s (%s %s in %s), which no pod uses", p.name, p.kind, p.machine, p.zone))
		return
	}
	var why []string
	for i := range class.Spec.Priorities {
		prio := &class.Spec.Priorities[i]
		o, reason := option(i, prio, g, pc.cfg)
		if reason == "" {
			n := o.Nodes(g)
			z, ok, zoneWhy := ChooseZone(o, n, w.usage)
			if ok {
				p := c.newPool(class, o, z, g.Key)
				c.enqueue(p, n, "", w)
				pc.needed[p.name] = true
				c.scaledUp(g, fmt.Sprintf("ComputeClass %s %s: node pool %s, %s queued in %s", class.Name, DescribePriority(i, prio), p.name, plural(n, string(o.Kind)+" node"), z.Zone))
				return
			}
			reason = zoneWhy
		}
		why = append(why, DescribePriority(i, prio)+": "+reason)
	}
	c.wait(g, fmt.Sprintf("no priority of ComputeClass %s can be provisioned: %s", class.Name, strings.Join(why, "; ")))
}

// poolNodes is how many nodes of its pool a group needs.
func (c *Controller) poolNodes(pc *passCtx, p *pool, g *Group) int {
	perNode := 1
	if m := pc.cfg.Machine(p.machine); m != nil {
		if n, reason := podsPerNode(g.Requests, m.Template.Capacity); reason == "" {
			perNode = n
		}
	}
	return (g.Size + perNode - 1) / perNode
}

// freePool is an exclusive pool of the group's class that serves no other
// waiting group and runs no pod, whose priority, machine and zone the
// group may use, and that has (or has queued) the nodes the group needs;
// the most preferred priority first, then by name.
func (c *Controller) freePool(pc *passCtx, g *Group, class *cloudv1.ComputeClass, active map[string]bool) *pool {
	var best *pool
	for _, name := range slices.Sorted(maps.Keys(c.pools)) {
		p := c.pools[name]
		if !p.exclusive || p.class != class.Name || (p.group != "" && active[p.group]) || pc.w.busy(name) ||
			p.priority < 0 || p.priority >= len(class.Spec.Priorities) {
			continue
		}
		o, reason := option(p.priority, &class.Spec.Priorities[p.priority], g, pc.cfg)
		if reason != "" || o.Kind != p.kind || o.Machine.Type != p.machine ||
			!slices.ContainsFunc(o.Zones, func(z nodepools.ZoneCapacity) bool { return z.Zone == p.zone }) {
			continue
		}
		queued, _ := c.queued(name)
		if len(pc.w.live(name))+queued < o.Nodes(g) {
			continue
		}
		if best == nil || p.priority < best.priority {
			best = p
		}
	}
	return best
}

// newPool starts a node pool of an option in a zone; group is "" for a
// pool shared by a class's groups.
func (c *Controller) newPool(class *cloudv1.ComputeClass, o Option, z nodepools.ZoneCapacity, group string) *pool {
	c.seq++
	sum := sha256.Sum256(fmt.Appendf(nil, "%s/%d/%s/%s/%d", class.Name, o.Priority, z.Zone, group, c.seq))
	if group == "" {
		// A shared pool is the class's for that priority and zone.
		sum = sha256.Sum256(fmt.Appendf(nil, "%s/%d/%s/%s", class.Name, o.Priority, z.Zone, o.Machine.Type))
	}
	p := &pool{
		name:  fmt.Sprintf("nap-%s-%s-%s", o.Machine.Type, kindShort(o.Kind), hex.EncodeToString(sum[:])[:5]),
		class: class.Name, priority: o.Priority, kind: o.Kind, machine: o.Machine.Type, zone: z.Zone, region: z.Region,
		labels:    computeclass.NodeLabels(class.Name, &class.Spec.Priorities[o.Priority], o.Machine.Type),
		exclusive: group != "", group: group,
	}
	if old := c.pools[p.name]; old != nil {
		return old
	}
	c.pools[p.name] = p
	return p
}

// slot is the room a node of a shared pool has left, or will have once
// created.
type slot struct {
	pool    *pool
	machine string
	free    corev1.ResourceList
}

// sharedRoom is the room of a class's shared pools: their live nodes'
// allocatable less what their pods request, and whole queued nodes.
func (c *Controller) sharedRoom(pc *passCtx, class string) []*slot {
	var out []*slot
	for _, name := range slices.Sorted(maps.Keys(c.pools)) {
		p := c.pools[name]
		if p.exclusive || p.class != class {
			continue
		}
		for _, n := range pc.w.live(name) {
			free := n.obj.Status.Allocatable.DeepCopy()
			for res, used := range n.used {
				q := free[res]
				q.Sub(used)
				free[res] = q
			}
			if q, ok := free[corev1.ResourcePods]; ok {
				q.Sub(*resource.NewQuantity(int64(n.pods), resource.DecimalSI))
				free[corev1.ResourcePods] = q
			}
			out = append(out, &slot{pool: p, machine: p.machine, free: free})
		}
		queued, _ := c.queued(name)
		if m := pc.cfg.Machine(p.machine); m != nil {
			for range queued {
				out = append(out, &slot{pool: p, machine: p.machine, free: m.Template.Capacity.DeepCopy()})
			}
		}
	}
	return out
}

// fit places a pod's requests in the first slot with room that its node
// selector allows, and returns the slot (nil for none).
func fit(room []*slot, requests corev1.ResourceList, g *Group) *slot {
	want := requests.DeepCopy()
	want[corev1.ResourcePods] = *resource.NewQuantity(1, resource.DecimalSI)
	for _, s := range room {
		if !zoneAllowed(g.Selector, nodepools.ZoneCapacity{Zone: s.pool.zone, Region: s.pool.region}) {
			continue
		}
		if mt, ok := g.Selector[corev1.LabelInstanceTypeStable]; ok && mt != s.machine {
			continue
		}
		fits := true
		for res, q := range want {
			have, ok := s.free[res]
			if q.Sign() > 0 && (!ok || have.Cmp(q) < 0) {
				fits = false
				break
			}
		}
		if !fits {
			continue
		}
		for res, q := range want {
			have := s.free[res]
			have.Sub(q)
			s.free[res] = have
		}
		return s
	}
	return nil
}

// provisionShared serves a group that shares its class's pools: its
// pending pods go into the room those pools have (or have queued); for the
// rest, nodes are queued in the shared pool of the first priority that can
// be provisioned. It returns the room left.
func (c *Controller) provisionShared(pc *passCtx, g *Group, class *cloudv1.ComputeClass, room []*slot) []*slot {
	left := 0
	for _, p := range g.Pending {
		if s := fit(room, resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}), g); s != nil {
			pc.needed[s.pool.name] = true
		} else {
			left++
		}
	}
	if left == 0 {
		return room
	}
	rest := *g
	rest.Size = left
	var why []string
	for i := range class.Spec.Priorities {
		prio := &class.Spec.Priorities[i]
		o, reason := option(i, prio, &rest, pc.cfg)
		if reason == "" {
			n := o.Nodes(&rest)
			z, ok, zoneWhy := ChooseZone(o, n, pc.w.usage)
			if ok {
				p := c.newPool(class, o, z, "")
				c.enqueue(p, n, "", pc.w)
				pc.needed[p.name] = true
				for range n {
					room = append(room, &slot{pool: p, machine: p.machine, free: o.Machine.Template.Capacity.DeepCopy()})
				}
				for range left {
					fit(room, g.Requests, g)
				}
				c.scaledUp(g, fmt.Sprintf("ComputeClass %s %s: %s queued in node pool %s in %s", class.Name, DescribePriority(i, prio), plural(n, string(o.Kind)+" node"), p.name, z.Zone))
				return room
			}
			reason = zoneWhy
		}
		why = append(why, DescribePriority(i, prio)+": "+reason)
	}
	c.wait(g, fmt.Sprintf("no priority of ComputeClass %s can be provisioned for %s: %s", class.Name, plural(left, "pod"), strings.Join(why, "; ")))
	return room
}
