package queueapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	v1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	acautoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/applyconfiguration/autoscaling/v1"
	acv1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/applyconfiguration/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// TestProvisioningAPI checks the provisioning half of the API on one
// control plane: the multislice.dev AdmissionCheck and
// ProvisioningRequestConfig kinds, and our CRD of the cluster autoscaler's
// ProvisioningRequest against the rules of its published schema.
func TestProvisioningAPI(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallQueueCRDs(t)
	cp.InstallProvisioningCRDs(t)
	e := &env{
		cp:  cp,
		dyn: dynamic.NewForConfigOrDie(cp.Config),
		cs:  versioned.NewForConfigOrDie(cp.Config),
		ext: apiextensionsclient.NewForConfigOrDie(cp.Config),
		ns:  cp.CreateNamespace(t, "provisioning"),
	}
	t.Run("Seed003", e.testSeed003)
	t.Run("ChecksValid", e.testChecksValid)
	t.Run("ProvisioningRequestValid", e.testProvisioningRequestValid)
	t.Run("Invalid", e.testProvisioningInvalid)
	t.Run("PrinterColumns", e.testProvisioningPrinterColumns)
}

// defaultRetry is the retryStrategy the CRD fills in: Kueue's defaults.
var defaultRetry = &v1alpha1.ProvisioningRequestRetryStrategy{
	BackoffLimitCount:  ptr.To[int32](3),
	BackoffBaseSeconds: ptr.To[int32](60),
	BackoffMaxSeconds:  ptr.To[int32](1800),
}

// testSeed003 creates seed 003's queue file and its Job as written (what
// `kubectl create -f` does), and reads the objects back, defaults included.
func (e *env) testSeed003(t *testing.T) {
	ctx := t.Context()
	mv := e.cs.MultisliceV1alpha1()
	kindsSeen := map[string]int{}
	for _, obj := range e.cp.CreateFromFile(t, "manifests/examples/queues/seed-003-dws.yaml") {
		kindsSeen[obj.GetKind()]++
	}
	if diff := cmp.Diff(map[string]int{
		"ResourceFlavor": 1, "AdmissionCheck": 1, "ProvisioningRequestConfig": 1, "ClusterQueue": 1, "LocalQueue": 1,
	}, kindsSeen); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}

	// The AdmissionCheck keeps the group Kueue's manifest names.
	ac, err := mv.AdmissionChecks().Get(ctx, "dws-prov", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v1alpha1.AdmissionCheckSpec{
		ControllerName:    v1alpha1.ProvisioningRequestControllerName,
		RetryDelayMinutes: ptr.To[int64](15), // defaulted, as in Kueue
		Parameters: &v1alpha1.AdmissionCheckParametersReference{
			APIGroup: "kueue.x-k8s.io", Kind: "ProvisioningRequestConfig", Name: "dws-config",
		},
	}, ac.Spec); diff != "" {
		t.Errorf("AdmissionCheck dws-prov spec (-want +got):\n%s", diff)
	}

	prc, err := mv.ProvisioningRequestConfigs().Get(ctx, ac.Spec.Parameters.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the AdmissionCheck's parameters: %v", err)
	}
	if diff := cmp.Diff(v1alpha1.ProvisioningRequestConfigSpec{
		ProvisioningClassName: wellknown.QueuedProvisioningClass,
		ManagedResources:      []corev1.ResourceName{wellknown.ResourceGPU},
		RetryStrategy:         defaultRetry,
	}, prc.Spec); diff != "" {
		t.Errorf("ProvisioningRequestConfig dws-config spec (-want +got):\n%s", diff)
	}

	cq, err := mv.ClusterQueues().Get(ctx, "dws-cluster-queue", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{ac.Name}, cq.Spec.AdmissionChecks); diff != "" {
		t.Errorf("ClusterQueue admissionChecks (-want +got):\n%s", diff)
	}

	// The Job, as the document gives it, is accepted, and the admission
	// webhook gives it our scheduler, as it names our LocalQueue; nothing
	// unsuspends it here.
	harness.StartWebhook(t, e.cp)
	job := e.cp.CreateFromFile(t, "manifests/examples/dws-gpu/job.yaml")
	if len(job) != 1 || job[0].GetKind() != "Job" {
		t.Fatalf("dws-gpu/job.yaml holds %d objects, want one Job", len(job))
	}
	got, err := e.cp.Client.BatchV1().Jobs(job[0].GetNamespace()).Get(ctx, job[0].GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lq := wellknown.QueueName(got.Labels, got.Annotations)
	if _, err := mv.LocalQueues(got.Namespace).Get(ctx, lq, metav1.GetOptions{}); err != nil {
		t.Errorf("the Job's LocalQueue %q: %v", lq, err)
	}
	if got.Spec.Template.Spec.SchedulerName != "multislice-scheduler" || !ptr.Deref(got.Spec.Suspend, false) {
		t.Errorf("Job schedulerName %q, suspend %v", got.Spec.Template.Spec.SchedulerName, got.Spec.Suspend)
	}
	if v := got.Annotations[wellknown.ProvReqAnnotationPrefix+wellknown.MaxRunDurationSecondsParameter]; v != "600" {
		t.Errorf("Job maxRunDurationSeconds annotation %q, want 600", v)
	}
	gpus := got.Spec.Template.Spec.Containers[0].Resources.Requests[wellknown.ResourceGPU]
	if gpus.Cmp(resource.MustParse("1")) != 0 || !slices.Contains(prc.Spec.ManagedResources, wellknown.ResourceGPU) {
		t.Errorf("the Job requests %s of %s; the config manages %v", gpus.String(), wellknown.ResourceGPU, prc.Spec.ManagedResources)
	}
}

// testChecksValid writes AdmissionChecks and ProvisioningRequestConfigs at
// the edges of what the schemas accept, and checks the defaults.
func (e *env) testChecksValid(t *testing.T) {
	ctx := t.Context()
	mv := e.cs.MultisliceV1alpha1()

	// A check of another controller, without parameters; its group, kind
	// and name are free to change, its controller is not.
	ac, err := mv.AdmissionChecks().Create(ctx, &v1alpha1.AdmissionCheck{
		ObjectMeta: metav1.ObjectMeta{Name: "valid-other"},
		Spec:       v1alpha1.AdmissionCheckSpec{ControllerName: "example.com/budget"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create AdmissionCheck: %v", err)
	}
	if ac.Spec.Parameters != nil || ptr.Deref(ac.Spec.RetryDelayMinutes, -1) != 15 {
		t.Errorf("AdmissionCheck read back as %+v", ac.Spec)
	}
	ac.Spec.Parameters = &v1alpha1.AdmissionCheckParametersReference{APIGroup: v1alpha1.GroupName, Kind: "ProvisioningRequestConfig", Name: "cfg"}
	ac.Spec.RetryDelayMinutes = ptr.To[int64](0)
	if ac, err = mv.AdmissionChecks().Update(ctx, ac, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update AdmissionCheck parameters: %v", err)
	}

	// Its Active condition, through the status subresource, applied
	// server-side as the scheduler will.
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	applied, err := mv.AdmissionChecks().ApplyStatus(ctx,
		acv1alpha1.AdmissionCheck(ac.Name).WithStatus(acv1alpha1.AdmissionCheckStatus().WithConditions(
			metav1ac.Condition().WithType(v1alpha1.AdmissionCheckActive).WithStatus(metav1.ConditionTrue).
				WithReason("Active").WithMessage("by the test").WithLastTransitionTime(now))),
		metav1.ApplyOptions{FieldManager: "multislice-scheduler", Force: true})
	if err != nil {
		t.Fatalf("apply AdmissionCheck status: %v", err)
	}
	if c := applied.Status.Conditions; len(c) != 1 || c[0].Type != v1alpha1.AdmissionCheckActive || !c[0].LastTransitionTime.Equal(&now) {
		t.Errorf("AdmissionCheck conditions read back as %+v", c)
	}

	// Configs: without a retryStrategy, with an empty one, and with a
	// partial one, each completed with Kueue's defaults; 0 is kept.
	for name, tc := range map[string]struct {
		retry string
		want  *v1alpha1.ProvisioningRequestRetryStrategy
	}{
		"valid-no-retry":    {"", defaultRetry},
		"valid-empty-retry": {"retryStrategy: {}", defaultRetry},
		"valid-no-retries": {"retryStrategy:\n  backoffLimitCount: 0\n  backoffMaxSeconds: 0", &v1alpha1.ProvisioningRequestRetryStrategy{
			BackoffLimitCount: ptr.To[int32](0), BackoffBaseSeconds: ptr.To[int32](60), BackoffMaxSeconds: ptr.To[int32](0),
		}},
	} {
		obj := decode(t, []byte(provisioningRequestConfig("provisioningClassName: "+autoscalingv1.ProvisioningClassCheckCapacity+"\n"+tc.retry)))[0]
		obj.SetName(name)
		if _, err := e.client(t, obj).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			t.Errorf("create %s: %v", name, err)
			continue
		}
		got, err := mv.ProvisioningRequestConfigs().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got.Spec.RetryStrategy); diff != "" {
			t.Errorf("%s retryStrategy (-want +got):\n%s", name, diff)
		}
	}

	// The largest config the schema allows.
	largest := &v1alpha1.ProvisioningRequestConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "valid-largest"},
		Spec: v1alpha1.ProvisioningRequestConfigSpec{
			ProvisioningClassName: strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61),
			Parameters:            map[string]v1alpha1.Parameter{},
			PodSetUpdates:         &v1alpha1.ProvisioningRequestPodSetUpdates{},
			PodSetMergePolicy:     ptr.To(v1alpha1.IdenticalWorkloadSchedulingRequirements),
		},
	}
	for i := range 100 {
		largest.Spec.Parameters[fmt.Sprintf("param-%03d", i)] = v1alpha1.Parameter(strings.Repeat("v", 255))
		largest.Spec.ManagedResources = append(largest.Spec.ManagedResources, corev1.ResourceName(fmt.Sprintf("example.com/resource-%03d", i)))
	}
	for i := range 8 {
		largest.Spec.PodSetUpdates.NodeSelector = append(largest.Spec.PodSetUpdates.NodeSelector, v1alpha1.ProvisioningRequestPodSetUpdatesNodeSelector{
			Key: fmt.Sprintf("example.com/label-%d", i), ValueFromProvisioningClassDetail: fmt.Sprintf("detail-%d", i),
		})
	}
	if len(largest.Spec.ProvisioningClassName) != 253 {
		t.Fatalf("class name of %d characters", len(largest.Spec.ProvisioningClassName))
	}
	created, err := mv.ProvisioningRequestConfigs().Create(ctx, largest, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create the largest ProvisioningRequestConfig: %v", err)
	}
	largest.Spec.RetryStrategy = defaultRetry
	if diff := cmp.Diff(largest.Spec, created.Spec); diff != "" {
		t.Errorf("largest ProvisioningRequestConfig (-written +read):\n%s", diff)
	}
}

// testProvisioningRequestValid writes ProvisioningRequests at the edges of
// the published schema through the typed clientset, the apply
// configurations and the informers.
func (e *env) testProvisioningRequestValid(t *testing.T) {
	ctx := t.Context()
	av := e.cs.AutoscalingV1()
	tmpl, err := e.cp.Client.CoreV1().PodTemplates(e.ns).Create(ctx, &corev1.PodTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: "ppt-train"},
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "c", Image: "registry.example/c", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse("8")},
				Limits:   corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse("8")},
			}}},
		}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	// The most the schema allows: 32 pod sets, 100 parameters of 255
	// characters.
	pr := &autoscalingv1.ProvisioningRequest{
		ObjectMeta: metav1.ObjectMeta{Name: "train-dws-prov-1", Namespace: e.ns},
		Spec: autoscalingv1.ProvisioningRequestSpec{
			ProvisioningClassName: wellknown.QueuedProvisioningClass,
			Parameters:            map[string]autoscalingv1.Parameter{wellknown.MaxRunDurationSecondsParameter: "600"},
		},
	}
	for i := range 32 {
		pr.Spec.PodSets = append(pr.Spec.PodSets, autoscalingv1.PodSet{PodTemplateRef: autoscalingv1.Reference{Name: tmpl.Name}, Count: int32(i + 1)})
	}
	for i := range 99 {
		pr.Spec.Parameters[fmt.Sprintf("p%02d", i)] = autoscalingv1.Parameter(strings.Repeat("x", 255))
	}
	created, err := av.ProvisioningRequests(e.ns).Create(ctx, pr, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create ProvisioningRequest: %v", err)
	}
	if diff := cmp.Diff(pr.Spec, created.Spec); diff != "" {
		t.Errorf("ProvisioningRequest spec (-written +read):\n%s", diff)
	}
	// Metadata stays mutable when the spec does not change.
	created.Labels = map[string]string{"attempt": "1"}
	if created, err = av.ProvisioningRequests(e.ns).Update(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("update ProvisioningRequest labels: %v", err)
	}

	// The autoscaler's status, then one more condition applied by another
	// field manager: conditions merge by type.
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	cond := func(typ string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: "ByTest", Message: "by the test", LastTransitionTime: now}
	}
	created.Status = autoscalingv1.ProvisioningRequestStatus{
		Conditions: []metav1.Condition{cond(autoscalingv1.Accepted), cond(autoscalingv1.Provisioned)},
		ProvisioningClassDetails: map[string]autoscalingv1.Detail{
			"zone": "us-central1-a", "long": autoscalingv1.Detail(strings.Repeat("d", 32768)),
		},
	}
	for i := range 62 {
		created.Status.ProvisioningClassDetails[fmt.Sprintf("d%02d", i)] = "v"
	}
	updated, err := av.ProvisioningRequests(e.ns).UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update ProvisioningRequest status: %v", err)
	}
	if diff := cmp.Diff(created.Status, updated.Status); diff != "" {
		t.Errorf("ProvisioningRequest status (-written +read):\n%s", diff)
	}
	applied, err := av.ProvisioningRequests(e.ns).ApplyStatus(ctx,
		acautoscalingv1.ProvisioningRequest(pr.Name, e.ns).WithStatus(acautoscalingv1.ProvisioningRequestStatus().WithConditions(
			metav1ac.Condition().WithType(autoscalingv1.BookingExpired).WithStatus(metav1.ConditionTrue).
				WithReason("BookingExpired").WithMessage("by the test").WithLastTransitionTime(now))),
		metav1.ApplyOptions{FieldManager: "provisioner", Force: true})
	if err != nil {
		t.Fatalf("apply ProvisioningRequest status: %v", err)
	}
	var types []string
	for _, c := range applied.Status.Conditions {
		types = append(types, c.Type)
	}
	slices.Sort(types)
	if diff := cmp.Diff([]string{autoscalingv1.Accepted, autoscalingv1.BookingExpired, autoscalingv1.Provisioned}, types); diff != "" {
		t.Errorf("condition types after apply (-want +got):\n%s", diff)
	}

	// The smallest request, applied server-side: one pod set of one pod,
	// no parameters.
	if _, err := av.ProvisioningRequests(e.ns).Apply(ctx,
		acautoscalingv1.ProvisioningRequest("smallest", e.ns).WithSpec(acautoscalingv1.ProvisioningRequestSpec().
			WithProvisioningClassName(autoscalingv1.ProvisioningClassBestEffortAtomicScaleUp).
			WithPodSets(acautoscalingv1.PodSet().WithCount(1).WithPodTemplateRef(acautoscalingv1.Reference().WithName(tmpl.Name)))),
		metav1.ApplyOptions{FieldManager: "queueapi-test"}); err != nil {
		t.Fatalf("apply the smallest ProvisioningRequest: %v", err)
	}

	// The informers and listers of both groups see the objects.
	factory := externalversions.NewSharedInformerFactory(e.cs, 0)
	prLister := factory.Autoscaling().V1().ProvisioningRequests().Lister()
	acLister := factory.Multislice().V1alpha1().AdmissionChecks().Lister()
	prcLister := factory.Multislice().V1alpha1().ProvisioningRequestConfigs().Lister()
	informerCtx, stop := context.WithCancel(ctx)
	factory.Start(informerCtx.Done())
	defer func() {
		stop()
		factory.Shutdown()
	}()
	for typ, ok := range factory.WaitForCacheSync(informerCtx.Done()) {
		if !ok {
			t.Fatalf("informer of %v not synced", typ)
		}
	}
	if got, err := prLister.ProvisioningRequests(e.ns).Get(pr.Name); err != nil || len(got.Status.Conditions) != 3 {
		t.Errorf("ProvisioningRequest lister: %v, %+v", err, got)
	}
	if list, err := acLister.List(labels.Everything()); err != nil || len(list) == 0 {
		t.Errorf("AdmissionCheck lister: %v, %d objects", err, len(list))
	}
	if list, err := prcLister.List(labels.Everything()); err != nil || len(list) == 0 {
		t.Errorf("ProvisioningRequestConfig lister: %v, %d objects", err, len(list))
	}

	if err := av.ProvisioningRequests(e.ns).Delete(ctx, pr.Name, metav1.DeleteOptions{}); err != nil {
		t.Errorf("delete ProvisioningRequest: %v", err)
	}
}

// testProvisioningPrinterColumns reads the CRDs back for their names,
// scope and printer columns, and checks the columns' values in the tables
// the apiserver prints.
func (e *env) testProvisioningPrinterColumns(t *testing.T) {
	ctx := t.Context()
	for name, want := range map[string]struct {
		versions   []string
		namespaced bool
		columns    []string
		shortNames []string
	}{
		"admissionchecks.multislice.dev":            {[]string{"v1alpha1"}, false, []string{"Controller", "Parameters", "Active", "Age"}, nil},
		"provisioningrequestconfigs.multislice.dev": {[]string{"v1alpha1"}, false, []string{"Class", "Age"}, nil},
		// As the autoscaler's own CRD, with columns for kubectl get, in
		// both versions it serves.
		"provisioningrequests.autoscaling.x-k8s.io": {[]string{"v1", "v1beta1"}, true, []string{"Class", "Accepted", "Provisioned", "Failed", "BookingExpired", "Age"}, []string{"provreq", "provreqs"}},
	} {
		crd, err := e.ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var versions []string
		for _, v := range crd.Spec.Versions {
			versions = append(versions, v.Name)
		}
		if diff := cmp.Diff(want.versions, versions); diff != "" {
			t.Fatalf("CRD %s versions (-want +got):\n%s", name, diff)
		}
		for _, v := range crd.Spec.Versions {
			var got []string
			for _, c := range v.AdditionalPrinterColumns {
				got = append(got, c.Name)
			}
			if diff := cmp.Diff(want.columns, got); diff != "" {
				t.Errorf("CRD %s %s printer columns (-want +got):\n%s", name, v.Name, diff)
			}
		}
		if diff := cmp.Diff(want.shortNames, crd.Spec.Names.ShortNames); diff != "" {
			t.Errorf("CRD %s short names (-want +got):\n%s", name, diff)
		}
		if (crd.Spec.Scope == "Namespaced") != want.namespaced {
			t.Errorf("CRD %s scope %s", name, crd.Spec.Scope)
		}
	}

	mv := e.cs.MultisliceV1alpha1()
	ac, err := mv.AdmissionChecks().Create(ctx, &v1alpha1.AdmissionCheck{
		ObjectMeta: metav1.ObjectMeta{Name: "columns"},
		Spec: v1alpha1.AdmissionCheckSpec{
			ControllerName: v1alpha1.ProvisioningRequestControllerName,
			Parameters:     &v1alpha1.AdmissionCheckParametersReference{APIGroup: v1alpha1.GroupName, Kind: "ProvisioningRequestConfig", Name: "columns"},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// No status until the scheduler writes one.
	e.checkTable(t, "admissionchecks", "", ac.Name, map[string]string{
		"Controller": v1alpha1.ProvisioningRequestControllerName, "Parameters": "columns", "Active": "<nil>",
	})
	ac.Status.Conditions = []metav1.Condition{{
		Type: v1alpha1.AdmissionCheckActive, Status: metav1.ConditionFalse,
		Reason: "ConfigNotFound", Message: "no config", LastTransitionTime: metav1.Now(),
	}}
	if _, err := mv.AdmissionChecks().UpdateStatus(ctx, ac, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.checkTable(t, "admissionchecks", "", ac.Name, map[string]string{
		"Controller": v1alpha1.ProvisioningRequestControllerName, "Parameters": "columns", "Active": "False",
	})

	prc, err := mv.ProvisioningRequestConfigs().Create(ctx, &v1alpha1.ProvisioningRequestConfig{
		ObjectMeta: metav1.ObjectMeta{Name: "columns"},
		Spec:       v1alpha1.ProvisioningRequestConfigSpec{ProvisioningClassName: wellknown.QueuedProvisioningClass},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e.checkTable(t, "provisioningrequestconfigs", "", prc.Name, map[string]string{"Class": wellknown.QueuedProvisioningClass})
}
