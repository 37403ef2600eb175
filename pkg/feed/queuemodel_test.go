package feed

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const tpu = corev1.ResourceName("google.com/tpu")

func TestClusterQueueModel(t *testing.T) {
	q := func(s string) resource.Quantity { return resource.MustParse(s) }
	cq := &multislicev1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: "cq"},
		Spec: multislicev1alpha1.ClusterQueueSpec{
			Cohort:            "research",
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "ml"}},
			ResourceGroups: []multislicev1alpha1.ResourceGroup{{
				// coveredResources omitted: what the flavors list.
				Flavors: []multislicev1alpha1.FlavorQuotas{
					{Name: "v5e", Resources: []multislicev1alpha1.ResourceQuota{{Name: tpu, NominalQuota: q("24"), BorrowingLimit: ptr.To(q("8")), LendingLimit: ptr.To(q("16"))}}},
					{Name: "v6e", Resources: []multislicev1alpha1.ResourceQuota{{Name: tpu, NominalQuota: q("32")}}},
				},
			}},
			FairSharing:           &multislicev1alpha1.FairSharing{Weight: ptr.To(q("2"))},
			AdmissionChecks:       []string{"dws-prov"},
			MaxRunDurationSeconds: ptr.To[int64](600),
			Preemption: &multislicev1alpha1.ClusterQueuePreemption{
				WithinClusterQueue: multislicev1alpha1.PreemptionPolicyLowerPriority, ReclaimWithinCohort: multislicev1alpha1.PreemptionPolicyAny,
				ReclaimOutOfCohort: &multislicev1alpha1.ReclaimOutOfCohort{Enable: true},
			},
		},
	}
	got, err := clusterQueueModel(cq)
	if err != nil {
		t.Fatal(err)
	}
	want := &quota.ClusterQueue{
		Name: "cq", Cohort: "research", Strategy: quota.BestEffortFIFO, FairWeight: 2000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{tpu}, Flavors: []string{"v5e", "v6e"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{
			{Flavor: "v5e", Resource: tpu}: {Nominal: 24000, Borrowing: ptr.To[int64](8000), Lending: ptr.To[int64](16000)},
			{Flavor: "v6e", Resource: tpu}: {Nominal: 32000},
		},
		Preemption:      quota.Preemption{WithinClusterQueue: "LowerPriority", ReclaimWithinCohort: "Any", ReclaimOutOfCohort: true},
		AdmissionChecks: []string{"dws-prov"}, MaxRunDuration: 10 * time.Minute,
	}
	sel := got.Namespaces
	got.Namespaces = nil
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("model (-want +got):\n%s", diff)
	}
	if sel == nil || !sel.Matches(labels.Set{"team": "ml"}) || sel.Matches(labels.Set{"team": "web"}) {
		t.Errorf("namespace selector %v", sel)
	}

	bad := cq.DeepCopy()
	bad.Spec.NamespaceSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: "Sometimes"}}}
	if _, err := clusterQueueModel(bad); err == nil {
		t.Errorf("an unparsable namespaceSelector was accepted")
	}
	// Caught by FuzzQueueModel: values the CRD rejects, taken as they
	// were (a quantity too large for milli-units wrapped, an overlong run
	// duration overflowed, an unknown strategy or policy meant Never).
	type spec = multislicev1alpha1.ClusterQueueSpec
	quotaOf := func(s *spec, flavor int) *multislicev1alpha1.ResourceQuota {
		return &s.ResourceGroups[0].Flavors[flavor].Resources[0]
	}
	for _, tc := range []struct {
		edit func(*spec)
		want string
	}{
		{func(s *spec) { s.QueueingStrategy = "Fastest" },
			`ClusterQueue cq: spec.queueingStrategy: "Fastest" is neither StrictFIFO nor BestEffortFIFO`},
		{func(s *spec) { quotaOf(s, 1).NominalQuota = q("-1") },
			"ClusterQueue cq: spec.resourceGroups[0].flavors[1].resources[0].nominalQuota: must not be negative, got -1"},
		{func(s *spec) { quotaOf(s, 0).LendingLimit = ptr.To(q("10E")) },
			"ClusterQueue cq: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit: 10E is more than can be counted"},
		{func(s *spec) { s.FairSharing.Weight = ptr.To(q("1e30")) },
			"ClusterQueue cq: spec.fairSharing.weight: 1e30 is more than can be counted"},
		{func(s *spec) { s.MaxRunDurationSeconds = ptr.To[int64](1 << 62) },
			"ClusterQueue cq: spec.maxRunDurationSeconds: must be from 1 to 9223372036, got 4611686018427387904"},
		{func(s *spec) { s.Preemption.WithinClusterQueue = "Always" },
			`ClusterQueue cq: spec.preemption.withinClusterQueue: "Always" is not one of Never, LowerPriority, LowerOrNewerEqualPriority`},
	} {
		bad := cq.DeepCopy()
		tc.edit(&bad.Spec)
		if m, err := clusterQueueModel(bad); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("clusterQueueModel = %+v, %v; want error %q", m, err, tc.want)
		}
	}
	all := cq.DeepCopy()
	all.Spec.NamespaceSelector = &metav1.LabelSelector{}
	if m, _ := clusterQueueModel(all); !m.Namespaces.Matches(labels.Set{}) {
		t.Errorf("namespaceSelector {} does not select every namespace")
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
