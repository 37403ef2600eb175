package faultinfra_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// The proxy's faults reach only the clients behind it: a client through it
// sees failed, dropped and held writes while a direct client does not; reads
// and watches pass; counts say what each rule did.
func TestFaultProxy(t *testing.T) {
	cp := harness.StartControlPlane(t)
	fp := cp.StartFaultProxy(t)
	via := kubernetes.NewForConfigOrDie(fp.Config())
	ns := cp.CreateNamespace(t, "faults")
	pool := builders.NodePool("plain").Nodes(1)
	cp.CreateNodePool(t, pool)
	pods := cp.Client.CoreV1().Pods(ns)

	t.Run("fail", func(t *testing.T) {
		for _, tc := range []struct {
			code  int
			check func(error) bool
		}{
			{0, apierrors.IsInternalError},
			{429, apierrors.IsTooManyRequests},
			{503, apierrors.IsServiceUnavailable},
		} {
			t.Run(fmt.Sprint(tc.code), func(t *testing.T) {
				name := fmt.Sprintf("fail-%d", tc.code)
				fp.SetRules(harness.FaultRule{Name: name, Match: harness.PodDeletes(), Fail: 1, Code: tc.code})
				pod := cp.CreatePod(t, builders.Pod(ns, name).Obj())
				err := via.CoreV1().Pods(ns).Delete(t.Context(), pod.Name, metav1.DeleteOptions{})
				if !tc.check(err) {
					t.Fatalf("delete through the proxy: %v, want a %d error", err, tc.code)
				}
				// Not forwarded: the pod is still there, and a direct client
				// deletes it.
				if _, err := pods.Get(t.Context(), pod.Name, metav1.GetOptions{}); err != nil {
					t.Fatalf("pod gone after a failed delete: %v", err)
				}
				if err := pods.Delete(t.Context(), pod.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
					t.Fatalf("direct delete: %v", err)
				}
				wantCounts(t, fp, name, harness.FaultCount{Seen: 1, Failed: 1})
			})
		}
	})

	t.Run("ensure", func(t *testing.T) {
		// Whatever the probabilities: the first delete fails unforwarded,
		// the second is applied and its response lost, the third is left
		// to them (none: it passes; every request fails: it fails).
		for _, tc := range []struct {
			name  string
			fail  float64
			third bool // the third delete fails
			want  harness.FaultCount
		}{
			{"no probabilities", 0, false, harness.FaultCount{Seen: 3, Failed: 1, Dropped: 1}},
			{"every request fails", 1, true, harness.FaultCount{Seen: 3, Failed: 2, Dropped: 1}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				name := "ensure-" + fmt.Sprint(tc.fail)
				fp.SetRules(harness.FaultRule{Name: name, Match: harness.PodDeletes(), Ensure: true, Fail: tc.fail, Code: 503})
				for i, want := range []struct {
					fails, gone bool
				}{{true, false}, {true, true}, {tc.third, !tc.third}} {
					pod := cp.CreatePod(t, builders.Pod(ns, fmt.Sprintf("%s-%d", name, i)).Obj())
					err := via.CoreV1().Pods(ns).Delete(t.Context(), pod.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
					if (err != nil) != want.fails {
						t.Errorf("delete %d: %v, want failed=%v", i+1, err, want.fails)
					}
					_, err = pods.Get(t.Context(), pod.Name, metav1.GetOptions{})
					if gone := apierrors.IsNotFound(err); gone != want.gone {
						t.Errorf("delete %d: pod gone=%v, want %v", i+1, gone, want.gone)
					}
					_ = pods.Delete(t.Context(), pod.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)})
				}
				wantCounts(t, fp, name, tc.want)
			})
		}
	})

	t.Run("first matching rule wins", func(t *testing.T) {
		fp.SetRules(
			harness.FaultRule{Name: "deletes", Match: harness.PodDeletes(), Fail: 1, Code: 503},
			harness.FaultRule{Name: "pod writes", Match: harness.Verb("", "", "pods", "*"), Fail: 1},
			harness.FaultRule{Name: "pod reads", Match: harness.Verb("get", "", "pods", ""), Fail: 1},
		)
		err := via.CoreV1().Pods(ns).Delete(t.Context(), "absent", metav1.DeleteOptions{})
		if !apierrors.IsServiceUnavailable(err) {
			t.Errorf("delete: %v, want the first rule's 503", err)
		}
		_, err = via.CoreV1().Pods(ns).Create(t.Context(), builders.Pod(ns, "created").Obj(), metav1.CreateOptions{})
		if !apierrors.IsInternalError(err) {
			t.Errorf("create: %v, want the second rule's 500", err)
		}
		// Reads are matched only when asked for: a list passes.
		if _, err := via.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{}); err != nil {
			t.Errorf("list: %v", err)
		}
		_, err = via.CoreV1().Pods(ns).Get(t.Context(), "absent", metav1.GetOptions{})
		if !apierrors.IsInternalError(err) {
			t.Errorf("get: %v, want the third rule's 500", err)
		}
		wantCounts(t, fp, "deletes", harness.FaultCount{Seen: 1, Failed: 1})
		wantCounts(t, fp, "pod writes", harness.FaultCount{Seen: 1, Failed: 1})
		wantCounts(t, fp, "pod reads", harness.FaultCount{Seen: 1, Failed: 1})
	})

	t.Run("drop", func(t *testing.T) {
		for _, tc := range []struct {
			code  int
			check func(error) bool
		}{
			{0, func(err error) bool { return err != nil && apierrors.ReasonForError(err) == metav1.StatusReasonUnknown }},
			{503, apierrors.IsServiceUnavailable},
		} {
			t.Run(fmt.Sprint(tc.code), func(t *testing.T) {
				name := fmt.Sprintf("drop-%d", tc.code)
				fp.SetRules(harness.FaultRule{Name: name, Match: harness.Verb("create", "", "pods", ""), Drop: 1, Code: tc.code})
				_, err := via.CoreV1().Pods(ns).Create(t.Context(), builders.Pod(ns, name).Obj(), metav1.CreateOptions{})
				if !tc.check(err) {
					t.Fatalf("create through the proxy: %v (reason %q), want a failure", err, apierrors.ReasonForError(err))
				}
				t.Logf("the client saw: %v", err)
				if _, err := pods.Get(t.Context(), name, metav1.GetOptions{}); err != nil {
					t.Fatalf("the dropped create was not applied: %v", err)
				}
				wantCounts(t, fp, name, harness.FaultCount{Seen: 1, Dropped: 1})
			})
		}
	})

	t.Run("delay", func(t *testing.T) {
		fp.SetRules(harness.FaultRule{Name: "slow", Match: harness.Verb("create", "", "pods", ""), Delay: 500 * time.Millisecond})
		start := time.Now()
		if _, err := via.CoreV1().Pods(ns).Create(t.Context(), builders.Pod(ns, "slow").Obj(), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < 500*time.Millisecond {
			t.Errorf("create took %s, want at least the 500ms delay", took)
		}
		wantCounts(t, fp, "slow", harness.FaultCount{Seen: 1, Delayed: 1})
	})

	t.Run("hold", func(t *testing.T) {
		fp.SetRules(harness.FaultRule{Name: "binds", Match: harness.Binds(), Hold: true})
		pod := cp.CreatePod(t, builders.Pod(ns, "held").Obj())
		bound := make(chan error, 1)
		go func() {
			bound <- via.CoreV1().Pods(ns).Bind(t.Context(), &corev1.Binding{
				ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: pod.Name},
				Target:     corev1.ObjectReference{Kind: "Node", Name: pool.NodeName(0)},
			}, metav1.CreateOptions{})
		}()
		fp.WaitHeld(t, "binds", 1)
		cp.ExpectPodStaysUnbound(t, ns, pod.Name, time.Second)
		select {
		case err := <-bound:
			t.Fatalf("bind returned while held: %v", err)
		default:
		}
		fp.Release("binds")
		select {
		case err := <-bound:
			if err != nil {
				t.Fatalf("released bind: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("bind still held after Release")
		}
		cp.WaitForPodBound(t, ns, pod.Name)
		// Released, the rule holds nothing more until installed again.
		second := cp.CreatePod(t, builders.Pod(ns, "not-held").Obj())
		if err := via.CoreV1().Pods(ns).Bind(t.Context(), &corev1.Binding{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: second.Name},
			Target:     corev1.ObjectReference{Kind: "Node", Name: pool.NodeName(0)},
		}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		wantCounts(t, fp, "binds", harness.FaultCount{Seen: 2, Held: 1})
	})

	t.Run("watch streams and is cut", func(t *testing.T) {
		// Every write through the proxy fails; the watch, a read, is not
		// matched and streams events of a direct client's writes.
		fp.SetRules(harness.FaultRule{Name: "all writes", Match: harness.Verb("", "*", "*", "*"), Fail: 1})
		w, err := via.CoreV1().Pods(ns).Watch(t.Context(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		for i := range 3 {
			// Spaced out, so each event arrives on its own through the
			// stream rather than all at once when it ends.
			name := fmt.Sprintf("watched-%d", i)
			cp.CreatePod(t, builders.Pod(ns, name).Obj())
			waitForEvent(t, w, watch.Added, name)
		}
		fp.CutConnections()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case _, ok := <-w.ResultChan():
				if !ok {
					wantCounts(t, fp, "all writes", harness.FaultCount{})
					return
				}
			case <-deadline:
				t.Fatal("watch still open 10s after CutConnections")
			}
		}
	})

	t.Run("seeded", func(t *testing.T) {
		// With Fail 0.5, the seed decides which requests fail: the same
		// seed, the same ones.
		fp.SetRules(harness.FaultRule{Name: "coin", Match: harness.Verb("get", "", "pods", ""), Fail: 0.5})
		run := func() string {
			fp.SetSeed(42)
			out := ""
			for range 16 {
				_, err := via.CoreV1().Pods(ns).Get(t.Context(), "absent", metav1.GetOptions{})
				switch {
				case apierrors.IsInternalError(err):
					out += "F"
				case apierrors.IsNotFound(err):
					out += "."
				default:
					t.Fatalf("get: %v", err)
				}
			}
			return out
		}
		first, second := run(), run()
		t.Logf("seed 42: %s", first)
		if first != second {
			t.Errorf("seed 42 gave %s, then %s", first, second)
		}
		c := fp.Counts()["coin"]
		if c.Seen != 32 || c.Failed == 0 || c.Failed == 32 {
			t.Errorf("counts %+v, want 32 seen and some but not all failed", c)
		}
	})
}

func wantCounts(t *testing.T, fp *harness.FaultProxy, name string, want harness.FaultCount) {
	t.Helper()
	if got := fp.Counts()[name]; got != want {
		t.Errorf("rule %q counts %+v, want %+v", name, got, want)
	}
}

func waitForEvent(t *testing.T, w watch.Interface, typ watch.EventType, name string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed before %s %s", typ, name)
			}
			if pod, isPod := ev.Object.(*corev1.Pod); isPod && ev.Type == typ && pod.Name == name {
				return
			}
		case <-timeout:
			t.Fatalf("no %s event for %s within 10s", typ, name)
		}
	}
}
