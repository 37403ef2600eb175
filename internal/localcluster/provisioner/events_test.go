package provisioner

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

// recordedEvent is an event the controller recorded.
type recordedEvent struct {
	regarding      corev1.ObjectReference
	eventType      string
	reason, action string
	message        string
}

// eventLog is an events.EventRecorder that keeps what it is given, in
// order.
type eventLog struct {
	mu     sync.Mutex
	events []recordedEvent
}

func (l *eventLog) Eventf(regarding, _ runtime.Object, eventType, reason, action, note string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := recordedEvent{eventType: eventType, reason: reason, action: action, message: fmt.Sprintf(note, args...)}
	if ref, ok := regarding.(*corev1.ObjectReference); ok {
		e.regarding = *ref
	}
	l.events = append(l.events, e)
}

// of returns the events recorded on a request of namespace default.
func (l *eventLog) of(name string) []recordedEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []recordedEvent
	for _, e := range l.events {
		if e.regarding.Namespace == "default" && e.regarding.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// reasons lists the reasons of a request's events, a warning's with a "!".
func (l *eventLog) reasons(name string) []string {
	var out []string
	for _, e := range l.of(name) {
		r := e.reason
		if e.eventType == corev1.EventTypeWarning {
			r += "!"
		}
		out = append(out, r)
	}
	return out
}

// Every step the provisioner takes for a request is an event on it, with
// the message of its log line; losing capacity is a warning.
func TestControllerRecordsEvents(t *testing.T) {
	cfg := testConfig()
	cfg.Zones = cfg.Zones[:1] // us-central1-a: 2 nodes
	h := startHarness(t, cfg)
	h.createTemplate(seedTemplate("t"))
	h.createRequest(request("first", map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": "60"}, podSet("t", 3)))
	h.accepted("first")
	h.clock.Step(time.Second)
	h.createRequest(request("second", nil, podSet("t", 1)))
	h.createRequest(request("huge", nil, podSet("t", 5)))
	h.createRequest(request("early", nil, podSet("late", 1)))
	h.accepted("second")
	h.accepted("early")
	h.clock.Step(5 * time.Second)
	nodes := h.provisioned("first")
	h.eventually("second waits for capacity", func() bool { return len(h.events.of("second")) == 2 })
	h.eventually("early waits for its PodTemplate", func() bool { return len(h.events.of("early")) == 2 })

	// first's pod runs until its maxRunDurationSeconds pass.
	h.createPod("first-0", "first", nodes[0].Name, corev1.PodRunning)
	h.eventually("first in use", func() bool { return h.logged("default/first in use") })
	h.clock.Step(60 * time.Second)
	h.nodesGone("first")
	h.provisioned("second")
	h.createPod("second-0", "second", h.nodesOf("second")[0].Name, corev1.PodRunning)
	h.eventually("second in use", func() bool { return h.logged("default/second in use") })
	h.setPodPhase("second-0", corev1.PodSucceeded)
	h.eventually("second unneeded", func() bool { return h.logged("default/second: every pod") })
	h.clock.Step(UnneededTime)
	h.nodesGone("second")
	h.eventually("every event recorded", func() bool { return len(h.events.of("second")) == 7 && len(h.events.of("first")) == 6 })

	for name, want := range map[string][]string{
		"first":  {EventAccepted, EventCreatingNodes, EventProvisioned, EventInUse, EventCapacityRevoked + "!", EventNodesRemoved},
		"second": {EventAccepted, EventWaitingForCapacity, EventCreatingNodes, EventProvisioned, EventInUse, EventUnneeded, EventNodesRemoved},
		// Accepted, then failed on the same pass, without waiting for the
		// delay.
		"huge":  {EventAccepted, EventFailed + "!"},
		"early": {EventAccepted, EventWaitingForPodTemplate},
	} {
		if diff := cmp.Diff(want, h.events.reasons(name)); diff != "" {
			t.Errorf("events of %s (-want +got):\n%s", name, diff)
		}
	}

	wantRef := corev1.ObjectReference{APIVersion: "autoscaling.x-k8s.io/v1", Kind: "ProvisioningRequest", Namespace: "default", Name: "second", UID: "uid-second"}
	for _, e := range h.events.of("second") {
		if diff := cmp.Diff(wantRef, e.regarding); diff != "" {
			t.Errorf("%s event regards (-want +got):\n%s", e.reason, diff)
		}
		if e.action == "" {
			t.Errorf("%s event has no action", e.reason)
		}
		// The event says what the log line says of the request.
		if !h.logged("queued provisioning: default/second"+" "+e.message) && !h.logged("queued provisioning: default/second: "+e.message) {
			t.Errorf("%s event %q has no log line", e.reason, e.message)
		}
	}
	for reason, want := range map[string]string{
		EventWaitingForCapacity: "waits: waiting for 1 node in one zone (pod set 0: 1 pod, 2 per node): us-central1-a has 0 of 2 free",
		EventCreatingNodes:      "creating 1 node in us-central1-a, node pool NODEPOOL_NAME: ",
		EventProvisioned:        "provisioned: 1 node Ready in us-central1-a, node pool NODEPOOL_NAME",
		EventNodesRemoved:       "removed 1 node (every pod that consumed it has ended): ",
	} {
		if msg := messageOf(h.events.of("second"), reason); !strings.HasPrefix(msg, want) {
			t.Errorf("%s event of second: %q, want it to start with %q", reason, msg, want)
		}
	}
	if msg := messageOf(h.events.of("first"), EventCapacityRevoked); !strings.HasPrefix(msg, "CapacityRevoked: maxRunDurationSeconds (1m0s) passed") {
		t.Errorf("CapacityRevoked event of first: %q", msg)
	}
	if msg := messageOf(h.events.of("huge"), EventFailed); !strings.HasPrefix(msg, "failed (ExceedsZoneCapacity): needs 3 nodes in one zone") {
		t.Errorf("Failed event of huge: %q", msg)
	}
	if c := h.condition("early", autoscalingv1.Provisioned); c == nil || c.Status != metav1.ConditionFalse {
		t.Errorf("early: Provisioned = %+v, want False while its template is missing", c)
	}
}

func messageOf(events []recordedEvent, reason string) string {
	for _, e := range events {
		if e.reason == reason {
			return e.message
		}
	}
	return ""
}
