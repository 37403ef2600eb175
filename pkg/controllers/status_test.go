package controllers

import (
	"context"
	testingclock "k8s.io/utils/clock/testing"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	listers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const tpu = corev1.ResourceName("google.com/tpu")

// A Workload object the informer still has but the apiserver deleted (its
// owner was deleted and it was garbage-collected with it) is not a failed
// write: the status writer reports nothing, where it used to log one
// error per workload of a busy queue.
func TestSyncWorkloadOfAGoneObject(t *testing.T) {
	key := workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "p"}
	report := &state.WorkloadReport{
		Key:   key,
		Ref:   corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "pod-uid"},
		Model: &workload.Workload{Slices: []workload.Slice{{Name: "main", Pods: 1}}},
		Queue: "lq", ClusterQueue: "cq",
		Problem: &quota.Problem{Reason: quota.ReasonQuotaExceeded, Message: "no room"},
	}
	cases := map[string]struct {
		// stale is the informer's copy, changed so that a write is due.
		stale func(*multislicev1alpha1.Workload)
	}{
		"its status is stale": {stale: func(wl *multislicev1alpha1.Workload) { wl.Status.Conditions = nil }},
		"its spec is stale":   {stale: func(wl *multislicev1alpha1.Workload) { wl.Spec.QueueName = "other" }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cached := desiredWorkload(report, WorkloadName(key))
			tc.stale(cached)
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			if err := indexer.Add(cached); err != nil {
				t.Fatal(err)
			}
			client := fake.NewSimpleClientset() // the apiserver no longer has it
			w := &StatusWriter{client: client, workloads: listers.NewWorkloadLister(indexer), clock: testingclock.NewFakeClock(time.Unix(1e9, 0))}
			if err := w.syncWorkload(context.Background(), client, report); err != nil {
				t.Errorf("syncWorkload: %v, want no error", err)
			}
			if got := len(client.Actions()); got != 1 {
				t.Errorf("%d API calls (%v), want the one write that found the object gone", got, client.Actions())
			}
		})
	}
}

// jobSetReport is the report of JobSet name, queued in LocalQueue lq of
// ClusterQueue cq, with check.
func jobSetReport(name string, check *state.CheckReport) state.WorkloadReport {
	return state.WorkloadReport{
		Key:   workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name},
		Ref:   corev1.ObjectReference{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: name, UID: types.UID(name + "-uid")},
		Model: &workload.Workload{Slices: []workload.Slice{{Name: "main", Pods: 1}}},
		Queue: "lq", ClusterQueue: "cq", Check: check,
	}
}

// The Workload object of a workload whose provisioning check waits owns
// its request: it is written first, on the urgent client, the others on
// the rate-limited one.
func TestWorkloadsWhoseCheckWaitsGoFirstOnTheUrgentClient(t *testing.T) {
	reports := []state.WorkloadReport{
		jobSetReport("no-check", nil),
		jobSetReport("check-passed", &state.CheckReport{Name: "dws", State: "Ready"}),
		jobSetReport("check-waits", &state.CheckReport{Name: "dws", State: "Pending"}),
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	client, urgent := fake.NewSimpleClientset(), fake.NewSimpleClientset()
	w := &StatusWriter{client: client, urgent: urgent, workloads: listers.NewWorkloadLister(indexer), clock: testingclock.NewFakeClock(time.Unix(1e9, 0))}
	w.syncWorkloads(context.Background(), reports)
	created := func(c *fake.Clientset) []string {
		var names []string
		for _, a := range c.Actions() {
			if a.GetVerb() == "create" {
				names = append(names, a.(clienttesting.CreateAction).GetObject().(*multislicev1alpha1.Workload).Name)
			}
		}
		return names
	}
	if got, want := created(urgent), []string{"jobset-check-waits"}; !slices.Equal(got, want) {
		t.Errorf("urgent client created %v, want %v", got, want)
	}
	if got, want := created(client), []string{"jobset-no-check", "jobset-check-passed"}; !slices.Equal(got, want) {
		t.Errorf("rate-limited client created %v, want %v", got, want)
	}
}

func TestDesiredWorkload(t *testing.T) {
	model := &workload.Workload{
		Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"},
		Slices: []workload.Slice{
			{Name: "train-slice-0", Pods: 2, Request: workload.Resources{tpu: 4000, corev1.ResourcePods: 1000}, DomainKey: "cloud.google.com/gke-nodepool"},
			{Name: "train-slice-1", Pods: 2, Request: workload.Resources{tpu: 4000, corev1.ResourcePods: 1000}, DomainKey: "cloud.google.com/gke-nodepool"},
		},
	}
	ref := corev1.ObjectReference{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: "train", UID: "uid-1"}
	pending := &state.WorkloadReport{Key: model.Key, Ref: ref, Model: model, Queue: "lq", Priority: 7,
		Problem: &quota.Problem{Reason: quota.ReasonQuotaExceeded, Message: "no room"}}
	wl := desiredWorkload(pending, WorkloadName(model.Key))
	if wl.Name != "jobset-train" || wl.OwnerReferences[0].UID != "uid-1" || !*wl.OwnerReferences[0].Controller {
		t.Errorf("metadata %+v", wl.ObjectMeta)
	}
	if len(wl.Spec.PodSets) != 2 || wl.Spec.PodSets[0].Count != 2 || wl.Spec.PodSets[0].Requests.Name(tpu, resource.DecimalSI).Value() != 4 {
		t.Errorf("pod sets %+v", wl.Spec.PodSets)
	}
	if _, pods := wl.Spec.PodSets[0].Requests[corev1.ResourcePods]; pods {
		t.Errorf("the pod count leaked into the requests")
	}
	if c := wl.Status.Conditions[0]; c.Type != multislicev1alpha1.WorkloadQuotaReserved || c.Status != metav1.ConditionFalse || c.Reason != quota.ReasonQuotaExceeded || c.Message != "no room" {
		t.Errorf("pending condition %+v", c)
	}

	admitted := *pending
	admitted.Problem = nil
	admitted.Charge = &quota.Charge{ClusterQueue: "cq", Flavors: map[int]map[corev1.ResourceName]string{0: {tpu: "v5e"}, 1: {tpu: "v5e"}}}
	admitted.Domains = map[int]string{0: "pool-1", 1: "pool-3"}
	wl = desiredWorkload(&admitted, "jobset-train")
	adm := wl.Status.Admission
	if adm == nil || adm.ClusterQueue != "cq" || adm.PodSetAssignments[1].Domain != "pool-3" || adm.PodSetAssignments[1].Flavors[tpu] != "v5e" ||
		adm.PodSetAssignments[0].ResourceUsage.Name(tpu, resource.DecimalSI).Value() != 8 {
		t.Errorf("admission %+v", adm)
	}
	for _, c := range wl.Status.Conditions {
		if c.Status != metav1.ConditionTrue {
			t.Errorf("admitted condition %+v", c)
		}
	}
	admittedMessage := func(wl *multislicev1alpha1.Workload) string {
		for _, c := range wl.Status.Conditions {
			if c.Type == multislicev1alpha1.WorkloadAdmitted {
				return c.Message
			}
		}
		return ""
	}
	if got, want := admittedMessage(wl), "The workload is admitted; its slices are placed train-slice-0 on pool-1, train-slice-1 on pool-3"; got != want {
		t.Errorf("admitted message %q, want %q", got, want)
	}
	// Admitted (its check passed), but the capacity fits no domain it
	// asks for: the condition says so, not that it is placed.
	unplaced := admitted
	unplaced.Unplaced = "pod set workers: needs 4 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 2 (2 tried)"
	if got, want := admittedMessage(desiredWorkload(&unplaced, "jobset-train")), "The workload is admitted, but its pods fit nowhere yet: "+unplaced.Unplaced; got != want {
		t.Errorf("admitted but unplaced: message %q, want %q", got, want)
	}

	for _, failed := range []bool{false, true} {
		done := *pending
		done.Problem = nil
		m := *model
		m.Finished, m.Failed = true, failed
		done.Model = &m
		wl = desiredWorkload(&done, "jobset-train")
		want := multislicev1alpha1.ReasonSucceeded
		if failed {
			want = multislicev1alpha1.ReasonFailed
		}
		if wl.Status.Admission != nil || wl.Status.Conditions[0].Type != multislicev1alpha1.WorkloadFinished || wl.Status.Conditions[0].Reason != want {
			t.Errorf("finished (failed %v): %+v", failed, wl.Status)
		}
	}
}

// A PodGroup's slice has no template: its pod set is sized from a member.
func TestDesiredWorkloadOfAPodGroup(t *testing.T) {
	model := &workload.Workload{Key: workload.Key{Source: workload.SourcePodGroup, Namespace: "ns", Name: "serving"},
		Slices: []workload.Slice{{Name: "serving", Pods: 2}}}
	r := &state.WorkloadReport{Key: model.Key, Model: model, Queue: "lq", Requests: []workload.Resources{{tpu: 4000, corev1.ResourcePods: 1000}},
		Charge: &quota.Charge{ClusterQueue: "cq", Flavors: map[int]map[corev1.ResourceName]string{0: {tpu: "v5e"}}}}
	wl := desiredWorkload(r, "podgroup-serving")
	if got := wl.Spec.PodSets[0].Requests.Name(tpu, resource.DecimalSI).Value(); got != 4 {
		t.Errorf("pod set requests %v", wl.Spec.PodSets[0].Requests)
	}
	if got := wl.Status.Admission.PodSetAssignments[0].ResourceUsage.Name(tpu, resource.DecimalSI).Value(); got != 8 {
		t.Errorf("usage %v", wl.Status.Admission.PodSetAssignments[0].ResourceUsage)
	}
}

func TestWorkloadName(t *testing.T) {
	long := workload.Key{Source: workload.SourceJobSet, Name: string(make([]byte, 260))}
	if n := WorkloadName(long); len(n) > 253 {
		t.Errorf("name of %d characters", len(n))
	}
	if n := WorkloadName(workload.Key{Source: workload.SourcePod, Name: "p"}); n != "pod-p" {
		t.Errorf("WorkloadName = %q", n)
	}
}

func TestUsageSummary(t *testing.T) {
	tpu := corev1.ResourceName("google.com/tpu")
	fr := func(f string, r corev1.ResourceName) quota.FlavorResource {
		return quota.FlavorResource{Flavor: f, Resource: r}
	}
	for _, tc := range []struct {
		name          string
		used, nominal quota.Usage
		want          string
	}{
		{"seed 000 with both JobSets running", quota.Usage{fr("tpu-v6e-slice", tpu): 64000}, quota.Usage{fr("tpu-v6e-slice", tpu): 64000}, "google.com/tpu: 64/64"},
		{"nothing in use", nil, quota.Usage{fr("v5e", tpu): 24000}, "google.com/tpu: 0/24"},
		{"flavors summed, resources sorted",
			quota.Usage{fr("v5e", tpu): 8000, fr("v6e", tpu): 16000, fr("cpu", corev1.ResourceCPU): 1500},
			quota.Usage{fr("v5e", tpu): 16000, fr("v6e", tpu): 32000, fr("cpu", corev1.ResourceCPU): 10000},
			"cpu: 1500m/10, google.com/tpu: 24/48"},
		{"no quota", nil, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := usageSummary(tc.used, tc.nominal); got != tc.want {
				t.Errorf("usageSummary = %q, want %q", got, tc.want)
			}
		})
	}
}

// Poked, the status writer creates only the Workload objects that waiting
// checks lack, on the urgent client; their status, and every other
// object, is the pass's to write. A creation the pass made meanwhile is
// no error in either loop.
func TestCreateMissingMakesOnlyTheObjectsOfWaitingChecks(t *testing.T) {
	pending := &state.CheckReport{Name: "dws", State: "Pending"}
	ended := jobSetReport("ended", pending)
	ended.Ended = true
	reports := []state.WorkloadReport{
		jobSetReport("no-check", nil),
		jobSetReport("check-passed", &state.CheckReport{Name: "dws", State: "Ready"}),
		jobSetReport("check-waits", pending),
		jobSetReport("has-its-object", pending),
		jobSetReport("created-meanwhile", pending),
		ended,
	}
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	if err := indexer.Add(desiredWorkload(&reports[3], WorkloadName(reports[3].Key))); err != nil {
		t.Fatal(err)
	}
	meanwhile := desiredWorkload(&reports[4], WorkloadName(reports[4].Key))
	client, urgent := fake.NewSimpleClientset(), fake.NewSimpleClientset(meanwhile)
	clk := testingclock.NewFakeClock(time.Unix(1e9, 0))
	w := &StatusWriter{client: client, urgent: urgent, workloads: listers.NewWorkloadLister(indexer), clock: clk, creating: newInflight(urgentCreations)}
	w.createMissingOf(context.Background(), reports)
	w.creating.Wait()
	var created []string
	for _, a := range urgent.Actions() {
		if a.GetVerb() != "create" {
			t.Errorf("urgent client: %s %s, want only creations", a.GetVerb(), a.GetResource().Resource)
			continue
		}
		wl := a.(clienttesting.CreateAction).GetObject().(*multislicev1alpha1.Workload)
		if wl.Spec.QueueName != "lq" || len(wl.OwnerReferences) != 1 || wl.OwnerReferences[0].UID != "check-waits-uid" && wl.OwnerReferences[0].UID != "created-meanwhile-uid" {
			t.Errorf("created %s: spec %+v, owners %+v", wl.Name, wl.Spec, wl.OwnerReferences)
		}
		created = append(created, wl.Name)
	}
	slices.Sort(created)
	if want := []string{"jobset-check-waits", "jobset-created-meanwhile"}; !slices.Equal(created, want) {
		t.Errorf("created %v, want %v", created, want)
	}
	if len(client.Actions()) != 0 {
		t.Errorf("rate-limited client: %v, want nothing", client.Actions())
	}
	if len(w.failing) != 0 {
		t.Errorf("reported failures %v, want none (AlreadyExists is no error)", w.failing)
	}
	// Neither loop creates again what the writer just created, although
	// the informer's copy does not show it yet.
	urgent.ClearActions()
	w.createMissingOf(context.Background(), reports)
	w.creating.Wait()
	if err := w.syncWorkload(context.Background(), urgent, &reports[2]); err != nil {
		t.Errorf("syncWorkload after createMissing: %v, want no error", err)
	}
	if a := urgent.Actions(); len(a) != 0 {
		t.Errorf("created again before the informer showed the objects: %v", a)
	}
	// Not for ever: an object the informer never shows (deleted
	// meanwhile) is created again createdGrace later; AlreadyExists ends
	// the write without error.
	clk.Step(createdGrace)
	if err := w.syncWorkload(context.Background(), urgent, &reports[2]); err != nil {
		t.Errorf("syncWorkload after the grace: %v, want no error", err)
	}
	if a := urgent.Actions(); len(a) != 1 || a[0].GetVerb() != "create" {
		t.Errorf("after the grace: %v, want one creation", a)
	}
}
