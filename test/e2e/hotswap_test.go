package e2e

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/demo"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
)

// syncBuffer is a bytes.Buffer the timeline's informers may write to while
// the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// `make demo SCENARIO=hotswap-v6e`, through the real JobSet controller
// (BlockingRecreate restarts) and node lifecycle: the scenario's own steps
// wait for the high-priority JobSet to run again while its pool is down and
// for the low-priority one to be back after recovery; the timeline must
// tell the eviction, in that order.
func TestHotswapDemo(t *testing.T) {
	ns := namespace(t)
	story := runPoolFailureDemo(t, "hotswap-v6e", ns)
	fault := strings.Index(story, "fault injected: the whole node pool fails")
	repaired := strings.Index(story, "repaired")
	preempts := strings.Index(story, "preempts: evicting JobSet "+ns+"/low-jax-trillium")
	preempted := strings.Index(story, "preempted: evicted whole by JobSet "+ns+"/high-jax-trillium")
	if fault < 0 || repaired < fault || preempts < fault || preempted < fault || preempts > repaired || preempted > repaired {
		t.Fatalf("the timeline does not tell, in order, the fault, the eviction on both JobSets, then the repair (positions %d, %d, %d, %d)",
			fault, preempts, preempted, repaired)
	}
	// While the pool is down, the evicted JobSet waits: none of its pods is
	// bound between its eviction and the repair.
	for _, line := range strings.Split(story[preempted:repaired], "\n") {
		if strings.Contains(line, "low-jax-trillium slice") && strings.Contains(line, "bound to") {
			t.Errorf("low-jax-trillium was placed while the pool was down: %s", line)
		}
	}
}

// `make demo SCENARIO=kueue-hotswap-v6e`: seed 000's combined Kueue +
// Hotswap example (queue objects with 64 chips; JobSets as written, plus
// schedulerName) through the real JobSet controller. Both JobSets are in a
// ClusterQueue that never preempts within itself; the low-priority one is
// evicted all the same when the high-priority one loses a pool (capacity,
// not quota), waits while the pool is down, and comes back after.
func TestKueueHotswapDemo(t *testing.T) {
	// The seed's LocalQueue is in default. The scenario applies the queue
	// objects; this removes them when the test ends, after the JobSets.
	ns := metav1.NamespaceDefault
	applyQueueObjects(t, filepath.Join("kueue-hotswap-v6e", "queues.yaml"))
	t.Cleanup(func() {
		for _, name := range []string{"low-jax-trillium", "high-jax-trillium"} {
			deleteJobSet(t, &jobsetv1alpha2.JobSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}})
		}
	})
	story := runPoolFailureDemo(t, "kueue-hotswap-v6e", ns)
	fault := strings.Index(story, "fault injected: the whole node pool fails")
	repaired := strings.Index(story, "repaired")
	preempted := strings.Index(story, "preempted: evicted whole by JobSet "+ns+"/high-jax-trillium")
	if fault < 0 || preempted < fault || repaired < preempted {
		t.Fatalf("the timeline does not tell, in order, the fault, the eviction, then the repair (positions %d, %d, %d)", fault, preempted, repaired)
	}
	if !strings.Contains(story[preempted:], "capacity preemption") {
		t.Errorf("the eviction does not say it was a capacity preemption")
	}
	// Restarting after the failure, the high-priority JobSet keeps its
	// quota (and its healthy pool): it is never back in its queue.
	for _, line := range strings.Split(story[fault:], "\n") {
		if strings.Contains(line, "high-jax-trillium") && (strings.Contains(line, "lost its quota reservation") || strings.Contains(line, "waits in LocalQueue")) {
			t.Errorf("the restarting high-priority JobSet lost its admission: %s", line)
		}
	}
}

// runPoolFailureDemo runs the scenario of manifests/examples/<dir> in ns,
// which fails a v6e pool and recovers it, and returns its timeline. A run
// that fails still recovers the pools, for the tests after it.
func runPoolFailureDemo(t *testing.T, dir, ns string) string {
	t.Helper()
	// The demos need all four v6e pools: an earlier test's pods may still
	// be terminating there, and its repaired pool recovering.
	poll(t, "the v6e pools free and healthy", 2*time.Minute, func(ctx context.Context) (bool, error) {
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		for i := range nodes.Items {
			if n := &nodes.Items[i]; strings.HasPrefix(n.Name, "tpu-v6e-4x4-") && faults.NodeHealth(n) != faults.Healthy {
				return false, nil
			}
		}
		pods, err := client.CoreV1().Pods(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		for _, p := range pods.Items {
			if strings.HasPrefix(p.Spec.NodeName, "tpu-v6e-4x4-") && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				return false, nil
			}
		}
		return true, nil
	})
	s, err := demo.Load(filepath.Join(repoRoot, "manifests", "examples", dir, "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s.Namespace = ns
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tl, err := timeline.Watch(ctx, cluster.AdminConfig, ns, out)
	if err != nil {
		t.Fatal(err)
	}
	injector := &faults.Injector{Client: client}
	t.Cleanup(func() {
		for _, pool := range []string{"tpu-v6e-4x4-0", "tpu-v6e-4x4-1", "tpu-v6e-4x4-2", "tpu-v6e-4x4-3"} {
			_ = injector.RecoverPool(context.Background(), pool)
		}
	})
	runErr := demo.Run(ctx, cluster, s, tl)
	story := out.String()
	t.Logf("timeline:\n%s", story)
	if runErr != nil {
		t.Fatalf("scenario: %v", runErr)
	}
	return story
}
