package admission_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// running places workload name, of priority prio and started minute m, on
// every node of the given pools: one 4-chip pod per node.
func (s *snap) running(name string, prio int32, m int, pools ...string) *snap {
	h := other(name)
	v := &state.WorkloadView{Key: h.Key, Holder: h, Priority: prio, Started: time.Unix(0, 0).Add(time.Duration(m) * time.Minute)}
	for _, p := range pools {
		s.heldBy(p, h)
		for _, n := range s.nodesOf(p) {
			s.use(n.Node.Name, 4)
			v.Pods = append(v.Pods, state.PodView{UID: types.UID("pod-" + n.Node.Name), Node: n.Node.Name, Holds: true,
				Request: workload.Resources{wellknown.ResourceTPU: 4000}})
		}
	}
	s.sn.Workloads[h.Key] = v
	return s
}

// failed marks every node of pool p unusable (NotReady).
func (s *snap) failed(p string) *snap {
	for _, n := range s.nodesOf(p) {
		n.Node = &topology.Node{Name: n.Node.Name, Obj: n.Node.Obj, Allocatable: n.Node.Allocatable, Usable: false}
	}
	return s
}

// leaving fills every node of pool p with a 4-chip pod being deleted.
func (s *snap) leaving(p string) *snap {
	for _, n := range s.nodesOf(p) {
		s.use(n.Node.Name, 4)
		n.Leaving = workload.Resources{wellknown.ResourceTPU: 4000}
	}
	return s
}

func (s *snap) priority(p int32) *snap {
	s.sn.Self.Priority = p
	return s
}

// checkOutcome checks that Preempt failed mentioning wantFail, or that it
// succeeded when wantFail is empty; it reports whether to check the
// decision further.
func checkOutcome(t *testing.T, d *admission.Preemption, fail *placement.Failure, wantFail string) bool {
	t.Helper()
	if wantFail != "" {
		if fail == nil || !strings.Contains(fail.Message, wantFail) {
			t.Fatalf("Preempt = %+v, %v; want a failure mentioning %q", d, fail, wantFail)
		}
		return false
	}
	if fail != nil {
		t.Fatalf("Preempt failed: %v", fail)
	}
	return true
}

func keyNames(keys []workload.Key) string {
	var out []string
	for _, k := range keys {
		out = append(out, k.Name)
	}
	return strings.Join(out, ",")
}

func TestPreempt(t *testing.T) {
	// The preemptor: 2 slices of 2 pods on distinct pools, priority 100.
	js := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec()).obj()
	pools := func(n int) *snap {
		s := snapshot()
		for i := 1; i <= n; i++ {
			s.pool("pool-"+string(rune('0'+i)), 2)
		}
		return s.self(js, all(js, tpuSpec())...).priority(100)
	}
	for _, tc := range []struct {
		name        string
		sn          *snap
		wantVictims string
		wantDomains []string
		wantFail    string
	}{{
		// Seed 000: one pool of the preemptor failed, one is free, a
		// lower-priority workload holds the other two: it goes, whole.
		name:        "hotswap",
		sn:          pools(4).failed("pool-1").running("low", 10, 0, "pool-3", "pool-4"),
		wantVictims: "low",
		wantDomains: []string{"pool-2", "pool-3"},
	}, {
		name:     "equal priority is never a victim",
		sn:       pools(4).failed("pool-1").running("peer", 100, 0, "pool-3", "pool-4"),
		wantFail: "no workload may be preempted",
	}, {
		name:     "higher priority is never a victim",
		sn:       pools(3).running("boss", 200, 0, "pool-1", "pool-2", "pool-3"),
		wantFail: "not lower",
	}, {
		name:        "lowest priority first",
		sn:          pools(3).running("mid", 50, 0, "pool-1").running("low", 10, 0, "pool-2").running("lower", 5, 0, "pool-3"),
		wantVictims: "lower,low",
	}, {
		name:        "fewest victims before lowest priority",
		sn:          pools(3).running("big", 50, 0, "pool-1", "pool-2").running("tiny", 1, 0, "pool-3"),
		wantVictims: "big",
	}, {
		name:        "most recently started among equals",
		sn:          pools(4).running("old", 10, 0, "pool-2").running("new", 10, 5, "pool-3").running("keep", 200, 0, "pool-4"),
		wantVictims: "new",
		wantDomains: []string{"pool-1", "pool-3"},
	}, {
		name:     "a workload being placed is not a victim",
		sn:       pools(2).running("low", 10, 0, "pool-1", "pool-2").do(func(s *snap) { s.sn.Workloads[other("low").Key].Reserved = true }),
		wantFail: "no workload may be preempted",
	}, {
		name: "a workload another preemption is evicting is not a candidate",
		sn: pools(3).running("going", 1, 0, "pool-1").running("low", 10, 0, "pool-2").running("mid", 20, 0, "pool-3").
			do(func(s *snap) { s.sn.Workloads[other("going").Key].Evicting = true }),
		wantVictims: "low,mid",
	}, {
		name:     "waiting for pods already leaving beats evicting",
		sn:       pools(3).leaving("pool-2").running("low", 10, 0, "pool-3"),
		wantFail: "pods being deleted will leave room",
	}, {
		name:        "pods leaving that are not enough do not stop it",
		sn:          pools(3).failed("pool-1").leaving("pool-2").running("low", 10, 0, "pool-3"),
		wantVictims: "low",
	}, {
		name:     "evicting everything would not help",
		sn:       pools(2).failed("pool-1").running("low", 10, 0, "pool-2"),
		wantFail: "would not make room",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d, fail := admission.Preempt(tc.sn.sn)
			if !checkOutcome(t, d, fail, tc.wantFail) {
				return
			}
			if got := keyNames(d.Victims); got != tc.wantVictims {
				t.Errorf("victims %s, want %s", got, tc.wantVictims)
			}
			if tc.wantDomains != nil {
				var got []string
				for _, sr := range d.Plan.Slices {
					got = append(got, sr.Domain)
				}
				slices.Sort(got)
				if !slices.Equal(got, tc.wantDomains) {
					t.Errorf("plan domains %v, want %v", got, tc.wantDomains)
				}
			}
		})
	}
}

// Simulating removals leaves the snapshot as it was.
func TestPreemptLeavesTheSnapshotAlone(t *testing.T) {
	js := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec()).obj()
	build := func() *state.Snapshot {
		return snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).
			self(js, all(js, tpuSpec())...).priority(100).
			running("a", 1, 0, "pool-1").running("b", 2, 0, "pool-2").running("c", 3, 0, "pool-3").sn
	}
	sn := build()
	if _, fail := admission.Preempt(sn); fail != nil {
		t.Fatalf("preempt: %v", fail)
	}
	opts := cmp.Options{
		cmp.Comparer(func(a, b *topology.Node) bool { return a.Name == b.Name && a.Usable == b.Usable }),
		cmpopts.IgnoreUnexported(state.Pod{}),
		// Plans memoise node qualifiers on the snapshot; that is not a change.
		cmpopts.IgnoreFields(state.Snapshot{}, "Qualifiers"), cmpopts.IgnoreUnexported(state.Snapshot{}),
	}
	if diff := cmp.Diff(build(), sn, opts); diff != "" {
		t.Errorf("Preempt changed the snapshot (-before +after):\n%s", diff)
	}
}

// With 1 000 candidate workloads on 1 000 pools and a preemptor missing one
// domain, the search stays a handful of simulations.
func TestPreemptManyCandidates(t *testing.T) {
	js := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec()).obj()
	s := snapshot()
	for i := range 1000 {
		name := "p" + strings.Repeat("0", 4-len(itoa(i))) + itoa(i)
		s.pool(name, 2)
	}
	s.self(js, all(js, tpuSpec())...).priority(100)
	for i := range 1000 {
		name := "p" + strings.Repeat("0", 4-len(itoa(i))) + itoa(i)
		if i == 0 {
			continue // one free pool: one more is missing
		}
		s.running("w"+name, int32(i%50), i, name)
	}
	d, fail := admission.Preempt(s.sn)
	if fail != nil {
		t.Fatal(fail)
	}
	if len(d.Victims) != 1 || d.Simulations > 30 {
		t.Errorf("victims %v after %d simulations; want one victim in at most 30", d.Victims, d.Simulations)
	}
	if v := s.sn.Workloads[d.Victims[0]]; v.Priority != 0 {
		t.Errorf("victim %s has priority %d, want the lowest (0)", v.Key.Name, v.Priority)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{digits[i%10]}, b...)
	}
	return string(b)
}

// BenchmarkPreempt is one whole-workload preemption decision on its own,
// without the scheduler and apiserver that share the CPU in the
// scheduler_perf topic hotswap: 1024 pools of 2 hosts, every host held by
// one of ~1000 lower-priority workloads, a 2-slice preemptor missing one
// pool (one victim) or two (two victims). `make bench` runs it.
func BenchmarkPreempt(b *testing.B) {
	for _, tc := range []struct {
		name string
		free int
	}{{"1000Candidates_OneVictim", 1}, {"1000Candidates_TwoVictims", 0}} {
		b.Run(tc.name, func(b *testing.B) {
			js := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec()).obj()
			s := snapshot()
			for i := range 1024 {
				s.pool(fmt.Sprintf("p%04d", i), 2)
			}
			s.self(js, all(js, tpuSpec())...).priority(100)
			for i := tc.free; i < 1024; i++ {
				name := fmt.Sprintf("p%04d", i)
				s.running("w"+name, int32(i%50), i, name)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, fail := admission.Preempt(s.sn); fail != nil {
					b.Fatal(fail)
				}
			}
		})
	}
}

// A preemptor asking for domains only (admitted already, or its quota
// fits) preempts by priority, whatever its ClusterQueue's quota policies
// say, and the victims keep their quota; one asking for quota preempts as
// its ClusterQueue's policies allow. Work outside the queues never evicts
// an admitted workload.
func TestPreemptCapacityOrQuota(t *testing.T) {
	js := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec()).obj()
	// Seed 000 under a queue: the preemptor (16 chips) lost pool-1; low
	// (16 chips, charged to the same ClusterQueue) holds pool-3 and pool-4.
	build := func(nominal int64, within string, queued, plain bool) *state.Snapshot {
		s := snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).pool("pool-4", 2).
			self(js, all(js, tpuSpec())...).priority(100).failed("pool-1").
			running("low", 10, 0, "pool-3", "pool-4").
			queue([]*quota.Flavor{flavor("v6e")}, nominal)
		if plain {
			// A workload of no queue, of lower priority, on the free pool.
			s.running("plain", 5, 0, "pool-2")
		}
		cq := s.sn.Quota.ClusterQueue
		cq.Preemption.WithinClusterQueue = within
		low := s.sn.Workloads[other("low").Key]
		low.Charge = &quota.Charge{ClusterQueue: "cq", Usage: quota.Usage{{Flavor: "v6e", Resource: wellknown.ResourceTPU}: 16000}}
		s.sn.Quota.View.Add(low.Charge)
		s.sn.ClusterQueues = map[string]*quota.ClusterQueue{"cq": cq}
		if !queued {
			s.sn.Quota = nil
		}
		return s.sn
	}
	for _, tc := range []struct {
		name         string
		nominal      int64
		within       string
		queued       bool
		plain        bool
		wantCapacity bool
		wantFail     string
	}{
		{name: "quota fits: capacity preemption, withinClusterQueue ignored", nominal: 64, within: "Never", queued: true, wantCapacity: true},
		{name: "quota short, Never: no victim", nominal: 16, within: "Never", queued: true, wantFail: "quota preemption: no workload may be preempted for it: the policy of ClusterQueue cq forbids preempting its own workloads (spec.preemption.withinClusterQueue: Never)"},
		{name: "quota short, Never, a workload of no queue is not enough: the policy named", nominal: 16, within: "Never", queued: true, plain: true,
			wantFail: "quota preemption: evicting all 1 workload(s) that may be preempted would not make room; the others may not be preempted: the policy of ClusterQueue cq forbids preempting its own workloads (spec.preemption.withinClusterQueue: Never)"},
		{name: "quota short, LowerPriority: quota preemption", nominal: 16, within: "LowerPriority", queued: true},
		{name: "unqueued preemptor never evicts an admitted workload", nominal: 64, within: "LowerPriority", wantFail: "capacity preemption: no workload may be preempted for it: JobSet ns/low is admitted through ClusterQueue cq and the preemptor is not queued"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sn := build(tc.nominal, tc.within, tc.queued, tc.plain)
			used := func() int64 {
				if sn.Quota == nil {
					return 0
				}
				return sn.Quota.View.Usage("cq", quota.FlavorResource{Flavor: "v6e", Resource: wellknown.ResourceTPU})
			}
			before := used()
			d, fail := admission.Preempt(sn)
			if used() != before {
				t.Errorf("the queue's usage is %d after the decision, want %d as before", used(), before)
			}
			if !checkOutcome(t, d, fail, tc.wantFail) {
				return
			}
			if got := keyNames(d.Victims); got != "low" {
				t.Errorf("victims %s, want low", got)
			}
			if d.Capacity != tc.wantCapacity {
				t.Errorf("capacity preemption = %v, want %v", d.Capacity, tc.wantCapacity)
			}
			if d.Plan.Charge == nil {
				t.Errorf("the plan charges nothing; a queued preemptor's plan charges its queue")
			}
		})
	}
}

// Capacity preemption takes other queues' workloads only as far as the
// preemptor's ClusterQueue's forceFit allows, and a reason shared by
// several workloads is counted, not repeated.
func TestPreemptForceFit(t *testing.T) {
	js := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec()).obj()
	for _, tc := range []struct {
		name           string
		forceFit       string
		victimCohort   string
		wantFail       string
		wantVictimName string
	}{
		{name: "default: any lower-priority queue", wantVictimName: "low-b"},
		{name: "within the cohort: a queue of it", forceFit: "LowerPriorityWithinCohort", victimCohort: "gpus", wantVictimName: "low-b"},
		{name: "within the cohort: a queue outside it", forceFit: "LowerPriorityWithinCohort", victimCohort: "other",
			wantFail: "capacity preemption: no workload may be preempted for it: ClusterQueue team-b is outside the cohort of ClusterQueue cq (spec.preemption.forceFit: LowerPriorityWithinCohort) (2 workloads)"},
		{name: "Never", forceFit: "Never", victimCohort: "gpus",
			wantFail: "capacity preemption: no workload may be preempted for it: ClusterQueue cq evicts no other queue's workloads for room (spec.preemption.forceFit: Never) (2 workloads)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The preemptor lost pool-1; team-b's two lower-priority
			// workloads hold pool-3 and pool-4.
			s := snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).pool("pool-4", 2).
				self(js, all(js, tpuSpec())...).priority(100).failed("pool-1").
				running("low-a", 10, 0, "pool-3").running("low-b", 10, 1, "pool-4").
				queue([]*quota.Flavor{flavor("v6e")}, 64)
			// The preemptor's queue in cohort gpus, with the policy under
			// test; the book is made again with both queues in it.
			cq := s.sn.Quota.ClusterQueue
			cq.Cohort, cq.Preemption.ForceFit = "gpus", tc.forceFit
			teamB := &quota.ClusterQueue{Name: "team-b", Cohort: tc.victimCohort, Quotas: map[quota.FlavorResource]quota.Limit{}, FairWeight: 1000}
			b := quota.NewBook()
			b.SetFlavor(flavor("v6e"))
			b.SetClusterQueue(cq)
			b.SetClusterQueue(teamB)
			s.sn.Quota.View = b.View()
			s.sn.ClusterQueues = map[string]*quota.ClusterQueue{"cq": cq, "team-b": teamB}
			for _, name := range []string{"low-a", "low-b"} {
				s.sn.Workloads[other(name).Key].Charge = &quota.Charge{ClusterQueue: "team-b"}
			}
			d, fail := admission.Preempt(s.sn)
			if !checkOutcome(t, d, fail, tc.wantFail) {
				return
			}
			if got := keyNames(d.Victims); got != tc.wantVictimName {
				t.Errorf("victims %s, want %s", got, tc.wantVictimName)
			}
			if !d.Capacity {
				t.Errorf("a preemptor whose quota fits preempts for capacity")
			}
		})
	}
}
