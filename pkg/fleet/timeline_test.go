package fleet

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// holding are the pods of a one-slice JobSet name bound to pool's two
// nodes at minute m.
func holding(name, pool string, m int) []*corev1.Pod {
	js := unit.JobSet(name).ReplicatedJob("slice", 1, 2).Obj()
	pods := builders.MembersOn(js, pool+"-node-0", pool+"-node-1")
	for i := range pods {
		pods[i] = builders.Edit(pods[i]).ScheduledAt(at(m)).Obj()
	}
	return pods
}

// pool are the nodes of v5e pool name, Ready (or not) since minute m.
func pool(name string, ready corev1.ConditionStatus, m int) []*corev1.Node {
	return readyAt(builders.V5ePool(name).Ready(ready).Build(), at(m))
}

func concat[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Between reads, a builder keeps each workload's colour while it holds
// pools or waits, gives freed colours to newcomers, and tells in its timeline the
// changes of pool health, each once.
func TestBuilderRemembers(t *testing.T) {
	cordoned := builders.V5ePool("pool-1").Unschedulable().Build()
	steps := []struct {
		name     string
		cluster  cli.Cluster
		colours  map[string]string
		timeline []string // what was added, newest first
	}{
		{
			name:    "two workloads on two healthy pools",
			cluster: cli.Cluster{Now: at(2), Nodes: concat(pool("pool-1", "True", 0), pool("pool-2", "True", 0)), Pods: concat(holding("a", "pool-1", 1), holding("b", "pool-2", 2))},
			colours: map[string]string{"a": "#4e79a7", "b": "#59a14f"},
		},
		{
			name:     "a leaves, c comes, pool-2 fails: b keeps its colour, c takes a's",
			cluster:  cli.Cluster{Now: at(5), Nodes: concat(pool("pool-1", "True", 0), pool("pool-2", "False", 4)), Pods: concat(holding("c", "pool-1", 3), holding("b", "pool-2", 2))},
			colours:  map[string]string{"b": "#59a14f", "c": "#4e79a7"},
			timeline: []string{"+4m failure Pool failed pool pool-2: held by JobSet ns/b; pool-2-node-0: Ready=False (KubeletNotReady); pool-2-node-1: Ready=False (KubeletNotReady)"},
		},
		{
			name: "pool-2 recovers; a new pool comes up not Ready, which is no failure; b waits with its colour",
			cluster: cli.Cluster{Now: at(7), Nodes: concat(pool("pool-1", "True", 0), pool("pool-2", "True", 6), pool("pool-3", "False", 7)),
				Pods: concat(holding("c", "pool-1", 3), builders.Members(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj()))},
			colours:  map[string]string{"b": "#59a14f", "c": "#4e79a7"},
			timeline: []string{"+6m recovery Pool recovered pool pool-2: its nodes are Ready"},
		},
		{
			name:     "the new pool is Ready: added; pool-1 is cordoned",
			cluster:  cli.Cluster{Now: at(8), Nodes: concat(cordoned, pool("pool-2", "True", 6), pool("pool-3", "True", 8)), Pods: holding("c", "pool-1", 3)},
			colours:  map[string]string{"c": "#4e79a7"},
			timeline: []string{"+8m pool Pool cordoned pool pool-1: pool-1-node-0: cordoned; pool-1-node-1: cordoned", "+8m pool Pool added pool pool-3: 2 nodes of tpu-v5-lite-podslice 2x4"},
		},
		{
			name:     "pool-1 uncordoned, pool-3 removed; nothing else is told again",
			cluster:  cli.Cluster{Now: at(9), Nodes: concat(pool("pool-1", "True", 0), pool("pool-2", "True", 6)), Pods: holding("c", "pool-1", 3)},
			colours:  map[string]string{"c": "#4e79a7"},
			timeline: []string{"+9m pool Pool healthy pool pool-1: no longer cordoned", "+9m pool Pool removed pool pool-3: its nodes are gone"},
		},
	}
	b := NewBuilder(50)
	told := []string{}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			m := b.Build(&s.cluster)
			colours := map[string]string{}
			for _, w := range m.Workloads {
				colours[w.Workload.Name] = w.Colour
			}
			for _, w := range m.Pending.Workloads {
				colours[w.Workload.Name] = w.Colour
			}
			if diff := cmp.Diff(s.colours, colours); diff != "" {
				t.Errorf("colours (-want +got):\n%s", diff)
			}
			told = append(append([]string{}, s.timeline...), told...)
			got := []string{}
			for _, e := range m.Timeline {
				got = append(got, fmt.Sprintf("%s %s %s %s: %s", since(e.Time), e.Kind, e.What, e.Subject, e.Message))
			}
			if diff := cmp.Diff(told, got); diff != "" {
				t.Errorf("timeline (-want +got):\n%s", diff)
			}
		})
	}
}

// The timeline keeps the newest entries only, and a happening that fell
// off its end is not told again while the API still shows it.
func TestTimelineLimit(t *testing.T) {
	var events []*corev1.Event
	for m := 1; m <= 4; m++ {
		events = append(events, builders.Event("JobSet", "ns", fmt.Sprintf("js-%d", m), "", corev1.EventTypeNormal, "Placed", "placed", at(m)))
	}
	b := NewBuilder(2)
	for read := range 2 {
		m := b.Build(&cli.Cluster{Now: at(10 + read), Events: events})
		var got []string
		for _, e := range m.Timeline {
			got = append(got, e.Subject)
		}
		if diff := cmp.Diff([]string{"JobSet ns/js-4", "JobSet ns/js-3"}, got); diff != "" {
			t.Errorf("read %d: timeline (-want +got):\n%s", read, diff)
		}
	}
	// A newer one pushes the oldest kept out.
	events = append(events, builders.Event("JobSet", "ns", "js-5", "", corev1.EventTypeNormal, "Placed", "placed", at(5)))
	m := b.Build(&cli.Cluster{Now: at(12), Events: events})
	if len(m.Timeline) != 2 || m.Timeline[0].Subject != "JobSet ns/js-5" || m.Timeline[1].Subject != "JobSet ns/js-4" {
		t.Errorf("timeline %+v, want js-5 then js-4", m.Timeline)
	}
	if !m.Timeline[0].Time.Equal(at(5)) || !m.Timeline[1].Time.Equal(at(4)) {
		t.Errorf("times %v, %v; want the events'", m.Timeline[0].Time, m.Timeline[1].Time)
	}
}
