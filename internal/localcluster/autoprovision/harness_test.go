package autoprovision

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	ccfake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// harness runs a Controller on fake clientsets and a fake clock.
type harness struct {
	t      *testing.T
	ctx    context.Context
	kube   *kubefake.Clientset
	cc     *ccfake.Clientset
	clock  *testingclock.FakeClock
	ctrl   *Controller
	events *eventLog

	mu   sync.Mutex
	logs []string
}

// startHarness starts a controller with cfg, the classes and the nodes
// there are.
func startHarness(t *testing.T, cfg *Config, classes []*cloudv1.ComputeClass, nodes ...*corev1.Node) *harness {
	t.Helper()
	h := &harness{t: t, clock: testingclock.NewFakeClock(epoch), cc: ccfake.NewSimpleClientset(), kube: kubefake.NewClientset(), events: &eventLog{}} //nolint:staticcheck // NewClientset needs the OpenAPI schema of our types
	ctx, cancel := context.WithCancel(context.Background())
	h.ctx = ctx
	for _, c := range classes {
		if _, err := h.cc.CloudV1().ComputeClasses().Create(ctx, c, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range nodes {
		if _, err := h.kube.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ctrl, err := New(Options{Client: h.kube, ClassClient: h.cc, Config: cfg, Clock: h.clock, Log: h.log, Recorder: h.events})
	if err != nil {
		t.Fatal(err)
	}
	h.ctrl = ctrl
	done := make(chan error, 1)
	go func() { done <- ctrl.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return h
}

func (h *harness) log(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.logs = append(h.logs, fmt.Sprintf(format, args...))
}

// logged reports whether a line of the log contains every one of parts.
func (h *harness) logged(parts ...string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.ContainsFunc(h.logs, func(l string) bool {
		for _, p := range parts {
			if !strings.Contains(l, p) {
				return false
			}
		}
		return true
	})
}

// queuedRE matches how many nodes a line says were queued.
var queuedRE = regexp.MustCompile(`: (\d+) [a-z-]+ nodes? queued`)

// queuedNodes adds up the nodes the log lines of a group say were
// queued.
func (h *harness) queuedNodes(group string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, l := range h.logs {
		if m := queuedRE.FindStringSubmatch(l); m != nil && strings.Contains(l, group) {
			count, _ := strconv.Atoi(m[1])
			n += count
		}
	}
	return n
}

func (h *harness) dump() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.Join(h.logs, "\n")
}

// eventually waits, in real time, for cond: the controller runs in its
// own goroutine behind informers.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	err := wait.PollUntilContextTimeout(h.ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		h.t.Fatalf("waiting for %s: %v\nlog:\n%s", what, err, h.dump())
	}
}

// expectLogged waits for a line of the log with every one of parts: the
// controller logs a step after its API call.
func (h *harness) expectLogged(parts ...string) {
	h.t.Helper()
	h.eventually("a line with "+strings.Join(parts, " … "), func() bool { return h.logged(parts...) })
}

// expectEvents waits until the events on an object are want (reasons, a
// warning's with a "!").
func (h *harness) expectEvents(kind, name string, want []string) {
	h.t.Helper()
	h.eventually(fmt.Sprintf("events %v on %s %s", want, kind, name), func() bool { return slices.Equal(h.events.reasons(kind, name), want) })
}

// consistently checks that cond holds for a while of real time.
func (h *harness) consistently(what string, cond func() bool) {
	h.t.Helper()
	for range 20 {
		if !cond() {
			h.t.Fatalf("%s stopped holding\nlog:\n%s", what, h.dump())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// step moves the fake clock on, once the controller waits on it.
func (h *harness) step(d time.Duration) {
	h.t.Helper()
	h.eventually("the controller waiting", func() bool { return h.clock.HasWaiters() })
	h.clock.Step(d)
}

// job creates a Job of the given parallelism.
func (h *harness) job(name string, parallelism int32) *batchv1.Job {
	h.t.Helper()
	j := builders.Job("default", name).Parallelism(parallelism).Obj()
	j.UID = types.UID(name + "-uid")
	if _, err := h.kube.BatchV1().Jobs("default").Create(h.ctx, j, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	return j
}

// pod creates a pod of a Job (nil for none), exclusive per node pool.
func (h *harness) pod(name string, job *batchv1.Job, exclusive bool, edit ...func(*builders.PodBuilder)) *corev1.Pod {
	h.t.Helper()
	b := classPod(name, h.clock.Now().Sub(epoch))
	for _, e := range edit {
		e(b)
	}
	var p *corev1.Pod
	if job != nil {
		p = ofJob(b, job, exclusive)
	} else {
		p = b.Obj()
	}
	p.UID = types.UID(name + "-uid")
	if _, err := h.kube.CoreV1().Pods("default").Create(h.ctx, p, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// bind binds a pod to a node and marks it running.
func (h *harness) bind(pod, node string) {
	h.t.Helper()
	p, err := h.kube.CoreV1().Pods("default").Get(h.ctx, pod, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	p.Spec.NodeName = node
	p.Status.Phase = corev1.PodRunning
	if _, err := h.kube.CoreV1().Pods("default").Update(h.ctx, p, metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
	// The controller must see the pod on its node before the clock moves
	// on: a node it thinks unused for its idle time is removed.
	h.eventually(fmt.Sprintf("the controller seeing %s on %s", pod, node), func() bool {
		obj, ok, err := h.ctrl.pods.GetByKey("default/" + pod)
		seen, _ := obj.(*corev1.Pod)
		return err == nil && ok && seen.Spec.NodeName == node
	})
}

func (h *harness) deletePod(name string) {
	h.t.Helper()
	if err := h.kube.CoreV1().Pods("default").Delete(h.ctx, name, metav1.DeleteOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// nodes lists the auto-provisioned nodes, by name.
func (h *harness) nodes() []corev1.Node {
	h.t.Helper()
	list, err := h.kube.CoreV1().Nodes().List(h.ctx, metav1.ListOptions{LabelSelector: nodepools.AutoProvisionedLabel})
	if err != nil {
		h.t.Fatal(err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items
}

// names lists the auto-provisioned nodes' names, those of pool when given.
func (h *harness) names(pool string) []string {
	var out []string
	for _, n := range h.nodes() {
		if pool == "" || n.Labels[wellknown.NodePoolLabel] == pool {
			out = append(out, n.Name)
		}
	}
	return out
}

func (h *harness) node(name string) *corev1.Node {
	h.t.Helper()
	n, err := h.kube.CoreV1().Nodes().Get(h.ctx, name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// ready makes nodes Ready, as KWOK and the node lifecycle controller do.
func (h *harness) ready(names ...string) {
	h.t.Helper()
	for _, name := range names {
		n := h.node(name)
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
		if _, err := h.kube.CoreV1().Nodes().UpdateStatus(h.ctx, n, metav1.UpdateOptions{}); err != nil {
			h.t.Fatal(err)
		}
	}
}

// waitNodes waits until there are n auto-provisioned nodes and returns
// their names.
func (h *harness) waitNodes(n int) []string {
	h.t.Helper()
	h.eventually(fmt.Sprintf("%d nodes", n), func() bool { return len(h.nodes()) == n })
	return h.names("")
}

// eventLog records the controller's events.
type eventLog struct {
	mu     sync.Mutex
	events []recordedEvent
}

type recordedEvent struct {
	kind, name        string
	eventType, reason string
	message           string
}

func (l *eventLog) Eventf(regarding, _ runtime.Object, eventType, reason, _, note string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := recordedEvent{eventType: eventType, reason: reason, message: fmt.Sprintf(note, args...)}
	switch o := regarding.(type) {
	case *corev1.ObjectReference:
		e.kind, e.name = o.Kind, o.Name
	case *corev1.Pod:
		e.kind, e.name = "Pod", o.Name
	}
	l.events = append(l.events, e)
}

// reasons lists the reasons of the events on an object, a warning's with
// a "!".
func (l *eventLog) reasons(kind, name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		if e.kind == kind && e.name == name {
			r := e.reason
			if e.eventType == corev1.EventTypeWarning {
				r += "!"
			}
			out = append(out, r)
		}
	}
	return out
}

// message is the last message of an event of reason on an object.
func (l *eventLog) message(kind, name, reason string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	msg := ""
	for _, e := range l.events {
		if e.kind == kind && e.name == name && e.reason == reason {
			msg = e.message
		}
	}
	return msg
}
