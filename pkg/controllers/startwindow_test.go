package controllers

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	schedulinglisters "k8s.io/client-go/listers/scheduling/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// rank is a queued object ns/name of priority p created at minute m.
func rank(name string, p int32, m int) queuedRank {
	return queuedRank{key: workload.Key{Source: workload.SourceJob, Namespace: "ns", Name: name}, priority: p,
		created: unsuspendNow.Add(time.Duration(m) * time.Minute)}
}

func names(rs []queuedRank) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.key.Name)
	}
	return out
}

func TestToStart(t *testing.T) {
	cases := []struct {
		name    string
		depth   int
		waiting []queuedRank
		held    []queuedRank
		want    []string
	}{
		{name: "no window starts everything, in queue order", depth: 0,
			waiting: []queuedRank{rank("w", 0, 0)}, held: []queuedRank{rank("b", 0, 2), rank("a", 0, 1), rank("c", 0, 3)},
			want: []string{"a", "b", "c"}},
		{name: "an empty window takes the oldest", depth: 2,
			held: []queuedRank{rank("c", 0, 3), rank("a", 0, 1), rank("b", 0, 2)}, want: []string{"a", "b"}},
		{name: "started workloads still waiting fill the window", depth: 2,
			waiting: []queuedRank{rank("w1", 0, 0), rank("w2", 0, 0)}, held: []queuedRank{rank("a", 0, 1)}, want: []string{}},
		{name: "one place left", depth: 3,
			waiting: []queuedRank{rank("w1", 0, 0), rank("w2", 0, 0)}, held: []queuedRank{rank("b", 0, 2), rank("a", 0, 1)}, want: []string{"a"}},
		{name: "higher priority created later starts although the window is full", depth: 2,
			waiting: []queuedRank{rank("w1", 0, 0), rank("w2", 0, 0)}, held: []queuedRank{rank("urgent", 100, 9), rank("a", 0, 1)},
			want: []string{"urgent"}},
		{name: "priority first, then creation, then name", depth: 3,
			held: []queuedRank{rank("z", 5, 1), rank("y", 5, 1), rank("old", 1, 0), rank("new", 5, 2)},
			want: []string{"y", "z", "new"}},
		{name: "nothing held", depth: 2, waiting: []queuedRank{rank("w1", 0, 0)}, want: []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, names(toStart(tc.depth, tc.waiting, tc.held))); diff != "" {
				t.Errorf("started (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTemplatePriority(t *testing.T) {
	classes := toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{})
	for _, pc := range []*schedulingv1.PriorityClass{
		{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000},
		{ObjectMeta: metav1.ObjectMeta{Name: "default-new", CreationTimestamp: metav1.NewTime(unsuspendNow.Add(time.Hour))}, Value: 7, GlobalDefault: true},
		{ObjectMeta: metav1.ObjectMeta{Name: "default-old", CreationTimestamp: metav1.NewTime(unsuspendNow)}, Value: 5, GlobalDefault: true},
	} {
		if err := classes.Add(pc); err != nil {
			t.Fatal(err)
		}
	}
	withClasses := priorityClassValue(schedulinglisters.NewPriorityClassLister(classes))
	empty := priorityClassValue(schedulinglisters.NewPriorityClassLister(toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{})))
	cases := []struct {
		name    string
		spec    corev1.PodSpec
		classes func(string) (int32, bool)
		want    int32
	}{
		{"spec.priority wins", corev1.PodSpec{Priority: ptr.To[int32](3), PriorityClassName: "high"}, withClasses, 3},
		{"its class", corev1.PodSpec{PriorityClassName: "high"}, withClasses, 1000},
		{"the oldest global default", corev1.PodSpec{}, withClasses, 5},
		{"an unknown class counts as none", corev1.PodSpec{PriorityClassName: "gone"}, withClasses, 0},
		{"no global default", corev1.PodSpec{}, empty, 0},
		{"no classes known", corev1.PodSpec{PriorityClassName: "high"}, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := templatePriority(&tc.spec, tc.classes); got != tc.want {
				t.Errorf("priority = %d, want %d", got, tc.want)
			}
		})
	}
}

// windowEnv serves LocalQueue ns/lq, of ClusterQueue cq.
var windowEnv = func() unsuspendEnv {
	env := servingLQ
	env.resolveQueue = func(ns, queue string) (string, *quota.Problem) {
		if ns == "ns" && queue == "lq" {
			return "cq", nil
		}
		return "", &quota.Problem{Reason: "LocalQueueNotFound", Message: "no LocalQueue " + ns + "/" + queue}
	}
	return env
}()

// queuedJob is suspendedJob named name, created at minute m.
func queuedJob(name string, m int, edits ...func(*batchv1.Job)) *batchv1.Job {
	return suspendedJob(append([]func(*batchv1.Job){func(j *batchv1.Job) {
		j.Name, j.UID = name, types.UID("uid-"+name)
		j.CreationTimestamp = metav1.NewTime(unsuspendNow.Add(time.Duration(m) * time.Minute))
	}}, edits...)...)
}

// round runs one round of the start window and copies what it stored
// back into the lister, as the informer would; it returns the Jobs now
// started and the Queued events recorded.
func (f *unsuspendFixture) round(t *testing.T) (started []string, queued int) {
	t.Helper()
	if _, err := f.u.syncWindow(t.Context()); err != nil {
		t.Fatal(err)
	}
	list, err := f.client.BatchV1().Jobs("ns").List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		j := &list.Items[i]
		if err := f.jobs.Update(j); err != nil {
			t.Fatal(err)
		}
		if !*j.Spec.Suspend {
			started = append(started, j.Name)
		}
	}
	for e := f.event(); e != ""; e = f.event() {
		if strings.Contains(e, reasonQueued) {
			queued++
		}
	}
	return started, queued
}

func TestStartWindow(t *testing.T) {
	f := newUnsuspendFixture(t, windowEnv, queuedJob("c", 3), queuedJob("a", 1), queuedJob("b", 2), queuedJob("d", 4))
	f.u.depth = 2
	admitted := map[string]bool{}
	f.u.awaiting = func(keys []workload.Key) []bool {
		out := make([]bool, len(keys))
		for i, k := range keys {
			out[i] = !admitted[k.Name]
		}
		return out
	}

	// An object's own sync leaves the starting to the window's round.
	f.u.JobChanged(queuedJob("a", 1))
	if !f.u.processNext(t.Context()) {
		t.Fatal("queue shut down")
	}
	if j := f.jobNamed(t, "a"); !*j.Spec.Suspend {
		t.Fatal("the object's own sync started it; the round should")
	}

	started, queued := f.round(t)
	if diff := cmp.Diff([]string{"a", "b"}, started); diff != "" {
		t.Fatalf("first round started (-want +got):\n%s", diff)
	}
	if queued != 2 {
		t.Errorf("%d Queued events, want one on each held Job (c, d)", queued)
	}
	if started, _ = f.round(t); len(started) != 2 {
		t.Fatalf("a round with nothing admitted started %v, want still a and b", started)
	}

	// One admitted: the next in order starts.
	admitted["a"] = true
	if started, _ = f.round(t); !slices.Equal(started, []string{"a", "b", "c"}) {
		t.Fatalf("after a's admission started %v, want a, b, c", started)
	}

	// A Job of higher priority created last starts although the window
	// is full; d still waits.
	urgent := queuedJob("urgent", 9, func(j *batchv1.Job) { j.Spec.Template.Spec.Priority = ptr.To[int32](100) })
	if _, err := f.client.BatchV1().Jobs("ns").Create(t.Context(), urgent, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := f.jobs.Add(urgent); err != nil {
		t.Fatal(err)
	}
	if started, _ = f.round(t); !slices.Equal(started, []string{"a", "b", "c", "urgent"}) {
		t.Fatalf("after urgent's creation started %v, want a, b, c, urgent", started)
	}

	// b finishes, c and urgent are admitted: d starts. A Job suspended
	// again for good (past its run) no longer counts.
	finished := f.jobNamed(t, "b")
	finished.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
	if err := f.jobs.Update(finished); err != nil {
		t.Fatal(err)
	}
	admitted["c"], admitted["urgent"] = true, true
	if started, _ = f.round(t); !slices.Contains(started, "d") {
		t.Fatalf("after b finished started %v, want d too", started)
	}
}

func TestStartWindowStartsWhatNoClusterQueueBounds(t *testing.T) {
	lost := func(j *batchv1.Job) { j.Labels[wellknown.QueueNameLabel] = "missing" }
	f := newUnsuspendFixture(t, windowEnv, queuedJob("a", 1, lost), queuedJob("b", 2, lost), queuedJob("c", 3, lost))
	f.u.depth = 1
	// The queue resolves to no ClusterQueue (servesQueue still says it is
	// ours): its objects start at once and their pods say why they wait.
	f.u.env = func() unsuspendEnv {
		env := windowEnv
		env.localQueue = func(ns, name string) bool { return true }
		return env
	}
	if started, _ := f.round(t); len(started) != 3 {
		t.Fatalf("started %v, want every Job of a queue that resolves to no ClusterQueue", started)
	}
}

func (f *unsuspendFixture) jobNamed(t *testing.T, name string) *batchv1.Job {
	t.Helper()
	j, err := f.client.BatchV1().Jobs("ns").Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return j
}
