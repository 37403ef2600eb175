package multislicegang

import (
	"context"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/queuesort"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/schedulinggates"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
)

// BenchmarkQueueWalkOnBoundPod measures what kube-scheduler's own
// scheduling queue spends, for each pod bound, on the pods it holds: on
// every assigned-pod add it walks every held pod (PriorityQueue's
// collectEntitiesToEvaluate and moveEntitiesToActiveOrBackoffQueue), gated
// ones included, before skipping them. It is the remaining cost of plain
// pods beside waiting gangs (the PlainWithWaitingGangs scenario: 4096
// waiting members, 8000 plain pods bound).
//
// The holders compared:
//   - gate: members held by this package's Gate in PreEnqueue (what runs);
//   - schedulingGates: members created with spec.schedulingGates that we
//     would lift, held by the in-tree SchedulingGates plugin;
//   - none: members not in the queue at all, the floor.
//
// The queue and its walk are the vendored kube-scheduler's, unchanged; the
// hint map is the shape of our profile's for the event (in-tree plugins
// registered for assigned pods added, the gates for their own events).
func BenchmarkQueueWalkOnBoundPod(b *testing.B) {
	metrics.Register() // the queue records into kube-scheduler's metrics
	for _, held := range []int{0, 1024, 4096} {
		for _, by := range []string{"gate", "schedulingGates"} {
			if held == 0 && by != "gate" {
				continue
			}
			name := fmt.Sprintf("held=%d/by=%s", held, by)
			if held == 0 {
				name = "held=0/by=none"
			}
			b.Run(name, func(b *testing.B) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				q := heldQueue(ctx, b, held, by)
				bound := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "plain", Name: "bound", UID: "bound"},
					Spec: corev1.PodSpec{SchedulerName: benchProfile, NodeName: "node-0"}}
				logger := klog.FromContext(ctx)
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					q.MoveAllToActiveOrBackoffQueue(logger, framework.EventAssignedPodAdd, nil, bound, nil)
				}
				b.StopTimer()
				if got := len(q.UnschedulablePods()); got != held {
					b.Fatalf("%d pods held after the walks, want %d: the walk released some", got, held)
				}
			})
		}
	}
}

const benchProfile = "multislice-scheduler"

// heldQueue is a scheduling queue holding n gang members, each gated by
// the named holder.
func heldQueue(ctx context.Context, b *testing.B, n int, by string) *queue.PriorityQueue {
	b.Helper()
	gateEvents, err := (&Gate{}).EventsToRegister(ctx)
	if err != nil {
		b.Fatal(err)
	}
	sg := &schedulinggates.SchedulingGates{}
	sgEvents, err := sg.EventsToRegister(ctx)
	if err != nil {
		b.Fatal(err)
	}
	skip := func(klog.Logger, *corev1.Pod, any, any) (fwk.QueueingHint, error) { return fwk.QueueSkip, nil }
	hints := queue.QueueingHintMap{
		// InterPodAffinity and PodTopologySpread register assigned pods
		// added: the event is of interest, and the walk happens.
		{Resource: fwk.AssignedPod, ActionType: fwk.Add | fwk.UpdatePodLabel | fwk.Delete}: {
			{PluginName: "InterPodAffinity", QueueingHintFn: skip},
			{PluginName: "PodTopologySpread", QueueingHintFn: skip},
		},
	}
	for _, e := range gateEvents {
		hints[e.Event] = append(hints[e.Event], &queue.QueueingHintFunction{PluginName: GateName, QueueingHintFn: e.QueueingHintFn})
	}
	for _, e := range sgEvents {
		hints[e.Event] = append(hints[e.Event], &queue.QueueingHintFunction{PluginName: schedulinggates.Name, QueueingHintFn: e.QueueingHintFn})
	}
	q := queue.NewTestQueue(ctx, (&queuesort.PrioritySort{}).Less,
		queue.WithQueueingHintMapPerProfile(queue.QueueingHintMapPerProfile{benchProfile: hints}),
		queue.WithPreEnqueuePluginMap(map[string]map[string]fwk.PreEnqueuePlugin{benchProfile: {
			schedulinggates.Name: sg,
			GateName:             heldByLabel{},
		}}))
	for i := range n {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "waiting", Name: fmt.Sprintf("wait-%d", i), UID: types.UID(fmt.Sprintf("wait-%d", i))},
			Spec:       corev1.PodSpec{SchedulerName: benchProfile},
		}
		switch by {
		case "gate":
			pod.Labels = map[string]string{heldLabel: "true"}
		case "schedulingGates":
			pod.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "multislice.dev/gang"}}
		}
		q.Add(ctx, pod)
	}
	if got := len(q.UnschedulablePods()); got != n {
		b.Fatalf("%d pods held, want %d", got, n)
	}
	return q
}

const heldLabel = "bench/held"

// heldByLabel stands in for the Gate under its name (the queue knows a
// gating plugin by name and registered events only): it holds the pods
// labelled heldLabel.
type heldByLabel struct{}

func (heldByLabel) Name() string { return GateName }

func (heldByLabel) PreEnqueue(_ context.Context, pod *corev1.Pod) *fwk.Status {
	if pod.Labels[heldLabel] != "" {
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "held")
	}
	return nil
}
