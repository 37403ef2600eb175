package queuemodel

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
				ForceFit:           multislicev1alpha1.PreemptionPolicyLowerPriorityWithinCohort,
			},
		},
	}
	got, err := ClusterQueue(cq)
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
		Preemption:      quota.Preemption{WithinClusterQueue: "LowerPriority", ReclaimWithinCohort: "Any", ReclaimOutOfCohort: true, ForceFit: "LowerPriorityWithinCohort"},
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
	if _, err := ClusterQueue(bad); err == nil {
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
		{func(s *spec) { s.Preemption.ForceFit = "Any" },
			`ClusterQueue cq: spec.preemption.forceFit: "Any" is not one of Never, LowerPriorityWithinCohort, LowerPriority`},
		// Both of Kueue's spellings, which the CRD refuses together.
		{func(s *spec) { s.CohortName = "other" },
			"ClusterQueue cq: spec.cohortName: cohort (v1beta1's spelling) is set too"},
		{func(s *spec) {
			s.AdmissionChecksStrategy = &multislicev1alpha1.AdmissionChecksStrategy{AdmissionChecks: []multislicev1alpha1.AdmissionCheckStrategyRule{{Name: "dws-prov"}}}
		}, "ClusterQueue cq: spec.admissionChecksStrategy: admissionChecks (v1beta1's spelling) is set too"},
		{func(s *spec) {
			s.AdmissionChecks = nil
			s.AdmissionChecksStrategy = &multislicev1alpha1.AdmissionChecksStrategy{AdmissionChecks: []multislicev1alpha1.AdmissionCheckStrategyRule{{Name: "dws-prov", OnFlavors: []string{"v5e"}}}}
		}, "ClusterQueue cq: spec.admissionChecksStrategy.admissionChecks[0].onFlavors: checks limited to some flavors are not supported"},
	} {
		bad := cq.DeepCopy()
		tc.edit(&bad.Spec)
		if m, err := ClusterQueue(bad); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ClusterQueue = %+v, %v; want error %q", m, err, tc.want)
		}
	}
	// Kueue's v1beta2 spellings give the same model.
	v1beta2 := cq.DeepCopy()
	v1beta2.Spec.Cohort, v1beta2.Spec.CohortName = "", "research"
	v1beta2.Spec.AdmissionChecks = nil
	v1beta2.Spec.AdmissionChecksStrategy = &multislicev1alpha1.AdmissionChecksStrategy{AdmissionChecks: []multislicev1alpha1.AdmissionCheckStrategyRule{{Name: "dws-prov"}}}
	if m, err := ClusterQueue(v1beta2); err != nil {
		t.Errorf("the v1beta2 spelling: %v", err)
	} else {
		m.Namespaces = nil
		if diff := cmp.Diff(want, m); diff != "" {
			t.Errorf("model of the v1beta2 spelling (-want +got):\n%s", diff)
		}
	}
	all := cq.DeepCopy()
	all.Spec.NamespaceSelector = &metav1.LabelSelector{}
	if m, _ := ClusterQueue(all); !m.Namespaces.Matches(labels.Set{}) {
		t.Errorf("namespaceSelector {} does not select every namespace")
	}
}
