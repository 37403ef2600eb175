package quota_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// Queue objects that are missing or do not fit the workload: each workload
// waits with a reason on its Workload object and an event that say which
// object and why, and the queue objects created or fixed later admit it.
func TestMisconfiguredQueuesSayWhyAndRecover(t *testing.T) {
	e := start(t, 6)
	ns := e.cp.CreateNamespace(t, "misconfig")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 48, -1, -1})
	e.localQueue(t, ns, "dangling", "absent")
	e.localQueue(t, ns, "selective", "selective")
	e.localQueue(t, ns, "flavorless", "flavorless")
	e.localQueue(t, ns, "lq", "cq")
	e.q.CreateClusterQueue(t, "selective", multislicev1alpha1.ClusterQueueSpec{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "ml"}},
		ResourceGroups: []multislicev1alpha1.ResourceGroup{{Flavors: []multislicev1alpha1.FlavorQuotas{{Name: "v5e",
			Resources: []multislicev1alpha1.ResourceQuota{{Name: wellknown.ResourceTPU, NominalQuota: resourceChips(16)}}}}}}})
	e.clusterQueue(t, "flavorless", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"late-flavor", 16, -1, -1})

	// Pods that also ask for CPU, which the queue does not cover.
	withCPU := builders.JobSet(ns, "cpu").Exclusive(wellknown.NodePoolLabel).
		Annotation(wellknown.QueueNameLabel, "lq").
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).TPU("4").NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e)
		}).ReplicatedJob("slice", 1, 2).Obj()
	cases := []struct {
		js      *jobsetv1alpha2.JobSet
		reason  string
		mention string
	}{
		{queued(ns, "no-localqueue", "missing", 1), quota.ReasonLocalQueueNotFound, "LocalQueue " + ns + "/missing"},
		{queued(ns, "no-clusterqueue", "dangling", 1), quota.ReasonClusterQueueNotFound, "ClusterQueue absent"},
		{queued(ns, "not-selected", "selective", 1), quota.ReasonNamespaceNotSelected, "namespace " + ns},
		{queued(ns, "no-flavor", "flavorless", 1), quota.ReasonFlavorNotFound, "ResourceFlavor late-flavor"},
		{withCPU, quota.ReasonResourceNotCovered, "covers no cpu"},
	}
	for _, tc := range cases {
		e.jobsets.Create(t, tc.js)
	}
	for _, tc := range cases {
		wl := e.waitWorkload(t, ns, tc.js.Name, "pending with "+tc.reason, condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, tc.reason))
		cond := findCondition(wl, multislicev1alpha1.WorkloadQuotaReserved)
		if !strings.Contains(cond.Message, tc.mention) {
			t.Errorf("%s: message %q does not mention %q", tc.js.Name, cond.Message, tc.mention)
		}
		// Only the user can fix these: Warning events.
		ev := e.cp.WaitForWorkloadEventObject(t, ns, tc.js.Name, tc.reason)
		if !strings.Contains(ev.Note, tc.mention) {
			t.Errorf("%s: event %q does not mention %q", tc.js.Name, ev.Note, tc.mention)
		}
		if ev.Type != corev1.EventTypeWarning {
			t.Errorf("%s: %s event is of type %s, want %s: the user must act", tc.js.Name, tc.reason, ev.Type, corev1.EventTypeWarning)
		}
	}
	for _, name := range []string{"no-localqueue", "no-clusterqueue", "not-selected", "no-flavor", "cpu"} {
		e.cp.ExpectNoneBound(t, ns, name, 0)
	}

	// Fix every object but the workload asking for CPU.
	e.localQueue(t, ns, "missing", "cq")
	e.clusterQueue(t, "absent", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, -1, -1})
	nsObj, err := e.cp.Client.CoreV1().Namespaces().Get(t.Context(), ns, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nsObj.Labels["team"] = "ml"
	if _, err := e.cp.Client.CoreV1().Namespaces().Update(t.Context(), nsObj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.v5eFlavor(t, "late-flavor")
	for _, name := range []string{"no-localqueue", "no-clusterqueue", "not-selected", "no-flavor"} {
		e.cp.WaitWhollyPlaced(t, ns, name, 2)
		e.waitWorkload(t, ns, name, "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	}
	e.cp.ExpectNoneBound(t, ns, "cpu", 0)
}

// A queued workload no domain could ever hold (a slice of 3 hosts, pools of
// 2) says so alike on its Workload and in its event: Unplaceable, a
// Warning, not WaitingForDomains.
func TestUnplaceableQueuedWorkloadSaysSoEverywhere(t *testing.T) {
	e := start(t, 2)
	ns := e.cp.CreateNamespace(t, "unplaceable")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 64, -1, -1})
	e.localQueue(t, ns, "lq", "cq")
	js := builders.JobSet(ns, "too-big").Exclusive(wellknown.NodePoolLabel).
		Annotation(wellknown.QueueNameLabel, "lq").
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().TPU("4").NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e)
		}).ReplicatedJob("slice", 1, 3).Obj()
	e.jobsets.Create(t, js)
	wl := e.waitWorkload(t, ns, "too-big", "Unplaceable", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, "Unplaceable"))
	if c := findCondition(wl, multislicev1alpha1.WorkloadQuotaReserved); !strings.Contains(c.Message, "fits in no domain") {
		t.Errorf("QuotaReserved message %q does not say why", c.Message)
	}
	ev := e.cp.WaitForWorkloadEventObject(t, ns, "too-big", "Unplaceable")
	if ev.Type != corev1.EventTypeWarning {
		t.Errorf("Unplaceable event of type %s, want %s", ev.Type, corev1.EventTypeWarning)
	}
}
