package multislicegang

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The tests below run the real engine (fixture): they check the manager's
// answers the hints and the gate act on, which a fake would only echo.

// hintFixture is a complete two-pod gang whose plan failed, so that its
// first pod is the head it retries through, next to a plain pod.
type hintFixture struct {
	*fixture
	head, other, plain *corev1.Pod
}

func newHintFixture(t *testing.T) *hintFixture {
	f := newFixture(t, builders.V5ePools(1)...)
	all := f.addGang(unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj())
	plain := unit.Pod("plain").Obj()
	f.addPods(plain)
	f.st.PlanFailed(all[0], 0, &placement.Failure{Message: "waiting for 1 more domains"})
	return &hintFixture{fixture: f, head: all[0], other: all[1], plain: plain}
}

// checkHint checks what the queueing hint function name returned.
func checkHint(t *testing.T, name string, want, got fwk.QueueingHint, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hint (-want +got):\n%s", diff)
	}
}

// End to end: which pods the engine says wait for room (its head, not the
// members behind it nor plain pods). How the hint reads the deleted object
// and the answer is TestHintsOnManager's.
func TestHintPodDeleted(t *testing.T) {
	assigned := unit.Pod("gone").NodeName("pool-1-node-0").Obj()
	cases := map[string]struct {
		target  func(h *hintFixture) *corev1.Pod
		deleted any
		want    fwk.QueueingHint
	}{
		"an assigned pod wakes the waiting workload's head": {
			target: func(h *hintFixture) *corev1.Pod { return h.head }, deleted: assigned, want: fwk.Queue,
		},
		"another member waits for the head": {
			target: func(h *hintFixture) *corev1.Pod { return h.other }, deleted: assigned, want: fwk.QueueSkip,
		},
		"a plain pod was not rejected for room": {
			target: func(h *hintFixture) *corev1.Pod { return h.plain }, deleted: assigned, want: fwk.QueueSkip,
		},
		"a pod the state does not know": {
			target: func(*hintFixture) *corev1.Pod { return unit.Pod("unknown").Obj() }, deleted: assigned, want: fwk.QueueSkip,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHintFixture(t)
			got, err := h.pl.hintPodDeleted(klog.Background(), tc.target(h), tc.deleted, nil)
			checkHint(t, "hintPodDeleted", tc.want, got, err)
		})
	}
}

// End to end: as TestHintPodDeleted, for nodes.
func TestHintNodeChanged(t *testing.T) {
	n := builders.V5ePool("pool-9").Node(0)
	cases := map[string]struct {
		target func(h *hintFixture) *corev1.Pod
		want   fwk.QueueingHint
	}{
		"the waiting workload's head": {target: func(h *hintFixture) *corev1.Pod { return h.head }, want: fwk.Queue},
		"another member":              {target: func(h *hintFixture) *corev1.Pod { return h.other }, want: fwk.QueueSkip},
		"a plain pod":                 {target: func(h *hintFixture) *corev1.Pod { return h.plain }, want: fwk.QueueSkip},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := newHintFixture(t)
			got, err := h.pl.hintNodeChanged(klog.Background(), tc.target(h), nil, n)
			checkHint(t, "hintNodeChanged", tc.want, got, err)
		})
	}
}

// End to end: a reservation ends the engine's wait: the former head is not
// woken by nodes it was not planned on.
func TestHintNodeChangedAfterReservation(t *testing.T) {
	h := newHintFixture(t)
	if _, st := h.preFilter(h.head); !st.IsSuccess() {
		t.Fatalf("PreFilter: %v", st)
	}
	got, err := h.pl.hintNodeChanged(klog.Background(), h.head, nil, builders.Node("new").Obj())
	checkHint(t, "hintNodeChanged", fwk.QueueSkip, got, err)
}

func TestHintOwnLabels(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("w", 2, 1).Obj()
	good := builders.Member(js, 0, 0).Obj()
	malformed := builders.Relabelled(good, wellknown.JobGlobalIndexLabel, "x")
	cases := map[string]struct {
		old, new any
		want     fwk.QueueingHint
	}{
		"malformed labels fixed":       {old: malformed, new: good, want: fwk.Queue},
		"membership changed":           {old: good, new: builders.Relabelled(good, wellknown.JobGlobalIndexLabel, "1"), want: fwk.Queue},
		"a plain pod becomes a member": {old: unit.Pod("p").Obj(), new: good, want: fwk.Queue},
		"an unrelated label changed":   {old: good, new: builders.Relabelled(good, "team", "ml"), want: fwk.QueueSkip},
		"a plain pod's label changed":  {old: unit.Pod("p").Obj(), new: unit.Pod("p").Label("team", "ml").Obj(), want: fwk.QueueSkip},
		"still malformed":              {old: malformed, new: builders.Relabelled(malformed, "team", "ml"), want: fwk.QueueSkip},
		"labels broken":                {old: good, new: malformed, want: fwk.QueueSkip},
		"old object not a pod":         {old: &corev1.Node{}, new: good, want: fwk.Queue},
		"new object not a pod":         {old: good, new: nil, want: fwk.Queue},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := hintOwnLabels(klog.Background(), good, tc.old, tc.new)
			checkHint(t, "hintOwnLabels", tc.want, got, err)
		})
	}
}

// End to end: what the engine's PreEnqueue says of each pod, through the
// gate (the gate's mapping alone is TestStatusMapping's).
func TestGatePreEnqueue(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj()
	all := builders.Members(js)
	cases := map[string]struct {
		setup func(f *fixture) *corev1.Pod
		want  status
	}{
		"plain pod": {
			setup: func(f *fixture) *corev1.Pod {
				p := unit.Pod("plain").Obj()
				f.addPods(p)
				return p
			},
		},
		"incomplete gang": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[0])
				return all[0]
			},
			want: status{fwk.UnschedulableAndUnresolvable, "waiting for 1 of 2 pods of JobSet ns/a to be created"},
		},
		"JobSet not observed": {
			setup: func(f *fixture) *corev1.Pod {
				f.addPods(all...)
				return all[0]
			},
			want: status{fwk.UnschedulableAndUnresolvable, "waiting for JobSet ns/a to be observed"},
		},
		"malformed labels": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				p := builders.Relabelled(all[0], wellknown.JobGlobalIndexLabel, "x")
				f.addPods(p)
				return p
			},
			want: status{fwk.UnschedulableAndUnresolvable, `Pod ns/a-w-0-0-a0: metadata.labels[jobset.sigs.k8s.io/job-global-index]: "x" is not a non-negative integer`},
		},
		"complete gang: its head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				return all[0]
			},
		},
		"complete gang: another member waits for the head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				return all[1]
			},
			want: status{fwk.UnschedulableAndUnresolvable, "waiting for a-w-0-0-a0 to find room for JobSet ns/a"},
		},
		"complete gang: another member waits for the head, whose plan failed": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				f.st.PlanFailed(all[0], 0, &placement.Failure{Message: "waiting for 1 more domains"})
				return all[1]
			},
			want: status{fwk.UnschedulableAndUnresolvable, "waiting for a-w-0-0-a0 to find room for JobSet ns/a: waiting for 1 more domains"},
		},
		"complete gang: another member once the head's plan is committed": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				mustPreFilter(f, all[0])
				return all[1]
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(1)...)
			p := tc.setup(f)
			got := statusOf(f.gate.PreEnqueue(context.Background(), p))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("PreEnqueue (-want +got):\n%s", diff)
			}
		})
	}
}
