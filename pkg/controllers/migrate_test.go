package controllers

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/events"
	testingclock "k8s.io/utils/clock/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const migrateScheduler = "multislice-scheduler"

// Lifetimes of the tests' flex-start nodes: the first ones (old) are
// recycled from minute 3 and end at minute 5; their replacements (new)
// last until minute 10.
var (
	oldLife = topology.NodeLifetime{Recycle: builders.Epoch.Add(3 * time.Minute), End: builders.Epoch.Add(5 * time.Minute)}
	newLife = topology.NodeLifetime{Recycle: builders.Epoch.Add(8 * time.Minute), End: builders.Epoch.Add(10 * time.Minute)}
)

// flexNode is node i of a flex-start pool of one-GPU nodes.
type flexNode struct {
	pool     string
	i        int
	life     topology.NodeLifetime
	cordoned bool
}

func (n flexNode) name() string { return builders.NodePool(n.pool).NodeName(n.i) }

// gpuTaint is the taint GKE gives GPU nodes; the apiserver's
// ExtendedResourceToleration admission gives pods asking for GPUs its
// toleration (the pods, not their JobSet's template).
var gpuTaint = corev1.Taint{Key: string(wellknown.ResourceGPU), Value: "present", Effect: corev1.TaintEffectNoSchedule}

func (n flexNode) obj() *corev1.Node {
	b := builders.NodePool(n.pool).Nodes(n.i+1).GPU("nvidia-l4", 1).Label(wellknown.FlexStartLabel, "true").Taint(gpuTaint)
	if n.cordoned {
		b.Unschedulable()
	}
	return b.Node(n.i)
}

// migration is a Migrator over a state fed as the informers would, on a
// fake clock, with a fake API and recorder.
type migration struct {
	t      *testing.T
	st     *state.State
	clock  *testingclock.FakeClock
	cs     *kubefake.Clientset
	pods   informers.SharedInformerFactory
	rec    *events.FakeRecorder
	m      *Migrator
	leader bool
}

func newMigration(t *testing.T, nodes ...flexNode) *migration {
	clk := testingclock.NewFakeClock(builders.Epoch.Add(4 * time.Minute))
	st := state.New(state.Options{Clock: clk, RestartHold: 5 * time.Minute})
	st.AddScheduler(migrateScheduler)
	st.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	cs := kubefake.NewClientset()
	f := &migration{t: t, st: st, clock: clk, cs: cs, pods: informers.NewSharedInformerFactory(cs, 0), rec: events.NewFakeRecorder(100), leader: true}
	f.m = NewMigrator(st, NewEvictor(func() bool { return f.leader }), NewEventSink(f.rec, clk), f.pods.Core().V1().Pods().Lister(), func() bool { return f.leader })
	for _, n := range nodes {
		f.node(n)
	}
	return f
}

// node adds or updates a node and its lifetime.
func (f *migration) node(n flexNode) {
	f.st.Feed().SetNodeLifetime(n.name(), n.life)
	f.st.Feed().UpsertNode(n.obj())
}

// pod adds or updates a pod in the state and the lister.
func (f *migration) pod(p *corev1.Pod) {
	f.st.Feed().UpsertPod(p)
	if err := f.pods.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
		f.t.Fatal(err)
	}
}

// jobSet adds train, 2 slices of 2 one-GPU pods, each slice on a pool of
// its own, running on nodes (the i-th pod on nodes[i]), its pods owned
// by their Jobs unless bare. The pods are as the apiserver admitted them:
// each Job's leader with JobSet's exclusive affinities, its follower
// pinned to the leader's pool, all tolerating the GPU taint.
func (f *migration) jobSet(bare bool, nodes ...string) *jobsetv1alpha2.JobSet {
	js := builders.JobSet("ns", "train").UID("train-uid").Created(builders.Epoch).Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(migrateScheduler).NoRequests().Request(wellknown.ResourceGPU, "1")
		}).ReplicatedJob("slice", 2, 2).Obj()
	w, err := workload.FromJobSet(js, "")
	if err != nil {
		f.t.Fatal(err)
	}
	f.st.Feed().UpsertSource(w.Key, w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: "ns", Name: "train", UID: js.UID})
	for i, p := range builders.MembersOn(js, nodes...) {
		builders.JobSetPodWebhook(p, nil)
		b := builders.Edit(p).Toleration(corev1.Toleration{Key: gpuTaint.Key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule})
		if !builders.IsJobLeader(p) {
			leaderPool, _, _ := strings.Cut(nodes[i-1], "-node-")
			b.NodeSelector(wellknown.NodePoolLabel, leaderPool)
		}
		if !bare {
			b.OwnedByJob()
		}
		f.pod(b.Obj())
	}
	return js
}

// evicting lists, sorted, the pods the Migrator has set out to evict.
func (f *migration) evicting() []string {
	var out []string
	for _, ev := range f.m.evictor.pending {
		out = append(out, ev.ref.Name)
	}
	slices.Sort(out)
	return out
}

// eventsSeen drains the recorder: "<type> <reason>" per event, in order.
func (f *migration) eventsSeen() []string {
	var out []string
	for {
		select {
		case e := <-f.rec.Events:
			fields := strings.Fields(e)
			out = append(out, fields[0]+" "+fields[1])
		default:
			return out
		}
	}
}

// The pods of the tests' JobSet: slice 0 is Job train-slice-0, slice 1
// train-slice-1.
var (
	slice0 = []string{"train-slice-0-0-a0", "train-slice-0-1-a0"}
	slice1 = []string{"train-slice-1-0-a0", "train-slice-1-1-a0"}
)

func poolNodes(pool string, life topology.NodeLifetime, cordoned ...bool) []flexNode {
	var out []flexNode
	for i, c := range cordoned {
		out = append(out, flexNode{pool: pool, i: i, life: life, cordoned: c})
	}
	return out
}

// TestMigratorDecisions: which pods the Migrator evicts when, for a
// 2-slice JobSet whose slice 0 runs on flex-start pool a (nodes 0 and 1)
// and slice 1 on pool b, as GKE recycles pool a: a replacement (nodes 2,
// 3) joins the pool, and each old node is cordoned once its own is Ready.
func TestMigratorDecisions(t *testing.T) {
	a0, a1 := "flex-a-node-0", "flex-a-node-1"
	b0, b1 := "flex-b-node-0", "flex-b-node-1"
	replacement := func(i int) flexNode { return flexNode{pool: "flex-a", i: i, life: newLife} }
	cases := map[string]struct {
		nodes    []flexNode
		now      time.Duration // after Epoch
		bare     bool
		want     []string // pods set out to evict
		waits    string   // part of why the slice waits ("": it does not)
		warn     bool
		noRounds bool // a standby: no decision at all
	}{
		"a cordon before the recycling start moves nothing (a person's cordon)": {
			nodes: append(poolNodes("flex-a", oldLife, true, false), poolNodes("flex-b", newLife, false, false)...),
			now:   2 * time.Minute,
		},
		"the recycling phase without a cordon moves nothing: no replacement is Ready": {
			nodes: append(poolNodes("flex-a", oldLife, false, false), poolNodes("flex-b", newLife, false, false)...),
		},
		"one node recycled, the other's replacement not Ready: the slice waits whole": {
			nodes: append(append(poolNodes("flex-a", oldLife, true, false), replacement(2)), poolNodes("flex-b", newLife, false, false)...),
			waits: "no room to place it whole again on nodes that last",
		},
		"both replacements Ready: the whole slice moves, slice 1 stays": {
			nodes: append(append(poolNodes("flex-a", oldLife, true, true), replacement(2), replacement(3)), poolNodes("flex-b", newLife, false, false)...),
			want:  slice0,
		},
		"a pod on a node that lasts moves with its slice": {
			nodes: append([]flexNode{{pool: "flex-a", i: 0, life: oldLife, cordoned: true}, {pool: "flex-a", i: 1, life: newLife}, replacement(2)},
				poolNodes("flex-b", newLife, false, false)...),
			want: slice0,
		},
		"no lasting room in its pool: another free pool takes the slice": {
			nodes: append(append(poolNodes("flex-a", oldLife, true, false), poolNodes("flex-b", newLife, false, false)...),
				poolNodes("flex-c", newLife, false, false)...),
			want: slice0,
		},
		"waiting past its patience is a warning": {
			nodes: append(append(poolNodes("flex-a", oldLife, true, false), replacement(2)), poolNodes("flex-b", newLife, false, false)...),
			now:   4*time.Minute + MigrationPatience,
			waits: "no room to place it whole again",
			warn:  true,
		},
		"pods no controller recreates are not evicted, and the user is warned": {
			nodes: append(append(poolNodes("flex-a", oldLife, true, true), replacement(2), replacement(3)), poolNodes("flex-b", newLife, false, false)...),
			bare:  true,
			waits: "has no controller that would recreate it",
			warn:  true,
		},
		"a standby decides nothing": {
			nodes:    append(append(poolNodes("flex-a", oldLife, true, true), replacement(2), replacement(3)), poolNodes("flex-b", newLife, false, false)...),
			noRounds: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newMigration(t, tc.nodes...)
			f.jobSet(tc.bare, a0, a1, b0, b1)
			f.leader = !tc.noRounds
			if tc.now != 0 {
				// The first round sees the unit; the clock then moves on.
				f.clock.SetTime(builders.Epoch.Add(4 * time.Minute))
				f.m.Round(t.Context())
				f.clock.SetTime(builders.Epoch.Add(tc.now))
			}
			moves := f.m.Round(t.Context())
			for _, mv := range moves {
				t.Logf("%s: evict %v to %q, waits %q (warn %v)", mv.Unit.Describe(), mv.Evict, mv.Target, mv.Why, mv.Warn)
			}
			if tc.noRounds {
				if moves != nil || len(f.evicting()) != 0 {
					t.Fatalf("a standby decided %v, evicting %v", moves, f.evicting())
				}
				return
			}
			if diff := cmp.Diff(tc.want, f.evicting()); diff != "" {
				t.Errorf("evicted pods (-want +got):\n%s", diff)
			}
			var waits []Move
			for _, mv := range moves {
				if !mv.Evict && !mv.UnderWay {
					waits = append(waits, mv)
				}
			}
			switch {
			case tc.waits == "" && len(waits) > 0:
				t.Errorf("waits %+v, want none", waits)
			case tc.waits != "" && (len(waits) != 1 || !strings.Contains(waits[0].Why, tc.waits) || waits[0].Warn != tc.warn):
				t.Errorf("waits %+v, want one saying %q, warning %v", waits, tc.waits, tc.warn)
			}
		})
	}
}

// A slice moves whole to its pool's replacements; what moves is told on
// the workload and on each pod, the pool is kept for the workload, and a
// second round leaves the evictions under way alone.
func TestMigratorMovesASliceOnceAndTellsIt(t *testing.T) {
	nodes := append(poolNodes("flex-a", oldLife, true, true),
		flexNode{pool: "flex-a", i: 2, life: newLife}, flexNode{pool: "flex-a", i: 3, life: newLife})
	nodes = append(nodes, poolNodes("flex-b", newLife, false, false)...)
	f := newMigration(t, nodes...)
	f.jobSet(false, "flex-a-node-0", "flex-a-node-1", "flex-b-node-0", "flex-b-node-1")

	moves := f.m.Round(t.Context())
	if len(moves) != 1 || !moves[0].Evict || moves[0].Target != wellknown.NodePoolLabel+"=flex-a" {
		t.Fatalf("moves %+v, want slice 0 evicted to its own pool flex-a", moves)
	}
	if diff := cmp.Diff([]string{"Normal Migrating", "Normal Migrating", "Normal Migrating"}, f.eventsSeen()); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	// The pool is kept for the workload while its pods are recreated.
	other := builders.Pod("ns", "other").UID("other").Scheduler(migrateScheduler).Obj()
	if ok, why := nodeAllowed(f.st, other, "flex-a-node-2", func() workload.Resources { return nil }); ok || !strings.Contains(why, "move here off nodes being recycled") {
		t.Errorf("another pod may go to the kept pool: %v, %q", ok, why)
	}
	again := f.m.Round(t.Context())
	if len(again) != 1 || !again[0].UnderWay || again[0].Evict {
		t.Errorf("second round %+v, want the move under way and nothing more", again)
	}
	if diff := cmp.Diff(slice0, f.evicting()); diff != "" {
		t.Errorf("evicted pods (-want +got):\n%s", diff)
	}
}

// Two slices recycled at once both move, and each move is told on the
// workload (events of one reason on one object are otherwise restated at
// most every RestatePeriod).
func TestMigratorTellsEachSlicesMove(t *testing.T) {
	nodes := append(poolNodes("flex-a", oldLife, true, true),
		flexNode{pool: "flex-a", i: 2, life: newLife}, flexNode{pool: "flex-a", i: 3, life: newLife})
	nodes = append(nodes, poolNodes("flex-b", oldLife, true, true)...)
	nodes = append(nodes, flexNode{pool: "flex-b", i: 2, life: newLife}, flexNode{pool: "flex-b", i: 3, life: newLife})
	f := newMigration(t, nodes...)
	f.jobSet(false, "flex-a-node-0", "flex-a-node-1", "flex-b-node-0", "flex-b-node-1")
	f.m.Round(t.Context())
	if diff := cmp.Diff(append(slices.Clone(slice0), slice1...), f.evicting()); diff != "" {
		t.Errorf("evicted pods (-want +got):\n%s", diff)
	}
	// 2 on the JobSet, 1 on each of the 4 pods.
	if got := f.eventsSeen(); len(got) != 6 || slices.ContainsFunc(got, func(e string) bool { return e != "Normal Migrating" }) {
		t.Errorf("events %v, want 6 Normal Migrating", got)
	}
}

// A plain pod of this scheduler on a recycled node moves alone, at once;
// a pod of another scheduler is left to the platform.
func TestMigratorMovesPlainPodsAlone(t *testing.T) {
	f := newMigration(t, poolNodes("flex-a", oldLife, true, false)...)
	ours := builders.Pod("ns", "web-1").UID("web-1").Scheduler(migrateScheduler).ControlledBy("apps/v1", "ReplicaSet", "web").Running("flex-a-node-0").Obj()
	theirs := builders.Pod("ns", "other-1").UID("other-1").ControlledBy("apps/v1", "ReplicaSet", "other").Running("flex-a-node-0").Obj()
	f.pod(ours)
	f.pod(theirs)
	moves := f.m.Round(t.Context())
	if len(moves) != 1 || !moves[0].Evict || !moves[0].Unit.Plain() {
		t.Fatalf("moves %+v, want pod web-1 evicted alone", moves)
	}
	if diff := cmp.Diff([]string{"web-1"}, f.evicting()); diff != "" {
		t.Errorf("evicted pods (-want +got):\n%s", diff)
	}
}

// A slice does not move while its workload is being placed (pods of an
// earlier move are being scheduled): one move at a time.
func TestMigratorWaitsForAnEarlierMove(t *testing.T) {
	nodes := append(poolNodes("flex-a", oldLife, true, true),
		flexNode{pool: "flex-a", i: 2, life: newLife}, flexNode{pool: "flex-a", i: 3, life: newLife})
	nodes = append(nodes, poolNodes("flex-b", oldLife, true, true)...)
	nodes = append(nodes, flexNode{pool: "flex-b", i: 2, life: newLife}, flexNode{pool: "flex-b", i: 3, life: newLife})
	f := newMigration(t, nodes...)
	f.jobSet(false, "flex-a-node-0", "flex-a-node-1", "flex-b-node-0", "flex-b-node-1")
	f.st.Apply(state.Decision{Reserve: &state.Reservation{Holder: workload.Holder{Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}, UID: "train-uid"},
		Slices: map[int]*state.SliceReservation{}}, PermitTimeout: time.Minute})
	moves := f.m.Round(t.Context())
	if len(moves) != 2 || moves[0].Evict || moves[1].Evict || !strings.Contains(moves[0].Why, "one move at a time") {
		t.Errorf("moves %+v, want both slices waiting for the placement under way", moves)
	}
}

// nodeAllowed asks the Filter rule of pod on node as the scheduler does.
func nodeAllowed(s *state.State, pod *corev1.Pod, node string, free func() workload.Resources) (bool, string) {
	return s.NodeFacts(pod, node).Allows(free)
}
