package controllers

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	schedulinglisters "k8s.io/client-go/listers/scheduling/v1"
	"k8s.io/klog/v2"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A queued Job or JobSet, once started, has pods, and they wait, gated, in
// kube-scheduler's queue until their workload is admitted; kube-scheduler
// walks every one of them on each cluster event. A queue of thousands of
// workloads started at once would fill that queue with pods that cannot be
// admitted for a long while. So, as Kueue keeps queued objects suspended
// until it admits them, the unsuspender starts only the first workloads of
// each ClusterQueue, in queue order: its start window, of depth
// queuedStartDepth (MultisliceGangArgs). The rest stay suspended and start
// as those ahead of them are admitted, finish or go away.
//
// The window is decided in rounds, each from the listers and the State
// alone (nothing is remembered between rounds, so a new leader decides as
// the old one did): every queued object the unsuspender would start, and
// every one it started that still waits to be admitted, are ranked by the
// queue's own order (quota.Precedes on their pod templates' priority and
// their creation); those of the first depth of each ClusterQueue that are
// still suspended are started. A workload of higher priority created
// later is among the first at once, so a full window never holds it back.

const (
	// windowSource keys the start window's round in the unsuspender's
	// queue (its name is unused).
	windowSource workload.Source = "StartWindow"
	// windowBatch is how long an object's change waits for others before
	// the round that looks at them all: a round reads every Job and
	// JobSet (about 10 ms for 15 000 JobSets), so rounds come at most this
	// often.
	windowBatch = 500 * time.Millisecond
	// windowRecheck is how often a round runs while objects are held: an
	// admission, which frees a place, changes no Job or JobSet. A window
	// of queuedStartDepth workloads keeps a queue supplied between rounds.
	windowRecheck = time.Second

	// reasonQueued: the object stays suspended until its queue's start
	// window reaches it.
	reasonQueued = "Queued"
)

// windowKey is the unsuspender's queue key of a round.
var windowKey = unsuspendKey{kind: windowSource}

// queuedRank is a queued object's place in its ClusterQueue's order.
type queuedRank struct {
	key      workload.Key
	priority int32
	created  time.Time
}

func (a queuedRank) before(b queuedRank) bool {
	return quota.Precedes(a.priority, b.priority, a.created, b.created, a.key, b.key)
}

// toStart is the start window's rule, on one ClusterQueue: of its waiting
// workloads (started, not yet admitted) and its held ones (suspended,
// which the unsuspender would start), ranked together in queue order, the
// held ones among the first depth are started, in that order. A depth of
// 0 or less bounds nothing: every held one starts.
func toStart(depth int, waiting, held []queuedRank) []queuedRank {
	type entry struct {
		queuedRank
		held bool
	}
	all := make([]entry, 0, len(waiting)+len(held))
	for _, r := range waiting {
		all = append(all, entry{r, false})
	}
	for _, r := range held {
		all = append(all, entry{r, true})
	}
	slices.SortFunc(all, func(a, b entry) int {
		switch {
		case a.before(b.queuedRank):
			return -1
		case b.before(a.queuedRank):
			return 1
		}
		return 0
	})
	if depth > 0 && len(all) > depth {
		all = all[:depth]
	}
	var out []queuedRank
	for _, e := range all {
		if e.held {
			out = append(out, e.queuedRank)
		}
	}
	return out
}

// templatePriority is the priority pods of spec get when created, as the
// Priority admission plugin sets it: spec.priority when set, else its
// PriorityClass's value, else the global default class's (classValue("")),
// else 0.
func templatePriority(spec *corev1.PodSpec, classValue func(name string) (int32, bool)) int32 {
	if spec.Priority != nil {
		return *spec.Priority
	}
	if classValue != nil {
		if v, ok := classValue(spec.PriorityClassName); ok {
			return v
		}
	}
	return 0
}

// priorityClassValue reads PriorityClass values from classes: a class by
// name, or for "" the global default class (the admission plugin takes
// the oldest if several claim to be).
func priorityClassValue(classes schedulinglisters.PriorityClassLister) func(string) (int32, bool) {
	return func(name string) (int32, bool) {
		if name != "" {
			pc, err := classes.Get(name)
			if err != nil {
				return 0, false
			}
			return pc.Value, true
		}
		all, err := classes.List(labels.Everything())
		if err != nil {
			return 0, false
		}
		var def *schedulingv1.PriorityClass
		for _, pc := range all {
			if pc.GlobalDefault && (def == nil || pc.CreationTimestamp.Before(&def.CreationTimestamp)) {
				def = pc
			}
		}
		if def == nil {
			return 0, false
		}
		return def.Value, true
	}
}

// memoized is env answering each question once: a round asks the same
// few of thousands of objects, and each answer otherwise takes the
// State's lock.
func (env unsuspendEnv) memoized() unsuspendEnv {
	out := env
	if f := env.ours; f != nil {
		out.ours = memo(func(name string) bool { return f(name) })
	}
	if f := env.localQueue; f != nil {
		lq := memo(func(k [2]string) bool { return f(k[0], k[1]) })
		out.localQueue = func(namespace, name string) bool { return lq([2]string{namespace, name}) }
	}
	if f := env.queueCheck; f != nil {
		check := memo(func(k [2]string) *provisioning.Check { return f(k[0], k[1]) })
		out.queueCheck = func(namespace, queue string) *provisioning.Check { return check([2]string{namespace, queue}) }
	}
	if f := env.resolveQueue; f != nil {
		type answer struct {
			cq string
			p  *quota.Problem
		}
		resolve := memo(func(k [2]string) answer { cq, p := f(k[0], k[1]); return answer{cq, p} })
		out.resolveQueue = func(namespace, queue string) (string, *quota.Problem) {
			a := resolve([2]string{namespace, queue})
			return a.cq, a.p
		}
	}
	if f := env.priorityClass; f != nil {
		type answer struct {
			v  int32
			ok bool
		}
		class := memo(func(name string) answer { v, ok := f(name); return answer{v, ok} })
		out.priorityClass = func(name string) (int32, bool) { a := class(name); return a.v, a.ok }
	}
	return out
}

// memo is f remembering its answers (not safe for concurrent use).
func memo[K comparable, V any](f func(K) V) func(K) V {
	seen := map[K]V{}
	return func(k K) V {
		v, ok := seen[k]
		if !ok {
			v = f(k)
			seen[k] = v
		}
		return v
	}
}

// heldObject is a suspended object the round may start, with what
// starting it needs.
type heldObject struct {
	rank    queuedRank
	queue   string
	verdict unsuspendVerdict
	job     *batchv1.Job
	jobSet  *jobsetv1alpha2.JobSet
}

// windowQueue is one ClusterQueue's objects in a round.
type windowQueue struct {
	held    []heldObject
	started []queuedRank
}

// syncWindow runs one round: it starts what the window lets start, tells
// held objects why they wait, and asks for another round while any is held.
func (u *Unsuspender) syncWindow(ctx context.Context) (recheck bool, err error) {
	env := u.env()
	if env.priorityClass == nil && u.priorityClasses != nil {
		env.priorityClass = priorityClassValue(u.priorityClasses)
	}
	env = env.memoized()
	byCQ := u.windowQueues(env)
	cqs := slices.Sorted(maps.Keys(byCQ))
	var startedKeys []workload.Key
	for _, cq := range cqs {
		for _, r := range byCQ[cq].started {
			startedKeys = append(startedKeys, r.key)
		}
	}
	var waits []bool
	if u.awaiting != nil {
		waits = u.awaiting(startedKeys)
	}
	told := map[types.UID]bool{}
	i := 0
	for _, cq := range cqs {
		q := byCQ[cq]
		depth := u.depth
		if cq == "" {
			depth = 0
		}
		var waiting []queuedRank
		for _, r := range q.started {
			if waits == nil || waits[i] {
				waiting = append(waiting, r)
			}
			i++
		}
		held := make([]queuedRank, len(q.held))
		byKey := make(map[workload.Key]heldObject, len(q.held))
		for j, h := range q.held {
			held[j], byKey[h.rank.key] = h.rank, h
		}
		start := toStart(depth, waiting, held)
		for _, r := range start {
			if err := u.start(ctx, env, byKey[r.key]); err != nil {
				// The next round tries again, from the informers' newer copy.
				klog.FromContext(ctx).V(2).Info("Starting a queued workload; the next round retries", "workload", r.key, "err", err)
				recheck = true
			}
			delete(byKey, r.key)
		}
		if len(byKey) == 0 {
			continue
		}
		recheck = true
		msg := fmt.Sprintf("waits suspended in ClusterQueue %s: the scheduler starts a queue's waiting workloads %d at a time, in queue order "+
			"(priority, then creation), and starts this one when it is among the first %d of those not yet admitted", cq, u.depth, u.depth)
		for _, h := range byKey {
			told[h.uid()] = true
			if !u.told[h.uid()] {
				u.events.Normal(h.ref(), reasonQueued, msg)
			}
		}
	}
	// Each held object is told once (again by a new leader); those no
	// longer held are forgotten.
	u.told = told
	return recheck, nil
}

// windowQueues lists, by ClusterQueue, the objects the round decides on
// (env memoized: it asks the same few questions of every object):
// the suspended ones decideJob or decideJobSet would start, and the ones
// started by the scheduler that have not ended. Objects whose queue
// resolves to no ClusterQueue are started at once, as without a window:
// their pods then say what keeps the queue from admitting anything.
func (u *Unsuspender) windowQueues(env unsuspendEnv) map[string]*windowQueue {
	byCQ := map[string]*windowQueue{}
	resolve := func(namespace, queue string) string {
		if env.resolveQueue != nil {
			if cq, p := env.resolveQueue(namespace, queue); p == nil {
				return cq
			}
		}
		return ""
	}
	of := func(cq string) *windowQueue {
		q := byCQ[cq]
		if q == nil {
			q = &windowQueue{}
			byCQ[cq] = q
		}
		return q
	}
	add := func(h heldObject, started bool) {
		cq := resolve(h.rank.key.Namespace, h.queue)
		// The queue "" bounds nothing (syncWindow gives it no depth): its
		// started objects need no counting.
		switch {
		case !started:
			of(cq).held = append(of(cq).held, h)
		case cq != "":
			of(cq).started = append(of(cq).started, h.rank)
		}
	}
	if jobs, err := u.jobLister.List(labels.Everything()); err == nil {
		for _, job := range jobs {
			if h, started, ok := u.heldJob(job, env); ok {
				add(h, started)
			}
		}
	}
	if access := u.jobSetAccess(); access != nil {
		if jss, err := access.lister.List(labels.Everything()); err == nil {
			for _, js := range jss {
				if h, started, ok := u.heldJobSet(js, env); ok {
					add(h, started)
				}
			}
		}
	}
	return byCQ
}

// heldJob is job's entry in a round: ok when it is held (decideJob would
// start it) or was started by the scheduler and has not ended (started).
func (u *Unsuspender) heldJob(job *batchv1.Job, env unsuspendEnv) (h heldObject, started, ok bool) {
	queue := workload.JobQueueName(job)
	if queue == "" || job.Labels[wellknown.JobSetNameLabel] != "" {
		return h, false, false
	}
	h = heldObject{queue: queue, job: job, rank: queuedRank{
		key:      workload.Key{Source: workload.SourceJob, Namespace: job.Namespace, Name: job.Name},
		priority: templatePriority(&job.Spec.Template.Spec, env.priorityClass),
		created:  job.CreationTimestamp.Time,
	}}
	if _, done := job.Annotations[wellknown.UnsuspendedAnnotation]; done {
		return h, true, job.DeletionTimestamp == nil && !jobEnded(job) && !suspendedNow(job.Spec.Suspend)
	}
	h.verdict = decideJob(job, env)
	return h, false, h.verdict.unsuspend
}

// heldJobSet is heldJob for a JobSet; its priority is its highest pod
// template's, as its workload's is its highest pod's.
func (u *Unsuspender) heldJobSet(js *jobsetv1alpha2.JobSet, env unsuspendEnv) (h heldObject, started, ok bool) {
	queue := wellknown.QueueName(js.Labels, js.Annotations)
	if queue == "" || len(js.Spec.ReplicatedJobs) == 0 {
		return h, false, false
	}
	h = heldObject{queue: queue, jobSet: js, rank: queuedRank{
		key:     workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name},
		created: js.CreationTimestamp.Time,
	}}
	for i, rj := range js.Spec.ReplicatedJobs {
		p := templatePriority(&rj.Template.Spec.Template.Spec, env.priorityClass)
		if i == 0 || p > h.rank.priority {
			h.rank.priority = p
		}
	}
	if _, done := js.Annotations[wellknown.UnsuspendedAnnotation]; done {
		return h, true, js.DeletionTimestamp == nil && !jobSetEnded(js) && !suspendedNow(js.Spec.Suspend)
	}
	h.verdict = decideJobSet(js, env)
	return h, false, h.verdict.unsuspend
}

func suspendedNow(suspend *bool) bool { return suspend != nil && *suspend }

func jobSetEnded(js *jobsetv1alpha2.JobSet) bool {
	for _, c := range js.Status.Conditions {
		if (c.Type == string(jobsetv1alpha2.JobSetCompleted) || c.Type == string(jobsetv1alpha2.JobSetFailed)) && c.Status == metav1.ConditionTrue {
			return true
		}
	}
	return false
}

func (h heldObject) uid() types.UID {
	if h.job != nil {
		return h.job.UID
	}
	return h.jobSet.UID
}

// ref is the object reference events about h are recorded on.
func (h heldObject) ref() *corev1.ObjectReference {
	if h.job != nil {
		return &corev1.ObjectReference{Kind: "Job", APIVersion: batchv1.SchemeGroupVersion.String(), Namespace: h.job.Namespace, Name: h.job.Name, UID: h.job.UID}
	}
	return &corev1.ObjectReference{Kind: "JobSet", APIVersion: jobsetv1alpha2.GroupVersion.String(), Namespace: h.jobSet.Namespace, Name: h.jobSet.Name, UID: h.jobSet.UID}
}

// start starts an object in one update, and says so on it: a held one
// the window lets start, or, without a window, one its own sync decided
// to start.
func (u *Unsuspender) start(ctx context.Context, env unsuspendEnv, h heldObject) error {
	if h.job != nil {
		_, err := u.jobs.Jobs(h.job.Namespace).Update(ctx, unsuspendedJob(h.job, u.clock.Now(), h.verdict.podAnnotations), metav1.UpdateOptions{})
		if err != nil {
			return ignoreNotFound(err)
		}
	} else {
		access := u.jobSetAccess()
		if access == nil {
			return nil
		}
		if _, err := access.update(ctx, unsuspendedJobSet(h.jobSet, u.clock.Now(), h.verdict.podAnnotations)); err != nil {
			return ignoreNotFound(err)
		}
	}
	ref := h.ref()
	u.events.Normal(ref, reasonUnsuspended, startedMessage(env, ref.Namespace, h.queue))
	return nil
}
