package multislicegang

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// queued is p as the scheduling queue holds it, queued at.
func queued(t *testing.T, p *corev1.Pod, at time.Time) fwk.QueuedEntityInfo {
	t.Helper()
	pi, err := framework.NewPodInfo(p)
	if err != nil {
		t.Fatal(err)
	}
	return &framework.QueuedPodInfo{PodInfo: pi, QueueingParams: framework.QueueingParams{Timestamp: at}}
}

func queuedName(e fwk.QueuedEntityInfo) string { return e.(podGetter).GetPod().Name }

func TestLess(t *testing.T) {
	// "old" was created at 100s, "new" at 200s; each is two one-pod slices.
	old := unit.JobSet("old").Created(time.Unix(100, 0)).ReplicatedJob("w", 2, 1).Obj()
	young := unit.JobSet("new").Created(time.Unix(200, 0)).ReplicatedJob("w", 2, 1).Obj()
	t0 := time.Unix(1000, 0)
	type entry struct {
		pod *corev1.Pod
		at  time.Time
	}
	entries := []entry{
		{unit.Pod("plain-early").Obj(), time.Unix(50, 0)},
		{builders.Member(young, 1, 0).Obj(), t0},
		{builders.Member(old, 1, 0).Obj(), t0.Add(time.Second)},
		{builders.Member(young, 0, 0).Obj(), t0.Add(2 * time.Second)},
		{builders.Member(old, 0, 0).Obj(), t0.Add(3 * time.Second)},
		{unit.Pod("plain-late").Obj(), time.Unix(150, 0)},
		{unit.Pod("urgent").Priority(10).Obj(), t0.Add(time.Hour)},
	}
	byWorkload := []string{"urgent", "plain-early", "old-w-0-0-a0", "old-w-1-0-a0", "plain-late", "new-w-0-0-a0", "new-w-1-0-a0"}
	cases := map[string]struct {
		// observe feeds the state before the pods are compared.
		observe func(f *fixture, pods []*corev1.Pod)
		want    []string
	}{
		"pods known to the state": {
			observe: func(f *fixture, pods []*corev1.Pod) {
				f.addJobSet(old)
				f.addJobSet(young)
				f.addPods(pods...)
			},
			want: byWorkload,
		},
		"pods not observed yet": {
			observe: func(f *fixture, _ []*corev1.Pod) {
				f.addJobSet(old)
				f.addJobSet(young)
			},
			want: byWorkload,
		},
		"workloads not observed yet: by queueing time": {
			observe: func(f *fixture, pods []*corev1.Pod) { f.addPods(pods...) },
			want:    []string{"urgent", "plain-early", "plain-late", "new-w-1-0-a0", "old-w-1-0-a0", "new-w-0-0-a0", "old-w-0-0-a0"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			var pods []*corev1.Pod
			var entities []fwk.QueuedEntityInfo
			for _, e := range entries {
				pods = append(pods, e.pod)
				entities = append(entities, queued(t, e.pod, e.at))
			}
			tc.observe(f, pods)
			rng := rand.New(rand.NewPCG(1, 2))
			for round := range 20 {
				rng.Shuffle(len(entities), func(i, j int) { entities[i], entities[j] = entities[j], entities[i] })
				sort.SliceStable(entities, func(i, j int) bool { return f.pl.Less(entities[i], entities[j]) })
				var got []string
				for _, e := range entities {
					got = append(got, queuedName(e))
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Fatalf("round %d: order (-want +got):\n%s", round, diff)
				}
			}
		})
	}
}

// A malformed member sorts as a plain pod, by when it was queued.
func TestLessMalformedMember(t *testing.T) {
	old := unit.JobSet("old").Created(time.Unix(100, 0)).ReplicatedJob("w", 2, 1).Obj()
	f := newFixture(t)
	f.addJobSet(old)
	malformed := queued(t, builders.Member(old, 1, 0).Label(wellknown.JobGlobalIndexLabel, "x").Obj(), time.Unix(50, 0))
	good := queued(t, builders.Member(old, 0, 0).Obj(), time.Unix(10, 0))
	if !f.pl.Less(malformed, good) || f.pl.Less(good, malformed) {
		t.Error("the malformed member is not ordered by its queueing time, before the workload created later")
	}
}

// Less is a strict weak order, and a pod's key never changes while it is
// queued, even when its workload's object changes under it; once the pod
// leaves the queue (Reserve), its key is computed afresh.
func TestLessIsStable(t *testing.T) {
	old := unit.JobSet("old").Created(time.Unix(100, 0)).ReplicatedJob("w", 1, 1).Obj()
	young := unit.JobSet("new").Created(time.Unix(200, 0)).ReplicatedJob("w", 1, 1).Obj()
	f := newFixture(t, builders.V5ePools(1)...)
	f.addJobSet(old)
	f.addJobSet(young)
	youngPod, oldPod := builders.Member(young, 0, 0).Obj(), builders.Member(old, 0, 0).Obj()
	a := queued(t, youngPod, time.Unix(1, 0))
	b := queued(t, oldPod, time.Unix(2, 0))
	order := func() []bool { return []bool{f.pl.Less(a, b), f.pl.Less(b, a), f.pl.Less(a, a), f.pl.Less(b, b)} }
	oldFirst := []bool{false, true, false, false}
	if diff := cmp.Diff(oldFirst, order()); diff != "" {
		t.Fatalf("Less(a,b), Less(b,a), Less(a,a), Less(b,b) (-want +got):\n%s", diff)
	}
	// "new" is recreated as older than "old": queued pods keep their order.
	f.addJobSet(unit.JobSet("new").Created(time.Unix(1, 0)).ReplicatedJob("w", 1, 1).Obj())
	if diff := cmp.Diff(oldFirst, order()); diff != "" {
		t.Fatalf("after the workload changed (-want +got):\n%s", diff)
	}
	// Reserve forgets the key; the pod, queued again, sorts by the new object.
	f.addPods(youngPod)
	f.cycle(youngPod)
	f.reserve(youngPod, "pool-1-node-0")
	if diff := cmp.Diff([]bool{true, false, false, false}, order()); diff != "" {
		t.Fatalf("after Reserve (-want +got):\n%s", diff)
	}
}
