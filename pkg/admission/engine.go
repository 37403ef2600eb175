package admission

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// WaitingForLeadership is why a standby replica holds every pod back.
const WaitingForLeadership = "waiting for this scheduler replica to lead (it is a standby)"

// Engine is the Manager: it runs each extension point's steps against the
// scheduler's one shared state, and carries out and tells what they
// decided.
type Engine struct {
	st     *state.State
	fx     Effects
	notify Notifier
	// plugin is the name pods wait in Permit under.
	plugin string

	mu       sync.RWMutex
	profiles map[string]Profile
	// keys memoises each queued pod's SortKey (types.UID -> SortKey).
	keys sync.Map
}

var _ Manager = (*Engine)(nil)

// NewEngine returns the manager of st, carrying out what it decides with
// fx and telling users with notify. plugin names the Permit plugin whose
// waiting pods it lets through.
func NewEngine(st *state.State, fx Effects, notify Notifier, plugin string) *Engine {
	return &Engine{st: st, fx: fx, notify: notify, plugin: plugin, profiles: map[string]Profile{}}
}

// AddProfile implements Manager.
func (e *Engine) AddProfile(p Profile) {
	e.mu.Lock()
	e.profiles[p.Name] = p
	e.mu.Unlock()
	e.st.AddScheduler(p.Name)
}

// profileOf is the profile pod names (its schedulerName).
func (e *Engine) profileOf(pod *corev1.Pod) Profile {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.profiles[pod.Spec.SchedulerName]
}

// Forget drops a pod's sort key once it has left the queue for good.
func (e *Engine) Forget(pod *corev1.Pod) { e.keys.Delete(pod.UID) }

// PreEnqueue implements Manager.
func (e *Engine) PreEnqueue(ctx context.Context, pod *corev1.Pod) *Status {
	if !e.fx.Leading() {
		// A standby decides nothing: it neither charges quota nor lets a
		// head plan, and says nothing about decisions it did not take.
		// Its pods are activated once it leads, and decided then on what
		// the API shows.
		return newStatus(Unresolvable, WaitingForLeadership)
	}
	out := PreEnqueue(e.st, pod, e.profileOf(pod).PermitTimeout)
	if !out.Later.Empty() {
		// PreEnqueue runs under the scheduling queue's lock, which
		// activating takes: act once this call has returned.
		go e.fx.Act(context.WithoutCancel(ctx), out.Later)
	}
	if out.Pass {
		e.fx.Released(pod)
		return nil
	}
	if out.ProvisioningReserved {
		e.fx.PokeProvisioning()
	}
	if ev := out.Event; ev.Reason != "" {
		switch {
		case out.OnPod:
			e.notify.WarnPod(pod, &out.Ref, ev.Reason, ev.Message)
		case ev.Warning:
			e.notify.Warn(&out.Ref, ev.Reason, ev.Message)
		default:
			e.notify.Normal(&out.Ref, ev.Reason, ev.Message)
		}
	}
	if out.QueueRejection != "" {
		metrics.QueueRejections.WithLabelValues(out.QueueRejection).Inc()
	}
	// The pod itself says why it waits, where kubectl describe pod shows
	// it: no scheduling cycle will.
	switch h := out.Hold; {
	case out.HoldAll != nil:
		e.fx.HeldAll(out.HoldAll, h.Reason, h.Message, h.Warning)
	case out.HoldWeak:
		e.fx.HeldWaiting(pod, h.Reason, h.Message)
	default:
		e.fx.Held(pod, h.Reason, h.Message, h.Warning)
	}
	return newStatus(Unresolvable, out.Message)
}

// PreEnqueue runs the gate for pod: one copy of the state (State.Gate),
// one decision on it alone (decidePreEnqueue), one write-back (Apply),
// which refuses a charge the state moved under.
//
// A gang pod waits until every member that can exist yet exists and its
// head may plan, a queued workload until its queue admits it, a workload
// of a provisioning queue until its capacity exists (its head reserves
// the quota here, so that the request can be made). A queued plain pod is
// charged as it passes, for permitTimeout (0: in its cycle instead), so
// that pods beyond the quota wait gated rather than each spending a cycle.
func PreEnqueue(st *state.State, pod *corev1.Pod, permitTimeout time.Duration) PreEnqueueOutcome {
	c := st.Gate(pod, state.GateAsks{BehindHead: true, Alone: permitTimeout > 0})
	out, d := decidePreEnqueue(&c, permitTimeout)
	if d != (state.Decision{}) {
		out.settle(d, st.Apply(d))
	}
	return out
}

// Admit is whether pod may enter the active queue, as PreEnqueue decides
// it, with its queue's verdict recorded; nothing is reserved.
func Admit(st *state.State, pod *corev1.Pod) state.Verdict {
	c := st.Gate(pod, state.GateAsks{BehindHead: true})
	v, d := decideAdmit(&c)
	if d != (state.Decision{}) {
		st.Apply(d)
	}
	return v
}

// Classify is what the gate says of pod without holding members back
// behind their gang's head: a member that reached a scheduling cycle may
// plan for its gang.
func Classify(st *state.State, pod *corev1.Pod) state.Verdict {
	v, _ := decideGate(st.Gate(pod, state.GateAsks{}), false)
	return v
}

// AdmitAlone admits a queued plain pod's workload on quota alone, as
// PreEnqueue and a scheduling cycle would (admitAlone): its quota is
// charged for permitTimeout. It returns the sorted names of the nodes of
// the flavors charged (nil when the workload is not quota-managed;
// callers must not modify them), or why it cannot be admitted.
func AdmitAlone(st *state.State, pod *corev1.Pod, permitTimeout time.Duration) ([]string, *placement.Failure, state.Actions) {
	c := st.Gate(pod, state.GateAsks{Alone: true})
	if c.Alone == nil {
		return c.AloneNodes, nil, state.Actions{}
	}
	res, nodes, fail := admitAlone(c.Alone)
	if fail != nil {
		return nil, fail, state.Actions{}
	}
	applied := st.Apply(state.Decision{Reserve: res, PermitTimeout: permitTimeout})
	if err := applied.Refused; err != nil {
		return nil, &placement.Failure{Message: err.Error(), Reason: quota.ReasonQuotaExceeded}, applied.Actions
	}
	return nodes, nil, applied.Actions
}

// Cycle is what PreFilter decided for one pod, for the later steps of the
// same scheduling cycle.
type Cycle struct {
	gang, alone bool
	candidates  sets.Set[string]
	// bounds are what every node of the pod must carry under its
	// workload's reservation (nil: none covers the pod).
	bounds *placement.SliceBounds
	// planned is the snapshot a failed plan read (nil: no plan failed),
	// which preemption may simulate on in the same cycle.
	planned *state.Snapshot
}

// relabelled are the nodes of labels (the scheduler's cache's labels of
// candidates) that the bounds of the pod's reservation exclude. PreFilter
// chose every candidate inside those bounds, on the state's labels: such
// a node was relabelled, and the state and the cache do not agree yet.
func (c *Cycle) relabelled(labels map[string]map[string]string) []string {
	if c.bounds == nil {
		return nil
	}
	var out []string
	for node, l := range labels {
		if c.candidates.Has(node) && c.bounds.Excludes(l) != "" {
			out = append(out, node)
		}
	}
	return out
}

// Candidates are the nodes PreFilter restricted the pod to (nil: none).
func (c *Cycle) Candidates() sets.Set[string] {
	if c == nil {
		return nil
	}
	return c.candidates
}

// PreFilter implements Manager.
func (e *Engine) PreFilter(ctx context.Context, pod *corev1.Pod, nodes NodeSnapshot) (*Cycle, sets.Set[string], *Status) {
	out := e.preFilter(ctx, pod, nodes)
	c := &Cycle{gang: out.Gang, alone: out.Alone, candidates: out.Nodes, bounds: out.Bounds, planned: out.Snapshot}
	if out.Planned > 0 {
		metrics.PlanningDuration.Observe(out.Planned.Seconds())
	}
	if out.Failure != nil {
		e.reportFailure(&out.Ref, out.Failure)
	}
	if out.EndsEarly != "" {
		e.notify.Warn(&out.Ref, "CapacityEndsBeforeRun", out.EndsEarly)
	}
	if out.Reserved != "" {
		e.notify.Normal(&out.Ref, "Reserved", out.Reserved)
	}
	switch out.Code {
	case Unresolvable, Unschedulable:
		return c, nil, newStatus(out.Code, out.Message)
	}
	if out.Alone && out.FlavorNodes != nil {
		candidates := aloneCandidates(out.Request, out.FlavorNodes, nodes)
		if candidates.Len() == 0 {
			return c, nil, newStatus(Unschedulable, "no node carries the labels of the flavors the pod's quota was charged to")
		}
		return c, candidates, nil
	}
	return c, out.Nodes, nil
}

// preFilter runs a pod's cycle: one copy of the state (Cycle), a decision
// on it alone (decidePreFilter), one write-back (Apply). Only an expired
// reservation, released first, and a plan that failed on the domains the
// copy narrowed to, made again on all of them, take another copy.
func (e *Engine) preFilter(ctx context.Context, pod *corev1.Pod, nodes NodeSnapshot) PreFilterOutcome {
	start := time.Now()
	c := e.st.Cycle(pod, nodes.Requested)
	if id := expiredReservation(&c); id != 0 {
		e.fx.Act(ctx, e.st.Apply(state.Decision{Key: c.Workload.Key, Expired: id}).Actions)
		c = e.st.Cycle(pod, nodes.Requested)
	}
	p := e.profileOf(pod)
	out := decidePreFilter(&c, p)
	if out.Full {
		// Why the plan fails, and what preemption could free, are read
		// from all the domains.
		c.Plan = e.st.FullPlan(pod, nodes.Requested)
		out = decidePreFilter(&c, p)
	}
	if c.Plan != nil {
		out.Planned = time.Since(start)
	}
	if c.Pod != nil {
		out.Request = c.Pod.Request
	}
	if out.Decision == nil {
		return out
	}
	applied := e.st.Apply(*out.Decision)
	e.fx.Act(ctx, applied.Actions)
	if err := applied.Refused; err != nil {
		// Another workload took a chosen domain, or the quota, meanwhile:
		// wait like a failed plan, so that what frees room wakes this pod
		// again.
		klog.FromContext(ctx).V(2).Info("Reservation raced with another change; retrying", "workload", out.Ref.Namespace+"/"+out.Ref.Name, "err", err)
		out.Conflict = err
		if out.Alone {
			return out.failed(&placement.Failure{Message: err.Error(), Reason: quota.ReasonQuotaExceeded}, nil)
		}
		out.Code, out.Message, out.Reserved, out.EndsEarly, out.Nodes = Unschedulable, err.Error(), "", "", nil
	}
	return out
}

// aloneCandidates are the nodes a plain pod admitted on quota alone may be
// placed on: those of the flavors it is charged to (flavorNodes) that have
// room for it in the cycle's snapshot. Without this, every cycle of such a
// pod filters every node of the cluster and scores a share of those that
// fit: while quota keeps hosts free (woken pods not scheduled yet), that
// share is hundreds of empty hosts. When none has room, all of
// flavorNodes stay candidates, so the filters report why and preemption
// may make room.
func aloneCandidates(request workload.Resources, flavorNodes []string, nodes NodeSnapshot) sets.Set[string] {
	room := sets.New[string]()
	for _, name := range flavorNodes {
		if known, fits := nodes.Fits(name, request); known && fits {
			room.Insert(name)
		}
	}
	if room.Len() == 0 {
		return sets.New(flavorNodes...)
	}
	return room
}

// reportFailure records why the workload could not be admitted as an event
// on it: a warning when only a change to its objects (or the nodes) can
// help. Failures the planner decided carry no reason of their own.
func (e *Engine) reportFailure(ref *corev1.ObjectReference, f *placement.Failure) {
	reason := state.FailureReason(f)
	if f.Unresolvable {
		e.notify.Warn(ref, reason, f.Message)
		return
	}
	e.notify.Normal(ref, reason, f.Message)
}

// Filter implements Manager. The reservation's bounds are checked on the
// node as the scheduler's cache has it, then the state's rules on the node
// as the state has it: both are fed by one informer, through handlers that
// run apart, so either may see a relabel first, and a pod must not follow
// its node out of the domain reserved for its slice meanwhile.
func (e *Engine) Filter(c *Cycle, pod *corev1.Pod, node *corev1.Node, free func() workload.Resources) *Status {
	if c != nil && c.bounds != nil {
		if why := c.bounds.Excludes(node.Labels); why != "" {
			return newStatus(Unschedulable, why)
		}
	}
	ok, reason := e.st.NodeFacts(pod, node.Name).Allows(free)
	if ok {
		return nil
	}
	if c == nil || !c.gang {
		// Tried again when reservations end.
		e.st.RecordBlocked(pod)
	}
	return newStatus(Unschedulable, reason)
}

// PostFilter implements Manager.
func (e *Engine) PostFilter(ctx context.Context, c *Cycle, pod *corev1.Pod, f FilterFailure) *Status {
	if c != nil {
		f.PreFiltered, f.Alone, f.Gang, f.Candidates = true, c.alone, c.gang, c.candidates
		f.Relabelled = c.relabelled(f.Labels)
	}
	return newStatus(Unschedulable, e.postFilter(ctx, pod, f).Message)
}

// postFilter runs PostFilter: the pod's membership copied when PreFilter
// did not see the pod, the decision on it, and its one write-back.
func (e *Engine) postFilter(ctx context.Context, pod *corev1.Pod, f FilterFailure) PostFilterOutcome {
	var v state.Verdict
	if !f.PreFiltered {
		v = Classify(e.st, pod)
	}
	out := PostFilter(v, pod, f)
	if out.Decision != nil {
		e.fx.Act(ctx, e.st.Apply(*out.Decision).Actions)
	}
	return out
}

// Preempt implements Manager.
func (e *Engine) Preempt(ctx context.Context, c *Cycle, pod *corev1.Pod, nodes NodeSnapshot) (bool, *Status) {
	v := Classify(e.st, pod)
	if !v.Gang {
		return false, nil
	}
	var planned *state.Snapshot
	if c != nil {
		planned = c.planned
	}
	out := e.preemptFor(ctx, pod, v, planned, nodes.Requested)
	switch out.Step {
	case NotTried:
		return true, newStatus(Unschedulable, "")
	case Underway, Raced:
		metrics.Preemptions.WithLabelValues(out.Step.Result()).Inc()
		return true, newStatus(Unschedulable, out.Message)
	}
	metrics.PreemptionDuration.Observe(out.Took.Seconds())
	if out.Step == NoVictims {
		metrics.Preemptions.WithLabelValues(out.Step.Result()).Inc()
		e.notify.Normal(&v.Ref, "NoPreemptionVictims", "cannot preempt: "+out.Message)
		return true, newStatus(Unschedulable, "whole-workload preemption: "+out.Message)
	}
	key, sn, decision := v.Member.Key, out.Snapshot, out.Decision
	metrics.Preemptions.WithLabelValues(out.Step.Result()).Inc()
	metrics.PreemptionVictims.Add(float64(len(decision.Victims)))
	// The plan the victims were chosen on; the placement itself is
	// planned again once they are gone and may use domains freed
	// meanwhile.
	where := strings.TrimPrefix(state.DescribePlacement(sn.Self.Model, decision.Plan), "reserved ")
	klog.FromContext(ctx).V(2).Info("Preempting whole workloads", "preemptor", key, "victims", decision.Victims, "simulations", decision.Simulations, "placement", where)
	// Capacity preemption takes domains and leaves the victims' quota
	// alone: they keep their place in their queue (it orders by priority
	// and creation) and come back when domains free up. Quota preemption
	// takes their quota as well.
	what, after := "quota and domains", "it waits in its queue for quota again"
	if decision.Capacity {
		what, after = "domains (capacity preemption; quota is not in question)", "it comes back, in its queue's order, as soon as domains free up"
	}
	victims := JoinKeys(decision.Victims)
	e.notify.Normal(&v.Ref, "Preempting", fmt.Sprintf("evicting %s (priority %s) for their %s (planned: %s)", victims, priorities(sn, decision.Victims), what, where))
	for _, victim := range out.Victims {
		e.notify.Warn(&victim.Ref, "Preempted", fmt.Sprintf("evicted whole by %s (priority %d), which takes its %s (planned: %s); %s", key, sn.Self.Priority, what, where, after))
		// Each pod is marked DisruptionTarget, naming the preemptor, and
		// deleted; the claim's timeout bounds what a failed eviction
		// costs the preemptor.
		go e.fx.Evict(context.WithoutCancel(ctx), victim.Pods, corev1.PodReasonPreemptionByScheduler,
			fmt.Sprintf("preempting the whole workload to accommodate higher priority workload %s", key))
	}
	return true, newStatus(Unschedulable, fmt.Sprintf("preempting %s; the workload is placed once they are gone", victims))
}

// preemptFor runs a gang member's preemption: a copy of what deciding it
// reads (State.Preemption), the decision on it (PreemptFor), and, when
// victims are to be chosen, a copy of the snapshot to choose them on
// (State.PreemptionSnapshot: a new value, planned is left as it is) and
// the choice (ChooseVictims); what was decided is written back with one
// Apply, which refuses a claim the state moved under.
func (e *Engine) preemptFor(ctx context.Context, pod *corev1.Pod, v state.Verdict, planned *state.Snapshot, requested state.Requested) PreemptionOutcome {
	key := v.Member.Key
	f := e.st.Preemption(pod, key)
	out, choose := PreemptFor(v, &f)
	if choose {
		start := time.Now()
		out = ChooseVictims(key, e.st.PreemptionSnapshot(key, planned, requested))
		out.Took = time.Since(start)
	}
	if out.Apply == nil {
		return out
	}
	applied := e.st.Apply(*out.Apply)
	if err := applied.Refused; err != nil {
		klog.FromContext(ctx).V(2).Info("Preemption raced with another change; retrying", "preemptor", key, "err", err)
		return PreemptionOutcome{Step: Raced, Message: "the victims chosen moved meanwhile (" + err.Error() + "); trying again", Took: out.Took}
	}
	out.Victims = applied.Victims
	return out
}

func priorities(sn *state.Snapshot, keys []workload.Key) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		if v := sn.Workloads[k]; v != nil {
			parts[i] = fmt.Sprint(v.Priority)
		}
	}
	return strings.Join(parts, ", ")
}

// Victim implements Manager.
func (e *Engine) Victim(preemptor *corev1.Pod, victims []*corev1.Pod, node string) (bool, bool) {
	return decideVictim(e.st.Victims(preemptor, victims, node))
}

// Reserve implements Manager.
func (e *Engine) Reserve(pod *corev1.Pod, node string) uint64 {
	e.Forget(pod)
	return e.st.Reserve(pod, node)
}

// Unreserve implements Manager.
func (e *Engine) Unreserve(ctx context.Context, pod *corev1.Pod, reservation uint64) {
	e.fx.Act(ctx, e.st.Unreserve(pod, reservation))
}

// Permit implements Manager.
func (e *Engine) Permit(ctx context.Context, pod *corev1.Pod) (*Status, time.Duration) {
	res := Permit(e.st, pod)
	e.fx.Act(ctx, res.Actions)
	if res.Record != 0 {
		// Its members bind once its admission is on its Workload object.
		e.fx.RecordAdmission(ctx, res.Key, res.Record, func(rec state.PermitResult) {
			e.fx.Act(ctx, rec.Actions)
			e.letThrough(rec)
		})
	}
	switch {
	case res.Allow:
		e.letThrough(res)
		return nil, 0
	case res.Wait > 0:
		return newStatus(Wait, res.Message), res.Wait
	default:
		klog.FromContext(ctx).V(2).Info("Rejecting gang member", "pod", klog.KObj(pod), "reason", res.Message)
		return newStatus(Unschedulable, res.Message), 0
	}
}

// permitTries bounds how often Permit decides again on a new copy when
// the reservation moved between its copy and its write-back.
const permitTries = 3

// Permit decides pod's Permit as the scheduler does: a copy of the state
// (State.PermitCycle), a decision on it alone (decidePermit), and the
// step it decided applied (State.Apply), which refuses it when the
// reservation moved meanwhile; the gate is then decided again.
func Permit(st *state.State, pod *corev1.Pod) state.PermitResult {
	var key workload.Key
	for range permitTries {
		c := st.PermitCycle(pod)
		key = c.Key
		a := decidePermit(c)
		res := state.PermitResult{Allow: a.Allow, Wait: a.Wait, Message: a.Message, Ref: c.Ref}
		if a.Step == nil {
			return res
		}
		a.Step.Self = pod.UID
		applied := st.Apply(state.Decision{Key: c.Key, Permit: a.Step})
		if applied.Refused != nil {
			continue
		}
		res.Actions = applied.Actions
		switch p := applied.Permit; {
		case p == nil:
			// The step released the reservation, as decided.
		case p.Message != "":
			// Found stale as its gate would pass: released.
			res = state.PermitResult{Message: p.Message, Ref: p.Ref, Actions: applied.Actions}
		case p.Allow:
			res = *p
			res.Actions = applied.Actions
		default:
			res.Record, res.Key = p.Record, p.Key
		}
		return res
	}
	return state.PermitResult{Message: fmt.Sprintf("the reservation of %s kept moving while its gate was decided", key)}
}

// letThrough lets a committed gang's waiting members bind and says where
// it was placed.
func (e *Engine) letThrough(res state.PermitResult) {
	for _, uid := range res.AllowWaiting {
		e.fx.AllowWaiting(uid, e.plugin)
	}
	if res.Committed != "" {
		e.notify.Normal(&res.Ref, "Placed", strings.Replace(res.Committed, "reserved ", "placed ", 1))
	}
}

// SortKey implements Manager: the keys are in memory, never looked up
// from the API.
func (e *Engine) SortKey(pod *corev1.Pod, priority int32, queued time.Time) SortKey {
	if v, ok := e.keys.Load(pod.UID); ok {
		return v.(SortKey)
	}
	key := SortKey{Priority: priority, Since: queued, Group: "pod/" + pod.Namespace + "/" + pod.Name, Pod: string(pod.UID)}
	var m workload.Member
	isMember := false
	if p, known := e.st.Pod(pod.UID); known {
		m, isMember = p.Member, p.Gang && p.MemberErr == nil
	} else if mm, ok, err := workload.MemberOf(pod); ok && err == nil {
		m, isMember = mm, true
	}
	if isMember {
		if created, ok := e.st.Created(m.Key); ok {
			key.Since = created
			key.Group = m.Key.String()
			key.Pod = fmt.Sprintf("%08d/%s", m.Slice, pod.Name)
		}
	}
	actual, _ := e.keys.LoadOrStore(pod.UID, key)
	return actual.(SortKey)
}

// WaitsForCapacity implements Manager.
func (e *Engine) WaitsForCapacity(pod *corev1.Pod) bool { return e.st.WaitsForCapacity(pod) }

// PlansOn implements Manager.
func (e *Engine) PlansOn(pod *corev1.Pod, node string) bool { return e.st.PlansOn(pod, node) }
