package provisioner

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// tracked is what the provisioner knows of one request.
type tracked struct {
	ref Ref
	uid types.UID
	// conds are the conditions this provisioner wants on the request; the
	// informer's copy may not have caught up with them yet.
	conds   []metav1.Condition
	details map[string]autoscalingv1.Detail
	// maxRun is parameters.maxRunDurationSeconds, zero for none.
	maxRun time.Duration
	usage  Usage
	// creating: its nodes were created and are not all Ready yet; it is
	// Provisioned once they are.
	creating *creation
	// released: the nodes were removed; nothing more happens to it.
	released bool
	// waiting is the last reason it waits for, to log changes only.
	waiting string
}

// ownConditions are the condition types this provisioner writes.
var ownConditions = []string{autoscalingv1.Accepted, autoscalingv1.Provisioned, autoscalingv1.Failed, autoscalingv1.BookingExpired, autoscalingv1.CapacityRevoked}

func (t *tracked) cond(typ string) *metav1.Condition { return meta.FindStatusCondition(t.conds, typ) }

func (t *tracked) isTrue(typ string) bool { return meta.IsStatusConditionTrue(t.conds, typ) }

func (t *tracked) set(typ string, status metav1.ConditionStatus, reason, message string, now time.Time) {
	meta.SetStatusCondition(&t.conds, metav1.Condition{Type: typ, Status: status, Reason: reason, Message: message, LastTransitionTime: metav1.NewTime(now)})
}

// final: nothing but the removal of its nodes is left to do.
func (t *tracked) final() bool {
	return t.released || t.isTrue(autoscalingv1.Failed) || t.isTrue(autoscalingv1.BookingExpired) || t.isTrue(autoscalingv1.CapacityRevoked)
}

// track returns the record of a request, starting it from the request's
// status the first time (fresh): a request provisioned before the
// provisioner started keeps its conditions.
func (c *Controller) track(req *autoscalingv1.ProvisioningRequest) (t *tracked, fresh bool) {
	if t, ok := c.tracked[req.UID]; ok {
		return t, false
	}
	t = &tracked{ref: refOf(req), uid: req.UID}
	for _, typ := range ownConditions {
		if cond := meta.FindStatusCondition(req.Status.Conditions, typ); cond != nil {
			t.conds = append(t.conds, *cond)
		}
	}
	t.maxRun, _ = MaxRunDuration(req)
	c.tracked[req.UID] = t
	return t, true
}

// creation is a node pool being created for a request.
type creation struct {
	zone, pools string
	nodes       int
}

// provisionedNode is a node of a request.
type provisionedNode struct {
	name, zone, pool string
	// ready: Ready, and the node lifecycle controller has lifted the
	// not-ready taint every new node starts with, so pods can be placed.
	ready bool
}

// provisionedNodes returns the nodes of each request, known from the
// informer or created by this provisioner and not yet seen there, and how
// many each zone holds. Nodes being deleted count for neither.
func (c *Controller) provisionedNodes() (map[types.UID][]provisionedNode, map[string]int, map[types.UID]string) {
	byUID := map[types.UID][]provisionedNode{}
	used := map[string]int{}
	refs := map[types.UID]string{}
	list, _ := c.nodes.List(labels.Everything())
	seen := map[string]bool{}
	for _, n := range list {
		seen[n.Name] = true
		delete(c.created, n.Name)
		uid := types.UID(n.Labels[nodepools.ProvisionedLabel])
		if uid == "" || c.deleting[n.Name] {
			continue
		}
		zone := n.Labels[wellknown.ZoneLabel]
		byUID[uid] = append(byUID[uid], provisionedNode{name: n.Name, zone: zone, pool: n.Labels[wellknown.NodePoolLabel], ready: faults.NodeHealth(n) == faults.Healthy})
		used[zone]++
		refs[uid] = n.Annotations[RequestAnnotation]
	}
	for name := range c.deleting {
		if !seen[name] {
			delete(c.deleting, name)
		}
	}
	for name, cn := range c.created {
		byUID[cn.uid] = append(byUID[cn.uid], provisionedNode{name: name, zone: cn.zone})
		used[cn.zone]++
	}
	for uid := range byUID {
		sort.Slice(byUID[uid], func(i, j int) bool { return byUID[uid][i].name < byUID[uid][j].name })
	}
	return byUID, used, refs
}

// pass looks at every request once and does what is due. It returns when
// the next pass is due by time alone (zero: only when something changes).
func (c *Controller) pass(ctx context.Context) time.Time {
	now := c.clock.Now()
	cfg := c.config()
	var next time.Time
	wake := func(t time.Time) { next = earliest(next, t) }
	failed := false
	report := func(err error) {
		// Errors of a pass cut short by shutdown are no news.
		if err != nil && ctx.Err() == nil {
			c.logf("queued provisioning: %v (retrying in %s)", err, retryAfter)
			failed = true
		}
	}

	all, err := c.requests.List(labels.Everything())
	report(err)
	var live []*autoscalingv1.ProvisioningRequest
	byUID := map[types.UID]*autoscalingv1.ProvisioningRequest{}
	for _, req := range all {
		if Handles(req) {
			live = append(live, req)
			byUID[req.UID] = req
		}
	}
	sort.Slice(live, func(i, j int) bool {
		a, b := live[i], live[j]
		if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
			return a.CreationTimestamp.Before(&b.CreationTimestamp)
		}
		return refOf(a).String() < refOf(b).String()
	})
	nodesOf, _, nodeRefs := c.provisionedNodes()

	var cands []Candidate
	for _, req := range live {
		t, fresh := c.track(req)
		if fresh {
			c.resume(t, nodesOf[req.UID])
		}
		deleting := req.DeletionTimestamp != nil
		if !deleting && t.cond(autoscalingv1.Accepted) == nil {
			t.set(autoscalingv1.Accepted, metav1.ConditionTrue, ReasonAccepted, "queued for capacity in one zone of "+strings.Join(zoneNames(cfg.Zones), ", "), now)
			c.report(t, EventAccepted, " ", fmt.Sprintf("accepted: queued for capacity in one zone of %s; provisioned in %s at the earliest",
				strings.Join(zoneNames(cfg.Zones), ", "), cfg.Delay))
		}
		switch {
		case t.final():
			if len(nodesOf[req.UID]) > 0 {
				report(c.removeNodes(ctx, t, nodesOf[req.UID], "its capacity has ended"))
			}
		case t.isTrue(autoscalingv1.Provisioned):
			pods, err := c.pods.ByIndex(consumersIndex, req.Namespace+"/"+req.Name)
			report(err)
			before := t.usage
			t.usage = t.usage.Observe(ObservePods(asPods(pods)), now)
			switch {
			case t.usage.Consumed && !before.Consumed:
				c.report(t, EventInUse, " ", "in use by its pods")
			case !t.usage.IdleSince.IsZero() && before.IdleSince.IsZero():
				c.report(t, EventUnneeded, ": ", fmt.Sprintf("every pod that consumed it has ended; its nodes go in %s unless another starts", UnneededTime))
			}
			removal, at := DecideRemoval(Lifecycle{
				ProvisionedAt:  t.cond(autoscalingv1.Provisioned).LastTransitionTime.Time,
				MaxRunDuration: t.maxRun,
				BookingTime:    cfg.BookingTime,
				Usage:          t.usage,
				Deleted:        deleting,
			}, now)
			wake(at)
			if !removal.Remove {
				continue
			}
			if removal.Condition != "" {
				t.set(removal.Condition, metav1.ConditionTrue, removal.Reason, removal.Message, now)
				c.report(t, removal.Condition, " ", removal.Condition+": "+removal.Message)
			}
			if err := c.removeNodes(ctx, t, nodesOf[req.UID], removal.Why); err != nil {
				report(err)
				continue
			}
			t.released = true
		case t.creating != nil:
			if deleting {
				if err := c.removeNodes(ctx, t, nodesOf[req.UID], "request deleted"); err != nil {
					report(err)
					continue
				}
				t.released = true
				continue
			}
			c.provisionedWhenReady(t, nodesOf[req.UID], cfg, now)
		case deleting:
		default:
			lookup := func(name string) (*corev1.PodTemplate, bool) {
				tmpl, err := c.templates.PodTemplates(req.Namespace).Get(name)
				return tmpl, err == nil
			}
			d, problem := ComputeDemand(req, lookup, cfg, BaseName(t.ref, req.UID))
			cand := Candidate{Ref: t.ref, Created: req.CreationTimestamp.Time, Demand: d, Problem: problem}
			// What can never be provisioned fails at once; the rest waits
			// for the delay.
			due := t.cond(autoscalingv1.Accepted).LastTransitionTime.Add(cfg.Delay)
			if now.Before(due) && !cand.Final(cfg.Zones) {
				wake(due)
				continue
			}
			cands = append(cands, cand)
		}
	}

	// Nodes of requests that are gone.
	for uid, nodes := range nodesOf {
		if _, ok := byUID[uid]; ok {
			continue
		}
		t := c.tracked[uid]
		if t == nil {
			t = &tracked{ref: parseRef(nodeRefs[uid]), uid: uid}
		}
		report(c.removeNodes(ctx, t, nodes, "request deleted"))
	}

	// What was removed above is free for the queue.
	_, used, _ := c.provisionedNodes()
	demands := map[Ref]Demand{}
	for _, cand := range cands {
		demands[cand.Ref] = cand.Demand
	}
	refs := map[Ref]*autoscalingv1.ProvisioningRequest{}
	for _, req := range live {
		refs[refOf(req)] = req
	}
	for _, d := range Schedule(cands, cfg.Zones, used) {
		req := refs[d.Ref]
		t := c.tracked[req.UID]
		switch d.Action {
		case Provision:
			report(c.provision(ctx, req, t, demands[d.Ref], d.Zone, cfg, now))
		case Fail:
			t.set(autoscalingv1.Failed, metav1.ConditionTrue, d.Reason, d.Message, now)
			c.report(t, EventFailed, " ", fmt.Sprintf("failed (%s): %s", d.Reason, d.Message))
		case Wait:
			t.set(autoscalingv1.Provisioned, metav1.ConditionFalse, d.Reason, d.Message, now)
			if t.waiting != d.Message {
				t.waiting = d.Message
				reason := EventWaitingForCapacity
				if d.Reason == ReasonPodTemplateNotFound {
					reason = EventWaitingForPodTemplate
				}
				c.report(t, reason, " ", "waits: "+d.Message)
			}
		}
	}

	for uid := range c.tracked {
		if _, ok := byUID[uid]; !ok && len(nodesOf[uid]) == 0 {
			delete(c.tracked, uid)
		}
	}

	for _, req := range live {
		if req.DeletionTimestamp == nil {
			report(c.writeStatus(ctx, req, c.tracked[req.UID]))
		}
	}
	if failed {
		wake(now.Add(retryAfter))
	}
	return next
}

// resume takes over a request first seen with its nodes' state: one
// provisioned before whose nodes are gone is done with; one whose nodes
// were created but that is not Provisioned waits for them to be Ready.
func (c *Controller) resume(t *tracked, nodes []provisionedNode) {
	switch {
	case t.isTrue(autoscalingv1.Provisioned) && len(nodes) == 0:
		t.released = true
	case !t.isTrue(autoscalingv1.Provisioned) && !t.final() && len(nodes) > 0:
		var pools []string
		for _, n := range nodes {
			if !slices.Contains(pools, n.pool) {
				pools = append(pools, n.pool)
			}
		}
		t.creating = &creation{zone: nodes[0].zone, pools: strings.Join(pools, ", "), nodes: len(nodes)}
	}
}

// provisionedWhenReady marks a request Provisioned once every node created
// for it can take pods: as on GKE, Provisioned=True means the nodes are
// ready, and a scheduler that places the pods at once finds them.
func (c *Controller) provisionedWhenReady(t *tracked, nodes []provisionedNode, cfg *Config, now time.Time) {
	ready := 0
	for _, n := range nodes {
		if n.ready {
			ready++
		}
	}
	if ready < t.creating.nodes {
		return
	}
	cr := t.creating
	t.creating = nil
	t.set(autoscalingv1.Provisioned, metav1.ConditionTrue, ReasonProvisioned,
		fmt.Sprintf("%s of %s in %s, node pool %s", plural(cr.nodes, "node"), cfg.Machine.Accelerator, cr.zone, cr.pools), now)
	until := ""
	if t.maxRun > 0 {
		until = fmt.Sprintf("; reclaimed after %s", t.maxRun)
	}
	c.report(t, EventProvisioned, " ", fmt.Sprintf("provisioned: %s Ready in %s, node pool %s%s",
		plural(cr.nodes, "node"), cr.zone, cr.pools, until))
}

// provision creates a request's nodes; it is Provisioned once they are
// Ready.
func (c *Controller) provision(ctx context.Context, req *autoscalingv1.ProvisioningRequest, t *tracked, d Demand, zoneName string, cfg *Config, now time.Time) error {
	var zone nodepools.Zone
	for _, z := range cfg.Zones {
		if z.Name == zoneName {
			zone = z
		}
	}
	nodes := Nodes(t.ref, req.UID, d, zone, cfg)
	names := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if _, err := c.client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{FieldManager: fieldManager}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("provisioning %s: create node %s: %w", t.ref, n.Name, err)
		}
		c.created[n.Name] = createdNode{uid: req.UID, zone: zone.Name}
		names = append(names, n.Name)
	}
	pools := strings.Join(poolNames(d), ", ")
	t.maxRun = d.MaxRunDuration
	t.waiting = ""
	t.creating = &creation{zone: zone.Name, pools: pools, nodes: len(nodes)}
	t.set(autoscalingv1.Provisioned, metav1.ConditionFalse, ReasonNotProvisioned,
		fmt.Sprintf("creating %s of %s in %s, node pool %s; waiting for them to be Ready", plural(len(nodes), "node"), cfg.Machine.Accelerator, zone.Name, pools), now)
	t.details = map[string]autoscalingv1.Detail{
		"zone":     autoscalingv1.Detail(zone.Name),
		"nodePool": autoscalingv1.Detail(pools),
		"nodes":    autoscalingv1.Detail(strings.Join(names, ",")),
	}
	c.report(t, EventCreatingNodes, ": ", fmt.Sprintf("creating %s in %s, node pool %s: %s",
		plural(len(nodes), "node"), zone.Name, pools, strings.Join(names, ", ")))
	return nil
}

// createdNode is a node this provisioner created that the informer has not
// shown yet.
type createdNode struct {
	uid  types.UID
	zone string
}

// removeNodes deletes a request's nodes; their pods are then deleted by the
// pod garbage collector, as when a VM goes away.
func (c *Controller) removeNodes(ctx context.Context, t *tracked, nodes []provisionedNode, why string) error {
	if len(nodes) == 0 {
		return nil
	}
	names := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if err := c.client.CoreV1().Nodes().Delete(ctx, n.name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("removing the nodes of %s: delete node %s: %w", t.ref, n.name, err)
		}
		c.deleting[n.name] = true
		delete(c.created, n.name)
		names = append(names, n.name)
	}
	c.report(t, EventNodesRemoved, ": ", fmt.Sprintf("removed %s (%s): %s", plural(len(names), "node"), why, strings.Join(names, ", ")))
	return nil
}

// writeStatus brings the request's status to what t wants, if it differs.
func (c *Controller) writeStatus(ctx context.Context, req *autoscalingv1.ProvisioningRequest, t *tracked) error {
	if t == nil || !statusDiffers(req, t) {
		return nil
	}
	api := c.requestClient.AutoscalingV1().ProvisioningRequests(req.Namespace)
	cur, err := api.Get(ctx, req.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("status of %s: %w", t.ref, err)
	}
	if cur.UID != t.uid {
		return nil
	}
	for _, cond := range t.conds {
		cond.ObservedGeneration = cur.Generation
		meta.SetStatusCondition(&cur.Status.Conditions, cond)
	}
	for k, v := range t.details {
		if cur.Status.ProvisioningClassDetails == nil {
			cur.Status.ProvisioningClassDetails = map[string]autoscalingv1.Detail{}
		}
		cur.Status.ProvisioningClassDetails[k] = v
	}
	if _, err := api.UpdateStatus(ctx, cur, metav1.UpdateOptions{FieldManager: fieldManager}); err != nil {
		// A conflict means the informer brings a newer object and another pass.
		return fmt.Errorf("status of %s: %w", t.ref, err)
	}
	return nil
}

// statusDiffers reports whether the request lacks a condition or detail
// that t wants. Times are not compared: the API keeps seconds only.
func statusDiffers(req *autoscalingv1.ProvisioningRequest, t *tracked) bool {
	for _, want := range t.conds {
		have := meta.FindStatusCondition(req.Status.Conditions, want.Type)
		if have == nil || have.Status != want.Status || have.Reason != want.Reason || have.Message != want.Message {
			return true
		}
	}
	for k, v := range t.details {
		if req.Status.ProvisioningClassDetails[k] != v {
			return true
		}
	}
	return false
}

func asPods(objs []any) []*corev1.Pod {
	out := make([]*corev1.Pod, 0, len(objs))
	for _, o := range objs {
		if p, ok := o.(*corev1.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// parseRef reads a RequestAnnotation value.
func parseRef(s string) Ref {
	ns, name, _ := strings.Cut(s, "/")
	return Ref{Namespace: ns, Name: name}
}
