package controllers

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// heldFixture is a held-pod writer over a fake clientset, its lister fed
// from the clientset's objects as they are when synced.
type heldFixture struct {
	held   *HeldPods
	client *fake.Clientset
	clock  *testingclock.FakeClock
}

func newHeldFixture(pods ...*corev1.Pod) *heldFixture {
	client := fake.NewClientset()
	for _, p := range pods {
		_, _ = client.CoreV1().Pods(p.Namespace).Create(context.Background(), p, metav1.CreateOptions{})
	}
	clk := testingclock.NewFakeClock(time.Unix(1000, 0))
	held := NewHeldPods(clk, nil)
	held.grace = 0
	return &heldFixture{held: held, client: client, clock: clk}
}

// lister is a lister of the clientset's pods now.
func (f *heldFixture) lister(t *testing.T) corelisters.PodLister {
	t.Helper()
	factory := informers.NewSharedInformerFactory(f.client, 0)
	inf := factory.Core().V1().Pods()
	list, err := f.client.CoreV1().Pods("").List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		_ = inf.Informer().GetIndexer().Add(&list.Items[i])
	}
	return inf.Lister()
}

// drain syncs every queued pod once.
func (f *heldFixture) drain(t *testing.T) {
	t.Helper()
	for f.held.queue.Len() > 0 {
		k, _ := f.held.queue.Get()
		if err := f.held.sync(t.Context(), f.client, f.lister(t), k); err != nil {
			t.Fatalf("sync %s: %v", k, err)
		}
		f.held.queue.Done(k)
	}
}

func (f *heldFixture) condition(t *testing.T, name string) *corev1.PodCondition {
	t.Helper()
	p, err := f.client.CoreV1().Pods("ns").Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == corev1.PodScheduled {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func heldPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, UID: types.UID(name + "-uid"), ResourceVersion: "1"}}
}

func TestHeldPodsSayWhy(t *testing.T) {
	a, b, c := heldPod("a"), heldPod("b"), heldPod("c")
	f := newHeldFixture(a, b, c)
	f.held.Held(a, "QuotaExceeded", "insufficient quota (nominal 32, 32 in use)", false)
	f.held.Held(b, "WaitingForGang", "waiting for a to find room", false)
	f.held.Held(c, "QuotaExceeded", "insufficient quota", false)
	f.held.Released(c) // let go before it was written
	f.drain(t)
	if got := f.condition(t, "a"); got == nil || got.Status != corev1.ConditionFalse || got.Reason != "QuotaExceeded" ||
		got.Message != "insufficient quota (nominal 32, 32 in use)" || got.LastTransitionTime.IsZero() {
		t.Errorf("a: PodScheduled %+v, want False QuotaExceeded with its message", got)
	}
	if got := f.condition(t, "b"); got == nil || got.Reason != "WaitingForGang" {
		t.Errorf("b: PodScheduled %+v, want False WaitingForGang", got)
	}
	if got := f.condition(t, "c"); got != nil {
		t.Errorf("c was let go, yet its PodScheduled is %+v", got)
	}

	// A new message of the same reason waits for RestatePeriod; a new
	// reason is written at once.
	f.held.Held(a, "QuotaExceeded", "insufficient quota (nominal 32, 24 in use)", false)
	f.held.Held(b, "QuotaExceeded", "insufficient quota", false)
	f.drain(t)
	if got := f.condition(t, "a"); got.Message != "insufficient quota (nominal 32, 32 in use)" {
		t.Errorf("a's message changed within %s: %q", RestatePeriod, got.Message)
	}
	if got := f.condition(t, "b"); got.Reason != "QuotaExceeded" {
		t.Errorf("b: reason %s, want the new reason QuotaExceeded at once", got.Reason)
	}
	f.clock.Step(RestatePeriod)
	if err := f.held.sync(t.Context(), f.client, f.lister(t), types.NamespacedName{Namespace: "ns", Name: "a"}); err != nil {
		t.Fatal(err)
	}
	if got := f.condition(t, "a"); got.Message != "insufficient quota (nominal 32, 24 in use)" {
		t.Errorf("a's message after %s: %q, want the new one", RestatePeriod, got.Message)
	}
}

// A pod bound, deleted or replaced (same name, new UID) since it was held
// is not written.
func TestHeldPodsSkipPodsThatMovedOn(t *testing.T) {
	bound, deleting, replaced := heldPod("bound"), heldPod("deleting"), heldPod("replaced")
	bound.Spec.NodeName = "node-1"
	now := metav1.NewTime(time.Unix(1000, 0))
	deleting.DeletionTimestamp, deleting.Finalizers = &now, []string{"x"}
	f := newHeldFixture(bound, deleting, replaced)
	f.held.Held(bound, "QuotaExceeded", "m", false)
	f.held.Held(deleting, "QuotaExceeded", "m", false)
	old := replaced.DeepCopy()
	old.UID = "old-uid"
	f.held.Held(old, "QuotaExceeded", "m", false)
	f.drain(t)
	for _, name := range []string{"bound", "deleting", "replaced"} {
		if got := f.condition(t, name); got != nil {
			t.Errorf("%s: PodScheduled written: %+v", name, got)
		}
	}
	if n := len(f.held.want); n != 0 {
		t.Errorf("%d pods still remembered, want none", n)
	}
}

// A member's "waiting for its head" never replaces what its whole gang
// waits for; the gang's reason replaces it.
func TestHeldGangReasonWins(t *testing.T) {
	a, b := heldPod("a"), heldPod("b")
	f := newHeldFixture(a, b)
	f.held.HeldWaiting(a, "WaitingForGang", "waiting for b to find room")
	f.held.HeldAll([]state.PodRef{{Namespace: "ns", Name: "a", UID: a.UID}, {Namespace: "ns", Name: "b", UID: b.UID}}, "QuotaExceeded", "insufficient quota", false)
	f.held.HeldWaiting(a, "WaitingForGang", "waiting for b to find room")
	f.drain(t)
	for _, name := range []string{"a", "b"} {
		if got := f.condition(t, name); got == nil || got.Reason != "QuotaExceeded" {
			t.Errorf("%s: PodScheduled %+v, want the gang's QuotaExceeded", name, got)
		}
	}
}

// A member's wait for its gang replaces its earlier one: held before the
// scheduler had indexed it, a member must not keep saying so once it
// waits for its head.
func TestHeldWaitingReplacesAnEarlierWait(t *testing.T) {
	a := heldPod("a")
	f := newHeldFixture(a)
	f.held.HeldWaiting(a, "WaitingForGang", "waiting for the scheduler to observe pod ns/a")
	f.held.HeldWaiting(a, "WaitingForGang", "waiting for b to find room for ns/js: no domain fits")
	f.drain(t)
	if got := f.condition(t, "a"); got == nil || got.Message != "waiting for b to find room for ns/js: no domain fits" {
		t.Errorf("a: PodScheduled %+v, want the later wait", got)
	}
}

// A pod is told why only once it has been held for the grace period: one
// let go sooner costs no write.
func TestHeldPodsToldAfterTheGrace(t *testing.T) {
	a, b := heldPod("a"), heldPod("b")
	f := newHeldFixture(a, b)
	f.held.grace = 5 * time.Second
	f.held.Held(a, "QuotaExceeded", "insufficient quota", false)
	f.held.Held(b, "QuotaExceeded", "insufficient quota", false)
	f.drain(t)
	if got := f.condition(t, "a"); got != nil {
		t.Fatalf("a told before the grace: %+v", got)
	}
	f.held.Released(b)
	f.clock.Step(5 * time.Second)
	// The writer's queue hands a back after the grace (AddAfter, on the
	// real clock); here it is synced as it would be.
	for _, name := range []string{"a", "b"} {
		if err := f.held.sync(t.Context(), f.client, f.lister(t), types.NamespacedName{Namespace: "ns", Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	if got := f.condition(t, "a"); got == nil || got.Reason != "QuotaExceeded" {
		t.Errorf("a after the grace: PodScheduled %+v, want False QuotaExceeded", got)
	}
	if got := f.condition(t, "b"); got != nil {
		t.Errorf("b was let go within the grace, yet told: %+v", got)
	}
	// A new reason for a pod held for long is written at once.
	f.held.Held(a, "WaitingForDomains", "no pool free", false)
	f.drain(t)
	if got := f.condition(t, "a"); got.Reason != "WaitingForDomains" {
		t.Errorf("a's new reason not written at once: %+v", got)
	}
}

// A pod waiting for capacity to be provisioned is told at once: that wait
// lasts minutes, and the grace would only hide it from its user.
func TestHeldPodsWaitingForProvisioningToldAtOnce(t *testing.T) {
	a := heldPod("a")
	f := newHeldFixture(a)
	f.held.grace = 5 * time.Second
	f.held.Held(a, state.ReasonWaitingForProvisioning, "waiting for ProvisioningRequest ns/req to be Provisioned: accepted", false)
	f.drain(t)
	if got := f.condition(t, "a"); got == nil || got.Reason != state.ReasonWaitingForProvisioning {
		t.Errorf("a: PodScheduled %+v, want False WaitingForProvisioning at once", got)
	}
	// The request's next word is written at once too: no RestatePeriod.
	f.held.Held(a, state.ReasonWaitingForProvisioning, "waiting for ProvisioningRequest ns/req to be Provisioned: provisioned", false)
	f.drain(t)
	if got := f.condition(t, "a"); got == nil || !strings.HasSuffix(got.Message, ": provisioned") {
		t.Errorf("a: PodScheduled %+v, want the request's latest word at once", got)
	}
}

// Once the gate lets one member of a gang go, the reason its whole gang was
// told (its provisioning wait, its queue's verdict) no longer holds the
// others: they say they wait for it, and their own wait for the gang
// replaces that. A member told the gang's
// reason alone (Held), or a gang no member of which was let go, keeps it.
func TestHeldGangReasonEndsWhenAMemberIsLetGo(t *testing.T) {
	head, a, b, c := heldPod("head"), heldPod("a"), heldPod("b"), heldPod("c")
	f := newHeldFixture(head, a, b, c)
	ref := func(p *corev1.Pod) state.PodRef {
		return state.PodRef{Namespace: p.Namespace, Name: p.Name, UID: p.UID}
	}
	f.held.HeldAll([]state.PodRef{ref(head), ref(a)}, state.ReasonWaitingForProvisioning, "not yet accepted by a provisioner", false)
	// Told again with b as well: b is of the same gang.
	f.held.HeldAll([]state.PodRef{ref(head), ref(a), ref(b)}, state.ReasonWaitingForProvisioning, "not yet accepted by a provisioner", false)
	f.held.HeldAll([]state.PodRef{ref(c)}, "QuotaExceeded", "insufficient quota", false)
	f.drain(t)

	f.held.Released(head) // provisioned: the head plans
	f.drain(t)
	for _, name := range []string{"a", "b"} {
		if got := f.condition(t, name); got == nil || got.Reason != state.ReasonWaitingForGang || got.Message != "waiting for ns/head to find room for its gang" {
			t.Errorf("%s: PodScheduled %+v, want WaitingForGang for ns/head", name, got)
		}
	}
	wait := "waiting for head to find room for ns/js: needs 4 pods in one subblock; the largest free one takes 2"
	for _, p := range []*corev1.Pod{a, b, c} {
		f.held.HeldWaiting(p, state.ReasonWaitingForGang, wait)
	}
	f.clock.Step(RestatePeriod) // a new message of the same reason
	f.drain(t)
	for _, name := range []string{"a", "b"} {
		if got := f.condition(t, name); got == nil || got.Message != wait {
			t.Errorf("%s: PodScheduled %+v, want its own wait for the head", name, got)
		}
	}
	if got := f.condition(t, "c"); got == nil || got.Reason != "QuotaExceeded" {
		t.Errorf("c (another gang, none let go): PodScheduled %+v, want its gang's QuotaExceeded", got)
	}
}

// The siblings of a member let go are told they wait for it only after the
// grace: most pass with it at once (their head placed the gang), and a
// sibling let go within the grace costs no write.
func TestHeldGangSiblingsToldAfterTheGrace(t *testing.T) {
	head, a := heldPod("head"), heldPod("a")
	f := newHeldFixture(head, a)
	f.held.grace = time.Minute
	ref := func(p *corev1.Pod) state.PodRef {
		return state.PodRef{Namespace: p.Namespace, Name: p.Name, UID: p.UID}
	}
	f.held.HeldAll([]state.PodRef{ref(head), ref(a)}, state.ReasonWaitingForProvisioning, "not yet accepted by a provisioner", false)
	f.drain(t) // a provisioning wait is told at once
	f.held.Released(head)
	f.drain(t)
	if got := f.condition(t, "a"); got == nil || got.Reason != state.ReasonWaitingForProvisioning {
		t.Errorf("a right after its head was let go: PodScheduled %+v, want still WaitingForProvisioning (told after the grace)", got)
	}
	f.held.Released(a)
	if _, held := f.held.want[types.NamespacedName{Namespace: "ns", Name: "a"}]; held {
		t.Error("a, let go, is still to be told something")
	}
}
