package state_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// headMessage is what Admit tells a member held back behind head.
func headMessage(head string, key workload.Key) string {
	return "waiting for " + head + " to find room for " + key.String()
}

// checkHead checks that key's gang plans through head: head is admitted,
// and every pod of waiting is held back behind it (with the gang's last
// plan failure, if any, after the message).
func checkHead(t *testing.T, f *fixture, key workload.Key, head *corev1.Pod, waiting ...*corev1.Pod) {
	t.Helper()
	if !f.s.IsWaitingHead(head) {
		t.Errorf("%s is not the head", head.Name)
	}
	if v := f.admit(head); !v.Gang || v.Wait || v.Unresolvable {
		t.Errorf("Admit(head %s) = %+v, want admitted", head.Name, v)
	}
	for _, p := range waiting {
		if f.s.IsWaitingHead(p) {
			t.Errorf("%s is the head too", p.Name)
		}
		msg := headMessage(head.Name, key)
		if v := f.admit(p); !v.Wait || v.Unresolvable || (v.Message != msg && !strings.HasPrefix(v.Message, msg+": ")) {
			t.Errorf("Admit(%s) = %+v, want a wait for %s", p.Name, v, head.Name)
		}
	}
}

// A complete gang plans through the pending member of this scheduler with
// the smallest name, whatever order its pods come in.
func TestHeadIsTheFirstPendingMember(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	all := builders.Members(js)
	reversed := []*corev1.Pod{all[3], all[2], all[1], all[0]}
	pgA := unit.Pod("pg-a").InPodGroup("pg").Obj()
	pgB := unit.Pod("pg-b").InPodGroup("pg").Obj()
	pgC := unit.Pod("pg-c").InPodGroup("pg").Obj()
	running := builders.Bound(all[0], "pool-3-node-0")
	foreign := builders.Member(js, 0, 0).Scheduler("default-scheduler").Obj()
	cases := map[string]struct {
		// source feeds the workload's object; late feeds it after the pods.
		source func(f *fixture) state.Actions
		late   bool
		pods   []*corev1.Pod
		key    workload.Key
		head   *corev1.Pod
		// waiting are the pending members held back behind the head.
		waiting []*corev1.Pod
		// wantActivate is what feeding the last object activated.
		wantActivate []string
	}{
		"JobSet, pods in order": {
			source: func(f *fixture) state.Actions { return f.addJobSet(js) },
			pods:   all, key: jsKey("a"), head: all[0], waiting: all[1:],
			wantActivate: podNames(all[0]),
		},
		"JobSet, pods in reverse order": {
			source: func(f *fixture) state.Actions { return f.addJobSet(js) },
			pods:   reversed, key: jsKey("a"), head: all[0], waiting: all[1:],
			wantActivate: podNames(all[0]),
		},
		"JobSet observed after its pods: they all run PreEnqueue again": {
			source: func(f *fixture) state.Actions { return f.addJobSet(js) }, late: true,
			pods: reversed, key: jsKey("a"), head: all[0], waiting: all[1:],
			wantActivate: podNames(all...),
		},
		"PodGroup, the smallest name neither first nor last": {
			source: func(f *fixture) state.Actions { return f.addPodGroup(unit.PodGroup("pg", 3).Obj()) },
			pods:   []*corev1.Pod{pgC, pgA, pgB}, key: pgKey("pg"), head: pgA, waiting: []*corev1.Pod{pgB, pgC},
			wantActivate: podNames(pgA),
		},
		"a member already running is passed over": {
			source: func(f *fixture) state.Actions { return f.addJobSet(js) },
			pods:   []*corev1.Pod{running, all[3], all[2], all[1]}, key: jsKey("a"), head: all[1], waiting: all[2:],
			wantActivate: podNames(all[1]),
		},
		"a member of another scheduler is passed over": {
			source: func(f *fixture) state.Actions { return f.addJobSet(js) },
			pods:   []*corev1.Pod{foreign, all[3], all[2], all[1]}, key: jsKey("a"), head: all[1], waiting: all[2:],
			wantActivate: podNames(all[1]),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			var acts state.Actions
			if !tc.late {
				tc.source(f)
			}
			for _, p := range tc.pods {
				acts = f.addPods(p)
			}
			if tc.late {
				acts = tc.source(f)
			}
			if diff := cmp.Diff(tc.wantActivate, names(acts.Activate)); diff != "" {
				t.Errorf("activated (-want +got):\n%s", diff)
			}
			checkHead(t, f, tc.key, tc.head, tc.waiting...)
		})
	}
}

// The head is chosen anew when it is deleted (DeletePod activates the new
// one) or placed; the others stay held back behind whichever head it is.
func TestHeadIsReplaced(t *testing.T) {
	// pg needs 2 of its 3 pods: it stays complete when one goes.
	pgA := unit.Pod("pg-a").InPodGroup("pg").CPU("1").Obj()
	pgB := unit.Pod("pg-b").InPodGroup("pg").CPU("1").Obj()
	pgC := unit.Pod("pg-c").InPodGroup("pg").CPU("1").Obj()
	pgA2 := unit.Pod("pg-a").InPodGroup("pg").CPU("1").UID("pg-a-2").Obj()
	busy := unit.Pod("busy").CPU("1").NodeName("pool-1-node-1").Obj()
	cases := map[string]struct {
		change func(t *testing.T, f *fixture) state.Actions
		// wantActivate is what the change activated.
		wantActivate []string
		// head is the head after the change (nil: the gang is incomplete,
		// and waiting wait for its members).
		head    *corev1.Pod
		waiting []*corev1.Pod
	}{
		"nothing changes": {
			change: func(*testing.T, *fixture) state.Actions { return state.Actions{} },
			head:   pgA, waiting: []*corev1.Pod{pgB, pgC},
		},
		"the head is deleted": {
			change:       func(_ *testing.T, f *fixture) state.Actions { return f.deletePod(pgA) },
			wantActivate: podNames(pgB),
			head:         pgB, waiting: []*corev1.Pod{pgC},
		},
		"the head goes terminal": {
			change: func(_ *testing.T, f *fixture) state.Actions {
				acts := f.addPods(builders.InPhase(pgA, corev1.PodFailed))
				// The pod's deletion follows.
				merge(&acts, f.deletePod(builders.InPhase(pgA, corev1.PodFailed)))
				return acts
			},
			wantActivate: podNames(pgB),
			head:         pgB, waiting: []*corev1.Pod{pgC},
		},
		"another member is deleted": {
			change: func(_ *testing.T, f *fixture) state.Actions { return f.deletePod(pgC) },
			head:   pgA, waiting: []*corev1.Pod{pgB},
		},
		"the gang completes again after members were replaced": {
			change: func(_ *testing.T, f *fixture) state.Actions {
				// pg-c planned and failed: it is the head now.
				f.s.PlanFailed(pgC, 0, &placement.Failure{Message: "waiting for room"})
				acts := f.deletePod(pgB)
				merge(&acts, f.deletePod(pgA))
				merge(&acts, f.addPods(pgA2))
				return acts
			},
			wantActivate: podNames(pgA2),
			head:         pgA2, waiting: []*corev1.Pod{pgC},
		},
		"the head and then the next one are deleted": {
			change: func(_ *testing.T, f *fixture) state.Actions {
				acts := f.deletePod(pgA)
				merge(&acts, f.deletePod(pgB))
				return acts
			},
			// pg-c alone is not the gang any more.
			wantActivate: podNames(pgB),
			waiting:      []*corev1.Pod{pgC},
		},
		"the head is placed, then room is freed": {
			change: func(t *testing.T, f *fixture) state.Actions {
				acts := f.bind(pgA, "pool-1-node-0")
				if got := names(acts.Activate); len(got) > 0 && got[0] == pgA.Name {
					t.Errorf("placing the head activated it: %v", got)
				}
				// No member waits for a pod that cannot plan any more.
				for _, p := range []*corev1.Pod{pgB, pgC} {
					if v := f.admit(p); v.Message == headMessage(pgA.Name, pgKey("pg")) {
						t.Errorf("Admit(%s) after the head was placed = %+v, want no wait for it", p.Name, v)
					}
				}
				return f.deletePod(busy)
			},
			wantActivate: podNames(pgB),
			head:         pgB, waiting: []*corev1.Pod{pgC},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(1)...)
			f.addPods(busy)
			f.addPodGroup(unit.PodGroup("pg", 2).Obj())
			if acts := f.addPods(pgA, pgB, pgC); !cmp.Equal(podNames(pgA), names(acts.Activate)) {
				t.Fatalf("completing the gang activated %v, want its head", names(acts.Activate))
			}
			acts := tc.change(t, f)
			if diff := cmp.Diff(tc.wantActivate, names(acts.Activate), cmpEmpty); diff != "" {
				t.Errorf("activated (-want +got):\n%s", diff)
			}
			if tc.head == nil {
				for _, p := range tc.waiting {
					if v := f.admit(p); !v.Wait || v.Message != "waiting for 1 of 2 pods of PodGroup ns/pg to be created" {
						t.Errorf("Admit(%s) = %+v, want a wait for members", p.Name, v)
					}
				}
				return
			}
			checkHead(t, f, pgKey("pg"), tc.head, tc.waiting...)
			// The head's plan is committed: the rest come.
			_, _, acts = f.commit(pgKey("pg"))
			if diff := cmp.Diff(podNames(append([]*corev1.Pod{tc.head}, tc.waiting...)...), names(acts.Activate)); diff != "" {
				t.Errorf("commit activated (-want +got):\n%s", diff)
			}
			for _, p := range tc.waiting {
				if v := f.admit(p); v.Wait || v.Unresolvable {
					t.Errorf("Admit(%s) after commit = %+v, want admitted", p.Name, v)
				}
			}
		})
	}
}

// A gang whose head's plan was committed goes back to planning through one
// member when the reservation is released: the head is chosen anew, among
// the members still pending, and activated; the others wait for it.
func TestReleaseRechoosesTheHead(t *testing.T) {
	cases := map[string]struct {
		// setup runs before the commit.
		setup func(f *fixture, all []*corev1.Pod)
		// release ends the reservation id, under which the gang's pods were
		// activated.
		release func(f *fixture, all []*corev1.Pod, id uint64) state.Actions
		// head indexes all; waiting too.
		head       int
		waiting    []int
		wantReject []int
		wantReason state.ReleaseReason
	}{
		"expiry with nothing reserved": {
			release: func(f *fixture, _ []*corev1.Pod, _ uint64) state.Actions {
				f.clock.Step(2 * time.Minute)
				return f.s.Upkeep().Expire()
			},
			head: 0, waiting: []int{1, 2, 3}, wantReason: state.ReleaseTimeout,
		},
		"expiry with the first member reserved": {
			release: func(f *fixture, all []*corev1.Pod, _ uint64) state.Actions {
				f.reserve(all[0])
				f.clock.Step(2 * time.Minute)
				return f.s.Upkeep().Expire()
			},
			head: 1, waiting: []int{2, 3}, wantReject: []int{0}, wantReason: state.ReleaseTimeout,
		},
		"a head from before the reservation is not kept": {
			setup: func(f *fixture, all []*corev1.Pod) {
				f.s.PlanFailed(all[3], 0, &placement.Failure{Message: "waiting for 1 more domains"})
			},
			release: func(f *fixture, _ []*corev1.Pod, _ uint64) state.Actions {
				f.clock.Step(2 * time.Minute)
				return f.s.Upkeep().Expire()
			},
			head: 0, waiting: []int{1, 2, 3}, wantReason: state.ReleaseTimeout,
		},
		"a head chosen while the reservation was held is not kept": {
			release: func(f *fixture, all []*corev1.Pod, id uint64) state.Actions {
				f.reserve(all[0])
				// A member is replaced meanwhile: the gang is complete
				// again, with the first member reserved.
				f.deletePod(all[3])
				f.addPods(builders.Member(unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj(), 1, 1).UID("recreated").Obj())
				return f.unreserve(all[0], id)
			},
			head: 0, waiting: []int{1, 2}, wantReason: state.ReleaseMemberFail,
		},
		"a member failing before the gate": {
			release: func(f *fixture, all []*corev1.Pod, id uint64) state.Actions {
				f.reserve(all[0])
				f.reserve(all[1])
				return f.unreserve(all[1], id)
			},
			head: 1, waiting: []int{2, 3}, wantReject: []int{0}, wantReason: state.ReleaseMemberFail,
		},
		"a member rejected by other filters": {
			release: func(f *fixture, all []*corev1.Pod, _ uint64) state.Actions {
				return rejectFilter(f, all[2], "1 node(s) had untolerated taint")
			},
			head: 0, waiting: []int{1, 2, 3}, wantReason: state.ReleaseRejected,
		},
		"a node of the reservation failing": {
			release: func(f *fixture, _ []*corev1.Pod, _ uint64) state.Actions {
				return f.addNodes(builders.V5ePool("pool-1").NotReady().Node(0))
			},
			head: 0, waiting: []int{1, 2, 3}, wantReason: state.ReleaseNodeFailure,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, all := gang(t)
			if tc.setup != nil {
				tc.setup(f, all)
			}
			id, _, acts := f.commit(jsKey("a"))
			if diff := cmp.Diff(podNames(all...), names(acts.Activate)); diff != "" {
				t.Errorf("commit activated (-want +got):\n%s", diff)
			}
			acts = tc.release(f, all, id)
			if _, ok := f.reservationOf(jsKey("a"), all[0]); ok {
				t.Fatalf("the reservation was not released")
			}
			if diff := cmp.Diff([]state.ReleaseReason{tc.wantReason}, f.obs.releases()); diff != "" {
				t.Errorf("releases (-want +got):\n%s", diff)
			}
			var wantReject []types.UID
			for _, i := range tc.wantReject {
				wantReject = append(wantReject, all[i].UID)
			}
			if diff := cmp.Diff(wantReject, acts.Reject); diff != "" {
				t.Errorf("rejected (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(podNames(all[tc.head]), names(acts.Activate)); diff != "" {
				t.Errorf("release activated (-want +got):\n%s", diff)
			}
			var waiting []*corev1.Pod
			for _, i := range tc.waiting {
				waiting = append(waiting, all[i])
			}
			checkHead(t, f, jsKey("a"), all[tc.head], waiting...)
			// Rejected members come back pending, and wait for the head
			// chosen without them.
			for _, i := range tc.wantReject {
				f.unreserve(all[i], id)
				checkHead(t, f, jsKey("a"), all[tc.head], all[i])
			}
		})
	}
}

// Classify is Admit without the hold-back behind the head: any member that
// reaches a scheduling cycle may plan for its gang.
func TestClassify(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	all := builders.Members(js)
	cases := map[string]struct {
		setup func(f *fixture) *corev1.Pod
		// wantAdmit and wantClassify are the verdicts; their messages are
		// equal unless admitMsg is set.
		wantAdmit, wantClassify verdict
		admitMsg                string
	}{
		"a plain pod": {
			setup: func(*fixture) *corev1.Pod { return unit.Pod("plain").Obj() },
		},
		"the head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				return all[0]
			},
			wantAdmit: verdict{Gang: true}, wantClassify: verdict{Gang: true},
		},
		"a member held back behind the head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				return all[3]
			},
			wantAdmit: verdict{Gang: true, Wait: true}, wantClassify: verdict{Gang: true},
			admitMsg: "waiting for a-slice-0-0-a0 to find room for JobSet ns/a",
		},
		"a member held back behind a head whose plan failed": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				f.s.PlanFailed(all[0], 0, &placement.Failure{Message: "waiting for 1 more domains"})
				return all[1]
			},
			wantAdmit: verdict{Gang: true, Wait: true}, wantClassify: verdict{Gang: true},
			admitMsg: "waiting for a-slice-0-0-a0 to find room for JobSet ns/a: waiting for 1 more domains",
		},
		"a member that planned and failed becomes the head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				f.s.PlanFailed(all[2], 0, &placement.Failure{Message: "waiting for 1 more domains"})
				return all[0]
			},
			wantAdmit: verdict{Gang: true, Wait: true}, wantClassify: verdict{Gang: true},
			admitMsg: "waiting for a-slice-1-0-a0 to find room for JobSet ns/a: waiting for 1 more domains",
		},
		"a member of a gang with a reservation": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				f.commit(jsKey("a"))
				return all[3]
			},
			wantAdmit: verdict{Gang: true}, wantClassify: verdict{Gang: true},
		},
		"a member of an incomplete gang": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[:3]...)
				return all[1]
			},
			wantAdmit: verdict{Gang: true, Wait: true}, wantClassify: verdict{Gang: true, Wait: true},
		},
		"a member of a suspended JobSet": {
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				suspended := js.DeepCopy()
				suspended.Spec.Suspend = ptr.To(true)
				f.addJobSet(suspended)
				return all[1]
			},
			wantAdmit: verdict{Gang: true, Unresolvable: true}, wantClassify: verdict{Gang: true, Unresolvable: true},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			p := tc.setup(f)
			a, c := f.admit(p), admission.Classify(f.s, p)
			if diff := cmp.Diff(tc.wantAdmit, verdict{a.Gang, a.Wait, a.Unresolvable}); diff != "" {
				t.Errorf("Admit (-want +got):\n%s\nmessage: %q", diff, a.Message)
			}
			if diff := cmp.Diff(tc.wantClassify, verdict{c.Gang, c.Wait, c.Unresolvable}); diff != "" {
				t.Errorf("Classify (-want +got):\n%s\nmessage: %q", diff, c.Message)
			}
			if a.Member != c.Member || a.Ref != c.Ref {
				t.Errorf("Admit and Classify disagree on the pod: %+v vs %+v", a, c)
			}
			if tc.admitMsg != "" {
				if a.Message != tc.admitMsg {
					t.Errorf("Admit message = %q, want %q", a.Message, tc.admitMsg)
				}
				if c.Message != "" {
					t.Errorf("Classify message = %q, want none", c.Message)
				}
			} else if a.Message != c.Message {
				t.Errorf("messages differ: Admit %q, Classify %q", a.Message, c.Message)
			}
		})
	}
}

// A gang that already runs whole has no plan to make: pods joining it (a
// replacement, members beyond a PodGroup's minMember) are activated and
// admitted each, none held back behind another.
func TestPlacedWholeGangAdmitsWithoutAHead(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	pgA := unit.Pod("pg-a").InPodGroup("pg").CPU("1").Obj()
	pgB := unit.Pod("pg-b").InPodGroup("pg").CPU("1").Obj()
	pgX := unit.Pod("pg-x").InPodGroup("pg").CPU("1").NodeName("pool-1-node-0").Obj()
	pgY := unit.Pod("pg-y").InPodGroup("pg").CPU("1").NodeName("pool-1-node-1").Obj()
	cases := map[string]struct {
		// setup feeds the gang, running whole, and returns pods fed along
		// that must be admitted.
		setup func(f *fixture) []*corev1.Pod
		// joining are fed after setup, and each is activated as it comes.
		joining []*corev1.Pod
		key     workload.Key
	}{
		"JobSet replacements": {
			setup: func(f *fixture) []*corev1.Pod {
				f.addRunning(js, "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1")
				return nil
			},
			joining: []*corev1.Pod{
				builders.Member(js, 1, 1).UID("replacement-1").Obj(),
				builders.Member(js, 0, 0).UID("replacement-0").Obj(),
			},
			key: jsKey("a"),
		},
		"PodGroup members beyond minMember": {
			setup: func(f *fixture) []*corev1.Pod {
				f.addPodGroup(unit.PodGroup("pg", 2).Obj())
				f.addPods(pgX, pgY)
				return nil
			},
			joining: []*corev1.Pod{pgB, pgA},
			key:     pgKey("pg"),
		},
		"PodGroup whose running members are observed after its pending ones": {
			// As after a restart of the scheduler, whose informer lists
			// pods in any order: the pending pods made the gang complete
			// and chose a head before the running ones were seen.
			setup: func(f *fixture) []*corev1.Pod {
				f.addPodGroup(unit.PodGroup("pg", 2).Obj())
				f.addPods(pgB, pgA)
				if !f.s.IsWaitingHead(pgA) {
					f.t.Fatalf("pg-a is not the head of the complete gang")
				}
				f.addPods(pgX)
				// The last running member makes the gang whole: the members
				// held back behind the head are activated, not left waiting.
				acts := f.addPods(pgY)
				if diff := cmp.Diff([]string{"pg-a", "pg-b"}, names(acts.Activate)); diff != "" {
					f.t.Errorf("gang became whole: activated (-want +got):\n%s", diff)
				}
				return []*corev1.Pod{pgA, pgB}
			},
			key: pgKey("pg"),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			admitted := tc.setup(f)
			if !placedWhole(f, tc.key) {
				t.Fatalf("%s does not run whole", tc.key)
			}
			for _, p := range tc.joining {
				acts := f.addPods(p)
				if diff := cmp.Diff([]string{p.Name}, names(acts.Activate)); diff != "" {
					t.Errorf("%s (%s) arrived: activated (-want +got):\n%s", p.Name, p.UID, diff)
				}
			}
			for _, p := range append(admitted, tc.joining...) {
				if v := f.admit(p); !v.Gang || v.Wait || v.Unresolvable {
					t.Errorf("Admit(%s (%s)) = %+v, want admitted", p.Name, p.UID, v)
				}
			}
		})
	}
}

// Capacity freed wakes a gang that waits for room through its head: the
// state sees every pod and node change and activates the head itself
// (besides the plugin's queueing hints for the same events).
func TestFreedCapacityWakesTheWaitingHead(t *testing.T) {
	pool1 := builders.V5ePool("pool-1")
	pool2 := builders.V5ePool("pool-2")
	busyJS := unit.JobSet("busy").ReplicatedJob("w", 1, 2).Obj()
	pending := unit.Pod("pending").CPU("1").Obj()
	cases := map[string]struct {
		change func(f *fixture, busy []*corev1.Pod) state.Actions
		wake   bool
	}{
		"a running pod is deleted": {
			change: func(f *fixture, busy []*corev1.Pod) state.Actions { return f.deletePod(busy[0]) },
			wake:   true,
		},
		"a running pod ends": {
			change: func(f *fixture, busy []*corev1.Pod) state.Actions {
				return f.addPods(builders.InPhase(busy[0], corev1.PodSucceeded))
			},
			wake: true,
		},
		"a pending pod is deleted": {
			change: func(f *fixture, _ []*corev1.Pod) state.Actions {
				f.addPods(pending)
				return f.deletePod(pending)
			},
		},
		"a node pool joins": {
			change: func(f *fixture, _ []*corev1.Pod) state.Actions { return f.addNodes(pool2.Build()...) },
			wake:   true,
		},
		"a NotReady node pool recovers": {
			change: func(f *fixture, _ []*corev1.Pod) state.Actions {
				f.addNodes(builders.V5ePool("pool-2").NotReady().Build()...)
				return f.addNodes(pool2.Build()...)
			},
			wake: true,
		},
		"a node's status heartbeat": {
			change: func(f *fixture, _ []*corev1.Pod) state.Actions {
				return f.addNodes(builders.V5ePool("pool-1").Heartbeat(builders.Epoch.Add(time.Minute)).Node(0))
			},
		},
		"a node fails": {
			change: func(f *fixture, _ []*corev1.Pod) state.Actions {
				return f.addNodes(builders.V5ePool("pool-1").NotReady().Node(0))
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, pool1.Build()...)
			busy := f.addRunning(busyJS, pool1.NodeNames()...)
			all := f.addGang(unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj())
			if _, fail := f.plan(jsKey("a")); fail == nil {
				t.Fatal("a planned beside busy, want no room")
			}
			f.s.PlanFailed(all[0], 0, &placement.Failure{Message: "waiting for 1 more domains"})
			var want []string
			if tc.wake {
				want = podNames(all[0])
			}
			// One activation per node changed: the pod is woken once.
			got := slices.Compact(names(tc.change(f, busy).Activate))
			if diff := cmp.Diff(want, got, cmpEmpty); diff != "" {
				t.Errorf("activated (-want +got):\n%s", diff)
			}
		})
	}
}
