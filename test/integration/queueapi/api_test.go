package queueapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	v1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	acv1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/applyconfiguration/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// TestQueueAPI runs every check on one control plane with the CRDs
// installed once.
func TestQueueAPI(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallQueueCRDs(t)
	e := &env{
		cp:  cp,
		dyn: dynamic.NewForConfigOrDie(cp.Config),
		cs:  versioned.NewForConfigOrDie(cp.Config),
		ext: apiextensionsclient.NewForConfigOrDie(cp.Config),
		ns:  cp.CreateNamespace(t, "queueapi"),
	}
	t.Run("Examples", e.testExamples)
	t.Run("Valid", e.testValid)
	t.Run("Invalid", e.testInvalid)
	t.Run("PrinterColumns", e.testPrinterColumns)
	t.Run("Topology", e.testTopology)
}

type env struct {
	cp  *harness.ControlPlane
	dyn dynamic.Interface
	cs  versioned.Interface
	ext apiextensionsclient.Interface
	// ns is a namespace for the namespaced objects the tests make up.
	ns string
}

// kinds maps each kind of the API to its resource and scope.
var kinds = map[string]struct {
	resource   string
	namespaced bool
}{
	"ResourceFlavor": {"resourceflavors", false},
	"ClusterQueue":   {"clusterqueues", false},
	"LocalQueue":     {"localqueues", true},
	"Workload":       {"workloads", true},
	// Checked in provisioning_test.go.
	"AdmissionCheck":            {"admissionchecks", false},
	"ProvisioningRequestConfig": {"provisioningrequestconfigs", false},
	// Checked in topology_test.go.
	"Topology": {"topologies", false},
}

// client is the dynamic client of obj's resource and namespace.
func (e *env) client(t testing.TB, obj *unstructured.Unstructured) dynamic.ResourceInterface {
	t.Helper()
	if obj.GetAPIVersion() != v1alpha1.SchemeGroupVersion.String() {
		t.Fatalf("%s %s: apiVersion %q, want %q", obj.GetKind(), obj.GetName(), obj.GetAPIVersion(), v1alpha1.SchemeGroupVersion)
	}
	k, ok := kinds[obj.GetKind()]
	if !ok {
		t.Fatalf("unknown kind %q", obj.GetKind())
	}
	gvr := v1alpha1.SchemeGroupVersion.WithResource(k.resource)
	if k.namespaced {
		return e.dyn.Resource(gvr).Namespace(obj.GetNamespace())
	}
	return e.dyn.Resource(gvr)
}

// decode splits a multi-document YAML stream into objects.
func decode(t testing.TB, data []byte) []*unstructured.Unstructured {
	t.Helper()
	var objs []*unstructured.Unstructured
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs
		}
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(doc, &m); err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			continue
		}
		objs = append(objs, &unstructured.Unstructured{Object: m})
	}
}

// exampleQueue is what a ClusterQueue of an example file reads back as,
// defaults included.
type exampleQueue struct {
	strategy           v1alpha1.QueueingStrategy
	withinClusterQueue v1alpha1.PreemptionPolicy
	reclaimWithin      v1alpha1.PreemptionPolicy
	reclaimOutOfCohort *v1alpha1.ReclaimOutOfCohort
	admissionChecks    []string
	// provisioning: the file also holds an AdmissionCheck and a
	// ProvisioningRequestConfig (checked in provisioning_test.go).
	provisioning bool
}

// exampleQueues lists every file of manifests/examples/queues with its
// ClusterQueue as served.
var exampleQueues = map[string]exampleQueue{
	"seed-000-tpu-v6e.yaml": {
		strategy:           v1alpha1.BestEffortFIFO,
		withinClusterQueue: v1alpha1.PreemptionPolicyNever, // defaulted
		reclaimWithin:      v1alpha1.PreemptionPolicyNever,
		reclaimOutOfCohort: &v1alpha1.ReclaimOutOfCohort{Enable: true},
	},
	"seed-002-multislice-v5e.yaml": {
		strategy:           v1alpha1.BestEffortFIFO,
		withinClusterQueue: v1alpha1.PreemptionPolicyNever, // preemption defaulted
		reclaimWithin:      v1alpha1.PreemptionPolicyNever,
	},
	"seed-002-preemption.yaml": {
		strategy:           v1alpha1.BestEffortFIFO, // defaulted
		withinClusterQueue: v1alpha1.PreemptionPolicyLowerPriority,
		reclaimWithin:      v1alpha1.PreemptionPolicyAny,
	},
	"seed-003-dws.yaml": {
		strategy:           v1alpha1.BestEffortFIFO, // defaulted
		withinClusterQueue: v1alpha1.PreemptionPolicyNever,
		reclaimWithin:      v1alpha1.PreemptionPolicyNever,
		admissionChecks:    []string{"dws-prov"},
		provisioning:       true,
	},
}

// testExamples applies every example file as written, one file at a time
// (the seed 002 files define the same objects), and reads the objects back
// through the typed clientset.
func (e *env) testExamples(t *testing.T) {
	files, err := filepath.Glob(harness.RepoPath(t, "manifests/examples/queues/*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	want := make([]string, 0, len(exampleQueues))
	for name := range exampleQueues {
		want = append(want, name)
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Fatalf("example files (-tested +present):\n%s", diff)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			objs := decode(t, data)
			kindsSeen := map[string]int{}
			for _, k := range e.createAll(t, objs) {
				kindsSeen[k]++
			}
			wantKinds := map[string]int{"ResourceFlavor": 1, "ClusterQueue": 1, "LocalQueue": 1}
			if exampleQueues[filepath.Base(file)].provisioning {
				wantKinds["AdmissionCheck"], wantKinds["ProvisioningRequestConfig"] = 1, 1
			}
			if diff := cmp.Diff(wantKinds, kindsSeen); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			for _, obj := range objs {
				switch obj.GetKind() {
				case "ResourceFlavor":
					e.checkExampleFlavor(t, obj)
				case "ClusterQueue":
					e.checkExampleClusterQueue(t, obj, exampleQueues[filepath.Base(file)])
				case "LocalQueue":
					e.checkExampleLocalQueue(t, obj)
				}
			}
		})
	}
}

func (e *env) checkExampleFlavor(t *testing.T, obj *unstructured.Unstructured) {
	t.Helper()
	got, err := e.cs.MultisliceV1alpha1().ResourceFlavors().Get(t.Context(), obj.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	labels, _, err := unstructured.NestedStringMap(obj.Object, "spec", "nodeLabels")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(labels, got.Spec.NodeLabels); diff != "" {
		t.Errorf("ResourceFlavor %s nodeLabels (-written +read):\n%s", obj.GetName(), diff)
	}
}

func (e *env) checkExampleClusterQueue(t *testing.T, obj *unstructured.Unstructured, want exampleQueue) {
	t.Helper()
	got, err := e.cs.MultisliceV1alpha1().ClusterQueues().Get(t.Context(), obj.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec := got.Spec
	if spec.QueueingStrategy != want.strategy {
		t.Errorf("queueingStrategy %q, want %q", spec.QueueingStrategy, want.strategy)
	}
	if spec.Preemption == nil {
		t.Fatal("preemption not defaulted")
	}
	if spec.Preemption.WithinClusterQueue != want.withinClusterQueue {
		t.Errorf("preemption.withinClusterQueue %q, want %q", spec.Preemption.WithinClusterQueue, want.withinClusterQueue)
	}
	if spec.Preemption.ReclaimWithinCohort != want.reclaimWithin {
		t.Errorf("preemption.reclaimWithinCohort %q, want %q", spec.Preemption.ReclaimWithinCohort, want.reclaimWithin)
	}
	if spec.Preemption.BorrowWithinCohort != nil {
		t.Errorf("preemption.borrowWithinCohort %+v, want none", spec.Preemption.BorrowWithinCohort)
	}
	if diff := cmp.Diff(want.reclaimOutOfCohort, spec.Preemption.ReclaimOutOfCohort); diff != "" {
		t.Errorf("preemption.reclaimOutOfCohort (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want.admissionChecks, spec.AdmissionChecks); diff != "" {
		t.Errorf("admissionChecks (-want +got):\n%s", diff)
	}
	if spec.Cohort != "" || spec.FairSharing != nil {
		t.Errorf("cohort %q, fairSharing %+v: want neither", spec.Cohort, spec.FairSharing)
	}

	// The quotas read back are those written, group by group.
	groups, _, err := unstructured.NestedSlice(obj.Object, "spec", "resourceGroups")
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != len(spec.ResourceGroups) {
		t.Fatalf("%d resource groups, wrote %d", len(spec.ResourceGroups), len(groups))
	}
	for i, g := range groups {
		group := g.(map[string]any)
		covered, _, _ := unstructured.NestedStringSlice(group, "coveredResources")
		var gotCovered []string
		for _, r := range spec.ResourceGroups[i].CoveredResources {
			gotCovered = append(gotCovered, string(r))
		}
		if diff := cmp.Diff(covered, gotCovered); diff != "" {
			t.Errorf("resourceGroups[%d].coveredResources (-written +read):\n%s", i, diff)
		}
		flavors, _, _ := unstructured.NestedSlice(group, "flavors")
		if len(flavors) != len(spec.ResourceGroups[i].Flavors) {
			t.Fatalf("resourceGroups[%d]: %d flavors, wrote %d", i, len(spec.ResourceGroups[i].Flavors), len(flavors))
		}
		for j, f := range flavors {
			flavor := f.(map[string]any)
			gotFlavor := spec.ResourceGroups[i].Flavors[j]
			if gotFlavor.Name != flavor["name"] {
				t.Errorf("resourceGroups[%d].flavors[%d].name %q, wrote %q", i, j, gotFlavor.Name, flavor["name"])
			}
			resources, _, _ := unstructured.NestedSlice(flavor, "resources")
			if len(resources) != len(gotFlavor.Resources) {
				t.Fatalf("flavor %s: %d resources, wrote %d", gotFlavor.Name, len(gotFlavor.Resources), len(resources))
			}
			for k, r := range resources {
				res := r.(map[string]any)
				gotRes := gotFlavor.Resources[k]
				wantQuota := resource.MustParse(fmt.Sprint(res["nominalQuota"]))
				if string(gotRes.Name) != res["name"] || gotRes.NominalQuota.Cmp(wantQuota) != 0 {
					t.Errorf("flavor %s resource %d: %s %s, wrote %v %v", gotFlavor.Name, k, gotRes.Name, gotRes.NominalQuota.String(), res["name"], res["nominalQuota"])
				}
				if gotRes.BorrowingLimit != nil || gotRes.LendingLimit != nil {
					t.Errorf("flavor %s resource %s: limits %v %v, wrote none", gotFlavor.Name, gotRes.Name, gotRes.BorrowingLimit, gotRes.LendingLimit)
				}
			}
		}
	}

	list, err := e.cs.MultisliceV1alpha1().ClusterQueues().List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list.Items, func(cq v1alpha1.ClusterQueue) bool { return cq.Name == obj.GetName() }) {
		t.Errorf("ClusterQueue %s not listed", obj.GetName())
	}
}

func (e *env) checkExampleLocalQueue(t *testing.T, obj *unstructured.Unstructured) {
	t.Helper()
	got, err := e.cs.MultisliceV1alpha1().LocalQueues(obj.GetNamespace()).Get(t.Context(), obj.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cq, _, _ := unstructured.NestedString(obj.Object, "spec", "clusterQueue")
	if got.Spec.ClusterQueue != cq {
		t.Errorf("LocalQueue %s/%s clusterQueue %q, wrote %q", got.Namespace, got.Name, got.Spec.ClusterQueue, cq)
	}
}

// testValid writes objects at the edges of what the validation accepts
// through the typed clientset, the apply configurations and the informers.
func (e *env) testValid(t *testing.T) {
	ctx := t.Context()
	mv := e.cs.MultisliceV1alpha1()
	q := resource.MustParse

	cq := &v1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: "valid-team-a"},
		Spec: v1alpha1.ClusterQueueSpec{
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			Cohort:            "training",
			QueueingStrategy:  v1alpha1.StrictFIFO,
			ResourceGroups: []v1alpha1.ResourceGroup{{
				// Without coveredResources: both flavors list the same resources.
				Flavors: []v1alpha1.FlavorQuotas{{
					Name: "tpu-v5e",
					Resources: []v1alpha1.ResourceQuota{{
						Name:           "google.com/tpu",
						NominalQuota:   q("32"),
						BorrowingLimit: ptr.To(q("16")),
						LendingLimit:   ptr.To(q("32")), // equal to nominalQuota
					}},
				}, {
					Name:      "tpu-v6e",
					Resources: []v1alpha1.ResourceQuota{{Name: "google.com/tpu", NominalQuota: q("0")}},
				}},
			}, {
				CoveredResources: []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory},
				Flavors: []v1alpha1.FlavorQuotas{{
					Name: "default",
					Resources: []v1alpha1.ResourceQuota{
						{Name: corev1.ResourceCPU, NominalQuota: q("100")},
						// Equal quantities written differently.
						{Name: corev1.ResourceMemory, NominalQuota: q("1Ti"), LendingLimit: ptr.To(q("1024Gi"))},
					},
				}},
			}},
			Preemption: &v1alpha1.ClusterQueuePreemption{
				ReclaimWithinCohort: v1alpha1.PreemptionPolicyLowerPriority,
				BorrowWithinCohort: &v1alpha1.BorrowWithinCohort{
					Policy:               v1alpha1.BorrowWithinCohortPolicyLowerPriority,
					MaxPriorityThreshold: ptr.To[int32](100),
				},
			},
			AdmissionChecks: []string{"check-a", "check-b"},
			FairSharing:     &v1alpha1.FairSharing{},
		},
	}
	created, err := mv.ClusterQueues().Create(ctx, cq, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create ClusterQueue: %v", err)
	}
	if got := created.Spec.Preemption.WithinClusterQueue; got != v1alpha1.PreemptionPolicyNever {
		t.Errorf("withinClusterQueue defaulted to %q, want Never", got)
	}
	if w := created.Spec.FairSharing.Weight; w == nil || w.Cmp(q("1")) != 0 {
		t.Errorf("fairSharing.weight defaulted to %v, want 1", w)
	}

	// A ClusterQueue without a spec is defaulted like an empty one.
	bare := decode(t, []byte("apiVersion: multislice.dev/v1alpha1\nkind: ClusterQueue\nmetadata:\n  name: valid-bare\n"))[0]
	if _, err := e.client(t, bare).Create(ctx, bare, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ClusterQueue without spec: %v", err)
	}
	if got, err := mv.ClusterQueues().Get(ctx, bare.GetName(), metav1.GetOptions{}); err != nil {
		t.Error(err)
	} else if want := (v1alpha1.ClusterQueueSpec{
		QueueingStrategy: v1alpha1.BestEffortFIFO,
		Preemption: &v1alpha1.ClusterQueuePreemption{
			ReclaimWithinCohort: v1alpha1.PreemptionPolicyNever,
			WithinClusterQueue:  v1alpha1.PreemptionPolicyNever,
			ForceFit:            v1alpha1.PreemptionPolicyLowerPriority,
		},
	}); !cmp.Equal(want, got.Spec) {
		t.Errorf("ClusterQueue without spec (-want +got):\n%s", cmp.Diff(want, got.Spec))
	}

	// A ClusterQueue written for Kueue's v1beta2 API, with only its
	// apiVersion changed: cohortName and admissionChecksStrategy.
	v1beta2 := decode(t, []byte(`apiVersion: multislice.dev/v1alpha1
kind: ClusterQueue
metadata:
  name: valid-v1beta2
spec:
  cohortName: training
  resourceGroups:
  - coveredResources: ["google.com/tpu"]
    flavors:
    - name: tpu-v5e
      resources:
      - name: google.com/tpu
        nominalQuota: 8
        borrowingLimit: 8
  admissionChecksStrategy:
    admissionChecks:
    - name: dws-prov
`))[0]
	if _, err := e.client(t, v1beta2).Create(ctx, v1beta2, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create a ClusterQueue in Kueue v1beta2's spelling: %v", err)
	}
	if got, err := mv.ClusterQueues().Get(ctx, v1beta2.GetName(), metav1.GetOptions{}); err != nil {
		t.Error(err)
	} else if got.Spec.CohortOf() != "training" || !slices.Equal(got.Spec.CheckNames(), []string{"dws-prov"}) {
		t.Errorf("v1beta2 spelling read back as cohort %q, checks %v; want training, [dws-prov]", got.Spec.CohortOf(), got.Spec.CheckNames())
	}

	// The largest ClusterQueue the schema allows stays within the CEL
	// cost budget at runtime: 16 groups of 16 flavors of 16 resources.
	largest := &v1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: "valid-largest"},
		Spec:       v1alpha1.ClusterQueueSpec{Cohort: "training"},
	}
	long := func(prefix string, i, j int) string {
		s := fmt.Sprintf("%s-%02d-%02d-", prefix, i, j)
		return s + strings.Repeat("x", 63-len(s))
	}
	for g := range 16 {
		group := v1alpha1.ResourceGroup{}
		for r := range 16 {
			group.CoveredResources = append(group.CoveredResources, corev1.ResourceName("example.com/"+long("r", g, r)))
		}
		for f := range 16 {
			flavor := v1alpha1.FlavorQuotas{Name: long("flavor", g, f)}
			for _, name := range group.CoveredResources {
				flavor.Resources = append(flavor.Resources, v1alpha1.ResourceQuota{
					Name: name, NominalQuota: q("8"), BorrowingLimit: ptr.To(q("4")), LendingLimit: ptr.To(q("2")),
				})
			}
			group.Flavors = append(group.Flavors, flavor)
		}
		largest.Spec.ResourceGroups = append(largest.Spec.ResourceGroups, group)
	}
	if _, err := mv.ClusterQueues().Create(ctx, largest, metav1.CreateOptions{}); err != nil {
		t.Errorf("create the largest ClusterQueue: %v", err)
	}

	// Status through the status subresource.
	now := metav1.NewTime(time.Now().Truncate(time.Second))
	created.Status = v1alpha1.ClusterQueueStatus{
		PendingWorkloads:  2,
		AdmittedWorkloads: 1,
		FlavorsUsage: []v1alpha1.FlavorUsage{{
			Name:      "tpu-v5e",
			Resources: []v1alpha1.ResourceUsage{{Name: "google.com/tpu", Total: q("40"), Borrowed: q("8")}},
		}},
		Conditions: []metav1.Condition{{
			Type: v1alpha1.ClusterQueueActive, Status: metav1.ConditionTrue,
			Reason: v1alpha1.ReasonReady, Message: "Can admit new workloads", LastTransitionTime: now,
		}},
		FairSharing: &v1alpha1.FairSharingStatus{WeightedShare: 250},
	}
	updated, err := mv.ClusterQueues().UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update ClusterQueue status: %v", err)
	}
	if diff := cmp.Diff(created.Status, updated.Status); diff != "" {
		t.Errorf("ClusterQueue status (-written +read):\n%s", diff)
	}

	// A LocalQueue applied server-side, then updated in anything but its
	// clusterQueue.
	lq, err := mv.LocalQueues(e.ns).Apply(ctx,
		acv1alpha1.LocalQueue("team-a", e.ns).WithSpec(acv1alpha1.LocalQueueSpec().WithClusterQueue(cq.Name)),
		metav1.ApplyOptions{FieldManager: "queueapi-test"})
	if err != nil {
		t.Fatalf("apply LocalQueue: %v", err)
	}
	lq.Labels = map[string]string{"team": "a"}
	if _, err := mv.LocalQueues(e.ns).Update(ctx, lq, metav1.UpdateOptions{}); err != nil {
		t.Errorf("update LocalQueue labels: %v", err)
	}

	// A Workload of two slices, its admission applied to its status.
	wl := &v1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{Name: "jobset-train", Namespace: e.ns},
		Spec: v1alpha1.WorkloadSpec{
			QueueName:         "team-a",
			PriorityClassName: "high-priority-job",
			Priority:          ptr.To[int32](2000000),
			PodSets: []v1alpha1.PodSet{
				{Name: "slice-0", Count: 4, Requests: corev1.ResourceList{"google.com/tpu": q("4")}, TopologyKey: "cloud.google.com/gke-nodepool"},
				{Name: "slice-1", Count: 4, Requests: corev1.ResourceList{"google.com/tpu": q("4")}, TopologyKey: "cloud.google.com/gke-nodepool"},
			},
		},
	}
	if _, err := mv.Workloads(e.ns).Create(ctx, wl, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create Workload: %v", err)
	}
	assignment := func(name, domain string) *acv1alpha1.PodSetAssignmentApplyConfiguration {
		return acv1alpha1.PodSetAssignment().WithName(name).WithCount(4).WithDomain(domain).
			WithFlavors(map[corev1.ResourceName]string{"google.com/tpu": "tpu-v5e"}).
			WithResourceUsage(corev1.ResourceList{"google.com/tpu": q("16")})
	}
	condition := func(typ, reason string) *metav1ac.ConditionApplyConfiguration {
		return metav1ac.Condition().WithType(typ).WithStatus(metav1.ConditionTrue).
			WithReason(reason).WithMessage("by the test").WithLastTransitionTime(now)
	}
	applied, err := mv.Workloads(e.ns).ApplyStatus(ctx,
		acv1alpha1.Workload(wl.Name, e.ns).WithStatus(acv1alpha1.WorkloadStatus().
			WithAdmission(acv1alpha1.Admission().WithClusterQueue(cq.Name).
				WithPodSetAssignments(assignment("slice-0", "pool-0"), assignment("slice-1", "pool-1"))).
			WithConditions(
				condition(v1alpha1.WorkloadQuotaReserved, v1alpha1.ReasonQuotaReserved),
				condition(v1alpha1.WorkloadAdmitted, v1alpha1.ReasonAdmitted)).
			WithRequeueState(acv1alpha1.RequeueState().WithCount(1).WithRequeueAt(now))),
		metav1.ApplyOptions{FieldManager: "multislice-scheduler", Force: true})
	if err != nil {
		t.Fatalf("apply Workload status: %v", err)
	}
	if a := applied.Status.Admission; a == nil || a.ClusterQueue != cq.Name || len(a.PodSetAssignments) != 2 ||
		a.PodSetAssignments[1].Domain != "pool-1" || a.PodSetAssignments[1].Flavors["google.com/tpu"] != "tpu-v5e" {
		t.Errorf("Workload admission read back as %+v", applied.Status.Admission)
	}
	if !applied.Status.RequeueState.RequeueAt.Equal(&now) || applied.Status.RequeueState.Count != 1 {
		t.Errorf("Workload requeueState read back as %+v", applied.Status.RequeueState)
	}

	// The informers and listers see the objects.
	factory := externalversions.NewSharedInformerFactory(e.cs, 0)
	lqLister := factory.Multislice().V1alpha1().LocalQueues().Lister()
	wlLister := factory.Multislice().V1alpha1().Workloads().Lister()
	cqLister := factory.Multislice().V1alpha1().ClusterQueues().Lister()
	informerCtx, stopInformers := context.WithCancel(ctx)
	factory.Start(informerCtx.Done())
	defer func() {
		stopInformers()
		factory.Shutdown()
	}()
	for typ, ok := range factory.WaitForCacheSync(informerCtx.Done()) {
		if !ok {
			t.Fatalf("informer of %v not synced", typ)
		}
	}
	if _, err := lqLister.LocalQueues(e.ns).Get("team-a"); err != nil {
		t.Errorf("LocalQueue lister: %v", err)
	}
	if got, err := wlLister.Workloads(e.ns).Get(wl.Name); err != nil || got.Status.Admission == nil {
		t.Errorf("Workload lister: %v, %+v", err, got)
	}
	if got, err := cqLister.Get(cq.Name); err != nil || got.Status.PendingWorkloads != 2 {
		t.Errorf("ClusterQueue lister: %v, %+v", err, got)
	}
}

// invalidCase is an object the apiserver must reject, with the substrings
// its error must contain: the path of the offending field and what is wrong.
type invalidCase struct {
	name string
	obj  string
	// update, when set, modifies obj once created; the update is rejected.
	update func(*unstructured.Unstructured)
	want   []string
}

// clusterQueue is the YAML of a ClusterQueue with the given spec.
func clusterQueue(spec string) string {
	return "apiVersion: multislice.dev/v1alpha1\nkind: ClusterQueue\nmetadata:\n  name: NAME\nspec:\n" + indent(spec)
}

func localQueue(spec string) string {
	return "apiVersion: multislice.dev/v1alpha1\nkind: LocalQueue\nmetadata:\n  name: NAME\nspec:\n" + indent(spec)
}

func workload(spec string) string {
	return "apiVersion: multislice.dev/v1alpha1\nkind: Workload\nmetadata:\n  name: NAME\nspec:\n" + indent(spec)
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		lines[i] = "  " + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// quota is the YAML of a resource group of one flavor and resource.
func quota(flavor, res, limits string) string {
	return fmt.Sprintf(`- flavors:
  - name: %s
    resources:
    - name: %s
%s`, flavor, res, indentBy(limits, "      "))
}

func indentBy(s, prefix string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}

var invalidCases = []invalidCase{{
	name: "negative nominalQuota",
	obj:  clusterQueue("resourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: -1")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "nominalQuota must not be negative"},
}, {
	name: "negative nominalQuota string",
	obj:  clusterQueue("resourceGroups:\n" + quota("default", "memory", `nominalQuota: "-1Gi"`)),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "nominalQuota must not be negative"},
}, {
	name: "nominalQuota not a quantity",
	obj:  clusterQueue("resourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: lots")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].nominalQuota"},
}, {
	name: "missing nominalQuota",
	obj:  clusterQueue("resourceGroups:\n" + quota("tpu", "google.com/tpu", "borrowingLimit: 1")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "Required value"},
}, {
	name: "negative borrowingLimit",
	obj:  clusterQueue("cohort: training\nresourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: 8\nborrowingLimit: -4")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit", "borrowingLimit must not be negative"},
}, {
	name: "negative lendingLimit",
	obj:  clusterQueue("cohort: training\nresourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: 8\nlendingLimit: \"-1\"")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", "lendingLimit must not be negative"},
}, {
	name: "lendingLimit above nominalQuota",
	obj:  clusterQueue("cohort: training\nresourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: 8\nlendingLimit: 16")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", "lendingLimit must be less than or equal to nominalQuota"},
}, {
	// 1200M is more than 1Gi (1073741824) though it reads smaller.
	name: "lendingLimit above nominalQuota in other units",
	obj:  clusterQueue("cohort: training\nresourceGroups:\n" + quota("default", "memory", "nominalQuota: 1Gi\nlendingLimit: 1200M")),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[0].lendingLimit", "lendingLimit must be less than or equal to nominalQuota"},
}, {
	name: "borrowingLimit without cohort",
	obj:  clusterQueue("resourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: 8\nborrowingLimit: 8")),
	want: []string{"spec.resourceGroups", "borrowingLimit and lendingLimit can only be set when cohort (or cohortName) is set"},
}, {
	name: "lendingLimit without cohort",
	obj:  clusterQueue("resourceGroups:\n" + quota("tpu", "google.com/tpu", "nominalQuota: 8\nlendingLimit: 4")),
	want: []string{"spec.resourceGroups", "borrowingLimit and lendingLimit can only be set when cohort (or cohortName) is set"},
}, {
	name: "cohort in both of Kueue's spellings",
	obj:  clusterQueue("cohort: training\ncohortName: training"),
	want: []string{"spec.cohortName", "cohort (Kueue v1beta1's spelling) and cohortName (v1beta2's) are the same field: set one of them"},
}, {
	name: "admission checks in both of Kueue's spellings",
	obj:  clusterQueue("admissionChecks: [dws-prov]\nadmissionChecksStrategy:\n  admissionChecks:\n  - name: dws-prov"),
	want: []string{"spec.admissionChecksStrategy", "admissionChecks (Kueue v1beta1's spelling) and admissionChecksStrategy (v1beta2's) are the same field: set one of them"},
}, {
	name: "flavor twice in a group",
	obj: clusterQueue(`
resourceGroups:
- flavors:
  - name: tpu
    resources:
    - name: google.com/tpu
      nominalQuota: 8
  - name: tpu
    resources:
    - name: google.com/tpu
      nominalQuota: 16`),
	want: []string{"spec.resourceGroups[0].flavors[1]", "Duplicate value"},
}, {
	name: "flavor in two groups",
	obj: clusterQueue("resourceGroups:\n" +
		quota("shared", "google.com/tpu", "nominalQuota: 8") + "\n" +
		quota("shared", "cpu", "nominalQuota: 8")),
	want: []string{"spec.resourceGroups", "a flavor can appear in only one resource group"},
}, {
	name: "flavor in the first and the last of three groups",
	obj: clusterQueue("resourceGroups:\n" +
		quota("shared", "google.com/tpu", "nominalQuota: 8") + "\n" +
		quota("other", "nvidia.com/gpu", "nominalQuota: 8") + "\n" +
		quota("shared", "cpu", "nominalQuota: 8")),
	want: []string{"spec.resourceGroups", "a flavor can appear in only one resource group"},
}, {
	name: "resource twice in a flavor",
	obj: clusterQueue(`
resourceGroups:
- flavors:
  - name: default
    resources:
    - name: cpu
      nominalQuota: 8
    - name: cpu
      nominalQuota: 16`),
	want: []string{"spec.resourceGroups[0].flavors[0].resources[1]", "Duplicate value"},
}, {
	name: "resource in two groups",
	obj: clusterQueue("resourceGroups:\n" +
		quota("flavor-a", "cpu", "nominalQuota: 8") + "\n" +
		quota("flavor-b", "cpu", "nominalQuota: 8")),
	want: []string{"spec.resourceGroups", "a resource can be covered by only one resource group"},
}, {
	name: "coveredResources listed twice",
	obj: clusterQueue(`
resourceGroups:
- coveredResources: [cpu, cpu]
  flavors:
  - name: default
    resources:
    - name: cpu
      nominalQuota: 8`),
	want: []string{"spec.resourceGroups[0].coveredResources[1]", "Duplicate value"},
}, {
	name: "coveredResources in another order",
	obj: clusterQueue(`
resourceGroups:
- coveredResources: [cpu, memory]
  flavors:
  - name: default
    resources:
    - name: memory
      nominalQuota: 8Gi
    - name: cpu
      nominalQuota: 8`),
	want: []string{"spec.resourceGroups[0].flavors", "every flavor must list exactly the resources of coveredResources, in the same order"},
}, {
	name: "flavor without a covered resource",
	obj: clusterQueue(`
resourceGroups:
- coveredResources: [cpu, memory]
  flavors:
  - name: small
    resources:
    - name: cpu
      nominalQuota: 8
    - name: memory
      nominalQuota: 8Gi
  - name: large
    resources:
    - name: cpu
      nominalQuota: 8`),
	want: []string{"spec.resourceGroups[0].flavors", "every flavor must list exactly the resources of coveredResources, in the same order"},
}, {
	name: "flavors with different resources without coveredResources",
	obj: clusterQueue(`
resourceGroups:
- flavors:
  - name: small
    resources:
    - name: cpu
      nominalQuota: 8
  - name: large
    resources:
    - name: cpu
      nominalQuota: 8
    - name: memory
      nominalQuota: 8Gi`),
	want: []string{"spec.resourceGroups[0].flavors", "every flavor must list the same resources, in the same order"},
}, {
	name: "group without flavors",
	obj:  clusterQueue("resourceGroups:\n- coveredResources: [cpu]\n  flavors: []"),
	want: []string{"spec.resourceGroups[0].flavors", "should have at least 1 items"},
}, {
	name: "unknown queueingStrategy",
	obj:  clusterQueue("queueingStrategy: FIFO"),
	want: []string{"spec.queueingStrategy", `Unsupported value: "FIFO"`},
}, {
	name: "unknown withinClusterQueue policy",
	obj:  clusterQueue("preemption:\n  withinClusterQueue: Always"),
	want: []string{"spec.preemption.withinClusterQueue", `Unsupported value: "Always"`},
}, {
	name: "withinClusterQueue Any",
	obj:  clusterQueue("preemption:\n  withinClusterQueue: Any"),
	want: []string{"spec.preemption.withinClusterQueue", `Unsupported value: "Any"`},
}, {
	name: "reclaimWithinCohort LowerOrNewerEqualPriority",
	obj:  clusterQueue("preemption:\n  reclaimWithinCohort: LowerOrNewerEqualPriority"),
	want: []string{"spec.preemption.reclaimWithinCohort", `Unsupported value: "LowerOrNewerEqualPriority"`},
}, {
	name: "forceFit Any",
	obj:  clusterQueue("preemption:\n  forceFit: Any"),
	want: []string{"spec.preemption.forceFit", `Unsupported value: "Any"`},
}, {
	name: "unknown borrowWithinCohort policy",
	obj:  clusterQueue("preemption:\n  reclaimWithinCohort: Any\n  borrowWithinCohort:\n    policy: Any"),
	want: []string{"spec.preemption.borrowWithinCohort.policy", `Unsupported value: "Any"`},
}, {
	name: "borrowWithinCohort without reclaimWithinCohort",
	obj:  clusterQueue("preemption:\n  borrowWithinCohort:\n    policy: LowerPriority"),
	want: []string{"spec.preemption.borrowWithinCohort.policy", "borrowWithinCohort.policy other than Never requires reclaimWithinCohort other than Never"},
}, {
	name: "negative fairSharing weight",
	obj:  clusterQueue("fairSharing:\n  weight: -1"),
	want: []string{"spec.fairSharing.weight", "weight must not be negative"},
}, {
	name: "cohort not a DNS subdomain",
	obj:  clusterQueue("cohort: Team_A"),
	want: []string{"spec.cohort", "should match"},
}, {
	name: "LocalQueue clusterQueue changed",
	obj:  localQueue("clusterQueue: team-a"),
	update: func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "team-b", "spec", "clusterQueue")
	},
	want: []string{"spec.clusterQueue", "clusterQueue is immutable"},
}, {
	name: "LocalQueue empty clusterQueue",
	obj:  localQueue(`clusterQueue: ""`),
	want: []string{"spec.clusterQueue", "should be at least 1 chars long"},
}, {
	name: "LocalQueue without clusterQueue",
	obj:  localQueue("{}"),
	want: []string{"spec.clusterQueue", "Required value"},
}, {
	name: "Workload pod set twice",
	obj:  workload("podSets:\n- name: slice-0\n  count: 4\n- name: slice-0\n  count: 4"),
	want: []string{"spec.podSets[1]", "Duplicate value"},
}, {
	name: "Workload negative count",
	obj:  workload("podSets:\n- name: slice-0\n  count: -1"),
	want: []string{"spec.podSets[0].count", "should be greater than or equal to 0"},
}, {
	name: "Workload without pod sets",
	obj:  workload("podSets: []"),
	want: []string{"spec.podSets", "should have at least 1 items"},
}}

// testInvalid checks that the apiserver rejects each invalid object, naming
// the offending field.
func (e *env) testInvalid(t *testing.T) {
	for i, tc := range invalidCases {
		t.Run(tc.name, func(t *testing.T) { e.expectRefused(t, tc, "invalid", i) })
	}
}

// expectRefused creates tc's object, named prefix-i (and updates it when tc
// says how), and checks that the apiserver refuses it naming what tc wants.
func (e *env) expectRefused(t *testing.T, tc invalidCase, prefix string, i int) {
	t.Helper()
	obj := oneObject(t, tc.obj)
	obj.SetName(fmt.Sprintf("%s-%d", prefix, i))
	if kinds[obj.GetKind()].namespaced {
		obj.SetNamespace(e.ns)
	}
	refuse(t, e.client(t, obj), obj, tc.update, false, tc.obj, tc.want)
}

// oneObject decodes the one object of a case's YAML.
func oneObject(t *testing.T, data string) *unstructured.Unstructured {
	t.Helper()
	objs := decode(t, []byte(data))
	if len(objs) != 1 {
		t.Fatalf("%d objects in the case", len(objs))
	}
	return objs[0]
}

// refuse creates obj through client — then, when update is set, changes
// it with update and writes it again (its status when status is set) —
// and checks that the apiserver refuses the last write as Invalid,
// naming every string of want. src is the case's YAML, for the log.
func refuse(t *testing.T, client dynamic.ResourceInterface, obj *unstructured.Unstructured, update func(*unstructured.Unstructured), status bool, src string, want []string) {
	t.Helper()
	var err error
	if update == nil {
		_, err = client.Create(t.Context(), obj, metav1.CreateOptions{})
	} else {
		created, cerr := client.Create(t.Context(), obj, metav1.CreateOptions{})
		if cerr != nil {
			t.Fatalf("create before update: %v", cerr)
		}
		update(created)
		if status {
			_, err = client.UpdateStatus(t.Context(), created, metav1.UpdateOptions{})
		} else {
			_, err = client.Update(t.Context(), created, metav1.UpdateOptions{})
		}
	}
	expectInvalid(t, err, src, want)
	if err == nil || update != nil {
		if err := client.Delete(t.Context(), obj.GetName(), metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete: %v", err)
		}
	}
}

// createAll creates objs in order, deletes them in reverse order when the
// test ends, and returns their kinds in order.
func (e *env) createAll(t *testing.T, objs []*unstructured.Unstructured) []string {
	t.Helper()
	var created []*unstructured.Unstructured
	t.Cleanup(func() {
		for _, obj := range slices.Backward(created) {
			if err := e.client(t, obj).Delete(context.Background(), obj.GetName(), metav1.DeleteOptions{}); err != nil {
				t.Errorf("delete %s %s: %v", obj.GetKind(), obj.GetName(), err)
			}
		}
	})
	var kinds []string
	for _, obj := range objs {
		kinds = append(kinds, obj.GetKind())
		if _, err := e.client(t, obj).Create(t.Context(), obj, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create %s %s: %v", obj.GetKind(), obj.GetName(), err)
		}
		created = append(created, obj)
	}
	return kinds
}

// printerColumns lists the additional printer columns of each CRD.
var printerColumns = map[string][]string{
	"resourceflavors": {"Age"},
	"clusterqueues":   {"Cohort", "Strategy", "Usage", "Pending", "Admitted", "Active", "Age"},
	"localqueues":     {"ClusterQueue", "Pending", "Admitted", "Age"},
	"workloads":       {"Queue", "Reserved in", "Position", "In LocalQueue", "Admitted", "Finished", "Age"},
	"topologies":      {"Age"},
}

// shortNames are each CRD's short names: Kueue's, which kubectl users of
// Kueue type, and mswl for the Workload, which no other API takes (see
// names_test.go).
var shortNames = map[string][]string{
	"resourceflavors": {"flavor", "flavors", "rf"},
	"clusterqueues":   {"cq"},
	"localqueues":     {"queue", "queues", "lq"},
	"workloads":       {"wl", "mswl"},
	"topologies":      {"topo"},
}

// testPrinterColumns reads the CRDs back for their printer columns, and
// checks the columns' values in the table the apiserver prints.
func (e *env) testPrinterColumns(t *testing.T) {
	ctx := t.Context()
	for plural, want := range printerColumns {
		crd, err := e.ext.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, plural+"."+v1alpha1.GroupName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(crd.Spec.Versions) != 1 || crd.Spec.Versions[0].Name != "v1alpha1" {
			t.Fatalf("CRD %s versions %+v", crd.Name, crd.Spec.Versions)
		}
		var got []string
		for _, c := range crd.Spec.Versions[0].AdditionalPrinterColumns {
			got = append(got, c.Name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("CRD %s printer columns (-want +got):\n%s", crd.Name, diff)
		}
		if diff := cmp.Diff(shortNames[plural], crd.Spec.Names.ShortNames); diff != "" {
			t.Errorf("CRD %s short names (-want +got):\n%s", crd.Name, diff)
		}
		namespaced := kinds[crd.Spec.Names.Kind].namespaced
		if (crd.Spec.Scope == "Namespaced") != namespaced {
			t.Errorf("CRD %s scope %s", crd.Name, crd.Spec.Scope)
		}
	}

	mv := e.cs.MultisliceV1alpha1()
	cq, err := mv.ClusterQueues().Create(ctx, &v1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: "columns"},
		Spec:       v1alpha1.ClusterQueueSpec{Cohort: "training"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cq.Status = v1alpha1.ClusterQueueStatus{
		PendingWorkloads:  3,
		AdmittedWorkloads: 5,
		Usage:             "google.com/tpu: 24/32",
		Conditions: []metav1.Condition{{
			Type: v1alpha1.ClusterQueueActive, Status: metav1.ConditionFalse,
			Reason: v1alpha1.ReasonFlavorNotFound, Message: "no flavor", LastTransitionTime: metav1.Now(),
		}},
	}
	if _, err := mv.ClusterQueues().UpdateStatus(ctx, cq, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.checkTable(t, "clusterqueues", "", cq.Name, map[string]string{
		"Cohort": "training", "Strategy": "BestEffortFIFO", "Usage": "google.com/tpu: 24/32", "Pending": "3", "Admitted": "5", "Active": "False",
	})

	wl, err := mv.Workloads(e.ns).Create(ctx, &v1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{Name: "columns"},
		Spec: v1alpha1.WorkloadSpec{
			QueueName: "team-a",
			PodSets:   []v1alpha1.PodSet{{Name: "main", Count: 1}},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wl.Status = v1alpha1.WorkloadStatus{
		Admission: &v1alpha1.Admission{ClusterQueue: cq.Name, PodSetAssignments: []v1alpha1.PodSetAssignment{{Name: "main", Count: 1}}},
		Conditions: []metav1.Condition{{
			Type: v1alpha1.WorkloadAdmitted, Status: metav1.ConditionTrue,
			Reason: v1alpha1.ReasonAdmitted, Message: "admitted", LastTransitionTime: metav1.Now(),
		}, {
			Type: v1alpha1.WorkloadFinished, Status: metav1.ConditionFalse,
			Reason: v1alpha1.ReasonPending, Message: "running", LastTransitionTime: metav1.Now(),
		}},
	}
	if _, err := mv.Workloads(e.ns).UpdateStatus(ctx, wl, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.checkTable(t, "workloads", e.ns, wl.Name, map[string]string{
		"Queue": "team-a", "Reserved in": cq.Name, "Position": "<nil>", "Admitted": "True", "Finished": "False",
	})
	// A waiting workload shows its places.
	waiting, err := mv.Workloads(e.ns).Create(ctx, &v1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{Name: "waiting"},
		Spec:       v1alpha1.WorkloadSpec{QueueName: "team-a", PodSets: []v1alpha1.PodSet{{Name: "main", Count: 1}}},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waiting.Status = v1alpha1.WorkloadStatus{PositionInClusterQueue: ptr.To[int32](2), PositionInLocalQueue: ptr.To[int32](1)}
	if _, err := mv.Workloads(e.ns).UpdateStatus(ctx, waiting, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.checkTable(t, "workloads", e.ns, waiting.Name, map[string]string{"Position": "2", "In LocalQueue": "1"})
	waiting.Status.PositionInClusterQueue = ptr.To[int32](0)
	if _, err := mv.Workloads(e.ns).UpdateStatus(ctx, waiting, metav1.UpdateOptions{}); err == nil {
		t.Error("position 0 was accepted; places start at 1")
	}

	lq, err := mv.LocalQueues(e.ns).Create(ctx, &v1alpha1.LocalQueue{
		ObjectMeta: metav1.ObjectMeta{Name: "columns"},
		Spec:       v1alpha1.LocalQueueSpec{ClusterQueue: cq.Name},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// No status until the scheduler writes one.
	e.checkTable(t, "localqueues", e.ns, lq.Name, map[string]string{
		"ClusterQueue": cq.Name, "Pending": "<nil>", "Admitted": "<nil>",
	})
	lq.Status = v1alpha1.LocalQueueStatus{PendingWorkloads: 1}
	if _, err := mv.LocalQueues(e.ns).UpdateStatus(ctx, lq, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.checkTable(t, "localqueues", e.ns, lq.Name, map[string]string{
		"ClusterQueue": cq.Name, "Pending": "1", "Admitted": "0",
	})
}

// checkTable gets one object as the table kubectl prints and checks the
// given cells.
func (e *env) checkTable(t *testing.T, resource, namespace, name string, want map[string]string) {
	t.Helper()
	req := e.cs.MultisliceV1alpha1().RESTClient().Get().Resource(resource).Name(name).
		SetHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	if namespace != "" {
		req = req.Namespace(namespace)
	}
	raw, err := req.DoRaw(t.Context())
	if err != nil {
		t.Fatalf("get %s %s as a table: %v", resource, name, err)
	}
	var table metav1.Table
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Rows) != 1 {
		t.Fatalf("%s %s: %d rows", resource, name, len(table.Rows))
	}
	got := map[string]string{}
	for i, col := range table.ColumnDefinitions {
		if _, ok := want[col.Name]; ok && i < len(table.Rows[0].Cells) {
			got[col.Name] = fmt.Sprint(table.Rows[0].Cells[i])
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s %s table cells (-want +got):\n%s", resource, name, diff)
	}
}

// expectInvalid checks that the apiserver refused obj as Invalid, with an
// error that mentions every string of want.
func expectInvalid(t *testing.T, err error, obj string, want []string) {
	t.Helper()
	if err == nil {
		t.Errorf("accepted:\n%s", obj)
		return
	}
	t.Logf("rejected: %v", err)
	if !apierrors.IsInvalid(err) {
		t.Errorf("error is not Invalid: %v", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not mention %q: %v", w, err)
		}
	}
}
