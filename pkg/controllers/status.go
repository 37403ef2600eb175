package controllers

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multislicetyped "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/typed/multislice/v1alpha1"
	listers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// StatusWriter keeps what users read current: ClusterQueue and LocalQueue
// status, and a Workload object per quota-managed workload. It writes only
// what changed since the apiserver's copy (read from informers), so a
// quiet cluster costs no writes.
type StatusWriter struct {
	client multisliceclient.Interface
	// urgent writes the Workload objects of workloads whose provisioning
	// check waits: each owns the workload's ProvisioningRequest, which is
	// created only once it exists, so it is on the path of admitting the
	// workload and must not queue behind the status writes' rate limit.
	urgent    multisliceclient.Interface
	state     *state.State
	cqs       listers.ClusterQueueLister
	lqs       listers.LocalQueueLister
	acs       listers.AdmissionCheckLister
	workloads listers.WorkloadLister
	// kick wakes createMissing: a workload reserved quota for its check.
	kick chan struct{}
	// creating runs createMissing's creations.
	creating *inflight
	// failing remembers the last error per object, so that a persistent
	// one is logged once, not every second. Both loops report.
	mu      sync.Mutex
	failing map[string]string
	// created remembers when either loop created a Workload object
	// (namespace/name), so that neither creates it again while the
	// informer has not shown it yet: each such try costs the apiserver a
	// request answered AlreadyExists (83 in a burst of 300 gangs with a
	// check). Kept createdGrace at most, lest an object deleted before
	// the informer saw it never be created again; guarded by mu.
	created map[string]time.Time
	clock   clock.PassiveClock
}

// createdGrace is how long a Workload object this writer created is not
// created again while the informer does not show it.
const createdGrace = 10 * time.Second

// NewStatusWriter returns the writer of the queue objects' and Workload
// objects' status that st reports, with client, and with urgent for the
// Workload objects of workloads whose provisioning check waits; the
// listers are the informers' copies, against which only changes are
// written.
func NewStatusWriter(client, urgent multisliceclient.Interface, st *state.State, cqs listers.ClusterQueueLister, lqs listers.LocalQueueLister,
	acs listers.AdmissionCheckLister, workloads listers.WorkloadLister) *StatusWriter {
	return &StatusWriter{client: client, urgent: urgent, state: st, cqs: cqs, lqs: lqs, acs: acs, workloads: workloads, kick: make(chan struct{}, 1),
		creating: newInflight(urgentCreations), clock: st.Clock()}
}

// justCreated reports whether this writer created Workload object
// namespace/name, or found it existing, less than createdGrace ago.
func (w *StatusWriter) justCreated(namespace, name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	key := objectKey(namespace, name)
	at, ok := w.created[key]
	if ok && w.clock.Now().Sub(at) >= createdGrace {
		delete(w.created, key)
		return false
	}
	return ok
}

// noteCreated records that this writer created Workload object
// namespace/name (or found it existing), and forgets those noted
// createdGrace ago.
func (w *StatusWriter) noteCreated(namespace, name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.clock.Now()
	for k, at := range w.created {
		if now.Sub(at) >= createdGrace {
			delete(w.created, k)
		}
	}
	if w.created == nil {
		w.created = map[string]time.Time{}
	}
	w.created[objectKey(namespace, name)] = now
}

// Poke asks for the Workload objects that waiting checks lack to be
// created now, rather than in the next pass: a pass writes every queue
// and Workload object that changed, and may take seconds in a burst.
func (w *StatusWriter) Poke() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// report logs a failed write once per object and error; nil clears it.
func (w *StatusWriter) report(logger klog.Logger, what string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failing == nil {
		w.failing = map[string]string{}
	}
	if err == nil {
		delete(w.failing, what)
		return
	}
	if w.failing[what] == err.Error() {
		return
	}
	w.failing[what] = err.Error()
	logger.Error(err, "Writing status", "object", what)
}

// Run writes what changed every period, and creates the Workload objects
// that waiting checks lack whenever poked, until ctx ends.
func (w *StatusWriter) Run(ctx context.Context, every time.Duration) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.kick:
				w.createMissing(ctx)
			}
		}
	}()
	defer func() {
		<-done
		w.creating.Wait()
	}()
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		w.sync(ctx)
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// createMissing creates, on the urgent client, the Workload objects of
// workloads whose check waits and that have none yet: each owns its
// workload's ProvisioningRequest, which is created only once it exists.
// Their status is the next pass's to write. Only creations happen here,
// so the two loops never update one object at once; a creation both make
// is done by one, and the other's AlreadyExists is no error.
func (w *StatusWriter) createMissing(ctx context.Context) {
	w.createMissingOf(ctx, w.state.Reports().CheckWaitingReports())
}

// createMissingOf is createMissing on reports. It starts the creations
// and returns: each starts as soon as a slot is free (see inflight), not
// once those of the poke before have returned.
func (w *StatusWriter) createMissingOf(ctx context.Context, reports []state.WorkloadReport) {
	logger := klog.FromContext(ctx)
	for i := range reports {
		r := &reports[i]
		if !checkPending(r) || r.Ended {
			continue
		}
		name := WorkloadName(r.Key)
		if _, err := w.workloads.Workloads(r.Key.Namespace).Get(name); !apierrors.IsNotFound(err) || w.justCreated(r.Key.Namespace, name) {
			continue
		}
		w.creating.Go(ctx, objectKey(r.Key.Namespace, name), func(ctx context.Context) {
			_, err := createWorkload(ctx, w.urgent.MultisliceV1alpha1().Workloads(r.Key.Namespace), desiredWorkload(r, name))
			if err == nil {
				// Created, or found existing: the informer will show it.
				w.noteCreated(r.Key.Namespace, name)
			}
			w.report(logger, "Workload of "+r.Key.String(), err)
		}, nil)
	}
}

func (w *StatusWriter) sync(ctx context.Context) {
	logger := klog.FromContext(ctx)
	rep := w.state.Reports().QueueReport()
	metrics.RecordQueues(rep)
	for _, name := range slices.Sorted(maps.Keys(rep.ClusterQueues)) {
		w.report(logger, "ClusterQueue "+name, w.syncClusterQueue(ctx, name, rep.ClusterQueues[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(rep.AdmissionChecks)) {
		w.report(logger, "AdmissionCheck "+name, w.syncAdmissionCheck(ctx, name, rep.AdmissionChecks[name]))
	}
	for _, key := range slices.Sorted(maps.Keys(rep.LocalQueues)) {
		r := rep.LocalQueues[key]
		_, known := rep.ClusterQueues[r.ClusterQueue]
		w.report(logger, "LocalQueue "+key, w.syncLocalQueue(ctx, r, known && rep.ClusterQueues[r.ClusterQueue].Known))
	}
	w.syncWorkloads(ctx, rep.Workloads)
}

// urgentWrites bounds the Workload objects of waiting checks written at
// once: each write waits for the apiserver, and written one after the
// other a burst of gangs got their objects at the rate of one round trip
// each (about 12 a second on scheduler_perf's 300 gangs).
const urgentWrites = 16

// urgentCreations bounds createMissing's creations at once: as many as
// the provisioning controller creates requests at once (creatingRequests),
// since each request waits for its Workload object.
const urgentCreations = creatingRequests

// syncWorkloads writes the Workload objects of reports. A provisioning
// request is owned by its Workload object: the workloads whose check
// waits go first, several at once on the urgent client, so that a burst
// of other workloads' writes (rate-limited) does not hold their requests
// back.
func (w *StatusWriter) syncWorkloads(ctx context.Context, reports []state.WorkloadReport) {
	logger := klog.FromContext(ctx)
	errs := make([]error, len(reports))
	var g errgroup.Group
	g.SetLimit(urgentWrites)
	for i := range reports {
		if wr := &reports[i]; checkPending(wr) {
			g.Go(func() error {
				errs[i] = w.syncWorkload(ctx, w.urgent, wr)
				return nil
			})
		}
	}
	_ = g.Wait()
	for i := range reports {
		if wr := &reports[i]; checkPending(wr) {
			w.report(logger, "Workload of "+wr.Key.String(), errs[i])
		}
	}
	for i := range reports {
		if wr := &reports[i]; !checkPending(wr) {
			w.report(logger, "Workload of "+wr.Key.String(), w.syncWorkload(ctx, w.client, wr))
		}
	}
}

// checkPending reports whether r's provisioning check waits (for its
// request to be created or to answer).
func checkPending(r *state.WorkloadReport) bool { return r.Check != nil && r.Check.State == "Pending" }

func (w *StatusWriter) syncClusterQueue(ctx context.Context, name string, r *state.ClusterQueueReport) error {
	if !r.Known {
		return nil
	}
	cq, err := w.cqs.Get(name)
	if err != nil {
		return err
	}
	st := *cq.Status.DeepCopy()
	st.PendingWorkloads, st.ReservingWorkloads, st.AdmittedWorkloads = int32(r.Pending), int32(r.Reserving), int32(r.Admitted)
	st.FlavorsUsage = usageList(r.Usage, r.Borrowed)
	st.Usage = usageSummary(r.Usage, r.Nominal)
	st.FairSharing = &multislicev1alpha1.FairSharingStatus{WeightedShare: r.WeightedShare}
	st.PendingWorkloadsStatus = pendingHead(cq.Status.PendingWorkloadsStatus, r.Head, w.state.Clock().Now())
	active := metav1.Condition{Type: multislicev1alpha1.ClusterQueueActive,
		Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonReady, Message: "Can admit new workloads"}
	if p := r.Inactive; p != nil {
		active.Status, active.Reason, active.Message = metav1.ConditionFalse, p.Reason, "Admits no workload: "+p.Message
	}
	apimeta.SetStatusCondition(&st.Conditions, active)
	if equality.Semantic.DeepEqual(st, cq.Status) {
		return nil
	}
	out := cq.DeepCopy()
	out.Status = st
	_, err = w.client.MultisliceV1alpha1().ClusterQueues().UpdateStatus(ctx, out, metav1.UpdateOptions{})
	return err
}

// syncAdmissionCheck writes whether a provisioning check this scheduler
// runs is active: problem says why not. Checks of other controllers are
// theirs to report.
func (w *StatusWriter) syncAdmissionCheck(ctx context.Context, name, problem string) error {
	if w.acs == nil {
		return nil
	}
	ac, err := w.acs.Get(name)
	if err != nil {
		return goneIsDone(err)
	}
	st := *ac.Status.DeepCopy()
	cond := metav1.Condition{Type: multislicev1alpha1.AdmissionCheckActive, Status: metav1.ConditionTrue,
		Reason: multislicev1alpha1.ReasonReady, Message: "The scheduler's provisioning check runs it"}
	if problem != "" {
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "Inactive", problem
	}
	apimeta.SetStatusCondition(&st.Conditions, cond)
	if equality.Semantic.DeepEqual(st, ac.Status) {
		return nil
	}
	out := ac.DeepCopy()
	out.Status = st
	_, err = w.client.MultisliceV1alpha1().AdmissionChecks().UpdateStatus(ctx, out, metav1.UpdateOptions{})
	return goneIsDone(err)
}

func (w *StatusWriter) syncLocalQueue(ctx context.Context, r *state.LocalQueueReport, cqExists bool) error {
	lq, err := w.lqs.LocalQueues(r.Namespace).Get(r.Name)
	if err != nil {
		return err
	}
	st := *lq.Status.DeepCopy()
	st.PendingWorkloads, st.ReservingWorkloads, st.AdmittedWorkloads = int32(r.Pending), int32(r.Reserving), int32(r.Admitted)
	st.FlavorUsage = usageList(r.Usage, nil)
	st.PendingWorkloadsStatus = pendingHead(lq.Status.PendingWorkloadsStatus, r.Head, w.state.Clock().Now())
	cond := metav1.Condition{Type: multislicev1alpha1.LocalQueueActive, Status: metav1.ConditionTrue,
		Reason: multislicev1alpha1.ReasonReady, Message: "Can submit new workloads to its ClusterQueue"}
	if !cqExists {
		cond.Status, cond.Reason = metav1.ConditionFalse, multislicev1alpha1.ReasonClusterQueueNotFound
		cond.Message = fmt.Sprintf("ClusterQueue %s does not exist", r.ClusterQueue)
	}
	apimeta.SetStatusCondition(&st.Conditions, cond)
	if equality.Semantic.DeepEqual(st, lq.Status) {
		return nil
	}
	out := lq.DeepCopy()
	out.Status = st
	_, err = w.client.MultisliceV1alpha1().LocalQueues(r.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{})
	return err
}

// WorkloadName is the name of the Workload object of a workload: its kind
// and name, shortened with a hash when too long for an object name.
func WorkloadName(key workload.Key) string { return key.ObjectName() }

func (w *StatusWriter) syncWorkload(ctx context.Context, client multisliceclient.Interface, r *state.WorkloadReport) error {
	if r.Ended {
		// Left as admitted until its owner says it finished.
		return nil
	}
	name := WorkloadName(r.Key)
	want := desiredWorkload(r, name)
	api := client.MultisliceV1alpha1().Workloads(r.Key.Namespace)
	cur, err := w.workloads.Workloads(r.Key.Namespace).Get(name)
	switch {
	case apierrors.IsNotFound(err):
		if w.justCreated(r.Key.Namespace, name) {
			// Made by createMissing a moment ago: the next pass,
			// reading it, writes its status.
			return nil
		}
		created, err := createWorkload(ctx, api, want)
		if err != nil {
			return err
		}
		w.noteCreated(r.Key.Namespace, name)
		if created == nil {
			// Made by createMissing meanwhile: the next pass, reading
			// it, writes its status.
			return nil
		}
		cur = created
	case err != nil:
		return err
	case !ownedBy(cur, r.Ref.UID):
		// Left by a deleted object of the same name: start afresh.
		if err := api.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &cur.UID}}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		return nil
	}
	_, err = applyWorkload(ctx, api, cur, want)
	return goneIsDone(err)
}

// createWorkload creates Workload object want; nil and no error when it
// exists already, as the two loops of the status writer may both create
// it (see createMissing).
func createWorkload(ctx context.Context, api workloadsAPI, want *multislicev1alpha1.Workload) (*multislicev1alpha1.Workload, error) {
	created, err := api.Create(ctx, want, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		return nil, nil
	}
	return created, err
}

// applyWorkload makes Workload object cur's spec and status say what want
// says, writing only what differs, and returns the object as written.
func applyWorkload(ctx context.Context, api workloadsAPI, cur, want *multislicev1alpha1.Workload) (*multislicev1alpha1.Workload, error) {
	var err error
	if !equality.Semantic.DeepEqual(cur.Spec, want.Spec) {
		up := cur.DeepCopy()
		up.Spec = want.Spec
		if cur, err = api.Update(ctx, up, metav1.UpdateOptions{}); err != nil {
			return nil, err
		}
	}
	st := workloadStatus(cur, want)
	if equality.Semantic.DeepEqual(st, cur.Status) {
		return cur, nil
	}
	up := cur.DeepCopy()
	up.Status = st
	return api.UpdateStatus(ctx, up, metav1.UpdateOptions{})
}

// workloadStatus is cur's status with what want says of the admission,
// its checks and its conditions.
func workloadStatus(cur, want *multislicev1alpha1.Workload) multislicev1alpha1.WorkloadStatus {
	st := *cur.Status.DeepCopy()
	st.Admission = want.Status.Admission
	st.PositionInClusterQueue, st.PositionInLocalQueue = want.Status.PositionInClusterQueue, want.Status.PositionInLocalQueue
	st.AdmissionChecks = want.Status.AdmissionChecks
	for _, c := range want.Status.Conditions {
		apimeta.SetStatusCondition(&st.Conditions, c)
	}
	return st
}

// workloadUpToDate reports whether applyWorkload would write nothing.
func workloadUpToDate(cur, want *multislicev1alpha1.Workload) bool {
	return equality.Semantic.DeepEqual(cur.Spec, want.Spec) && equality.Semantic.DeepEqual(workloadStatus(cur, want), cur.Status)
}

// workloadsAPI is the typed client of one namespace's Workload objects.
type workloadsAPI = multislicetyped.WorkloadInterface

// errStaleWorkload: a Workload object of the same name belongs to a
// deleted owner; it is deleted and written anew.
var errStaleWorkload = errors.New("the Workload object belongs to a deleted object of the same name")

// goneIsDone: a Workload object deleted between the informer's view and
// the write (garbage-collected with its owner, which the state has not
// seen go yet, or deleted by hand) is not an error to report; the next
// sync creates it again if its owner still lives.
func goneIsDone(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func ownedBy(wl *multislicev1alpha1.Workload, uid types.UID) bool {
	for _, o := range wl.OwnerReferences {
		if o.UID == uid {
			return true
		}
	}
	return false
}

// pendingHead is a queue's pendingWorkloadsStatus for its head now: cur
// itself when the head did not change (its lastChangeTime stays), nil
// for an empty head.
func pendingHead(cur *multislicev1alpha1.PendingWorkloadsStatus, head []workload.Key, now time.Time) *multislicev1alpha1.PendingWorkloadsStatus {
	if len(head) == 0 {
		return nil
	}
	want := make([]multislicev1alpha1.PendingWorkload, 0, len(head))
	for _, k := range head {
		want = append(want, multislicev1alpha1.PendingWorkload{Namespace: k.Namespace, Name: WorkloadName(k)})
	}
	if cur != nil && slices.Equal(cur.Head, want) {
		return cur
	}
	return &multislicev1alpha1.PendingWorkloadsStatus{Head: want, LastChangeTime: metav1.NewTime(now.Truncate(time.Second))}
}

// positionOf is a place in a queue as the API writes it (nil: unknown).
func positionOf(p int) *int32 {
	if p <= 0 {
		return nil
	}
	return ptr.To(int32(p))
}

// desiredWorkload is the Workload object a report describes.
func desiredWorkload(r *state.WorkloadReport, name string) *multislicev1alpha1.Workload {
	wl := &multislicev1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: r.Key.Namespace, Name: name,
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: r.Ref.APIVersion, Kind: r.Ref.Kind, Name: r.Ref.Name, UID: r.Ref.UID, Controller: ptr.To(true),
			}},
		},
		Spec: multislicev1alpha1.WorkloadSpec{QueueName: r.Queue, Priority: ptr.To(r.Priority)},
	}
	for i, sl := range r.Model.Slices {
		wl.Spec.PodSets = append(wl.Spec.PodSets, multislicev1alpha1.PodSet{
			Name: sl.Name, Count: int32(sl.Pods), Requests: resourceList(requestOf(r, i)), TopologyKey: sl.DomainKey,
		})
	}
	var conds []metav1.Condition
	switch {
	case r.Charge != nil:
		adm := &multislicev1alpha1.Admission{ClusterQueue: r.Charge.ClusterQueue}
		for i, sl := range r.Model.Slices {
			a := multislicev1alpha1.PodSetAssignment{Name: sl.Name, Count: int32(sl.Pods), Domain: r.Domains[i], Flavors: r.Charge.Flavors[i]}
			if u, ok := r.Charge.Slices[i]; ok {
				// What it was charged, exactly: a scheduler that takes over
				// charges the workload as recorded (see state/record.go).
				a.ResourceUsage = resourceUsageList(u)
			} else {
				usage := workload.Resources{}
				for res := range r.Charge.Flavors[i] {
					usage[res] = requestOf(r, i)[res] * int64(sl.Pods)
				}
				a.ResourceUsage = resourceList(usage)
			}
			adm.PodSetAssignments = append(adm.PodSetAssignments, a)
		}
		wl.Status.Admission = adm
		msg := fmt.Sprintf("Quota reserved in ClusterQueue %s", r.Charge.ClusterQueue)
		admitted := metav1.Condition{Type: multislicev1alpha1.WorkloadAdmitted, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonAdmitted, Message: "The workload is admitted; its slices are placed " + describeDomains(r)}
		if r.Unplaced != "" {
			admitted.Message = "The workload is admitted, but its pods fit nowhere yet: " + r.Unplaced
		}
		if c := r.Check; c != nil && c.State == "Pending" {
			admitted = metav1.Condition{Type: multislicev1alpha1.WorkloadAdmitted, Status: metav1.ConditionFalse, Reason: ReasonWaitingForAdmissionChecks, Message: "The admission check " + c.Name + " is not ready: " + c.Message}
		}
		conds = append(conds,
			metav1.Condition{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonQuotaReserved, Message: msg},
			admitted)
	case r.Model.Suspended:
		conds = append(conds,
			metav1.Condition{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionFalse, Reason: "Suspended", Message: "Its owner is suspended"},
			metav1.Condition{Type: multislicev1alpha1.WorkloadAdmitted, Status: metav1.ConditionFalse, Reason: "Suspended", Message: "Its owner is suspended"})
	case r.Model.Finished:
		reason, msg := multislicev1alpha1.ReasonSucceeded, "The workload finished"
		if r.Model.Failed {
			reason, msg = multislicev1alpha1.ReasonFailed, "The workload failed"
		}
		conds = append(conds,
			metav1.Condition{Type: multislicev1alpha1.WorkloadFinished, Status: metav1.ConditionTrue, Reason: reason, Message: msg},
			metav1.Condition{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionFalse, Reason: reason, Message: "Its quota was released when it finished"})
	default:
		reason, msg := multislicev1alpha1.ReasonPending, "waiting to be admitted"
		if p := r.Problem; p != nil {
			reason, msg = p.Reason, p.Message
		}
		if c := r.Check; c != nil && (c.State == "Retry" || c.State == "Rejected") {
			reason, msg = "AdmissionCheck"+c.State, c.Message
		}
		conds = append(conds,
			metav1.Condition{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionFalse, Reason: reason, Message: msg},
			metav1.Condition{Type: multislicev1alpha1.WorkloadAdmitted, Status: metav1.ConditionFalse, Reason: multislicev1alpha1.ReasonPending, Message: "waiting for quota and domains"})
	}
	if e := r.Eviction; e != nil && !r.Model.Finished {
		by := fmt.Sprintf("Preempted by %s (priority %d) at %s", e.By, e.Priority, e.At.UTC().Format(time.RFC3339))
		if r.Charge != nil {
			conds = append(conds, metav1.Condition{Type: multislicev1alpha1.WorkloadEvicted, Status: metav1.ConditionFalse,
				Reason: multislicev1alpha1.ReasonAdmitted, Message: by + "; admitted again since"})
		} else {
			conds = append(conds, metav1.Condition{Type: multislicev1alpha1.WorkloadEvicted, Status: metav1.ConditionTrue,
				Reason: multislicev1alpha1.ReasonPreempted, Message: by + "; it waits to be admitted again"})
		}
	}
	if !r.RunExpired.IsZero() {
		conds = append(conds, metav1.Condition{Type: multislicev1alpha1.WorkloadEvicted, Status: metav1.ConditionTrue,
			Reason: ReasonMaximumRunDurationExceeded, Message: "Ended at " + r.RunExpired.UTC().Format(time.RFC3339) + ": it ran for its maximum run duration"})
	}
	wl.Status.Conditions = conds
	if p := r.Position; p != nil {
		wl.Status.PositionInClusterQueue, wl.Status.PositionInLocalQueue = positionOf(p.ClusterQueue), positionOf(p.LocalQueue)
	}
	if c := r.Check; c != nil {
		wl.Status.AdmissionChecks = []multislicev1alpha1.AdmissionCheckState{{
			Name: c.Name, State: c.State, Message: c.Message, LastTransitionTime: metav1.NewTime(c.Since.Truncate(time.Second)),
		}}
	}
	return wl
}

// ReasonWaitingForAdmissionChecks: quota is reserved, and an admission
// check (its ProvisioningRequest) is not ready yet.
const ReasonWaitingForAdmissionChecks = "WaitingForAdmissionChecks"

// ReasonMaximumRunDurationExceeded: the workload was ended at its
// maximum run duration.
const ReasonMaximumRunDurationExceeded = "MaximumRunDurationExceeded"

// requestOf is slice i's per-pod request.
func requestOf(r *state.WorkloadReport, i int) workload.Resources {
	if i < len(r.Requests) && r.Requests[i] != nil {
		return r.Requests[i]
	}
	return r.Model.Slices[i].Request
}

func describeDomains(r *state.WorkloadReport) string {
	if len(r.Domains) == 0 {
		return "on nodes chosen for each pod"
	}
	var parts []string
	for _, i := range slices.Sorted(maps.Keys(r.Domains)) {
		parts = append(parts, fmt.Sprintf("%s on %s", r.Model.Slices[i].Name, r.Domains[i]))
	}
	return strings.Join(parts, ", ")
}

// resourceList renders milli-unit requests, without the pod count.
func resourceList(r workload.Resources) corev1.ResourceList {
	out := corev1.ResourceList{}
	for name, v := range r {
		if name == corev1.ResourcePods || v == 0 {
			continue
		}
		out[name] = quota.Quantity(name, v)
	}
	return out
}

// usageList renders a usage as the status' per-flavor list, in the order
// of flavors then resources, whole units.
func usageList(u, borrowed quota.Usage) []multislicev1alpha1.FlavorUsage {
	byFlavor := map[string][]corev1.ResourceName{}
	var flavors []string
	for fr := range u {
		if _, ok := byFlavor[fr.Flavor]; !ok {
			flavors = append(flavors, fr.Flavor)
		}
		byFlavor[fr.Flavor] = append(byFlavor[fr.Flavor], fr.Resource)
	}
	slices.Sort(flavors)
	out := make([]multislicev1alpha1.FlavorUsage, 0, len(flavors))
	for _, f := range flavors {
		rs := byFlavor[f]
		slices.Sort(rs)
		fu := multislicev1alpha1.FlavorUsage{Name: f}
		for _, r := range rs {
			fr := quota.FlavorResource{Flavor: f, Resource: r}
			fu.Resources = append(fu.Resources, multislicev1alpha1.ResourceUsage{
				Name: r, Total: quota.Quantity(r, u[fr]), Borrowed: quota.Quantity(r, borrowed[fr]),
			})
		}
		out = append(out, fu)
	}
	return out
}

// usageSummary is a ClusterQueue's status.usage: per resource, sorted,
// the quota in use of the nominal quota, each summed over every flavor.
func usageSummary(used, nominal quota.Usage) string {
	type sum struct{ used, nominal int64 }
	byResource := map[corev1.ResourceName]*sum{}
	for fr, n := range nominal {
		if byResource[fr.Resource] == nil {
			byResource[fr.Resource] = &sum{}
		}
		byResource[fr.Resource].nominal += n
		byResource[fr.Resource].used += used[fr]
	}
	parts := make([]string, 0, len(byResource))
	for _, r := range slices.Sorted(maps.Keys(byResource)) {
		s := byResource[r]
		parts = append(parts, fmt.Sprintf("%s: %s/%s", r, quota.FormatAmount(r, s.used), quota.FormatAmount(r, s.nominal)))
	}
	return strings.Join(parts, ", ")
}
