package controllers

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stesting "k8s.io/client-go/testing"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	multislicelisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// An admission written on a Workload object reads back as the charge it
// was written from: a scheduler that takes over charges exactly that.
func TestAdmissionRecordRoundTrip(t *testing.T) {
	tpu := func(f string) quota.FlavorResource {
		return quota.FlavorResource{Flavor: f, Resource: "google.com/tpu"}
	}
	pods := func(f string) quota.FlavorResource {
		return quota.FlavorResource{Flavor: f, Resource: corev1.ResourcePods}
	}
	charge := quota.FromSlices("cq", map[int]quota.Usage{
		0: {tpu("v5e"): 8000, pods("v5e"): 2000},
		1: {tpu("v6e"): 16000, pods("v6e"): 4000},
	})
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}
	report := &state.WorkloadReport{
		Key: key, Ref: corev1.ObjectReference{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: "train", UID: "train-uid"},
		Model: &workload.Workload{Slices: []workload.Slice{{Name: "slice-0", Pods: 2}, {Name: "slice-1", Pods: 4}}},
		Queue: "lq", ClusterQueue: "cq", Charge: charge, Domains: map[int]string{0: "pool-1", 1: "pool-2"},
		Requests: []workload.Resources{{"google.com/tpu": 4000, corev1.ResourcePods: 1000}, {"google.com/tpu": 4000, corev1.ResourcePods: 1000}},
		Check:    &state.CheckReport{Name: "dws-prov", State: "Pending"},
	}
	client := fake.NewSimpleClientset()
	rc := &recorder{client: client}
	if err := rc.write(context.Background(), report); err != nil {
		t.Fatal(err)
	}
	wl, err := client.MultisliceV1alpha1().Workloads("ns").Get(context.Background(), WorkloadName(key), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gotKey, rec, ok := RecordedAdmission(wl)
	if !ok || gotKey != key || rec.OwnerUID != "train-uid" || rec.Check != "dws-prov" || rec.CheckState != "Pending" {
		t.Fatalf("recordedAdmission = %v %+v %v", gotKey, rec, ok)
	}
	if diff := cmp.Diff(charge.Usage, rec.Charge.Usage); diff != "" {
		t.Errorf("usage read back (-written +read):\n%s", diff)
	}
	if diff := cmp.Diff(charge.Flavors, rec.Charge.Flavors); diff != "" {
		t.Errorf("flavors read back (-written +read):\n%s", diff)
	}

	// Written again with nothing changed: no write, and the API (not a
	// cache) says so.
	before := len(client.Actions())
	if err := rc.write(context.Background(), report); err != nil {
		t.Fatal(err)
	}
	for _, a := range client.Actions()[before:] {
		if v := a.GetVerb(); v != "get" && v != "create" {
			t.Errorf("a second write of the same admission made %v, want no write", a)
		}
	}
}

// The recorder's requests per admission: one write when its cache is
// current, the API read first only where the cache cannot be trusted to
// lead to a write (up to date already, or stale).
func TestAdmissionRecordRequests(t *testing.T) {
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}
	report := &state.WorkloadReport{
		Key: key, Ref: corev1.ObjectReference{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: "train", UID: "train-uid"},
		Model: &workload.Workload{Slices: []workload.Slice{{Name: "slice-0", Pods: 2}}},
		Queue: "lq", ClusterQueue: "cq", Domains: map[int]string{0: "pool-1"},
		Charge:   quota.FromSlices("cq", map[int]quota.Usage{0: {{Flavor: "v5e", Resource: "google.com/tpu"}: 8000}}),
		Requests: []workload.Resources{{"google.com/tpu": 4000}},
	}
	admitted := func() *multislicev1alpha1.Workload { return desiredWorkload(report, WorkloadName(key)) }
	pending := admitted()
	pending.Status = multislicev1alpha1.WorkloadStatus{}
	stranger := pending.DeepCopy()
	stranger.OwnerReferences[0].UID = "old-uid"
	cases := map[string]struct {
		inAPI, inCache *multislicev1alpha1.Workload
		conflictOnce   bool
		want           []string
	}{
		"new workload, nothing cached":  {want: []string{"create", "update/status"}},
		"pending workload, cached":      {inAPI: pending, inCache: pending, want: []string{"update/status"}},
		"created meanwhile, not cached": {inAPI: pending, want: []string{"create", "get", "update/status"}},
		"admission written already":     {inAPI: admitted(), inCache: admitted(), want: []string{"get"}},
		"cache behind the API":          {inAPI: pending, inCache: pending, conflictOnce: true, want: []string{"update/status", "create", "get", "update/status"}},
		"stale object in the cache":     {inAPI: pending, inCache: stranger, want: []string{"get", "update/status"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var objs []runtime.Object
			if tc.inAPI != nil {
				objs = append(objs, tc.inAPI.DeepCopy())
			}
			client := fake.NewSimpleClientset(objs...)
			if tc.conflictOnce {
				conflicted := false
				client.PrependReactor("update", "workloads", func(a k8stesting.Action) (bool, runtime.Object, error) {
					if a.GetSubresource() != "status" || conflicted {
						return false, nil, nil
					}
					conflicted = true
					return true, nil, apierrors.NewConflict(multislicev1alpha1.Resource("workloads"), WorkloadName(key), errors.New("stale"))
				})
			}
			indexer := toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{})
			if tc.inCache != nil {
				if err := indexer.Add(tc.inCache.DeepCopy()); err != nil {
					t.Fatal(err)
				}
			}
			rc := &recorder{client: client, cache: multislicelisters.NewWorkloadLister(indexer)}
			if err := rc.write(context.Background(), report); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range client.Actions() {
				v := a.GetVerb()
				if a.GetSubresource() != "" {
					v += "/" + a.GetSubresource()
				}
				got = append(got, v)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
			wl, err := client.MultisliceV1alpha1().Workloads("ns").Get(context.Background(), WorkloadName(key), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, rec, _ := RecordedAdmission(wl); rec == nil || rec.Charge == nil {
				t.Errorf("no admission recorded: %+v", wl.Status)
			}
		})
	}
}

// A Workload object with no admission, or one being deleted, records no
// charge; one owned by nothing this scheduler knows is not read at all.
func TestRecordedAdmissionWithoutCharge(t *testing.T) {
	owner := metav1.OwnerReference{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: "js", UID: "js-uid", Controller: ptr.To(true)}
	now := metav1.Now()
	cases := map[string]struct {
		wl     *multislicev1alpha1.Workload
		wantOK bool
	}{
		"pending": {wl: &multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "jobset-js", OwnerReferences: []metav1.OwnerReference{owner}}}, wantOK: true},
		"being deleted": {wl: &multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "jobset-js", OwnerReferences: []metav1.OwnerReference{owner}, DeletionTimestamp: &now},
			Status: multislicev1alpha1.WorkloadStatus{Admission: &multislicev1alpha1.Admission{ClusterQueue: "cq"}}}, wantOK: true},
		"no controller": {wl: &multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "x"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, rec, ok := RecordedAdmission(tc.wl)
			if ok != tc.wantOK || (ok && rec.Charge != nil) {
				t.Errorf("recordedAdmission = %+v, %v; want ok %v and no charge", rec, ok, tc.wantOK)
			}
		})
	}
}
