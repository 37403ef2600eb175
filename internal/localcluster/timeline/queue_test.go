package timeline

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func clusterQueue(pending, admitted int32, inUse string) *multislicev1alpha1.ClusterQueue {
	cq := &multislicev1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster-queue"},
		Spec: multislicev1alpha1.ClusterQueueSpec{ResourceGroups: []multislicev1alpha1.ResourceGroup{{
			CoveredResources: []corev1.ResourceName{wellknown.ResourceTPU},
			Flavors: []multislicev1alpha1.FlavorQuotas{{Name: "vlp-24", Resources: []multislicev1alpha1.ResourceQuota{{
				Name: wellknown.ResourceTPU, NominalQuota: resource.MustParse("24"),
			}}}},
		}}},
		Status: multislicev1alpha1.ClusterQueueStatus{PendingWorkloads: pending, AdmittedWorkloads: admitted},
	}
	if inUse != "" {
		cq.Status.FlavorsUsage = []multislicev1alpha1.FlavorUsage{{Name: "vlp-24", Resources: []multislicev1alpha1.ResourceUsage{{
			Name: wellknown.ResourceTPU, Total: resource.MustParse(inUse),
		}}}}
	}
	return cq
}

// workload is the Workload object of JobSet jobset, its QuotaReserved
// condition as given.
func workload(jobset string, reserved metav1.ConditionStatus, reason, message string) *multislicev1alpha1.Workload {
	return &multislicev1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "jobset-" + jobset, OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Name: jobset, UID: types.UID("uid-" + jobset), Controller: ptr.To(true),
		}}},
		Spec: multislicev1alpha1.WorkloadSpec{QueueName: "multislice-queue"},
		Status: multislicev1alpha1.WorkloadStatus{Conditions: []metav1.Condition{
			{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: reserved, Reason: reason, Message: message},
		}},
	}
}

func admittedWorkload(jobset string, domains ...string) *multislicev1alpha1.Workload {
	wl := workload(jobset, metav1.ConditionTrue, multislicev1alpha1.ReasonQuotaReserved, "Quota reserved in ClusterQueue cluster-queue")
	adm := &multislicev1alpha1.Admission{ClusterQueue: "cluster-queue"}
	for i, d := range domains {
		adm.PodSetAssignments = append(adm.PodSetAssignments, multislicev1alpha1.PodSetAssignment{
			Name: fmt.Sprintf("%s-slice-%d", jobset, i), Count: 2, Domain: d,
			Flavors:       map[corev1.ResourceName]string{wellknown.ResourceTPU: "vlp-24"},
			ResourceUsage: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("8")},
		})
	}
	wl.Status.Admission = adm
	return wl
}

func finishedWorkload(jobset string) *multislicev1alpha1.Workload {
	wl := admittedWorkload(jobset)
	wl.Status.Admission = nil
	wl.Status.Conditions = append(wl.Status.Conditions, metav1.Condition{
		Type: multislicev1alpha1.WorkloadFinished, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonSucceeded,
	})
	return wl
}

func TestQueueStory(t *testing.T) {
	tl, out, clk := newTest()
	tl.ClusterQueue(clusterQueue(0, 0, ""))
	tl.ClusterQueue(clusterQueue(0, 0, "")) // unchanged: not reported again

	// The generic Pending reason, before the queue decided, is left out.
	tl.Workload(workload("big", metav1.ConditionFalse, multislicev1alpha1.ReasonPending, "waiting to be admitted"))
	tl.Workload(admittedWorkload("big", "pool-a", "pool-b", "pool-c"))
	tl.Workload(admittedWorkload("big", "pool-a", "pool-b", "pool-c")) // once
	tl.ClusterQueue(clusterQueue(0, 1, "24"))

	clk.t = clk.t.Add(2 * time.Second)
	tl.Workload(workload("small", metav1.ConditionFalse, "QuotaExceeded", "insufficient quota in ClusterQueue cluster-queue: 0 available"))
	// Another message for the same reason is not news.
	tl.Workload(workload("small", metav1.ConditionFalse, "QuotaExceeded", "insufficient quota in ClusterQueue cluster-queue: still 0 available"))
	tl.Workload(workload("small", metav1.ConditionFalse, "WaitingInQueue", "waiting behind default/big"))
	tl.ClusterQueue(clusterQueue(1, 1, "24"))

	clk.t = clk.t.Add(30 * time.Second)
	tl.Workload(finishedWorkload("big"))
	tl.Workload(finishedWorkload("big")) // once
	tl.Workload(admittedWorkload("small", "pool-a"))
	tl.ClusterQueue(clusterQueue(0, 1, "8"))
	// Losing the reservation without finishing, e.g. preempted.
	tl.Workload(workload("small", metav1.ConditionFalse, "QuotaExceeded", "insufficient quota"))

	want := []string{
		"0.0s clusterqueue cluster-queue 0 admitted, 0 pending; google.com/tpu of flavor vlp-24: 0 of 24 in use",
		"0.0s big admitted by ClusterQueue cluster-queue: slice-0 on pool-a, slice-1 on pool-b, slice-2 on pool-c; 24 google.com/tpu of flavor vlp-24",
		"0.0s clusterqueue cluster-queue 1 admitted, 0 pending; google.com/tpu of flavor vlp-24: 24 of 24 in use",
		"2.0s small waits in LocalQueue multislice-queue: QuotaExceeded: insufficient quota in ClusterQueue cluster-queue: 0 available",
		"2.0s small waits in LocalQueue multislice-queue: WaitingInQueue: waiting behind default/big",
		"2.0s clusterqueue cluster-queue 1 admitted, 1 pending; google.com/tpu of flavor vlp-24: 24 of 24 in use",
		"32.0s big workload finished (Succeeded): its quota is released",
		"32.0s small admitted by ClusterQueue cluster-queue: slice-0 on pool-a; 8 google.com/tpu of flavor vlp-24",
		"32.0s clusterqueue cluster-queue 1 admitted, 0 pending; google.com/tpu of flavor vlp-24: 8 of 24 in use",
		"32.0s small lost its quota reservation",
		"32.0s small waits in LocalQueue multislice-queue: QuotaExceeded: insufficient quota",
	}
	got := lines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWorkloadSubjects(t *testing.T) {
	tests := []struct {
		owners []metav1.OwnerReference
		want   string
	}{
		{[]metav1.OwnerReference{{Kind: "JobSet", Name: "train", Controller: ptr.To(true)}}, "train"},
		{[]metav1.OwnerReference{{Kind: "PodGroup", Name: "serving", Controller: ptr.To(true)}}, "podgroup serving"},
		{[]metav1.OwnerReference{{Kind: "JobSet", Name: "train"}}, "workload jobset-train"},
		{nil, "workload jobset-train"},
	}
	for _, tc := range tests {
		wl := &multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Name: "jobset-train", OwnerReferences: tc.owners}}
		if got := workloadSubject(wl); got != tc.want {
			t.Errorf("workloadSubject(%v) = %q, want %q", tc.owners, got, tc.want)
		}
	}
}

// A pool that appears NotReady while the timeline runs is reported once,
// as added, when its nodes are Ready; not as a recovery.
func TestPoolAdded(t *testing.T) {
	tl, out, _ := newTest()
	tl.Node(readyNode("a-0", "pool-a", true, false)) // there from the start
	tl.Node(readyNode("b-0", "pool-b", false, false))
	tl.Node(readyNode("b-1", "pool-b", false, false))
	tl.Node(readyNode("b-0", "pool-b", true, false))
	tl.Node(readyNode("b-1", "pool-b", true, false))
	tl.Node(readyNode("b-1", "pool-b", true, false))
	tl.NodeDeleted(readyNode("a-0", "pool-a", true, false))

	want := []string{
		"0.0s pool pool-b added: 2 nodes, Ready",
		"0.0s pool pool-a removed",
	}
	got := lines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
