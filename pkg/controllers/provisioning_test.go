package controllers

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multislicefake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	autoscalinglisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/autoscaling/v1"
	listers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The provisioner turns a workload's quota-only reservation into a
// ProvisioningRequest (with PodTemplates, owned by the Workload object,
// the job's provreq annotations as parameters) and, once the request is
// Provisioned, annotates the pods and lets the workload be placed.
// provisionerFixture is a JobSet of one 2-pod slice queued in a
// ClusterQueue with a provisioning check, its quota reserved for the
// check, and a provisioner whose listers the test fills.
type provisionerFixture struct {
	st                *state.State
	p                 *Provisioner
	kube              *kubefake.Clientset
	client            *multislicefake.Clientset
	pods              []*corev1.Pod
	head              *corev1.Pod
	clk               *testingclock.FakeClock
	podIndex          toolscache.Indexer
	wlIndex, reqIndex toolscache.Indexer
}

// requestPending has the provisioner create the workload's request, once
// its Workload object exists, and returns it as the lister holds it
// (resourceVersion 1, not answered yet).
func (f *provisionerFixture) requestPending(ctx context.Context, t *testing.T) *autoscalingv1.ProvisioningRequest {
	t.Helper()
	_ = f.wlIndex.Add(&multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "jobset-train", UID: types.UID("wl-uid")}})
	f.p.sync(ctx)
	req, err := f.client.AutoscalingV1().ProvisioningRequests("ns").Get(ctx, "jobset-train-dws-prov-1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("request not created: %v", err)
	}
	req.ResourceVersion = "1"
	_ = f.reqIndex.Add(req)
	return req
}

func newProvisionerFixture(t *testing.T) *provisionerFixture {
	t.Helper()
	ctx := context.Background()
	unit := builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}
	clk := testingclock.NewFakeClock(builders.Epoch)
	st := state.New(state.Options{Clock: clk})
	st.AddScheduler(unit.Scheduler)
	st.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	st.Feed().SetAPI(state.QueueAPI, state.APIServed)
	for _, n := range builders.V5ePools(2) {
		st.Feed().UpsertNode(n)
	}
	st.Feed().SetFlavor(&quota.Flavor{Name: "f"})
	st.Feed().SetClusterQueue(&quota.ClusterQueue{Name: "cq", FairWeight: 1000, AdmissionChecks: []string{"dws-prov"},
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{"f"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: "f", Resource: wellknown.ResourceTPU}: {Nominal: 64000}}})
	st.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "lq", ClusterQueue: "cq"})
	st.Feed().SetAdmissionCheck("dws-prov", &provisioning.Check{Name: "dws-prov", Class: wellknown.QueuedProvisioningClass, Retry: provisioning.DefaultRetry})

	js := unit.JobSet("train").UID("js-uid").Annotation(wellknown.QueueNameLabel, "lq").
		Annotation(wellknown.ProvReqAnnotationPrefix+wellknown.MaxRunDurationSecondsParameter, "600").ReplicatedJob("slice", 1, 2).Obj()
	model, err := workload.FromJobSet(js, "")
	if err != nil {
		t.Fatal(err)
	}
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}
	st.Feed().UpsertSource(key, model, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: "ns", Name: "train", UID: js.UID})
	pods := builders.Members(js)
	kube := kubefake.NewClientset()
	podIndex := toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{})
	for _, p := range pods {
		st.Feed().UpsertPod(p)
		if _, err := kube.CoreV1().Pods("ns").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		_ = podIndex.Add(p)
	}
	var head *corev1.Pod
	for _, p := range pods {
		if v := admission.Admit(st, p); !v.Wait {
			// The head: the others wait behind it.
			head = p
		}
	}
	if out := admission.PreEnqueue(st, head, 0); out.Pass || !out.ProvisioningReserved {
		t.Fatalf("PreEnqueue(head) = %+v, want quota reserved for its check", out)
	}

	sink := NewEventSink(events.NewFakeRecorder(10), clock.RealClock{})
	act := func(context.Context, state.Actions) {}
	client := multislicefake.NewSimpleClientset() //nolint:staticcheck // NewClientset needs the OpenAPI schema of our types
	wlIndex := toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{})
	reqIndex := toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{})
	p := NewProvisioner(st, act, sink, NewEvictor(func() bool { return true }), client, kube, corelisters.NewPodLister(podIndex), listers.NewWorkloadLister(wlIndex))
	p.requests = autoscalinglisters.NewProvisioningRequestLister(reqIndex)

	return &provisionerFixture{st: st, p: p, kube: kube, client: client, pods: pods, head: head, clk: clk,
		podIndex: podIndex, wlIndex: wlIndex, reqIndex: reqIndex}
}

func TestProvisionerCreatesRequestAndAnnotatesPods(t *testing.T) {
	ctx := context.Background()
	f := newProvisionerFixture(t)
	st, p, kube, client, pods, head, clk, wlIndex, reqIndex := f.st, f.p, f.kube, f.client, f.pods, f.head, f.clk, f.wlIndex, f.reqIndex

	// No Workload object yet: nothing is created, the task stays.
	p.sync(ctx)
	if len(st.Upkeep().ProvisioningTasks()) != 1 {
		t.Fatal("the task was dropped before its Workload object existed")
	}
	_ = wlIndex.Add(&multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "jobset-train", UID: types.UID("wl-uid")}})
	p.sync(ctx)
	req, err := client.AutoscalingV1().ProvisioningRequests("ns").Get(ctx, "jobset-train-dws-prov-1", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("request not created: %v", err)
	}
	if req.Spec.ProvisioningClassName != wellknown.QueuedProvisioningClass || len(req.Spec.PodSets) != 1 || req.Spec.PodSets[0].Count != 2 ||
		req.Spec.Parameters[wellknown.MaxRunDurationSecondsParameter] != "600" || req.OwnerReferences[0].UID != "wl-uid" {
		t.Fatalf("request = %+v", req)
	}
	tmpl, err := kube.CoreV1().PodTemplates("ns").Get(ctx, req.Spec.PodSets[0].PodTemplateRef.Name, metav1.GetOptions{})
	if err != nil || tmpl.OwnerReferences[0].UID != "wl-uid" || len(tmpl.Template.Spec.Containers) == 0 {
		t.Fatalf("pod template %+v: %v", tmpl, err)
	}
	if len(st.Upkeep().ProvisioningTasks()) != 0 {
		t.Fatal("the created request is still a task")
	}
	// The pods name the request as soon as it exists, while it is
	// pending: once Provisioned, only the placement is left.
	for _, pod := range pods {
		got, _ := kube.CoreV1().Pods("ns").Get(ctx, pod.Name, metav1.GetOptions{})
		if got.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != req.Name {
			t.Errorf("pod %s annotations %v before Provisioned, want it to name %s", pod.Name, got.Annotations, req.Name)
		}
	}

	// Provisioned: the pods are annotated, then the head may plan.
	req.Status.Conditions = []metav1.Condition{{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(clk.Now()), Reason: "Provisioned"}}
	_ = reqIndex.Add(req)
	if v := admission.Admit(st, head); !v.Wait {
		t.Fatal("the head passed before the request was provisioned")
	}
	p.sync(ctx)
	for _, pod := range pods {
		got, _ := kube.CoreV1().Pods("ns").Get(ctx, pod.Name, metav1.GetOptions{})
		if got.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != req.Name || got.Annotations[wellknown.ProvisioningClassNameAnnotation] != wellknown.QueuedProvisioningClass {
			t.Errorf("pod %s annotations %v", pod.Name, got.Annotations)
		}
	}
	if v := admission.Admit(st, head); v.Wait {
		t.Fatalf("the head still waits once provisioned: %s", v.Message)
	}
}

// A pass observes only the requests that changed: the same request
// (resourceVersion) at the same stage is passed over, a new version is
// observed. A provisioned workload waiting to be placed is observed on
// every pass, so that a pod that lost (or never had) the request's name
// gets it although the request did not change.
func TestProvisionerObservesChangedRequests(t *testing.T) {
	ctx := context.Background()
	f := newProvisionerFixture(t)
	req := f.requestPending(ctx, t)
	f.p.observeAll(ctx)
	if _, ok := f.p.done[workloadKey("train")]; !ok {
		t.Fatal("a pending request observed to the end is not remembered")
	}

	// Provisioned, but at the version already observed: passed over.
	provisioned := req.DeepCopy()
	provisioned.Status.Conditions = []metav1.Condition{{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(f.clk.Now()), Reason: "Provisioned"}}
	_ = f.reqIndex.Update(provisioned)
	f.p.observeAll(ctx)
	if v := admission.Admit(f.st, f.head); !v.Wait {
		t.Fatal("a request at a version already observed was observed again")
	}
	// A new version is observed.
	provisioned.ResourceVersion = "2"
	_ = f.reqIndex.Update(provisioned)
	f.p.observeAll(ctx)
	if v := admission.Admit(f.st, f.head); v.Wait {
		t.Fatalf("the head still waits once its request's new version says Provisioned: %s", v.Message)
	}
	if _, ok := f.p.done[workloadKey("train")]; ok {
		t.Fatal("a provisioned workload with pods to place is remembered as observed")
	}

	// A pod without the annotation while the workload waits to be
	// placed: annotated on the next pass, the request unchanged.
	bare := f.pods[0].DeepCopy()
	bare.Annotations = nil
	_ = f.podIndex.Update(bare)
	if _, err := f.kube.CoreV1().Pods("ns").Update(ctx, bare, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	f.p.observeAll(ctx)
	got, _ := f.kube.CoreV1().Pods("ns").Get(ctx, bare.Name, metav1.GetOptions{})
	if got.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != provisioned.Name {
		t.Fatalf("pod %s annotations %v, want it to name %s", bare.Name, got.Annotations, provisioned.Name)
	}
}

func workloadKey(jobSet string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: jobSet}
}

// Pods that name the first request from their template (the JobSet was
// started by the Unsuspender where the check runs) name the request the
// provisioner creates, so none of them is patched.
func TestProvisionerFirstRequestNamedAtStart(t *testing.T) {
	ctx := context.Background()
	f := newProvisionerFixture(t)
	env := unsuspendEnv{queueCheck: f.st.Reports().QueueCheck}
	want := firstRequestAnnotations(env, workloadKey("train"), "lq")
	if want == nil {
		t.Fatal("no annotations for a queue whose ClusterQueue runs a provisioning check")
	}
	for _, pod := range f.pods {
		named := pod.DeepCopy()
		named.Annotations = want
		_ = f.podIndex.Update(named)
	}
	_ = f.wlIndex.Add(&multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "jobset-train", UID: types.UID("wl-uid")}})
	f.kube.ClearActions()
	f.p.sync(ctx)
	req, err := f.client.AutoscalingV1().ProvisioningRequests("ns").Get(ctx, want[wellknown.ConsumeProvisioningRequestAnnotation], metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the request the pods name was not created: %v", err)
	}
	if req.Spec.ProvisioningClassName != want[wellknown.ProvisioningClassNameAnnotation] {
		t.Errorf("request class %s, the pods name %s", req.Spec.ProvisioningClassName, want[wellknown.ProvisioningClassNameAnnotation])
	}
	for _, a := range f.kube.Actions() {
		if a.GetResource().Resource == "pods" && a.GetVerb() == "patch" {
			t.Errorf("pod patched although it names the request: %v", a)
		}
	}
}

// Between full passes, a pass observes only the requests whose objects
// changed: a request that changed unseen waits for the next full pass,
// one the informer reports is observed at once, and one no pass listed
// yet makes the pass full.
func TestProvisionerPassObservesRequestsThatChanged(t *testing.T) {
	ctx := context.Background()
	f := newProvisionerFixture(t)
	req := f.requestPending(ctx, t)
	f.p.observePass(ctx, true)

	provisioned := req.DeepCopy()
	provisioned.ResourceVersion = "2"
	provisioned.Status.Conditions = []metav1.Condition{{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue, LastTransitionTime: metav1.NewTime(f.clk.Now()), Reason: "Provisioned"}}
	_ = f.reqIndex.Update(provisioned)
	f.p.observePass(ctx, false)
	if v := admission.Admit(f.st, f.head); !v.Wait {
		t.Fatal("a pass that is not full observed a request no event reported")
	}
	f.p.requestChanged("ns", provisioned.Name)
	f.p.observePass(ctx, false)
	if v := admission.Admit(f.st, f.head); v.Wait {
		t.Fatalf("the head still waits once the informer reported its request Provisioned: %s", v.Message)
	}

	// A request no pass listed: the pass is full.
	f.p.mu.Lock()
	clear(f.p.index)
	f.p.mu.Unlock()
	f.p.requestChanged("ns", "unknown")
	f.p.observePass(ctx, false)
	f.p.mu.Lock()
	defer f.p.mu.Unlock()
	if f.p.index["ns/"+provisioned.Name] != workloadKey("train") {
		t.Fatalf("index %v after a pass made full by an unknown request, want it listing %s", f.p.index, provisioned.Name)
	}
}
