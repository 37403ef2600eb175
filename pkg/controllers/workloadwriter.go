package controllers

import (
	"context"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multislicelisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A quota-managed gang's admission is written on its Workload object before
// any of its pods binds (state/record.go says why). The recorder does the
// writing, off the scheduling loop: the gang's members wait in Permit
// meanwhile, and a write that fails is retried until it succeeds or the
// reservation ends (its permit timeout rejects them).

// A failed admission write is retried with a backoff between these.
const (
	recordBackoffStart = 50 * time.Millisecond
	recordBackoffMax   = 2 * time.Second
)

// recorder writes admissions on Workload objects.
type recorder struct {
	client multisliceclient.Interface
	// cache, when set, is the informer's view of Workload objects: a hint
	// that saves reading an object before writing it. Every write it leads
	// to names the resourceVersion it read (or creates), so a stale hint
	// fails the write and the object is read from the API instead.
	cache multislicelisters.WorkloadLister
}

// WorkloadWriter writes Workload objects as reports describe them:
// admissions, before any pod of the admitted gang binds, and what users
// must be told of workloads the state does not report. Its zero value
// writes nothing until Start.
type WorkloadWriter struct {
	recorder atomic.Pointer[recorder]
}

// Start lets w write with client, the informer's Workload objects in cache
// saving reads; it is called once the queue API is served.
func (w *WorkloadWriter) Start(client multisliceclient.Interface, cache multislicelisters.WorkloadLister) {
	w.recorder.Store(&recorder{client: client, cache: cache})
}

// RecordAdmission writes the admission of reservation id of key, as st
// reports it, on its Workload object, retrying until it is written or the
// reservation no longer waits for it; once written, done gets what to let
// through.
func (w *WorkloadWriter) RecordAdmission(ctx context.Context, st *state.State, key workload.Key, id uint64, done func(state.PermitResult)) {
	go func() {
		ctx := context.WithoutCancel(ctx)
		logger := klog.FromContext(ctx)
		backoff := recordBackoffStart
		failures := 0
		for {
			rep, ok := st.Reports().PendingRecord(key, id)
			if !ok {
				return
			}
			err := w.Write(ctx, &rep)
			if err == nil {
				done(st.Upkeep().AdmissionRecorded(key, id))
				return
			}
			if failures%10 == 0 {
				logger.Error(err, "Recording an admission on its Workload object; retrying", "workload", key, "failures", failures)
			}
			failures++
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				return
			}
			backoff = min(2*backoff, recordBackoffMax)
		}
	}()
}

// Write writes the Workload object r describes.
func (w *WorkloadWriter) Write(ctx context.Context, r *state.WorkloadReport) error {
	rec := w.recorder.Load()
	if rec == nil {
		return errNoQueueAPI
	}
	return rec.write(ctx, r)
}

// errNoQueueAPI: a quota-managed workload is admitted only with the queue
// API served, which starts the recorder; this covers the moment between.
var errNoQueueAPI = apierrors.NewServiceUnavailable("the Workload API client is not started yet")

// write makes the Workload object of r say what r says, admission
// included. An admission counts as recorded only once a write of it
// succeeded, or the API itself (not a cache) showed it already written.
// No read precedes a write: a Workload object the cache does not hold is
// created and the admission written on it (two requests), one it holds is
// written with the cached resourceVersion (one).
func (rc *recorder) write(ctx context.Context, r *state.WorkloadReport) error {
	name := WorkloadName(r.Key)
	want := desiredWorkload(r, name)
	api := rc.client.MultisliceV1alpha1().Workloads(r.Key.Namespace)
	cur, fromCache := rc.cached(r.Key.Namespace, name)
	var err error
	switch {
	case cur == nil:
		cur, err = api.Create(ctx, withoutStatus(want), metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			cur, err = api.Get(ctx, name, metav1.GetOptions{})
		}
	case !ownedBy(cur, r.Ref.UID) || workloadUpToDate(cur, want):
		// Nothing would be written on the cache's word: the API says.
		fromCache = false
		cur, err = api.Get(ctx, name, metav1.GetOptions{})
	}
	if apierrors.IsNotFound(err) {
		cur, err = api.Create(ctx, withoutStatus(want), metav1.CreateOptions{})
	}
	if err != nil {
		return err
	}
	if !ownedBy(cur, r.Ref.UID) {
		// Left by a deleted object of the same name.
		_ = api.Delete(ctx, name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &cur.UID}})
		return apierrors.NewConflict(multislicev1alpha1.Resource("workloads"), name, errStaleWorkload)
	}
	_, err = applyWorkload(ctx, api, cur, want)
	if fromCache && (apierrors.IsConflict(err) || apierrors.IsNotFound(err)) {
		// The cache was behind: write once more, from the API's copy.
		return (&recorder{client: rc.client}).write(ctx, r)
	}
	return err
}

// withoutStatus is wl as created: the API ignores the status of a new
// object (a subresource of its own), which is written next.
func withoutStatus(wl *multislicev1alpha1.Workload) *multislicev1alpha1.Workload {
	out := wl.DeepCopy()
	out.Status = multislicev1alpha1.WorkloadStatus{}
	return out
}

// cached returns the cache's copy of Workload object ns/name (nil when it
// holds none, or there is no cache).
func (rc *recorder) cached(ns, name string) (*multislicev1alpha1.Workload, bool) {
	if rc.cache == nil {
		return nil, false
	}
	wl, err := rc.cache.Workloads(ns).Get(name)
	if err != nil {
		return nil, false
	}
	return wl, true
}

// RecordedAdmission reads what a Workload object records of its owner's
// admission, and the workload it belongs to (ok false when it belongs to
// none this scheduler knows).
func RecordedAdmission(wl *multislicev1alpha1.Workload) (workload.Key, *state.RecordedAdmission, bool) {
	var owner *metav1.OwnerReference
	for i := range wl.OwnerReferences {
		if o := &wl.OwnerReferences[i]; o.Controller != nil && *o.Controller {
			owner = o
		}
	}
	if owner == nil {
		return workload.Key{}, nil, false
	}
	key := workload.Key{Source: workload.Source(owner.Kind), Namespace: wl.Namespace, Name: owner.Name}
	rec := &state.RecordedAdmission{OwnerUID: owner.UID}
	if len(wl.Status.AdmissionChecks) > 0 {
		rec.Check, rec.CheckState = wl.Status.AdmissionChecks[0].Name, wl.Status.AdmissionChecks[0].State
	}
	adm := wl.Status.Admission
	if adm == nil || adm.ClusterQueue == "" || wl.DeletionTimestamp != nil {
		return key, rec, true
	}
	index := map[string]int{}
	for i, ps := range wl.Spec.PodSets {
		index[ps.Name] = i
	}
	perSlice := map[int]quota.Usage{}
	for _, a := range adm.PodSetAssignments {
		i, ok := index[a.Name]
		if !ok {
			continue
		}
		u := quota.Usage{}
		for res, q := range a.ResourceUsage {
			if f := a.Flavors[res]; f != "" {
				u[quota.FlavorResource{Flavor: f, Resource: res}] += q.MilliValue()
			}
		}
		perSlice[i] = u
	}
	rec.Charge = quota.FromSlices(adm.ClusterQueue, perSlice)
	return key, rec, true
}

// resourceUsageList renders a slice's recorded usage, the pod count
// included (a ClusterQueue may cover `pods`).
func resourceUsageList(u quota.Usage) corev1.ResourceList {
	out := corev1.ResourceList{}
	for fr, v := range u {
		if v != 0 {
			out[fr.Resource] = quota.Quantity(fr.Resource, v)
		}
	}
	return out
}
