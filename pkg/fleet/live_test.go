package fleet

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// nextModel reads the stream's events until one whose model satisfies
// cond, and returns that model.
func nextModel(t *testing.T, stream *bufio.Reader, what string, cond func(*Model) bool) *Model {
	t.Helper()
	for {
		e, err := readEvent(stream)
		if err != nil {
			t.Fatalf("waiting for a model where %s: %v", what, err)
		}
		var m Model
		if err := json.Unmarshal([]byte(e.data), &m); err != nil {
			t.Fatal(err)
		}
		if cond(&m) {
			return &m
		}
	}
}

func poolNamed(m *Model, name string) *Pool {
	for i := range m.Pools {
		if m.Pools[i].Name == name {
			return &m.Pools[i]
		}
	}
	return nil
}

// From watches to the browser: the event stream sends a new model after
// each change of the watched objects.
func TestLiveStream(t *testing.T) {
	clients := fakeClients()
	for _, n := range builders.V5ePools(2) {
		if _, err := clients.Kube.CoreV1().Nodes().Create(t.Context(), n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	changes := NewChanges()
	w, err := gather.Watch(ctx, clients, everything, io.Discard, changes.Notify)
	if err != nil {
		t.Fatal(err)
	}
	hub := NewHub()
	go Live(ctx, w.Snapshot, changes, NewBuilder(50), hub, LiveOptions{Settle: 10 * time.Millisecond, Refresh: time.Hour})
	srv := httptest.NewServer(&Handler{Hub: hub, Heartbeat: time.Minute})
	t.Cleanup(srv.Close)
	stream := subscribe(t, srv)
	// Within a test's deadline, not forever.
	deadline := time.AfterFunc(30*time.Second, cancel)
	defer deadline.Stop()

	nextModel(t, stream, "both pools are free", func(m *Model) bool {
		return len(m.Pools) == 2 && m.Pools[0].Free() && m.Pools[1].Free()
	})

	js := unit.JobSet("train").ReplicatedJob("slice", 1, 2).Obj()
	for _, p := range builders.MembersOn(js, "pool-1-node-0", "pool-1-node-1") {
		if _, err := clients.Kube.CoreV1().Pods("ns").Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	m := nextModel(t, stream, "JobSet ns/train holds pool-1", func(m *Model) bool {
		p := poolNamed(m, "pool-1")
		return p != nil && len(p.Holders) == 1 && p.Holders[0].Workload == cli.WorkloadRef{Kind: cli.KindJobSet, Namespace: "ns", Name: "train"}
	})
	if len(m.Workloads) != 1 || m.Workloads[0].Colour == "" || poolNamed(m, "pool-1").Holders[0].Colour != m.Workloads[0].Colour {
		t.Errorf("legend %+v and holder %+v disagree", m.Workloads, poolNamed(m, "pool-1").Holders)
	}

	for _, name := range []string{"pool-1-node-0", "pool-1-node-1"} {
		n, err := clients.Kube.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionFalse, Reason: "KubeletNotReady", LastTransitionTime: metav1.NewTime(time.Now())}}
		if _, err := clients.Kube.CoreV1().Nodes().UpdateStatus(ctx, n, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	m = nextModel(t, stream, "pool-1 failed, in the timeline", func(m *Model) bool {
		return poolNamed(m, "pool-1").Health == cli.HealthFailed && len(m.Timeline) > 0 && m.Timeline[0].What == PoolFailed
	})
	if e := m.Timeline[0]; e.Kind != KindFailure || e.Pool != "pool-1" || e.Message == "" {
		t.Errorf("timeline entry %+v", e)
	}
}

// A burst of changes makes one rebuild once it settles; with nothing
// changing, the model is rebuilt every Refresh.
func TestLiveRebuilds(t *testing.T) {
	var builds atomic.Int64
	snapshot := func(now time.Time) *cli.Cluster {
		builds.Add(1)
		return &cli.Cluster{Now: now}
	}
	// waitBuilds waits for at least want builds; exactly, when exact.
	waitBuilds := func(what string, want int64, exact bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for builds.Load() < want && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if got := builds.Load(); got < want || exact && got != want {
			t.Fatalf("%s: %d builds, want %d", what, got, want)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	changes := NewChanges()
	done := make(chan struct{})
	go func() {
		Live(ctx, snapshot, changes, NewBuilder(10), NewHub(), LiveOptions{Settle: 50 * time.Millisecond, Refresh: time.Hour})
		close(done)
	}()
	waitBuilds("at the start", 1, true)
	for range 20 {
		changes.Notify()
	}
	waitBuilds("after a burst of changes", 2, true)
	time.Sleep(200 * time.Millisecond)
	waitBuilds("once the burst settled", 2, true)
	cancel()
	<-done

	builds.Store(0)
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	go Live(ctx, snapshot, NewChanges(), NewBuilder(10), NewHub(), LiveOptions{Settle: time.Millisecond, Refresh: 20 * time.Millisecond})
	waitBuilds("with nothing changing", 3, false)
}
