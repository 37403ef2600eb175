package computeclass

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

var epoch = time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)

// seed001 is seed 001's class: spot g2-standard-24, then flex-start
// g2-standard-24 for 20 hours, recycled an hour before the end.
func seed001() *cloudv1.ComputeClass {
	return builders.ComputeClass("dws-model-inference-class").Spot("g2-standard-24").FlexStart("g2-standard-24", 72000, 3600).Obj()
}

// gkeNode is a node GKE created for class on machineType, of capacity c,
// at created.
func gkeNode(class, machineType string, c Capacity, created time.Time) *builders.NodeBuilder {
	b := builders.Node("n").Created(created).Label(wellknown.ComputeClassLabel, class).
		Label(corev1.LabelInstanceTypeStable, machineType).Label(wellknown.MachineFamilyLabel, MachineFamily(machineType)).
		Capacity(corev1.ResourceCPU, "24")
	switch c {
	case Spot:
		b.Label(wellknown.SpotLabel, "true")
	case FlexStart:
		b.Label(wellknown.FlexStartLabel, "true")
	}
	return b
}

func TestCapacityAndDurations(t *testing.T) {
	for name, tc := range map[string]struct {
		p        cloudv1.Priority
		capacity Capacity
		run      time.Duration
		lead     time.Duration
		recycles bool
	}{
		"on-demand":                     {p: cloudv1.Priority{MachineType: "n4-standard-8"}, capacity: OnDemand},
		"spot: false is on-demand":      {p: cloudv1.Priority{Spot: ptr.To(false)}, capacity: OnDemand},
		"spot":                          {p: cloudv1.Priority{Spot: ptr.To(true)}, capacity: Spot},
		"spot with a run time":          {p: cloudv1.Priority{Spot: ptr.To(true), MaxRunDurationSeconds: ptr.To[int64](360)}, capacity: Spot, run: 6 * time.Minute},
		"flex-start: 7 days by default": {p: cloudv1.Priority{FlexStart: &cloudv1.FlexStart{Enabled: true}}, capacity: FlexStart, run: 7 * 24 * time.Hour},
		"flex-start disabled":           {p: cloudv1.Priority{FlexStart: &cloudv1.FlexStart{}}, capacity: OnDemand},
		"seed 001's flex-start":         {p: seed001().Spec.Priorities[1], capacity: FlexStart, run: 20 * time.Hour, lead: time.Hour, recycles: true},
		"recycling without a lead time": {p: cloudv1.Priority{FlexStart: &cloudv1.FlexStart{Enabled: true, NodeRecycling: &cloudv1.NodeRecycling{}}}, capacity: FlexStart, run: 7 * 24 * time.Hour},
		"a run time of centuries":       {p: cloudv1.Priority{MaxRunDurationSeconds: ptr.To[int64](1 << 62)}, capacity: OnDemand, run: maxDuration},
	} {
		t.Run(name, func(t *testing.T) {
			if got := PriorityCapacity(&tc.p); got != tc.capacity {
				t.Errorf("PriorityCapacity = %s, want %s", got, tc.capacity)
			}
			if got := MaxRunDuration(&tc.p); got != tc.run {
				t.Errorf("MaxRunDuration = %s, want %s", got, tc.run)
			}
			lead, ok := LeadTime(&tc.p)
			if lead != tc.lead || ok != tc.recycles {
				t.Errorf("LeadTime = %s, %v; want %s, %v", lead, ok, tc.lead, tc.recycles)
			}
		})
	}
}

func TestNodeLabelsMatchTheirPriority(t *testing.T) {
	class := builders.ComputeClass("mixed").
		Priority(cloudv1.Priority{MachineFamily: "g2", GPU: &cloudv1.GPU{Type: "nvidia-l4", Count: 2}, Spot: ptr.To(true)}).
		Priority(cloudv1.Priority{TPU: &cloudv1.TPU{Type: "tpu-v5-lite-podslice", Count: 4, Topology: "2x4"}, FlexStart: &cloudv1.FlexStart{Enabled: true}}).
		FlexStart("g2-standard-24", 600, 60).
		OnDemand("g2-standard-24").Obj()
	for _, tc := range []struct {
		priority    int
		machineType string
		want        map[string]string
	}{
		{0, "g2-standard-24", map[string]string{
			wellknown.ComputeClassLabel: "mixed", wellknown.SpotLabel: "true", corev1.LabelInstanceTypeStable: "g2-standard-24",
			wellknown.MachineFamilyLabel: "g2", wellknown.GPUAcceleratorLabel: "nvidia-l4"}},
		{1, "ct5lp-hightpu-4t", map[string]string{
			wellknown.ComputeClassLabel: "mixed", wellknown.FlexStartLabel: "true", corev1.LabelInstanceTypeStable: "ct5lp-hightpu-4t",
			wellknown.MachineFamilyLabel: "ct5lp", wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice", wellknown.TPUTopologyLabel: "2x4"}},
		{2, "", map[string]string{
			wellknown.ComputeClassLabel: "mixed", wellknown.FlexStartLabel: "true", corev1.LabelInstanceTypeStable: "g2-standard-24",
			wellknown.MachineFamilyLabel: "g2"}},
		{3, "", map[string]string{
			wellknown.ComputeClassLabel: "mixed", corev1.LabelInstanceTypeStable: "g2-standard-24", wellknown.MachineFamilyLabel: "g2"}},
	} {
		labels := NodeLabels(class.Name, &class.Spec.Priorities[tc.priority], tc.machineType)
		if diff := cmp.Diff(tc.want, labels); diff != "" {
			t.Errorf("priority %d labels (-want +got):\n%s", tc.priority, diff)
		}
		node := builders.Node("n").Capacity(corev1.ResourceCPU, "24").Obj()
		for k, v := range labels {
			node.Labels[k] = v
		}
		if got := MatchPriority(class, node); got != tc.priority {
			t.Errorf("a node of priority %d matches priority %d", tc.priority, got)
		}
	}
}

func TestMatchPriority(t *testing.T) {
	class := seed001()
	for name, tc := range map[string]struct {
		class *cloudv1.ComputeClass
		node  *corev1.Node
		want  int
	}{
		"spot node":                    {class, gkeNode(class.Name, "g2-standard-24", Spot, epoch).Obj(), 0},
		"flex-start node":              {class, gkeNode(class.Name, "g2-standard-24", FlexStart, epoch).Obj(), 1},
		"on-demand node: no priority":  {class, gkeNode(class.Name, "g2-standard-24", OnDemand, epoch).Obj(), -1},
		"other machine type":           {class, gkeNode(class.Name, "g2-standard-48", Spot, epoch).Obj(), -1},
		"other class":                  {class, gkeNode("other", "g2-standard-24", Spot, epoch).Obj(), -1},
		"no class label":               {class, builders.Node("n").Label(wellknown.SpotLabel, "true").Obj(), -1},
		"class gone":                   {nil, gkeNode(class.Name, "g2-standard-24", Spot, epoch).Obj(), -1},
		"family by machine type":       {builders.ComputeClass("c").Priority(cloudv1.Priority{MachineFamily: "g2"}).Obj(), gkeNode("c", "g2-standard-8", OnDemand, epoch).Label(wellknown.MachineFamilyLabel, "").Obj(), 0},
		"too few cores":                {builders.ComputeClass("c").Priority(cloudv1.Priority{MinCores: ptr.To[int32](32)}).Obj(), gkeNode("c", "g2-standard-24", OnDemand, epoch).Obj(), -1},
		"enough cores":                 {builders.ComputeClass("c").Priority(cloudv1.Priority{MinCores: ptr.To[int32](24)}).Obj(), gkeNode("c", "g2-standard-24", OnDemand, epoch).Obj(), 0},
		"GPU of another type":          {builders.ComputeClass("c").Priority(cloudv1.Priority{GPU: &cloudv1.GPU{Type: "nvidia-h100-80gb", Count: 8}}).Obj(), gkeNode("c", "g2-standard-24", OnDemand, epoch).Label(wellknown.GPUAcceleratorLabel, "nvidia-l4").Obj(), -1},
		"first of two that match wins": {builders.ComputeClass("c").FlexStart("g2-standard-24", 600, -1).FlexStart("g2-standard-24", 900, 60).Obj(), gkeNode("c", "g2-standard-24", FlexStart, epoch).Obj(), 0},
	} {
		t.Run(name, func(t *testing.T) {
			if got := MatchPriority(tc.class, tc.node); got != tc.want {
				t.Errorf("MatchPriority = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestNodeRunWindow(t *testing.T) {
	class := seed001()
	short := builders.ComputeClass("short").FlexStart("g2-standard-24", 180, 90).Obj()
	for name, tc := range map[string]struct {
		class    *cloudv1.ComputeClass
		node     *corev1.Node
		want     RunWindow
		priority int
	}{
		"seed 001's flex-start node: 20h, recycled from 19h": {class, gkeNode(class.Name, "g2-standard-24", FlexStart, epoch).Obj(),
			RunWindow{Created: epoch, End: epoch.Add(20 * time.Hour), RecycleAt: epoch.Add(19 * time.Hour)}, 1},
		"seed 001's spot node: no end": {class, gkeNode(class.Name, "g2-standard-24", Spot, epoch).Obj(), RunWindow{Created: epoch}, 0},
		"the demo's short class":       {short, gkeNode("short", "g2-standard-24", FlexStart, epoch).Obj(), RunWindow{Created: epoch, End: epoch.Add(3 * time.Minute), RecycleAt: epoch.Add(90 * time.Second)}, 0},
		"flex-start without recycling": {builders.ComputeClass("c").FlexStart("g2-standard-24", 0, -1).Obj(), gkeNode("c", "g2-standard-24", FlexStart, epoch).Obj(),
			RunWindow{Created: epoch, End: epoch.Add(7 * 24 * time.Hour)}, 0},
		"lead time of the whole run: recycled at once": {builders.ComputeClass("c").FlexStart("g2-standard-24", 60, 600).Obj(), gkeNode("c", "g2-standard-24", FlexStart, epoch).Obj(),
			RunWindow{Created: epoch, End: epoch.Add(time.Minute), RecycleAt: epoch}, 0},
		"flex-start node of no priority: 7 days": {class, gkeNode(class.Name, "a2-highgpu-1g", FlexStart, epoch).Obj(), RunWindow{Created: epoch, End: epoch.Add(7 * 24 * time.Hour)}, -1},
		"flex-start node of a deleted class":     {nil, gkeNode(class.Name, "g2-standard-24", FlexStart, epoch).Obj(), RunWindow{Created: epoch, End: epoch.Add(7 * 24 * time.Hour)}, -1},
		"plain node":                             {class, builders.Node("n").Created(epoch).Obj(), RunWindow{Created: epoch}, -1},
	} {
		t.Run(name, func(t *testing.T) {
			got, i := NodeRunWindow(tc.class, tc.node)
			if diff := cmp.Diff(tc.want, got); diff != "" || i != tc.priority {
				t.Errorf("NodeRunWindow = priority %d (want %d), run window (-want +got):\n%s", i, tc.priority, diff)
			}
		})
	}
}

func TestRunWindowPhases(t *testing.T) {
	l := PriorityRunWindow(&seed001().Spec.Priorities[1], epoch)
	for _, tc := range []struct {
		at    time.Duration
		phase Phase
		next  time.Time
	}{
		{0, Running, epoch.Add(19 * time.Hour)},
		{19*time.Hour - time.Second, Running, epoch.Add(19 * time.Hour)},
		{19 * time.Hour, Recycling, epoch.Add(20 * time.Hour)},
		{20*time.Hour - time.Second, Recycling, epoch.Add(20 * time.Hour)},
		{20 * time.Hour, Ended, time.Time{}},
		{30 * time.Hour, Ended, time.Time{}},
	} {
		now := epoch.Add(tc.at)
		if got := l.PhaseAt(now); got != tc.phase || !l.Next(now).Equal(tc.next) {
			t.Errorf("at +%s: phase %s, next %s; want %s, %s", tc.at, got, l.Next(now), tc.phase, tc.next)
		}
	}
	if want := epoch.Add(20 * time.Hour); !l.End.Equal(want) {
		t.Errorf("end %s, want %s", l.End, want)
	}
	spot := PriorityRunWindow(&seed001().Spec.Priorities[0], epoch)
	if !spot.End.IsZero() || spot.PhaseAt(epoch.Add(1000*time.Hour)) != Running || !spot.Next(epoch).IsZero() {
		t.Errorf("a spot node's lifetime %+v ends", spot)
	}
}
