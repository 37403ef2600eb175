package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// whyCluster is seed 002 on three v5e pools: ClusterQueue cluster-queue of
// 24 chips, JobSet ns/train of 2 slices admitted and running on pool-1 and
// pool-2 (16 chips), and JobSet ns/next of 2 slices waiting for quota.
func whyCluster() Cluster {
	pools := nodes(builders.V5ePool("pool-1"), builders.V5ePool("pool-2"), builders.V5ePool("pool-3"))
	train := unit.JobSet("train").ReplicatedJob("slice", 2, 2).Obj()
	next := unit.JobSet("next").Created(builders.Epoch.Add(time.Minute)).ReplicatedJob("slice", 2, 2).Obj()
	pods := builders.MembersOn(train, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
	for i := range pods {
		pods[i] = builders.Edit(pods[i]).Priority(1000).ScheduledAt(builders.Epoch.Add(30 * time.Second)).Obj()
	}
	for _, p := range builders.Members(next) {
		pods = append(pods, builders.Edit(p).Gate("multislice.dev/gate").Held("QuotaExceeded", "insufficient quota in ClusterQueue cluster-queue").Obj())
	}
	wl := func(name string) *builders.WorkloadBuilder {
		return builders.Workload(KindJobSet, "ns", name, "lq").
			PodSet(name+"-slice-0", 2, tpu, "4", wellknown.NodePoolLabel).PodSet(name+"-slice-1", 2, tpu, "4", wellknown.NodePoolLabel)
	}
	return Cluster{
		Now:     now,
		Nodes:   pools,
		Pods:    pods,
		JobSets: []*jobsetv1alpha2.JobSet{train, next},
		ClusterQueues: []*multislicev1alpha1.ClusterQueue{builders.ClusterQueue("cluster-queue").Quota("vlp-24", tpu, "24").
			Usage("vlp-24", tpu, "16", "0").Counts(1, 0, 1).Obj()},
		LocalQueues:     []*multislicev1alpha1.LocalQueue{builders.LocalQueue("ns", "lq", "cluster-queue")},
		ResourceFlavors: []*multislicev1alpha1.ResourceFlavor{builders.ResourceFlavor("vlp-24", wellknown.TPUAcceleratorLabel, builders.V5e)},
		Workloads: []*multislicev1alpha1.Workload{
			wl("train").Priority(1000).Admitted("cluster-queue", "vlp-24", "pool-1", "pool-2").Obj(),
			wl("next").Waiting("QuotaExceeded", "insufficient quota in ClusterQueue cluster-queue: flavor vlp-24 (google.com/tpu: 8 for slice 0 (16 for the workload), 8 available (nominal 24, 16 in use))").Obj(),
		},
		Events: []*corev1.Event{
			builders.Event(KindJobSet, "ns", "next", "next-uid", corev1.EventTypeNormal, "QuotaExceeded", "insufficient quota", builders.Epoch.Add(2*time.Minute)),
			builders.Event(KindJobSet, "ns", "next", "old-uid", corev1.EventTypeNormal, "Placed", "an older JobSet of that name", builders.Epoch),
			builders.Event(KindJobSet, "ns", "train", "train-uid", corev1.EventTypeNormal, "Placed", "placed train-slice-0 on pool-1, train-slice-1 on pool-2", builders.Epoch.Add(time.Minute)),
		},
	}
}

// whyView is what the tests compare of an explanation.
type whyView struct {
	State, Reason string
	Queue         *QueueExplanation
	Slices        []SliceExplanation
	Domains       []DomainExplanation
	Checks        []CheckExplanation
	Preemption    string
	Pods          PodsExplanation
	Events        []string
}

func viewOf(e *Explanation) whyView {
	v := whyView{State: e.State, Reason: e.Reason, Queue: e.Queue, Slices: e.Slices, Domains: e.Domains, Checks: e.Checks,
		Preemption: e.Preemption.Summary, Pods: e.Pods}
	for _, ev := range e.Events {
		v.Events = append(v.Events, ev.Reason+" "+ev.Object)
	}
	return v
}

func TestWhy(t *testing.T) {
	v5eSelector := "gke-tpu-accelerator=tpu-v5-lite-podslice,gke-tpu-topology=2x4"
	trainHolds := func(pool string) DomainHold {
		return DomainHold{Domain: pool, Holders: []Holder{{Workload: WorkloadRef{KindJobSet, "ns", "train"}, UID: "train-uid", Priority: 1000, Since: builders.Epoch.Add(30 * time.Second), Pods: 2}}}
	}
	waitingNext := PodsExplanation{Total: 4, Expected: 4, Waiting: []PodsWaiting{{Reason: "QuotaExceeded", Message: "insufficient quota in ClusterQueue cluster-queue", Pods: 4, Example: "next-slice-0-0-a0"}}}
	cases := map[string]struct {
		edit func(*Cluster)
		ref  WorkloadRef
		want whyView
		// check, when set, checks the explanation instead of want.
		check func(*testing.T, *Explanation)
	}{
		"waiting for quota: the numbers, the domains and who holds them": {
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			want: whyView{
				State: StatePending, Reason: "QuotaExceeded",
				Queue: &QueueExplanation{LocalQueue: "ns/lq", ClusterQueue: "cluster-queue", Strategy: "BestEffortFIFO", Position: 1, Pending: 1,
					Preemption: "withinClusterQueue: Never, reclaimWithinCohort: Never",
					Quota:      []QuotaLine{{Flavor: "vlp-24", Resource: string(tpu), Requested: qty("16"), Nominal: qty("24"), InUse: qty("16"), Borrowed: qty("0"), Available: qty("8"), Max: qty("24")}}},
				Slices: []SliceExplanation{
					{Name: "next-slice-0", Pods: 2, Request: "google.com/tpu=4", DomainKey: wellknown.NodePoolLabel, Selector: v5eSelector},
					{Name: "next-slice-1", Pods: 2, Request: "google.com/tpu=4", DomainKey: wellknown.NodePoolLabel, Selector: v5eSelector},
				},
				Domains: []DomainExplanation{{Key: wellknown.NodePoolLabel, Slices: 2, Domains: 3, Matching: 3, Free: 1, FreeDomains: []string{"pool-3"},
					Held: []DomainHold{trainHolds("pool-1"), trainHolds("pool-2")}}},
				Preemption: "none recorded: the scheduler preempts for a workload's head once its plan fails for want of domains or quota, and then records Preempting or NoPreemptionVictims on it",
				Pods:       waitingNext,
				Events:     []string{"QuotaExceeded jobset/next"},
			},
		},
		"admitted and running: charged quota, its own domains": {
			ref: WorkloadRef{KindJobSet, "ns", "train"},
			want: whyView{
				State: StateRunning,
				Queue: &QueueExplanation{LocalQueue: "ns/lq", ClusterQueue: "cluster-queue", Strategy: "BestEffortFIFO", Pending: 1,
					Preemption: "withinClusterQueue: Never, reclaimWithinCohort: Never",
					Quota:      []QuotaLine{{Flavor: "vlp-24", Resource: string(tpu), Requested: qty("16"), Charged: true, Nominal: qty("24"), InUse: qty("16"), Borrowed: qty("0"), Available: qty("8"), Max: qty("24")}}},
				Slices: []SliceExplanation{
					{Name: "train-slice-0", Pods: 2, Request: "google.com/tpu=4", DomainKey: wellknown.NodePoolLabel, Selector: v5eSelector, Flavor: "vlp-24", Domain: "pool-1"},
					{Name: "train-slice-1", Pods: 2, Request: "google.com/tpu=4", DomainKey: wellknown.NodePoolLabel, Selector: v5eSelector, Flavor: "vlp-24", Domain: "pool-2"},
				},
				Domains: []DomainExplanation{{Key: wellknown.NodePoolLabel, Slices: 2, Domains: 3, Matching: 3, Free: 1, FreeDomains: []string{"pool-3"},
					Own: []string{"pool-1", "pool-2"}}},
				Preemption: "not needed: it is running",
				Pods:       PodsExplanation{Total: 4, Expected: 4, Bound: 4, Running: 4, Pools: []string{"pool-1", "pool-2"}},
				Events:     []string{"Placed jobset/train"},
			},
		},
		"no queue: its pods say why, preemption was considered, a pool failed": {
			edit: func(c *Cluster) {
				c.Workloads, c.ClusterQueues, c.LocalQueues = nil, nil, nil
				for _, n := range c.Nodes {
					if n.Labels[wellknown.NodePoolLabel] == "pool-3" {
						n.Status.Conditions[0].Status, n.Status.Conditions[0].Reason = corev1.ConditionFalse, "KubeletNotReady"
					}
				}
				for i, p := range c.Pods {
					if p.Spec.NodeName == "" {
						c.Pods[i] = builders.Edit(p).Held("WaitingForDomains", "1 of 2 slices fit").Obj()
					}
				}
				c.Events = append(c.Events, builders.Event(KindJobSet, "ns", "next", "", corev1.EventTypeNormal, "NoPreemptionVictims",
					"cannot preempt: no lower-priority workload holds a pool it could use", builders.Epoch.Add(3*time.Minute)))
			},
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			want: whyView{
				State: StatePending, Reason: "WaitingForDomains",
				Slices: []SliceExplanation{
					{Name: "next-slice-0", Pods: 2, Request: "google.com/tpu=4", DomainKey: wellknown.NodePoolLabel, Selector: v5eSelector},
					{Name: "next-slice-1", Pods: 2, Request: "google.com/tpu=4", DomainKey: wellknown.NodePoolLabel, Selector: v5eSelector},
				},
				Domains: []DomainExplanation{{Key: wellknown.NodePoolLabel, Slices: 2, Domains: 3, Matching: 3,
					Unhealthy: []DomainState{{Domain: "pool-3", Health: HealthFailed, Problems: []string{"pool-3-node-0: Ready=False (KubeletNotReady)", "pool-3-node-1: Ready=False (KubeletNotReady)"}}},
					Held:      []DomainHold{trainHolds("pool-1"), trainHolds("pool-2")}}},
				Preemption: "considered, and nothing may be preempted for it: no lower-priority workload holds a pool it could use",
				Pods:       PodsExplanation{Total: 4, Expected: 4, Waiting: []PodsWaiting{{Reason: "WaitingForDomains", Message: "1 of 2 slices fit", Pods: 4, Example: "next-slice-0-0-a0"}}},
				Events:     []string{"QuotaExceeded jobset/next", "NoPreemptionVictims jobset/next"},
			},
		},
		"quota reserved, waiting for its ProvisioningRequest": {
			edit: func(c *Cluster) {
				c.ClusterQueues[0].Spec.AdmissionChecks = []string{"dws-prov"}
				c.AdmissionChecks = []*multislicev1alpha1.AdmissionCheck{{
					ObjectMeta: metav1.ObjectMeta{Name: "dws-prov"},
					Spec:       multislicev1alpha1.AdmissionCheckSpec{ControllerName: multislicev1alpha1.ProvisioningRequestControllerName},
					Status: multislicev1alpha1.AdmissionCheckStatus{Conditions: []metav1.Condition{
						{Type: multislicev1alpha1.AdmissionCheckActive, Status: metav1.ConditionTrue, Reason: "Ready"}}},
				}}
				wl := builders.Workload(KindJobSet, "ns", "next", "lq").PodSet("next-slice-0", 2, tpu, "4", wellknown.NodePoolLabel).
					PodSet("next-slice-1", 2, tpu, "4", wellknown.NodePoolLabel).Admitted("cluster-queue", "vlp-24").
					Condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionFalse, "WaitingForAdmissionChecks", "The admission check dws-prov is not ready").
					Check("dws-prov", "Pending", "ProvisioningRequest jobset-next-dws-prov-1: accepted", builders.Epoch).Obj()
				c.Workloads[1] = wl
				c.ProvisioningRequests = []*autoscalingv1.ProvisioningRequest{{
					ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "jobset-next-dws-prov-1", CreationTimestamp: metav1.NewTime(builders.Epoch),
						OwnerReferences: []metav1.OwnerReference{{Kind: KindWorkload, Name: wl.Name, UID: wl.UID, Controller: ptr.To(true)}}},
					Spec: autoscalingv1.ProvisioningRequestSpec{ProvisioningClassName: wellknown.QueuedProvisioningClass},
					Status: autoscalingv1.ProvisioningRequestStatus{Conditions: []metav1.Condition{
						{Type: autoscalingv1.Accepted, Status: metav1.ConditionTrue, Reason: "Accepted"},
						{Type: autoscalingv1.Provisioned, Status: metav1.ConditionFalse, Reason: "NotProvisioned", Message: "waiting for capacity"}}},
				}}
				c.Events = append(c.Events, builders.Event(KindProvisioningRequest, "ns", "jobset-next-dws-prov-1", "", corev1.EventTypeNormal,
					"ProvisioningRequested", "created", builders.Epoch.Add(3*time.Minute)))
			},
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			want: whyView{
				State: StateReserved, Reason: "WaitingForAdmissionChecks",
				Checks: []CheckExplanation{{Name: "dws-prov", Controller: multislicev1alpha1.ProvisioningRequestControllerName, Active: "True",
					State: "Pending", Message: "ProvisioningRequest jobset-next-dws-prov-1: accepted", Since: builders.Epoch,
					Request: &RequestExplanation{Name: "jobset-next-dws-prov-1", Class: wellknown.QueuedProvisioningClass, Conditions: []ConditionLine{
						{Type: "Accepted", Status: "True", Reason: "Accepted"}, {Type: "Provisioned", Status: "False", Reason: "NotProvisioned", Message: "waiting for capacity"}}}}},
				Preemption: "not considered: it holds its quota and waits for its admission checks",
				Pods:       waitingNext,
				Events:     []string{"QuotaExceeded jobset/next", "ProvisioningRequested provisioningrequest/jobset-next-dws-prov-1"},
			},
		},
		"only the Jobs' first pods exist": {
			edit: func(c *Cluster) {
				var keep []*corev1.Pod
				for _, p := range c.Pods {
					if p.Spec.NodeName != "" || p.Labels[wellknown.JobCompletionIndexLabel] == "0" {
						keep = append(keep, p)
					}
				}
				c.Pods = keep
			},
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			check: func(t *testing.T, e *Explanation) {
				if e.Pods.Total != 2 || e.Pods.Expected != 4 || len(e.Pods.Waiting) != 1 || e.Pods.Waiting[0].Pods != 2 {
					t.Errorf("pods %+v, want 2 of 4 waiting", e.Pods)
				}
			},
		},
		"held suspended for its queue's start window": {
			edit: func(c *Cluster) {
				c.Workloads = c.Workloads[:1]
				var keep []*corev1.Pod
				for _, p := range c.Pods {
					if p.Spec.NodeName != "" {
						keep = append(keep, p)
					}
				}
				c.Pods = keep
				c.JobSets[1].Annotations = map[string]string{wellknown.QueueNameLabel: "lq"}
				c.JobSets[1].Spec.Suspend = ptr.To(true)
			},
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			check: func(t *testing.T, e *Explanation) {
				if e.State != StateSuspended || e.Reason != "Queued" || !strings.Contains(e.Message, "queuedStartDepth") {
					t.Errorf("state %s %s %q, want Suspended, Queued, saying the window holds it", e.State, e.Reason, e.Message)
				}
				if q := e.Queue; q == nil || q.LocalQueue != "ns/lq" || q.ClusterQueue != "cluster-queue" {
					t.Errorf("queue %+v, want the LocalQueue it names and its ClusterQueue", q)
				}
			},
		},
		"suspended by hand after the scheduler started it": {
			edit: func(c *Cluster) {
				c.Workloads = c.Workloads[:1]
				c.JobSets[1].Annotations = map[string]string{wellknown.QueueNameLabel: "lq", wellknown.UnsuspendedAnnotation: "2025-01-01T00:00:00Z"}
				c.JobSets[1].Spec.Suspend = ptr.To(true)
			},
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			check: func(t *testing.T, e *Explanation) {
				if e.State != StateSuspended || e.Reason != "Suspended" {
					t.Errorf("state %s %s, want Suspended for good", e.State, e.Reason)
				}
			},
		},
		"evicted by a higher priority": {
			edit: func(c *Cluster) {
				c.Workloads[1] = builders.Workload(KindJobSet, "ns", "next", "lq").Waiting("QuotaExceeded", "insufficient quota").
					Condition(multislicev1alpha1.WorkloadEvicted, metav1.ConditionTrue, "Preempted", "Preempted by JobSet ns/train (priority 1000)").Obj()
				c.Events = append(c.Events, builders.Event(KindJobSet, "ns", "next", "next-uid", corev1.EventTypeWarning, "Preempted",
					"evicted whole by JobSet ns/train (priority 1000)", builders.Epoch.Add(3*time.Minute)))
			},
			ref: WorkloadRef{KindJobSet, "ns", "next"},
			check: func(t *testing.T, e *Explanation) {
				if e.Evicted != "Preempted: Preempted by JobSet ns/train (priority 1000)" {
					t.Errorf("Evicted %q", e.Evicted)
				}
				if ev := e.Preemption.Evictions; len(ev) != 1 || ev[0].Reason != "Preempted" || ev[0].Type != corev1.EventTypeWarning {
					t.Errorf("evictions %+v, want the Preempted warning", ev)
				}
			},
		},
	}
	ignore := cmpopts.IgnoreFields(whyView{}, "Slices", "Domains", "Queue")
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := whyCluster()
			if tc.edit != nil {
				tc.edit(&c)
			}
			e := Why(&c, tc.ref)
			if tc.check != nil {
				tc.check(t, e)
				return
			}
			opts := []cmp.Option{cmpopts.EquateEmpty()}
			if tc.want.Queue == nil && tc.want.Slices == nil {
				opts = append(opts, ignore)
			}
			if diff := cmp.Diff(tc.want, viewOf(e), opts...); diff != "" {
				t.Errorf("Why (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	c := whyCluster()
	c.Jobs = append(c.Jobs, builders.Job("ns", "next-slice-0").Obj(), builders.Job("ns", "batch").Obj())
	c.Jobs[0].Labels = map[string]string{wellknown.JobSetNameLabel: "next"}
	c.Pods = append(c.Pods, builders.Pod("ns", "train").Obj())
	cases := map[string]struct {
		arg      string
		want     WorkloadRef
		note     string
		notFound bool
	}{
		"a JobSet":                   {arg: "jobset/next", want: WorkloadRef{KindJobSet, "ns", "next"}},
		"kubectl's spellings":        {arg: "jobsets.jobset.x-k8s.io/next", want: WorkloadRef{KindJobSet, "ns", "next"}},
		"a pod leads to its JobSet":  {arg: "pod/next-slice-1-0-a0", want: WorkloadRef{KindJobSet, "ns", "next"}, note: "pod ns/next-slice-1-0-a0 is part of JobSet ns/next"},
		"a Job of a JobSet":          {arg: "job/next-slice-0", want: WorkloadRef{KindJobSet, "ns", "next"}, note: "Job ns/next-slice-0 is a slice of JobSet ns/next"},
		"a plain Job":                {arg: "job/batch", want: WorkloadRef{KindJob, "ns", "batch"}},
		"a Workload object":          {arg: "wl/jobset-train", want: WorkloadRef{KindJobSet, "ns", "train"}, note: "Workload ns/jobset-train is the Workload object of JobSet ns/train"},
		"a bare name: JobSet first":  {arg: "train", want: WorkloadRef{KindJobSet, "ns", "train"}},
		"a bare name of a Workload":  {arg: "jobset-next", want: WorkloadRef{KindJobSet, "ns", "next"}, note: "Workload ns/jobset-next is the Workload object of JobSet ns/next"},
		"nothing of that name":       {arg: "nope", notFound: true},
		"no JobSet of that name":     {arg: "jobset/batch", notFound: true},
		"a JobSet gone, its pods on": {arg: "jobset/next", want: WorkloadRef{KindJobSet, "ns", "next"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cl := c
			if name == "a JobSet gone, its pods on" {
				cl.JobSets = nil
			}
			kind, n, err := ParseTarget(tc.arg)
			if err != nil {
				t.Fatal(err)
			}
			ref, note, err := Resolve(&cl, "ns", kind, n)
			var nf *NotFoundError
			if tc.notFound {
				if !errors.As(err, &nf) {
					t.Fatalf("Resolve(%s) = %v, %v; want a NotFoundError", tc.arg, ref, err)
				}
				return
			}
			if err != nil || ref != tc.want || note != tc.note {
				t.Errorf("Resolve(%s) = %v, %q, %v; want %v, %q", tc.arg, ref, note, err, tc.want, tc.note)
			}
		})
	}
	for _, bad := range []string{"", "jobset/", "thing/x", "a/b/c"} {
		if _, _, err := ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q) accepted it", bad)
		}
	}
}

// `why` says when the flex-start nodes a workload runs on are recycled
// and end, and what becomes of its pods there.
func TestWhyShowsNodeLifetimes(t *testing.T) {
	class := builders.ComputeClass("flex").FlexStart("ct5lp-hightpu-4t", 3600, 600).Obj()
	flex := func(i int, created time.Time) *builders.NodeBuilder {
		b := builders.Node(fmt.Sprintf("flex-1-node-%d", i)).TPU(builders.V5e, "2x4", 4).
			Label(wellknown.NodePoolLabel, "flex-1").Created(created)
		for k, v := range computeclass.NodeLabels("flex", &class.Spec.Priorities[0], "") {
			b.Label(k, v)
		}
		return b
	}
	train := unit.JobSet("train").ReplicatedJob("slice", 1, 2).Obj()
	c := Cluster{
		Now: builders.Epoch.Add(55 * time.Minute),
		// Node 0 is recycled (cordoned once its replacement, node 2, was
		// Ready); node 1, created later, is not recycled yet.
		Nodes: []*corev1.Node{flex(0, builders.Epoch).Unschedulable().Obj(), flex(1, builders.Epoch.Add(10*time.Minute)).Obj(),
			flex(2, builders.Epoch.Add(54*time.Minute)).Obj()},
		Pods:                 builders.MembersOn(train, "flex-1-node-0", "flex-1-node-1"),
		JobSets:              []*jobsetv1alpha2.JobSet{train},
		ComputeClasses:       []*cloudv1.ComputeClass{class},
		ComputeClassesServed: true,
	}
	e := Why(&c, WorkloadRef{KindJobSet, "ns", "train"})
	at := func(m time.Duration) time.Time { return builders.Epoch.Add(m * time.Minute) }
	want := []PodsNodeLifetime{
		{NodeLifetime: NodeLifetime{Node: "flex-1-node-0", Phase: computeclass.Recycling, Recycles: at(50), Ends: at(60), Cordoned: true}, Pool: "flex-1", Pods: 1},
		{NodeLifetime: NodeLifetime{Node: "flex-1-node-1", Phase: computeclass.Running, Recycles: at(60), Ends: at(70)}, Pool: "flex-1", Pods: 1},
	}
	if diff := cmp.Diff(want, e.Lifetimes); diff != "" {
		t.Errorf("lifetimes (-want +got):\n%s", diff)
	}
	var b bytes.Buffer
	if err := PrintWhy(&b, e, c.Now, false); err != nil {
		t.Fatal(err)
	}
	section := lines(
		"Node lifetimes (flex-start nodes its pods run on):",
		"  NODE            POOL     PODS   PHASE       RECYCLES                        ENDS                            NOTE",
		"  flex-1-node-0   flex-1   1      Recycling   2025-01-01T00:50:00Z (5m ago)   2025-01-01T01:00:00Z (in 5m)    recycled: its replacement is Ready; the scheduler moves its pods off it (Migrating events)",
		"  flex-1-node-1   flex-1   1      Running     2025-01-01T01:00:00Z (in 5m)    2025-01-01T01:10:00Z (in 15m)   its pods move to its replacement when it is recycled",
	)
	if got := trimLines(b.String()); !strings.Contains(got, section) {
		t.Errorf("why prints\n%s\nwithout\n%s", got, section)
	}
}
