package chaos

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Invariant is one promise of the scheduler the checker holds it to.
type Invariant string

const (
	// Exclusive: no node pool holds live bound pods of two workloads
	// confined to pools (exclusive topology), no pod of another workload is
	// bound into a pool such a workload holds, a confined slice lies in one
	// pool, and no pool holds two slices of one attempt.
	Exclusive Invariant = "(a) exclusive domains"
	// NoPartialGang: no gang attempt has some but not all of its pods
	// bound for longer than the scheduler's permit timeout allows.
	NoPartialGang Invariant = "(b) no partial gang"
	// WithinQuota: what the bound pods of a ClusterQueue's workloads
	// request stays within the quota its cohort allows it.
	WithinQuota Invariant = "(c) usage within quota"
	// Explained: a workload that waits says why.
	Explained Invariant = "(d) waiting explained"
	// KeptTopology: a pod set that requires one domain of a level (a
	// subblock, a block) is bound within one, and each of its slices
	// within one domain of its slice level.
	KeptTopology Invariant = "(e) topology kept"
)

// Invariants lists the invariants in report order.
var Invariants = []Invariant{Exclusive, NoPartialGang, WithinQuota, Explained, KeptTopology}

// Violation is one breach of an invariant. The same Key seen again while
// it lasts is the same violation.
type Violation struct {
	Invariant Invariant
	Key       string
	Objects   []string
	Message   string

	// What it is about, for Evidence: a gang attempt (GangKey) of a
	// workload, a pool, or a ClusterQueue.
	gang     string
	workload WorkloadID
	pool     string
	queue    string
}

// Config tunes the time-bound invariants.
type Config struct {
	// PartialGangAfter is how long a gang attempt may have some but not
	// all of its pods bound: the scheduler's permit timeout (and follower
	// timeout, for JobSets whose webhook creates followers after their
	// leader binds), plus the API's latency.
	PartialGangAfter time.Duration
	// PendingAfter is how long a pod may wait before a reason must be on
	// record; and how long a queued object created suspended may stay so.
	PendingAfter time.Duration
	// ReservedFor is how long a gang's reservation lasts (the permit
	// timeout): while it does, its Reserved event explains why its pods
	// are not bound yet (they wait in Permit for the rest of the gang).
	ReservedFor time.Duration
}

// Checker evaluates the invariants on a World. It keeps what a single look
// cannot tell: since when each gang has been partial, and which workloads
// once had every pod of an attempt bound.
type Checker struct {
	cfg          Config
	partialSince map[string]time.Time
	// whole holds the workloads some attempt of which had all its pods
	// bound at once.
	whole map[WorkloadID]bool
}

// NewChecker returns a checker with cfg.
func NewChecker(cfg Config) *Checker {
	return &Checker{cfg: cfg, partialSince: map[string]time.Time{}, whole: map[WorkloadID]bool{}}
}

// Whole counts the workloads that ran whole: every pod of an attempt bound
// at once.
func (c *Checker) Whole() int { return len(c.whole) }

// Check evaluates every invariant on w at now.
func (c *Checker) Check(w *World, now time.Time) []Violation {
	gangs := gangsOf(w)
	var out []Violation
	out = append(out, CheckExclusive(w)...)
	out = append(out, c.checkPartial(w, gangs, now)...)
	out = append(out, CheckQuota(w)...)
	out = append(out, CheckExplained(w, gangs, now, c.cfg)...)
	out = append(out, CheckTopology(w)...)
	return out
}

// gang is the pods of one attempt of one workload.
type gang struct {
	member Member
	pods   []*corev1.Pod
}

func gangsOf(w *World) map[string]*gang {
	out := map[string]*gang{}
	for _, p := range w.Pods {
		m := MemberOf(p)
		g := out[m.GangKey()]
		if g == nil {
			g = &gang{member: m}
			out[m.GangKey()] = g
		}
		g.pods = append(g.pods, p)
	}
	for _, g := range out {
		sort.Slice(g.pods, func(i, j int) bool { return g.pods[i].Name < g.pods[j].Name })
	}
	return out
}

// poolOf is the node pool of a pod's node ("" if unknown).
func poolOf(w *World, pod *corev1.Pod) string {
	if n := w.Nodes[pod.Spec.NodeName]; n != nil {
		return n.Labels[wellknown.NodePoolLabel]
	}
	return ""
}

// poolUse is one workload's live bound pods in one pool.
type poolUse struct {
	pods     []string
	confined bool
	// first and last are when its first and last pod there were bound.
	first, last time.Time
}

// CheckExclusive checks invariant (a) on the live bound pods. A pool held
// by a confined workload may hold another workload's pods only if they
// were there first (exclusivity, docs/concepts/domains.md, keeps others out of a held
// domain; it does not evict what already runs in one): two confined
// workloads in one pool are always a violation, an unconfined one only
// when one of its pods was bound after the confined one's first.
func CheckExclusive(w *World) []Violation {
	byPool := map[string]map[WorkloadID]*poolUse{}
	slicePools := map[string]map[string]bool{} // gang/slice → pools
	poolSlices := map[string]map[string]bool{} // pool/gang → slices
	for _, p := range w.Pods {
		if !Bound(p) || !Live(p) {
			continue
		}
		pool := poolOf(w, p)
		if pool == "" {
			continue
		}
		m := MemberOf(p)
		if byPool[pool] == nil {
			byPool[pool] = map[WorkloadID]*poolUse{}
		}
		u := byPool[pool][m.Workload]
		if u == nil {
			u = &poolUse{}
			byPool[pool][m.Workload] = u
		}
		u.pods = append(u.pods, p.Name)
		bound := w.BoundAt[p.UID]
		if u.first.IsZero() || bound.Before(u.first) {
			u.first = bound
		}
		if bound.After(u.last) {
			u.last = bound
		}
		if o, ok := w.OwnerOf(m.Workload, p); !ok || o.DomainKey != wellknown.NodePoolLabel {
			continue
		}
		u.confined = true
		sk := m.GangKey() + " slice " + m.Slice
		if slicePools[sk] == nil {
			slicePools[sk] = map[string]bool{}
		}
		slicePools[sk][pool] = true
		pk := pool + "|" + m.GangKey()
		if poolSlices[pk] == nil {
			poolSlices[pk] = map[string]bool{}
		}
		poolSlices[pk][m.Slice] = true
	}
	var out []Violation
	for _, pool := range sortedKeys(byPool) {
		if v, ok := sharedPool(pool, byPool[pool]); ok {
			out = append(out, v)
		}
	}
	for _, sk := range sortedKeys(slicePools) {
		if pools := slicePools[sk]; len(pools) > 1 {
			out = append(out, Violation{
				Invariant: Exclusive, Key: "split " + sk, Objects: []string{sk}, gang: strings.SplitN(sk, " slice ", 2)[0],
				Message: fmt.Sprintf("a confined slice has live pods in %d pools: %s", len(pools), strings.Join(sortedKeys(pools), ", ")),
			})
		}
	}
	for _, pk := range sortedKeys(poolSlices) {
		if sl := poolSlices[pk]; len(sl) > 1 {
			pool, gk, _ := strings.Cut(pk, "|")
			out = append(out, Violation{
				Invariant: Exclusive, Key: "slices " + pk, Objects: []string{gk, "pool " + pool}, gang: gk, pool: pool,
				Message: fmt.Sprintf("slices %s of one attempt share pool %s", strings.Join(sortedKeys(sl), ", "), pool),
			})
		}
	}
	return out
}

// sharedPool reports a pool whose confined holder shares it.
func sharedPool(pool string, uses map[WorkloadID]*poolUse) (Violation, bool) {
	var confined []WorkloadID
	var held time.Time // when the first confined workload took the pool
	for id, u := range uses {
		if u.confined {
			confined = append(confined, id)
			if held.IsZero() || u.first.Before(held) {
				held = u.first
			}
		}
	}
	if len(confined) == 0 {
		return Violation{}, false
	}
	var ids, objs []string
	intruders := 0
	for id, u := range uses {
		if !u.confined && !u.last.After(held) {
			continue // it was there first
		}
		if !u.confined {
			intruders++
		}
		slices.Sort(u.pods)
		ids = append(ids, id.String())
		objs = append(objs, fmt.Sprintf("%s (pods %s)", id, strings.Join(u.pods, ", ")))
	}
	if len(confined) < 2 && intruders == 0 {
		return Violation{}, false
	}
	slices.Sort(ids)
	slices.Sort(objs)
	msg := fmt.Sprintf("node pool %s holds live pods of %d workloads confined to their pool by exclusive topology", pool, len(confined))
	if len(confined) < 2 {
		msg = fmt.Sprintf("node pool %s, held by a workload confined to it since %s, got pods of %d other workload(s) bound into it", pool, held.Format("15:04:05.000"), intruders)
	}
	return Violation{
		Invariant: Exclusive, Key: "shared " + pool + ": " + strings.Join(ids, " + "),
		Objects: append([]string{"pool " + pool}, objs...), Message: msg, pool: pool,
	}, true
}

// JobSetFinished reports whether a JobSet completed or failed for good.
func JobSetFinished(js *jobsetv1alpha2.JobSet) bool {
	if js.Status.TerminalState != "" {
		return true
	}
	for _, t := range []string{string(jobsetv1alpha2.JobSetCompleted), string(jobsetv1alpha2.JobSetFailed)} {
		if apimeta.IsStatusConditionTrue(js.Status.Conditions, t) {
			return true
		}
	}
	return false
}

// currentAttempt is a JobSet's restart attempt: its status's, or that of
// its newest pods if the informer delivered them first.
func currentAttempt(js *jobsetv1alpha2.JobSet, gangs map[string]*gang) int {
	a := int(js.Status.Restarts)
	for _, g := range gangs {
		if g.member.Workload.Kind == "JobSet" && g.member.Workload.UID == js.UID && g.member.Attempt > a {
			a = g.member.Attempt
		}
	}
	return a
}

// settled reports whether a gang attempt is one the scheduler should have
// whole or not at all: its owner exists, wants it run (not finished,
// suspended, deleted, or past this attempt) and none of its pods failed or
// was deleted (an attempt that lost pods is ending; its controller
// restarts it).
func settled(w *World, g *gang, gangs map[string]*gang) bool {
	id := g.member.Workload
	switch id.Kind {
	case "JobSet":
		js := w.JobSets[id.UID]
		if js == nil || js.DeletionTimestamp != nil || JobSetFinished(js) || (js.Spec.Suspend != nil && *js.Spec.Suspend) {
			return false
		}
		if g.member.Attempt < currentAttempt(js, gangs) {
			return false
		}
	case "PodGroup":
		pg := w.PodGroups[id.Namespace+"/"+id.Name]
		if pg == nil || pg.DeletionTimestamp != nil {
			return false
		}
	case "Job":
		job := w.Jobs[id.UID]
		if job == nil || job.DeletionTimestamp != nil || job.Status.CompletionTime != nil || jobFailed(job.Status.Conditions) {
			return false
		}
	default:
		return false
	}
	if _, ok := w.Disrupted[g.member.GangKey()]; ok {
		return false
	}
	for _, p := range g.pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed {
			return false
		}
	}
	return true
}

// checkPartial checks invariant (b): a settled gang attempt with some but
// not all of its pods bound (succeeded ones count as bound: a gang's pods
// are bound together and end at their own pace) for longer than
// PartialGangAfter.
func (c *Checker) checkPartial(w *World, gangs map[string]*gang, now time.Time) []Violation {
	var out []Violation
	seen := map[string]bool{}
	for _, key := range sortedKeys(gangs) {
		g := gangs[key]
		owner, ok := w.OwnerOf(g.member.Workload, nil)
		if !ok || !owner.Gang || owner.Pods == 0 || !settled(w, g, gangs) {
			continue
		}
		var bound, unbound []string
		pools := map[string]bool{}
		for _, p := range g.pods {
			if Bound(p) {
				bound = append(bound, p.Name)
				if pool := poolOf(w, p); pool != "" {
					pools[pool] = true
				}
			} else {
				unbound = append(unbound, p.Name)
			}
		}
		if len(bound) >= owner.Pods {
			c.whole[g.member.Workload] = true
		}
		if len(bound) == 0 || len(bound) >= owner.Pods {
			continue
		}
		seen[key] = true
		since, ok := c.partialSince[key]
		if !ok {
			since = now
			c.partialSince[key] = now
		}
		if now.Sub(since) <= c.cfg.PartialGangAfter {
			continue
		}
		missing := "not created yet"
		if len(unbound) > 0 {
			missing = "pending: " + strings.Join(unbound, ", ")
		}
		out = append(out, Violation{
			Invariant: NoPartialGang, Key: "partial " + key, Objects: append([]string{key}, bound...), gang: key, workload: g.member.Workload,
			Message: fmt.Sprintf("%d of %d pods bound (on %s) for over %s, since %s; the rest %s",
				len(bound), owner.Pods, strings.Join(sortedKeys(pools), ", "), c.cfg.PartialGangAfter, since.Format(time.TimeOnly), missing),
		})
	}
	for key := range c.partialSince {
		if !seen[key] {
			delete(c.partialSince, key)
		}
	}
	return out
}

func jobFailed(conds []batchv1.JobCondition) bool {
	for _, c := range conds {
		if c.Type == batchv1.JobFailed && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// CheckQuota checks invariant (c): per ClusterQueue and flavor, the
// accelerators (google.com/tpu, nvidia.com/gpu) live bound pods of
// workloads whose LocalQueue points at the queue request are within its
// allowance (Allowances). A flavor's nodes carry one kind of accelerator.
func CheckQuota(w *World) []Violation {
	type fr = string                             // flavor
	usage := map[fr]map[string]int64{}           // flavor → ClusterQueue → chips or GPUs
	users := map[fr]map[string]map[string]bool{} // flavor → ClusterQueue → workloads
	resourceOf := map[fr]corev1.ResourceName{}
	for _, p := range w.Pods {
		if !Bound(p) || !Live(p) {
			continue
		}
		resource, chips := wellknown.ResourceTPU, PodTPU(p)
		if chips == 0 {
			resource, chips = wellknown.ResourceGPU, podRequest(p, wellknown.ResourceGPU)
		}
		if chips == 0 {
			continue
		}
		m := MemberOf(p)
		owner, ok := w.OwnerOf(m.Workload, p)
		if !ok || owner.Queue == "" {
			continue
		}
		lq := w.LocalQueues[p.Namespace+"/"+owner.Queue]
		if lq == nil {
			continue
		}
		cq := w.ClusterQueues[lq.Spec.ClusterQueue]
		node := w.Nodes[p.Spec.NodeName]
		if cq == nil || node == nil {
			continue
		}
		flavor, ok := FlavorOf(cq, w.Flavors, node)
		if !ok {
			flavor = anyFlavorOf(w.Flavors, node)
		}
		if usage[flavor] == nil {
			usage[flavor] = map[string]int64{}
			users[flavor] = map[string]map[string]bool{}
		}
		usage[flavor][cq.Name] += chips
		resourceOf[flavor] = resource
		if users[flavor][cq.Name] == nil {
			users[flavor][cq.Name] = map[string]bool{}
		}
		users[flavor][cq.Name][m.Workload.String()] = true
	}
	cohorts := map[string]string{}
	for name, cq := range w.ClusterQueues {
		cohorts[name] = cq.Spec.CohortOf()
	}
	var out []Violation
	for _, flavor := range sortedKeys(usage) {
		quotas := map[string]QueueQuota{}
		for name, cq := range w.ClusterQueues {
			quotas[name] = QueueQuotaOf(cq, flavor, resourceOf[flavor])
		}
		allowed := Allowances(quotas, usage[flavor], cohorts)
		for _, cq := range sortedKeys(usage[flavor]) {
			used, a := usage[flavor][cq], allowed[cq]
			if used <= a.Max {
				continue
			}
			why := fmt.Sprintf("nominal %d + %d the cohort lends unused", a.Nominal, a.CohortLends)
			if !quotas[cq].Has {
				why = "the queue has no quota of this flavor"
			} else if a.BorrowingLimit != nil && a.Max == a.Nominal+*a.BorrowingLimit {
				why += fmt.Sprintf(", capped by borrowing limit %d", *a.BorrowingLimit)
			}
			out = append(out, Violation{
				Invariant: WithinQuota, Key: "quota " + cq + "/" + flavor, queue: cq,
				Objects: append([]string{"ClusterQueue " + cq}, sortedKeys(users[flavor][cq])...),
				Message: fmt.Sprintf("ClusterQueue %s uses %d %s of flavor %s, more than the %d it may (%s)", cq, used, resourceOf[flavor], flavor, a.Max, why),
			})
		}
	}
	return out
}

func anyFlavorOf(flavors map[string]*multislicev1alpha1.ResourceFlavor, node *corev1.Node) string {
	for _, name := range sortedKeys(flavors) {
		match := true
		for k, v := range flavors[name].Spec.NodeLabels {
			match = match && node.Labels[k] == v
		}
		if match {
			return name
		}
	}
	return "(no flavor)"
}

// PodTPU is the google.com/tpu a pod requests (its limits, when only those
// are set, as the apiserver defaults requests of extended resources).
func PodTPU(p *corev1.Pod) int64 { return podRequest(p, wellknown.ResourceTPU) }

// podRequest is how much of extended resource name a pod requests.
func podRequest(p *corev1.Pod, name corev1.ResourceName) int64 {
	var n int64
	for _, c := range p.Spec.Containers {
		q, ok := c.Resources.Requests[name]
		if !ok {
			q, ok = c.Resources.Limits[name]
		}
		if ok {
			n += q.Value()
		}
	}
	return n
}

// progressReasons are the scheduler's events that say a workload moves on,
// not why it waits.
var progressReasons = map[string]bool{"Placed": true, "Reserved": true, "Scheduled": true, "Unsuspended": true, "Provisioned": true}

// reservedReason is the event of a gang reserved and waiting in Permit for
// its other members: a reason to wait while the reservation lasts.
const reservedReason = "Reserved"

// eventSlack allows for an event written a moment before the pod it
// explains was created.
const eventSlack = 5 * time.Second

// CheckExplained checks invariant (d): every pod of the scheduler pending
// (not bound, not gated, not being deleted) for longer than pendingAfter
// has a reason on record, and every queued JobSet or Job created suspended
// was started within pendingAfter. A reason is, in this order: the pod's
// PodScheduled=False condition with a message (kube-scheduler writes it
// for a pod whose cycle failed), the same on another pod of its gang
// attempt (only the gang's head goes through cycles), its Workload
// object's conditions (queued workloads: why the queue keeps it waiting),
// an event of the scheduler on the pod, its gang or its owner since the
// wait began that is not a progress event (the scheduler records each
// message once, so an older one may be all there is; it is accepted from
// the start of the attempt on), or a Reserved event younger than the
// reservation's lifetime (its members wait in Permit).
func CheckExplained(w *World, gangs map[string]*gang, now time.Time, cfg Config) []Violation {
	pendingAfter := cfg.PendingAfter
	var out []Violation
	for _, key := range sortedKeys(gangs) {
		g := gangs[key]
		var waiting []*corev1.Pod
		var start time.Time
		for _, p := range g.pods {
			if Bound(p) || !Live(p) || len(p.Spec.SchedulingGates) > 0 {
				continue
			}
			waiting = append(waiting, p)
			if start.IsZero() || p.CreationTimestamp.Before(&metav1.Time{Time: start}) {
				start = p.CreationTimestamp.Time
			}
		}
		if len(waiting) == 0 || now.Sub(start) <= pendingAfter {
			continue
		}
		if explained(w, g, waiting, start, now, cfg.ReservedFor) {
			continue
		}
		names := make([]string, 0, len(waiting))
		for _, p := range waiting {
			names = append(names, p.Name)
		}
		out = append(out, Violation{
			Invariant: Explained, Key: "unexplained " + key, Objects: append([]string{key}, names...), gang: key, workload: g.member.Workload,
			Message: fmt.Sprintf("%d pod(s) pending for %s with no PodScheduled=False message, no waiting condition on its Workload object and no waiting event of the scheduler since %s",
				len(waiting), now.Sub(start).Round(time.Second), start.Format(time.TimeOnly)),
		})
	}
	out = append(out, checkStarted(w, now, pendingAfter)...)
	return out
}

func explained(w *World, g *gang, waiting []*corev1.Pod, start, now time.Time, reservedFor time.Duration) bool {
	for _, p := range g.pods {
		if c := podScheduled(p); c != nil && c.Status == corev1.ConditionFalse && c.Message != "" && !Bound(p) {
			return true
		}
	}
	if wl := workloadObject(w, g.member.Workload); wl != nil && waitingCondition(wl) {
		return true
	}
	uids := []types.UID{ownerUID(w, g.member.Workload)}
	for _, p := range waiting {
		uids = append(uids, p.UID)
	}
	for _, uid := range uids {
		for _, e := range w.Events[uid] {
			if e.At.Before(start.Add(-eventSlack)) {
				continue
			}
			if !progressReasons[e.Reason] || (e.Reason == reservedReason && now.Sub(e.At) <= reservedFor) {
				return true
			}
		}
	}
	return false
}

func podScheduled(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodScheduled {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// workloadObject is the scheduler's Workload object of a workload, if it
// exists and belongs to this incarnation of its owner.
func workloadObject(w *World, id WorkloadID) *multislicev1alpha1.Workload {
	wl := w.Workloads[id.Namespace+"/"+strings.ToLower(id.Kind)+"-"+id.Name]
	if wl == nil {
		return nil
	}
	uid := ownerUID(w, id)
	if uid == "" {
		return wl
	}
	for _, o := range wl.OwnerReferences {
		if o.UID == uid {
			return wl
		}
	}
	return nil
}

// waitingCondition reports whether a Workload object says why it waits:
// QuotaReserved=False with a reason past the initial Pending, Evicted, or
// quota reserved with an admission check not ready yet.
func waitingCondition(wl *multislicev1alpha1.Workload) bool {
	conds := wl.Status.Conditions
	if c := apimeta.FindStatusCondition(conds, multislicev1alpha1.WorkloadQuotaReserved); c != nil &&
		c.Status == metav1.ConditionFalse && c.Reason != multislicev1alpha1.ReasonPending && c.Message != "" {
		return true
	}
	if apimeta.IsStatusConditionTrue(conds, multislicev1alpha1.WorkloadEvicted) {
		return true
	}
	c := apimeta.FindStatusCondition(conds, multislicev1alpha1.WorkloadAdmitted)
	return c != nil && c.Status == metav1.ConditionFalse && c.Reason == "WaitingForAdmissionChecks"
}

func ownerUID(w *World, id WorkloadID) types.UID {
	if id.Kind == "PodGroup" {
		if pg := w.PodGroups[id.Namespace+"/"+id.Name]; pg != nil {
			return pg.UID
		}
		return ""
	}
	return id.UID
}

// checkStarted: a queued JobSet or Job created suspended is started by the
// scheduler at once, whatever its quota (its pods then wait gated).
func checkStarted(w *World, now time.Time, pendingAfter time.Duration) []Violation {
	var out []Violation
	type obj struct {
		id        WorkloadID
		meta      *metav1.ObjectMeta
		suspended bool
	}
	var objs []obj
	for _, js := range w.JobSets {
		objs = append(objs, obj{JobSetID(js), &js.ObjectMeta, js.Spec.Suspend != nil && *js.Spec.Suspend})
	}
	for _, j := range w.Jobs {
		objs = append(objs, obj{WorkloadID{Kind: "Job", Namespace: j.Namespace, Name: j.Name, UID: j.UID}, &j.ObjectMeta, j.Spec.Suspend != nil && *j.Spec.Suspend})
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].id.String() < objs[j].id.String() })
	for _, o := range objs {
		if !o.suspended || o.meta.DeletionTimestamp != nil || o.meta.Annotations[wellknown.UnsuspendedAnnotation] != "" ||
			wellknown.QueueName(o.meta.Labels, o.meta.Annotations) == "" || now.Sub(o.meta.CreationTimestamp.Time) <= pendingAfter {
			continue
		}
		out = append(out, Violation{
			Invariant: Explained, Key: "suspended " + o.id.String(), Objects: []string{o.id.String()}, workload: o.id,
			Message: fmt.Sprintf("queued and created suspended %s ago, never started by the scheduler", now.Sub(o.meta.CreationTimestamp.Time).Round(time.Second)),
		})
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
