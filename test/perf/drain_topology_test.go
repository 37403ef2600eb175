package perf

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Drains of topology gangs (the TopologyQueue scenario): workloads whose
// pods ask, with Kueue's annotations, for a topology of nested levels share
// nodes with other gangs, so the pool checks of the other drains do not
// apply. Once such a workload is wholly bound the drain checks what its
// pods asked: all in one domain of the required level, each slice in one
// domain of the slice level (a preferred level is a preference, and is not
// checked). The drain also times each workload to its last pod bound, from
// its JobSet seen created when the harness creates the pods of started
// JobSets (jobsetcontroller_test.go), else from its first pod created, and
// reports the times by class (drainClassLabel) as QueueDrainAdmission data
// items: Average, Max (seconds) and Count.

// asksTopology reports whether pod asks for a topology of nested levels.
func asksTopology(pod *corev1.Pod) bool {
	for _, key := range []string{wellknown.RequiredTopologyAnnotation, wellknown.PreferredTopologyAnnotation,
		wellknown.SliceRequiredTopologyAnnotation, wellknown.UnconstrainedTopologyAnnotation} {
		if _, ok := pod.Annotations[key]; ok {
			return true
		}
	}
	return false
}

// checkTopologyLocked fails the drain unless the pods of wl, wholly bound,
// are where their annotations asked.
func (d *drain) checkTopologyLocked(key string, wl *drainWorkload) {
	if err := topologyKept(wl.pods, d.nodeLabels); err != nil {
		d.failLocked(fmt.Errorf("gang %s: %w", key, err))
	}
}

// topologyKept checks bound pods of one pod set against its annotations:
// every pod in one domain of the required level, and pods index i and j in
// one domain of the slice level when i/size == j/size. Nodes are read from
// labels (a node absent there is a failure).
func topologyKept(pods map[types.UID]boundPod, labels map[string]map[string]string) error {
	domains := map[string]string{} // group → domain value
	check := func(level, group string, p boundPod) error {
		l, ok := labels[p.node]
		if !ok {
			return fmt.Errorf("pod %s is on node %s, which the drain does not know", p.name, p.node)
		}
		v, ok := l[level]
		if !ok {
			return fmt.Errorf("pod %s is on node %s, which has no label %s", p.name, p.node, level)
		}
		if got, seen := domains[group]; seen && got != v {
			return fmt.Errorf("pod %s is in %s=%s, another pod of %s in %s", p.name, level, v, group, got)
		}
		domains[group] = v
		return nil
	}
	// In name order, for a stable message.
	names := make([]types.UID, 0, len(pods))
	for uid := range pods {
		names = append(names, uid)
	}
	slices.SortFunc(names, func(a, b types.UID) int { return strings.Compare(pods[a].name, pods[b].name) })
	for _, uid := range names {
		p := pods[uid]
		if level, ok := p.annotations[wellknown.RequiredTopologyAnnotation]; ok {
			if err := check(level, "the pod set (required)", p); err != nil {
				return err
			}
		}
		if level, ok := p.annotations[wellknown.SliceRequiredTopologyAnnotation]; ok {
			size, err := strconv.Atoi(p.annotations[wellknown.SliceSizeAnnotation])
			if err != nil || size < 1 {
				return fmt.Errorf("pod %s: %s=%q is not a slice size", p.name, wellknown.SliceSizeAnnotation, p.annotations[wellknown.SliceSizeAnnotation])
			}
			if err := check(level, fmt.Sprintf("slice %d", p.index/size), p); err != nil {
				return err
			}
		}
	}
	return nil
}

// classTimes are the times to admission of one class's workloads.
type classTimes struct {
	count    int
	sum, max time.Duration
}

// timeLocked records that wl was admitted at admitted.
func (d *drain) timeLocked(wl *drainWorkload, admitted time.Time) {
	if wl.class == "" {
		return
	}
	c := d.classes[wl.class]
	if c == nil {
		c = &classTimes{}
		d.classes[wl.class] = c
	}
	took := max(admitted.Sub(wl.created), 0)
	c.count++
	c.sum += took
	c.max = max(c.max, took)
}

// classItems are the QueueDrainAdmission data items, a class each, in
// name order.
func (d *drain) classItems(tCtx ktesting.TContext) []perf.DataItem {
	return admissionItems(tCtx.Name()+"/drain", d.classes)
}

func admissionItems(name string, classes map[string]*classTimes) []perf.DataItem {
	var out []perf.DataItem
	for _, class := range slices.Sorted(maps.Keys(classes)) {
		c := classes[class]
		if c.count == 0 {
			continue
		}
		out = append(out, perf.DataItem{
			Labels: map[string]string{"Name": name, "Metric": "QueueDrainAdmission", "Class": class},
			Unit:   "s",
			Data: map[string]float64{
				"Average": (c.sum / time.Duration(c.count)).Seconds(),
				"Max":     c.max.Seconds(),
				"Count":   float64(c.count),
			},
		})
	}
	return out
}

// The drain's check of a topology gang: required all in one domain, each
// slice in one, a preferred level unchecked.
func TestTopologyKept(t *testing.T) {
	const rack = "cloud.provider.com/topology-rack"
	labels := map[string]map[string]string{
		"n0": {rack: "rack-0"}, "n1": {rack: "rack-0"}, "n2": {rack: "rack-1"}, "n3": {rack: "rack-1"}, "bare": {},
	}
	required := map[string]string{wellknown.RequiredTopologyAnnotation: rack}
	preferred := map[string]string{wellknown.PreferredTopologyAnnotation: rack}
	sliced := map[string]string{wellknown.SliceRequiredTopologyAnnotation: rack, wellknown.SliceSizeAnnotation: "2"}
	pods := func(annotations map[string]string, nodes ...string) map[types.UID]boundPod {
		out := map[types.UID]boundPod{}
		for i, n := range nodes {
			out[types.UID(fmt.Sprint(i))] = boundPod{name: fmt.Sprintf("p%d", i), node: n, index: i, annotations: annotations}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		pods map[types.UID]boundPod
		want string // a part of the error; "" for none
	}{
		{name: "required in one rack", pods: pods(required, "n0", "n1")},
		{name: "required over two racks", pods: pods(required, "n0", "n2"), want: "pod p1 is in cloud.provider.com/topology-rack=rack-1, another pod of the pod set (required) in rack-0"},
		{name: "required on a node without the level", pods: pods(required, "n0", "bare"), want: "which has no label"},
		{name: "required on an unknown node", pods: pods(required, "n9"), want: "which the drain does not know"},
		{name: "preferred over two racks", pods: pods(preferred, "n0", "n2")},
		{name: "slices each in one rack", pods: pods(sliced, "n0", "n1", "n2", "n3")},
		{name: "a slice over two racks", pods: pods(sliced, "n0", "n2", "n3", "n3"), want: "another pod of slice 0"},
		{name: "a bad slice size", pods: pods(map[string]string{wellknown.SliceRequiredTopologyAnnotation: rack, wellknown.SliceSizeAnnotation: "x"}, "n0"), want: "is not a slice size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := topologyKept(tc.pods, labels)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// Times to admission are reported by class, their average and maximum in
// seconds.
func TestAdmissionItems(t *testing.T) {
	items := admissionItems("B/TopologyQueue_GangsMultisliceProfile/w/drain", map[string]*classTimes{
		"small-required-rack": {count: 2, sum: 3 * time.Second, max: 2 * time.Second},
		"large-required-rack": {count: 1, sum: 500 * time.Millisecond, max: 500 * time.Millisecond},
		"none":                {},
	})
	var got []string
	for _, it := range items {
		got = append(got, fmt.Sprintf("%s %s %s avg=%g max=%g n=%g", it.Labels["Metric"], it.Labels["Class"], it.Unit,
			it.Data["Average"], it.Data["Max"], it.Data["Count"]))
	}
	want := []string{
		"QueueDrainAdmission large-required-rack s avg=0.5 max=0.5 n=1",
		"QueueDrainAdmission small-required-rack s avg=1.5 max=2 n=2",
	}
	if !slices.Equal(got, want) {
		t.Errorf("items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
