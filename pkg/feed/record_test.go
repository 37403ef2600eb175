package feed

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
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
	gotKey, rec, ok := recordedAdmission(wl)
	if !ok || gotKey != key || rec.OwnerUID != "train-uid" || rec.Check != "dws-prov" || rec.CheckState != "Pending" {
		t.Fatalf("recordedAdmission = %v %+v %v", gotKey, rec, ok)
	}
	if diff := cmp.Diff(charge.Usage, rec.Charge.Usage); diff != "" {
		t.Errorf("usage read back (-written +read):\n%s", diff)
	}
	if diff := cmp.Diff(charge.Flavors, rec.Charge.Flavors); diff != "" {
		t.Errorf("flavors read back (-written +read):\n%s", diff)
	}

	// Written again with nothing changed: no write.
	before := len(client.Actions())
	if err := rc.write(context.Background(), report); err != nil {
		t.Fatal(err)
	}
	if got := client.Actions()[before:]; len(got) != 1 || got[0].GetVerb() != "get" {
		t.Errorf("a second write of the same admission made %v, want one read", got)
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
			_, rec, ok := recordedAdmission(tc.wl)
			if ok != tc.wantOK || (ok && rec.Charge != nil) {
				t.Errorf("recordedAdmission = %+v, %v; want ok %v and no charge", rec, ok, tc.wantOK)
			}
		})
	}
}
