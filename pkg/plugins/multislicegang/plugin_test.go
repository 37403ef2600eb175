package multislicegang

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cache"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func queued(t *testing.T, name string, priority int32, queuedAt time.Time, labels map[string]string) fwk.QueuedEntityInfo {
	t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID(name), Labels: labels},
		Spec:       corev1.PodSpec{Priority: &priority},
	}
	pi, err := framework.NewPodInfo(pod)
	if err != nil {
		t.Fatal(err)
	}
	return &framework.QueuedPodInfo{PodInfo: pi, QueueingParams: framework.QueueingParams{Timestamp: queuedAt}}
}

func member(js string, slice int) map[string]string {
	return map[string]string{wellknown.JobSetNameLabel: js, wellknown.JobGlobalIndexLabel: fmt.Sprint(slice)}
}

func newTestPlugin() *Plugin {
	c := cache.New(cache.Options{})
	c.SetAPIServed(workload.SourceJobSet, true)
	for name, created := range map[string]int64{"old": 100, "new": 200} {
		k := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name}
		c.UpsertSource(k, &workload.Workload{Key: k, Created: time.Unix(created, 0), Slices: []workload.Slice{{Pods: 1}, {Pods: 1}}}, nil, corev1.ObjectReference{})
	}
	return &Plugin{cache: c}
}

func TestLessOrdersByPriorityThenWorkloadAgeAndKeepsWorkloadsTogether(t *testing.T) {
	pl := newTestPlugin()
	t0 := time.Unix(1000, 0)
	entities := []fwk.QueuedEntityInfo{
		queued(t, "plain-early", 0, time.Unix(50, 0), nil),
		queued(t, "new-1", 0, t0, member("new", 1)),
		queued(t, "old-1", 0, t0.Add(time.Second), member("old", 1)),
		queued(t, "new-0", 0, t0.Add(2*time.Second), member("new", 0)),
		queued(t, "old-0", 0, t0.Add(3*time.Second), member("old", 0)),
		queued(t, "plain-late", 0, time.Unix(150, 0), nil),
		queued(t, "urgent", 10, t0.Add(time.Hour), nil),
	}
	want := []string{"urgent", "plain-early", "old-0", "old-1", "plain-late", "new-0", "new-1"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		rng.Shuffle(len(entities), func(i, j int) { entities[i], entities[j] = entities[j], entities[i] })
		sort.SliceStable(entities, func(i, j int) bool { return pl.Less(entities[i], entities[j]) })
		var got []string
		for _, e := range entities {
			got = append(got, e.(interface{ GetPod() *corev1.Pod }).GetPod().Name)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: order %v, want %v", round, got, want)
		}
	}
}

// Less is a strict weak order, and a pod's key never changes while it is
// queued, even when its workload's object changes under it.
func TestLessIsStableAcrossCacheChanges(t *testing.T) {
	pl := newTestPlugin()
	a := queued(t, "new-0", 0, time.Unix(1, 0), member("new", 0))
	b := queued(t, "old-0", 0, time.Unix(2, 0), member("old", 0))
	if !pl.Less(b, a) || pl.Less(a, b) {
		t.Fatal("older workload not first")
	}
	// "new" is recreated as older than "old": queued pods keep their order.
	k := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "new"}
	pl.cache.UpsertSource(k, &workload.Workload{Key: k, Created: time.Unix(1, 0), Slices: []workload.Slice{{Pods: 1}}}, nil, corev1.ObjectReference{})
	if !pl.Less(b, a) || pl.Less(a, b) {
		t.Fatal("queue order changed under queued pods")
	}
	if pl.Less(a, a) {
		t.Fatal("Less is not irreflexive")
	}
}
