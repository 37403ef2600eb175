package autoprovision

import (
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// noSpot is fileBlock with no spot capacity left.
func noSpot(block string) string {
	return strings.Replace(block, "{machineType: g2-standard-24, zone: us-central1-a, maxNodes: 4}", "{machineType: g2-standard-24, zone: us-central1-a, maxNodes: 0}", 1)
}

// twoSlices creates the Jobs of a 2-slice JobSet exclusive per node pool,
// each of 2 pods of 2 GPUs, and their leader pods, as JobSet's webhook
// creates them: the followers come once the leader is bound.
func (h *harness) twoSlices(prefix string) {
	for _, s := range []string{"0", "1"} {
		h.pod(prefix+"-slice-"+s+"-0", h.job(prefix+"-slice-"+s, 2), true)
	}
}

// Seed 001's class with spot capacity: each slice gets a node pool of 2
// spot nodes, all at once after the spot delay, labelled as GKE labels
// them.
func TestSpotFirst(t *testing.T) {
	h := startHarness(t, testConfig(t, nil), []*cloudv1.ComputeClass{seedClass(72000, 3600)})
	h.twoSlices("js")
	h.eventually("the scale-up decided", func() bool {
		return h.logged("default/js-slice-1: ComputeClass "+class+" priority 0 (spot g2-standard-24): node pool nap-g2-standard-24-spot-", "2 spot nodes queued in us-central1-a")
	})
	h.consistently("no node before the spot delay", func() bool { return len(h.nodes()) == 0 })
	h.clock.Step(5 * time.Second)
	names := h.waitNodes(4)
	pools := map[string]int{}
	for _, n := range h.nodes() {
		pools[n.Labels[wellknown.NodePoolLabel]]++
		gpus := n.Status.Allocatable[wellknown.ResourceGPU]
		for key, want := range map[string]string{
			wellknown.ComputeClassLabel: class, wellknown.SpotLabel: "true", corev1.LabelInstanceTypeStable: "g2-standard-24",
			wellknown.MachineFamilyLabel: "g2", wellknown.ZoneLabel: "us-central1-a", corev1.LabelTopologyRegion: "us-central1",
			wellknown.GPUAcceleratorLabel: "nvidia-l4", corev1.LabelHostname: n.Name,
		} {
			if n.Labels[key] != want {
				t.Errorf("%s: label %s = %q, want %q", n.Name, key, n.Labels[key], want)
			}
		}
		if _, flex := n.Labels[wellknown.FlexStartLabel]; flex || gpus.Value() != 2 || len(n.Spec.Taints) != 1 || n.Spec.Taints[0].Key != "nvidia.com/gpu" ||
			n.Annotations["kwok.x-k8s.io/node"] != "fake" || n.Annotations[PriorityAnnotation] != "0" || !strings.HasPrefix(n.Annotations[GroupAnnotation], "job/default/js-slice-") {
			t.Errorf("%s: %+v", n.Name, n)
		}
		cc := seedClass(72000, 3600)
		if i := computeclass.MatchPriority(cc, &n); i != 0 {
			t.Errorf("%s matches priority %d of the class, want 0", n.Name, i)
		}
	}
	if len(pools) != 2 {
		t.Errorf("pools %v of nodes %v, want 2 of 2 nodes", pools, names)
	}
	h.expectEvents("Pod", "js-slice-0-0", []string{EventTriggeredScaleUp})
	h.expectEvents("Node", names[0], []string{EventCreated})
}

// Without spot capacity the class falls back to flex-start, whose nodes
// come one by one: one per interval per machine type and zone, the first
// the delay after they were queued.
func TestFlexStartOneByOne(t *testing.T) {
	h := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{seedClass(72000, 3600)})
	h.twoSlices("js")
	h.eventually("the scale-up decided", func() bool {
		return h.logged("default/js-slice-1: ComputeClass "+class+" priority 1 (flex-start g2-standard-24): node pool nap-g2-standard-24-flex-", "2 flex-start nodes queued in us-central1-a")
	})
	h.eventually("TriggeredScaleUp on the leader", func() bool {
		return strings.Contains(h.events.message("Pod", "js-slice-0-0", EventTriggeredScaleUp), "priority 1 (flex-start")
	})
	h.clock.Step(9 * time.Second)
	h.consistently("no node before the delay", func() bool { return len(h.nodes()) == 0 })
	for i := 1; i <= 4; i++ {
		if i == 1 {
			h.clock.Step(time.Second)
		} else {
			h.clock.Step(5 * time.Second)
		}
		h.waitNodes(i)
		h.consistently("one node per interval", func() bool { return len(h.nodes()) == i })
	}
	for _, n := range h.nodes() {
		if n.Labels[wellknown.FlexStartLabel] != "true" || n.Labels[wellknown.SpotLabel] != "" || n.Annotations[PriorityAnnotation] != "1" {
			t.Errorf("%s labels %v", n.Name, n.Labels)
		}
		lt, i := computeclass.NodeRunWindow(seedClass(72000, 3600), &n)
		if i != 1 || !lt.End.Equal(n.CreationTimestamp.Add(20*time.Hour)) || !lt.RecycleAt.Equal(n.CreationTimestamp.Add(19*time.Hour)) {
			t.Errorf("%s lifetime %+v (priority %d)", n.Name, lt, i)
		}
	}
	// Days away by default: the end has its date.
	h.expectLogged("created flex-start node", "ends at 2025-06-02 04:00:10, recycled from 2025-06-02 03:00:10")
}

// A flex-start node with node recycling: at creation + maxRunDuration −
// leadTime a replacement is queued in its node pool; once it is Ready the
// old node is cordoned, its pods running on, then removed after the
// drain time; a restarted Job takes the pool, now of replacements.
func TestRecycling(t *testing.T) {
	h := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{seedClass(180, 90)})
	job := h.job("js-slice-0", 2)
	h.pod("js-slice-0-0", job, true)
	h.eventually("queued", func() bool { return h.logged("2 flex-start nodes queued") })
	h.clock.Step(10 * time.Second) // 08:00:10
	h.waitNodes(1)
	h.clock.Step(5 * time.Second) // 08:00:15
	old := h.waitNodes(2)
	pool := h.node(old[0]).Labels[wellknown.NodePoolLabel]
	h.ready(old...)
	h.bind("js-slice-0-0", old[0])
	h.pod("js-slice-0-1", job, true, func(b *builders.PodBuilder) { b.NodeSelector(wellknown.NodePoolLabel, pool) })
	h.bind("js-slice-0-1", old[1])

	// 08:01:40: the first node's recycling starts.
	h.clock.Step(85 * time.Second)
	h.eventually("recycling of "+old[0], func() bool { return h.logged("recycling "+old[0], "a replacement is queued") })
	h.clock.Step(5 * time.Second) // 08:01:45: the second's
	h.eventually("recycling of "+old[1], func() bool { return h.logged("recycling " + old[1]) })
	h.clock.Step(5 * time.Second) // 08:01:50: the first replacement, 10s after it was queued
	all := h.waitNodes(3)
	repl0 := all[2]
	if n := h.node(repl0); n.Labels[wellknown.NodePoolLabel] != pool || n.Annotations[ReplacesAnnotation] != old[0] || n.Labels[wellknown.FlexStartLabel] != "true" {
		t.Fatalf("replacement %s: labels %v annotations %v", repl0, n.Labels, n.Annotations)
	}
	h.consistently("not cordoned before its replacement is Ready", func() bool { return !h.node(old[0]).Spec.Unschedulable })
	h.ready(repl0)
	h.eventually(old[0]+" cordoned", func() bool { return h.logged("cordoned " + old[0]) })
	if h.node(old[0]).Annotations[CordonedAnnotation] != "2025-06-01T08:01:50Z" {
		t.Errorf("%s annotations %v", old[0], h.node(old[0]).Annotations)
	}
	h.clock.Step(5 * time.Second) // 08:01:55: the second replacement
	all = h.waitNodes(4)
	repl1 := all[3]
	h.ready(repl1)
	h.eventually(old[1]+" cordoned", func() bool {
		return h.logged("cordoned "+old[1], "its replacement "+repl1+" is Ready; its pods keep running until it is removed at 08:02:25")
	})
	if !h.node(old[1]).Spec.Unschedulable {
		t.Errorf("%s is schedulable", old[1])
	}

	// 08:02:20: the first old node drained.
	h.clock.Step(25 * time.Second)
	h.eventually(old[0]+" removed", func() bool { return !slices.Contains(h.names(""), old[0]) })
	h.expectLogged("removed "+old[0], "drained 30s after its replacement was Ready")
	h.expectEvents("Node", old[0], []string{EventCreated, EventRecycling, EventCordoned, EventRemoved})
	// The pod on it is gone with it; the JobSet restarts its Jobs.
	h.deletePod("js-slice-0-0")
	h.deletePod("js-slice-0-1")
	job2 := h.job("js-slice-0-again", 2)
	h.pod("js-slice-0-again-0", job2, true)
	h.eventually("the restarted Job takes the pool", func() bool { return h.logged("default/js-slice-0-again: takes node pool " + pool) })
	h.clock.Step(5 * time.Second) // 08:02:25
	h.eventually(old[1]+" removed", func() bool { return slices.Equal(h.names(""), []string{repl0, repl1}) })
	h.consistently("no more nodes", func() bool { return len(h.nodes()) == 2 })
}

// With a drain longer than the rest of its life, a recycled node goes at
// its end of life.
func TestEndOfLifeBeforeDrain(t *testing.T) {
	cfg := testConfig(t, noSpot)
	cfg.DrainTime = time.Hour
	h := startHarness(t, cfg, []*cloudv1.ComputeClass{seedClass(180, 90)})
	h.pod("alone", nil, true)
	h.eventually("queued", func() bool { return h.logged("1 flex-start node queued") })
	h.clock.Step(10 * time.Second) // 08:00:10
	old := h.waitNodes(1)
	h.ready(old...)
	h.bind("alone", old[0])
	h.clock.Step(90 * time.Second) // 08:01:40: recycling starts
	h.eventually("recycling", func() bool { return h.logged("recycling " + old[0]) })
	h.clock.Step(10 * time.Second) // 08:01:50: its replacement
	repl := h.waitNodes(2)[1]
	h.ready(repl)
	h.eventually("cordoned", func() bool { return h.logged("cordoned "+old[0], "until it is removed at 08:03:10") })
	h.clock.Step(80 * time.Second) // 08:03:10: its end of life
	h.eventually(old[0]+" removed", func() bool { return slices.Equal(h.names(""), []string{repl}) })
	h.expectLogged("removed "+old[0], "its end of life (08:03:10, maxRunDurationSeconds after its creation) has come")
}

// Lowering the spot capacity preempts the newest spot nodes beyond it;
// the restarted slices fall back to flex-start, and the spot node left
// over, too small a pool for a slice, is scaled down.
func TestSpotRevocationFallsBack(t *testing.T) {
	h := startHarness(t, testConfig(t, nil), []*cloudv1.ComputeClass{seedClass(72000, 3600)})
	h.twoSlices("js")
	h.eventually("queued", func() bool { return h.logged("default/js-slice-1: ComputeClass") })
	h.clock.Step(5 * time.Second)
	spot := h.waitNodes(4)
	h.ready(spot...)
	h.bind("js-slice-0-0", spot[0])
	h.bind("js-slice-1-0", spot[2])

	h.clock.Step(time.Second)
	h.ctrl.SetConfig(testConfig(t, func(b string) string {
		return strings.Replace(b, "zone: us-central1-a, maxNodes: 4}", "zone: us-central1-a, maxNodes: 1}", 1)
	}))
	h.eventually("3 spot nodes preempted", func() bool { return len(h.nodes()) == 1 })
	h.expectLogged("spot capacity of g2-standard-24 in us-central1-a is down to 1: preempted 3 spot nodes")
	left := h.names("")[0]
	for _, n := range spot {
		if n != left {
			h.expectEvents("Node", n, []string{EventCreated, EventPreempted + "!"})
		}
	}

	// The slices' pods fail with their nodes; JobSet restarts both.
	h.deletePod("js-slice-0-0")
	h.deletePod("js-slice-1-0")
	h.twoSlices("js2")
	h.eventually("both fall back to flex-start", func() bool {
		return h.logged("default/js2-slice-0: ComputeClass "+class+" priority 1 (flex-start") && h.logged("default/js2-slice-1: ComputeClass "+class+" priority 1 (flex-start")
	})
	h.clock.Step(10 * time.Second)
	h.eventually("the first flex-start node", func() bool { return len(h.nodes()) == 2 })
	h.clock.Step(50 * time.Second) // a minute after the spot node was last used
	h.eventually("the spot node scaled down", func() bool { return !slices.Contains(h.names(""), left) })
	h.expectLogged("removed "+left, "no pod used it for 1m0s")
}

// Nodes queued for a group that goes away are no longer queued; nodes
// nobody uses are removed after the scale-down unneeded time.
func TestScaleDownAndCancel(t *testing.T) {
	h := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{seedClass(72000, 3600)})
	h.pod("big", h.job("big", 4), true)
	h.eventually("queued", func() bool { return h.logged("4 flex-start nodes queued") })
	h.clock.Step(10 * time.Second)
	h.waitNodes(1)
	h.deletePod("big")
	h.eventually("the rest no longer queued", func() bool { return h.logged("3 nodes no longer queued: no pod waits for them") })
	h.clock.Step(59 * time.Second)
	h.consistently("kept for the unneeded time", func() bool { return len(h.nodes()) == 1 })
	h.clock.Step(time.Second)
	h.waitNodes(0)
	h.expectLogged("no pod used it for 1m0s")
}

// What keeps a group waiting is said once, in the log and as
// NotTriggerScaleUp on its pod.
func TestWaits(t *testing.T) {
	tooBig := builders.ComputeClass("too-big").FlexStart("g2-standard-24", 0, -1).Obj()
	invalid := builders.ComputeClass("invalid").FlexStart("g2-standard-24", 60, 120).Obj()
	manual := builders.ComputeClass("manual").Spot("g2-standard-24").NoAutoCreation().Obj()
	h := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{tooBig, invalid, manual})
	select_ := func(c string) func(*builders.PodBuilder) {
		return func(b *builders.PodBuilder) { b.NodeSelector(wellknown.ComputeClassLabel, c) }
	}
	h.pod("no-class", nil, true, select_("missing"))
	h.pod("invalid", nil, true, select_("invalid"))
	h.pod("manual", nil, true, select_("manual"))
	h.pod("too-big", h.job("too-big", 9), true, select_("too-big"))
	for pod, want := range map[string]string{
		"no-class": "ComputeClass missing does not exist",
		"invalid":  "ComputeClass invalid is invalid: spec.priorities[0].flexStart.nodeRecycling.leadTimeSeconds: must be less than maxRunDurationSeconds (60), got 120",
		"manual":   "ComputeClass manual does not enable nodePoolAutoCreation",
		"too-big": "no priority of ComputeClass too-big can be provisioned: priority 0 (flex-start g2-standard-24): no zone ever holds 9 nodes of flex-start g2-standard-24 " +
			"(us-central1-a has 8 of 8 free, us-central1-b has 2 of 2 free)",
	} {
		h.eventually(pod+" told", func() bool {
			return strings.Contains(h.events.message("Pod", pod, EventNotTriggerScaleUp), want) && h.logged(" waits: "+want)
		})
	}
	h.consistently("nothing created", func() bool { return len(h.nodes()) == 0 })
}

// Pods of Jobs that are not exclusive share a pool of their class: 3 pods
// of 1 GPU take 2 nodes of 2 GPUs, and a fourth pod the room left.
func TestSharedPool(t *testing.T) {
	h := startHarness(t, testConfig(t, nil), []*cloudv1.ComputeClass{seedClass(72000, 3600)})
	job := h.job("batch", 3)
	oneGPU := func(b *builders.PodBuilder) { b.Request(wellknown.ResourceGPU, "1") }
	for _, name := range []string{"batch-0", "batch-1", "batch-2"} {
		h.pod(name, job, false, oneGPU)
	}
	// The pods may be seen a pass at a time: then a node is queued for
	// the first two pods, another for the third.
	h.eventually("2 nodes queued", func() bool { return h.queuedNodes("default/batch:") == 2 })
	h.clock.Step(5 * time.Second)
	names := h.waitNodes(2)
	h.pod("extra", nil, false, oneGPU)
	h.clock.Step(5 * time.Second)
	h.consistently("the extra pod fits", func() bool { return len(h.nodes()) == 2 })
	if h.node(names[0]).Annotations[GroupAnnotation] != "" || h.node(names[0]).Labels[wellknown.NodePoolLabel] != h.node(names[1]).Labels[wellknown.NodePoolLabel] {
		t.Errorf("nodes %v are not of one shared pool", names)
	}
}

// A restarted auto-provisioning takes its node pools back from their
// nodes: a group pinned to one is served there, with nodes numbered on.
func TestTakesPoolsBack(t *testing.T) {
	h1 := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{seedClass(72000, 3600)})
	h1.pod("js-slice-0-0", h1.job("js-slice-0", 2), true)
	h1.eventually("queued", func() bool { return h1.logged("2 flex-start nodes queued") })
	h1.clock.Step(10 * time.Second)
	first := h1.node(h1.waitNodes(1)[0])
	pool := first.Labels[wellknown.NodePoolLabel]

	first.ResourceVersion = ""
	h := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{seedClass(72000, 3600)}, first)
	job := h.job("js-slice-0", 2)
	h.pod("js-slice-0-1", job, true, func(b *builders.PodBuilder) { b.NodeSelector(wellknown.NodePoolLabel, pool) })
	h.eventually("topped up", func() bool { return h.logged("node pool " + pool + " is 1 node short: 1 flex-start node queued") })
	h.clock.Step(10 * time.Second)
	names := h.waitNodes(2)
	if names[1] != pool+"-1" {
		t.Errorf("nodes %v, want %s-1 next", names, pool)
	}
}

// Until the pod garbage collector deletes the pods of a removed node,
// their workload is still on its node pool: the pool's other nodes are
// not scaled down meanwhile, so that the workload restarts onto them.
func TestPodsOfARemovedNodeHoldThePool(t *testing.T) {
	h := startHarness(t, testConfig(t, noSpot), []*cloudv1.ComputeClass{seedClass(180, 90)})
	h.pod("alone", nil, true)
	h.eventually("queued", func() bool { return h.logged("1 flex-start node queued") })
	h.clock.Step(10 * time.Second) // 08:00:10
	old := h.waitNodes(1)[0]
	h.ready(old)
	h.bind("alone", old)
	h.clock.Step(90 * time.Second) // 08:01:40: recycling starts
	h.eventually("recycling", func() bool { return h.logged("recycling " + old) })
	h.clock.Step(10 * time.Second) // 08:01:50: its replacement
	repl := h.waitNodes(2)[1]
	h.ready(repl)
	h.eventually("cordoned", func() bool { return h.logged("cordoned " + old) })
	h.clock.Step(30 * time.Second) // 08:02:20: drained, its pod left behind
	h.eventually(old+" removed", func() bool { return slices.Equal(h.names(""), []string{repl}) })
	h.clock.Step(2 * time.Minute)
	h.consistently("the replacement kept while the pod is there", func() bool { return len(h.nodes()) == 1 })
	h.deletePod("alone")
	h.eventually("the pod gone", func() bool { return h.ctrl.pods.List() != nil && len(h.ctrl.pods.List()) == 0 })
	h.clock.Step(time.Second)
	h.clock.Step(time.Minute)
	h.waitNodes(0)
}
