package provisioner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	provfake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

var epoch = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// harness runs a Controller on fake clientsets and a fake clock.
type harness struct {
	t     *testing.T
	ctx   context.Context
	kube  *kubefake.Clientset
	prov  *provfake.Clientset
	clock *testingclock.FakeClock
	ctrl  *Controller
	// events are those the controller recorded.
	events *eventLog

	mu   sync.Mutex
	logs []string
}

func startHarness(t *testing.T, cfg *Config, objs ...*corev1.Node) *harness {
	t.Helper()
	h := &harness{t: t, clock: testingclock.NewFakeClock(epoch), prov: provfake.NewSimpleClientset(), events: &eventLog{}} //nolint:staticcheck // NewClientset needs the OpenAPI schema of our types
	h.kube = kubefake.NewClientset()
	ctx, cancel := context.WithCancel(context.Background())
	h.ctx = ctx
	for _, n := range objs {
		if _, err := h.kube.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ctrl, err := New(Options{Client: h.kube, RequestClient: h.prov, Config: cfg, Clock: h.clock, Log: h.log, Recorder: h.events})
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

func (h *harness) logged(substr string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, l := range h.logs {
		if strings.Contains(l, substr) {
			return true
		}
	}
	return false
}

// eventually waits, in real time, for cond; the controller runs in its own
// goroutine behind informers.
func (h *harness) eventually(what string, cond func() bool) {
	h.t.Helper()
	err := wait.PollUntilContextTimeout(h.ctx, 5*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.t.Fatalf("waiting for %s: %v\nlog:\n%s", what, err, strings.Join(h.logs, "\n"))
	}
}

// consistently checks that cond holds for a while of real time.
func (h *harness) consistently(what string, cond func() bool) {
	h.t.Helper()
	for range 20 {
		if !cond() {
			h.t.Fatalf("%s stopped holding", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (h *harness) createTemplate(tmpl *corev1.PodTemplate) {
	h.t.Helper()
	if _, err := h.kube.CoreV1().PodTemplates(tmpl.Namespace).Create(h.ctx, tmpl, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// createRequest creates a request at the fake clock's time; the fake
// clientset sets neither UID nor creation time.
func (h *harness) createRequest(req *autoscalingv1.ProvisioningRequest) {
	h.t.Helper()
	req.UID = types.UID("uid-" + req.Name)
	req.CreationTimestamp = metav1.NewTime(h.clock.Now())
	if _, err := h.prov.AutoscalingV1().ProvisioningRequests(req.Namespace).Create(h.ctx, req, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) request(name string) *autoscalingv1.ProvisioningRequest {
	h.t.Helper()
	req, err := h.prov.AutoscalingV1().ProvisioningRequests("default").Get(h.ctx, name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return req
}

func (h *harness) condition(name, typ string) *metav1.Condition {
	return meta.FindStatusCondition(h.request(name).Status.Conditions, typ)
}

func (h *harness) hasCondition(name, typ string, status metav1.ConditionStatus, reason string) bool {
	c := h.condition(name, typ)
	return c != nil && c.Status == status && c.Reason == reason
}

// nodesOf lists the nodes provisioned for a request.
func (h *harness) nodesOf(name string) []corev1.Node {
	h.t.Helper()
	list, err := h.kube.CoreV1().Nodes().List(h.ctx, metav1.ListOptions{LabelSelector: nodepools.ProvisionedLabel + "=uid-" + name})
	if err != nil {
		h.t.Fatal(err)
	}
	return list.Items
}

func (h *harness) createPod(name, request, node string, phase corev1.PodPhase) {
	h.t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Annotations: map[string]string{
			wellknown.ConsumeProvisioningRequestAnnotation: request,
			wellknown.ProvisioningClassNameAnnotation:      wellknown.QueuedProvisioningClass,
		}},
		Spec:   corev1.PodSpec{NodeName: node},
		Status: corev1.PodStatus{Phase: phase},
	}
	if _, err := h.kube.CoreV1().Pods("default").Create(h.ctx, pod, metav1.CreateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) setPodPhase(name string, phase corev1.PodPhase) {
	h.t.Helper()
	pod, err := h.kube.CoreV1().Pods("default").Get(h.ctx, name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	pod.Status.Phase = phase
	if _, err := h.kube.CoreV1().Pods("default").UpdateStatus(h.ctx, pod, metav1.UpdateOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// accepted waits until the controller accepted a request: its delay runs
// from then.
func (h *harness) accepted(name string) {
	h.t.Helper()
	h.eventually(name+" Accepted", func() bool { return h.hasCondition(name, autoscalingv1.Accepted, metav1.ConditionTrue, ReasonAccepted) })
}

// provisioned waits for a request's nodes, makes them Ready as KWOK and
// the node lifecycle controller would, and waits for Provisioned: not
// before.
func (h *harness) provisioned(name string) []corev1.Node {
	h.t.Helper()
	h.eventually("the nodes of "+name+" created", func() bool {
		c := h.condition(name, autoscalingv1.Provisioned)
		return c != nil && strings.HasPrefix(c.Message, "creating ") && len(h.nodesOf(name)) > 0
	})
	if c := h.condition(name, autoscalingv1.Provisioned); c.Status != metav1.ConditionFalse {
		h.t.Fatalf("%s Provisioned before its nodes are Ready: %+v", name, *c)
	}
	h.makeReady(name)
	h.eventually(name+" Provisioned", func() bool {
		return h.hasCondition(name, autoscalingv1.Provisioned, metav1.ConditionTrue, ReasonProvisioned)
	})
	return h.nodesOf(name)
}

func (h *harness) makeReady(name string) {
	h.t.Helper()
	for _, n := range h.nodesOf(name) {
		n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
		if _, err := h.kube.CoreV1().Nodes().UpdateStatus(h.ctx, &n, metav1.UpdateOptions{}); err != nil {
			h.t.Fatal(err)
		}
	}
}

func (h *harness) nodesGone(name string) {
	h.t.Helper()
	h.eventually("the nodes of "+name+" removed", func() bool { return len(h.nodesOf(name)) == 0 })
}

// Seed 003 end to end: Accepted at once, Provisioned after the delay with
// a node in the pool the Job's node selector names, removed once the Job's
// pod has run and ended.
func TestControllerSeed003Lifecycle(t *testing.T) {
	cfg := testConfig()
	cfg.BookingTime = 5 * time.Minute
	h := startHarness(t, cfg)
	h.createTemplate(seedTemplate("ppt-sample"))
	h.createRequest(request("sample", map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": "600"}, podSet("ppt-sample", 1)))

	h.accepted("sample")
	h.consistently("no nodes before the delay", func() bool { return len(h.nodesOf("sample")) == 0 })
	h.clock.Step(5 * time.Second)
	nodes := h.provisioned("sample")
	if len(nodes) != 1 {
		t.Fatalf("%d nodes, want 1", len(nodes))
	}
	n := nodes[0]
	for key, want := range map[string]string{
		wellknown.NodePoolLabel:       "NODEPOOL_NAME",
		wellknown.ZoneLabel:           "us-central1-b",
		wellknown.GPUAcceleratorLabel: "nvidia-l4",
	} {
		if n.Labels[key] != want {
			t.Errorf("node label %s = %q, want %q", key, n.Labels[key], want)
		}
	}
	if n.Annotations[nodepools.KWOKNodeAnnotation] != "fake" || n.Annotations[RequestAnnotation] != "default/sample" {
		t.Errorf("node annotations = %v", n.Annotations)
	}
	req := h.request("sample")
	if req.Status.ProvisioningClassDetails["zone"] != "us-central1-b" || req.Status.ProvisioningClassDetails["nodePool"] != "NODEPOOL_NAME" {
		t.Errorf("provisioningClassDetails = %v", req.Status.ProvisioningClassDetails)
	}

	// The Job's pod runs on it, then succeeds.
	h.createPod("sample-pod", "sample", n.Name, corev1.PodRunning)
	h.eventually("the request in use", func() bool { return h.logged("default/sample in use") })
	h.clock.Step(6 * time.Minute) // past the booking time, within maxRunDurationSeconds: used capacity stays
	h.consistently("nodes kept while the pod runs", func() bool { return len(h.nodesOf("sample")) == 1 })
	h.setPodPhase("sample-pod", corev1.PodSucceeded)
	h.eventually("the pods ended", func() bool { return h.logged("every pod that consumed it has ended") })
	h.consistently("nodes kept a little after the pods end", func() bool { return len(h.nodesOf("sample")) == 1 })
	h.clock.Step(UnneededTime)
	h.nodesGone("sample")
	for _, typ := range []string{autoscalingv1.BookingExpired, autoscalingv1.CapacityRevoked, autoscalingv1.Failed} {
		if c := h.condition("sample", typ); c != nil {
			t.Errorf("unexpected condition %+v", *c)
		}
	}
}

func TestControllerMaxRunDurationRevokesCapacity(t *testing.T) {
	h := startHarness(t, testConfig())
	h.createTemplate(seedTemplate("t"))
	h.createRequest(request("short", map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": "60"}, podSet("t", 3)))
	h.accepted("short")
	h.clock.Step(5 * time.Second)
	nodes := h.provisioned("short")
	if len(nodes) != 2 || nodes[0].Labels[wellknown.ZoneLabel] != "us-central1-a" || nodes[1].Labels[wellknown.ZoneLabel] != "us-central1-a" {
		t.Fatalf("want 2 nodes in us-central1-a (3 pods, 2 per node), got %d", len(nodes))
	}
	h.createPod("short-0", "short", nodes[0].Name, corev1.PodRunning)
	h.eventually("the request in use", func() bool { return h.logged("default/short in use") })
	h.clock.Step(60 * time.Second)
	h.eventually("CapacityRevoked", func() bool {
		return h.hasCondition("short", autoscalingv1.CapacityRevoked, metav1.ConditionTrue, ReasonMaxRunDurationExceeded)
	})
	h.nodesGone("short")
	if msg := h.condition("short", autoscalingv1.CapacityRevoked).Message; !strings.Contains(msg, "maxRunDurationSeconds (1m0s)") {
		t.Errorf("CapacityRevoked message %q", msg)
	}
}

func TestControllerBookingExpires(t *testing.T) {
	h := startHarness(t, testConfig())
	h.createTemplate(seedTemplate("t"))
	h.createRequest(request("idle", nil, podSet("t", 1)))
	h.accepted("idle")
	h.clock.Step(5 * time.Second)
	h.provisioned("idle")
	// A pod that never got a node does not consume the request.
	h.createPod("idle-0", "idle", "", corev1.PodPending)
	h.clock.Step(10 * time.Minute)
	h.eventually("BookingExpired", func() bool {
		return h.hasCondition("idle", autoscalingv1.BookingExpired, metav1.ConditionTrue, ReasonBookingExpired)
	})
	h.nodesGone("idle")
}

// Requests queue in creation order for the capacity of a zone; deleting a
// request, or more capacity in the file, lets the next one in.
func TestControllerQueuesForCapacity(t *testing.T) {
	cfg := testConfig()
	cfg.Zones = cfg.Zones[:1]
	cfg.Zones[0].MaxNodes = 1
	// A node of the node pool file and a left-over node of a request that
	// no longer exists.
	fileNode := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "gpu-l4-node-0", Labels: map[string]string{nodepools.ManagedLabel: "true"}}}
	leftOver := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "default-gone-abcde-0", Labels: map[string]string{
		nodepools.ProvisionedLabel: "uid-gone", wellknown.ZoneLabel: "us-central1-a"}, Annotations: map[string]string{RequestAnnotation: "default/gone"}}}
	h := startHarness(t, cfg, fileNode, leftOver)
	h.eventually("the left-over node removed", func() bool { return len(h.nodesOf("gone")) == 0 })

	h.createTemplate(seedTemplate("t"))
	for _, name := range []string{"first", "second", "third"} {
		h.createRequest(request(name, nil, podSet("t", 1)))
		h.accepted(name)
		h.clock.Step(time.Second)
	}
	h.clock.Step(5 * time.Second)
	h.provisioned("first")
	h.eventually("second waits for capacity", func() bool {
		c := h.condition("second", autoscalingv1.Provisioned)
		return c != nil && c.Status == metav1.ConditionFalse && c.Reason == ReasonNotProvisioned &&
			c.Message == "waiting for 1 node in one zone (pod set 0: 1 pod, 2 per node): us-central1-a has 0 of 1 free"
	})
	h.eventually("third waits behind second", func() bool {
		c := h.condition("third", autoscalingv1.Provisioned)
		return c != nil && c.Message == "queued behind default/second, which waits for 1 node in one zone"
	})

	if err := h.prov.AutoscalingV1().ProvisioningRequests("default").Delete(h.ctx, "first", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	h.nodesGone("first")
	h.provisioned("second")
	h.consistently("third still waits", func() bool { return len(h.nodesOf("third")) == 0 })

	more := testConfig()
	more.Zones = more.Zones[:1]
	h.ctrl.SetConfig(more)
	h.provisioned("third")

	if _, err := h.kube.CoreV1().Nodes().Get(h.ctx, fileNode.Name, metav1.GetOptions{}); err != nil {
		t.Errorf("the node pool file's node: %v", err)
	}
	if !h.logged("default/gone: removed 1 node (request deleted)") {
		t.Errorf("the left-over node's removal was not logged")
	}
}

// What can never be provisioned fails at once, without waiting for the
// delay; a request of another class is not touched.
func TestControllerFailsAtOnce(t *testing.T) {
	h := startHarness(t, testConfig())
	h.createTemplate(seedTemplate("t"))
	h.createRequest(request("huge", nil, podSet("t", 6)))
	h.createRequest(request("bad", map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": "soon"}, podSet("t", 1)))
	other := request("other", nil, podSet("t", 1))
	other.Spec.ProvisioningClassName = autoscalingv1.ProvisioningClassCheckCapacity
	h.createRequest(other)

	h.eventually("huge Failed", func() bool {
		return h.hasCondition("huge", autoscalingv1.Failed, metav1.ConditionTrue, ReasonExceedsZoneCapacity)
	})
	if msg := h.condition("huge", autoscalingv1.Failed).Message; msg != "needs 3 nodes in one zone (pod set 0: 6 pods, 2 per node); the largest zone it may use, us-central1-a, holds 2 nodes" {
		t.Errorf("Failed message %q", msg)
	}
	h.eventually("bad Failed", func() bool {
		return h.hasCondition("bad", autoscalingv1.Failed, metav1.ConditionTrue, ReasonInvalidRequest)
	})
	h.clock.Step(time.Hour)
	h.consistently("nothing provisioned, the other class untouched", func() bool {
		return len(h.nodesOf("huge"))+len(h.nodesOf("bad"))+len(h.nodesOf("other")) == 0 && len(h.request("other").Status.Conditions) == 0
	})
}

// A request whose PodTemplate is not there yet waits for it.
func TestControllerWaitsForPodTemplate(t *testing.T) {
	h := startHarness(t, testConfig())
	h.createRequest(request("early", nil, podSet("late", 1)))
	h.accepted("early")
	h.clock.Step(5 * time.Second)
	h.eventually("waiting for the template", func() bool {
		return h.hasCondition("early", autoscalingv1.Provisioned, metav1.ConditionFalse, ReasonPodTemplateNotFound)
	})
	h.createTemplate(seedTemplate("late"))
	h.provisioned("early")
}

// A request deleted before its delay passed gets no nodes.
func TestControllerDeletedBeforeProvisioning(t *testing.T) {
	h := startHarness(t, testConfig())
	h.createTemplate(seedTemplate("t"))
	h.createRequest(request("cancelled", nil, podSet("t", 1)))
	h.accepted("cancelled")
	if err := h.prov.AutoscalingV1().ProvisioningRequests("default").Delete(h.ctx, "cancelled", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// Seen by the controller's informer, not only by the API: a pass that
	// still lists the request once the delay has passed provisions it.
	h.eventually("the deletion seen", func() bool {
		_, err := h.ctrl.requests.ProvisioningRequests("default").Get("cancelled")
		return apierrors.IsNotFound(err)
	})
	h.clock.Step(5 * time.Second)
	h.consistently("no nodes", func() bool { return len(h.nodesOf("cancelled")) == 0 })
}

// A provisioner started on a cluster with requests provisioned before (the
// queuedProvisioning block removed from the file and put back) takes them
// over from their conditions and nodes.
func TestControllerTakesOverProvisionedRequests(t *testing.T) {
	provisionedAt := metav1.NewTime(epoch.Add(-time.Minute))
	provisionedBefore := func(name string) *autoscalingv1.ProvisioningRequest {
		req := request(name, nil, podSet("t", 1))
		req.Status.Conditions = []metav1.Condition{
			{Type: autoscalingv1.Accepted, Status: metav1.ConditionTrue, Reason: ReasonAccepted, LastTransitionTime: provisionedAt},
			{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue, Reason: ReasonProvisioned, LastTransitionTime: provisionedAt},
		}
		return req
	}
	cfg := testConfig()
	d := Demand{PodSets: []PodSetDemand{{Pods: 1, PodsPerNode: 2, Nodes: 1, Pool: "NODEPOOL_NAME"}}, Nodes: 1}
	kept := Nodes(Ref{"default", "kept"}, "uid-kept", d, cfg.Zones[1], cfg)[0]
	h := startHarness(t, cfg, kept)
	h.createTemplate(seedTemplate("t"))
	h.createRequest(provisionedBefore("kept"))
	h.createRequest(provisionedBefore("released"))
	// Its nodes were created, they were not Ready yet: no second set.
	halfway := request("halfway", nil, podSet("t", 1))
	halfway.Status.Conditions = provisionedBefore("x").Status.Conditions[:1]
	h.createRequest(halfway)
	if _, err := h.kube.CoreV1().Nodes().Create(h.ctx, Nodes(Ref{"default", "halfway"}, "uid-halfway", d, cfg.Zones[0], cfg)[0], metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.clock.Step(5 * time.Second)
	h.consistently("halfway waits for its node", func() bool { return h.condition("halfway", autoscalingv1.Provisioned) == nil })
	h.makeReady("halfway")
	h.eventually("halfway Provisioned", func() bool {
		return h.hasCondition("halfway", autoscalingv1.Provisioned, metav1.ConditionTrue, ReasonProvisioned)
	})
	if n := len(h.nodesOf("halfway")); n != 1 {
		t.Errorf("halfway has %d nodes, want 1", n)
	}

	// A new request for zone us-central1-b, whose one node kept holds.
	h.createTemplate(template("tb", map[string]string{wellknown.ZoneLabel: "us-central1-b"}, resources("1", "1Gi", 1)))
	h.createRequest(request("new", nil, podSet("tb", 1)))
	h.accepted("new")
	h.clock.Step(5 * time.Second)
	h.eventually("new waits for the node kept holds", func() bool {
		c := h.condition("new", autoscalingv1.Provisioned)
		return c != nil && c.Message == "waiting for 1 node in one zone (pod set 0: 1 pod, 2 per node): us-central1-b has 0 of 1 free"
	})

	h.clock.Step(10 * time.Minute)
	h.eventually("kept's booking expired", func() bool {
		return h.hasCondition("kept", autoscalingv1.BookingExpired, metav1.ConditionTrue, ReasonBookingExpired)
	})
	h.nodesGone("kept")
	h.provisioned("new")
	h.consistently("a request whose nodes went before is left alone", func() bool {
		return h.condition("released", autoscalingv1.BookingExpired) == nil
	})
}
