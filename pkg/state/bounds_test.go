package state_test

import (
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A reserved slice's steps, in order, for the pod whose node is relabelled
// (the last member to be reserved): the relabel lands after one of them.
const (
	stepReserved      = iota // the reservation is committed
	stepWaiting              // another member waits in Permit
	stepGate                 // the pod is reserved too; the gate has not passed
	stepBinding              // the gate passed: binds are in flight
	stepBindFailed           // the pod's bind failed; the other member bound
	stepRetryFiltered        // the pod's retry passed Filter on its node
	stepRetryReserved        // and Reserve
)

var stepNames = []string{
	stepReserved:      "planned and reserved",
	stepWaiting:       "a member waits in Permit",
	stepGate:          "the gate is passing",
	stepBinding:       "binding",
	stepBindFailed:    "the bind failed",
	stepRetryFiltered: "retried, past Filter",
	stepRetryReserved: "retried, past Reserve",
}

// A node that leaves a reserved slice's bounds leaves the reservation,
// whatever step the slice is at: the pod that was to go there never gets
// through Filter, Reserve and Permit onto it afterwards. For a gang the
// node is relabelled out of the slice's pool into one another workload
// holds; for a queued plain pod, out of the flavor its quota is charged
// to (a label no domain is indexed by, so the node's change releases
// nothing: Reserve and Permit must see it themselves).
func TestANodeThatLeavesASliceLeavesItsReservation(t *testing.T) {
	for _, kind := range []struct {
		name  string
		steps []int
		run   func(t *testing.T, at int)
	}{
		{name: "gang", run: leaveGang,
			steps: []int{stepReserved, stepWaiting, stepGate, stepBinding, stepBindFailed, stepRetryFiltered, stepRetryReserved}},
		{name: "queued plain pod", run: leaveAlone,
			steps: []int{stepReserved, stepBinding, stepBindFailed, stepRetryFiltered, stepRetryReserved}},
	} {
		for _, at := range kind.steps {
			t.Run(kind.name+"/"+stepNames[at], func(t *testing.T) { kind.run(t, at) })
		}
	}
}

// leaveGang runs slice 0 of a (two pods, one per node of its pool) through
// its steps, relabelling the node of its second pod into pool-3, where b
// runs, after step at.
func leaveGang(t *testing.T, at int) {
	f := newFixture(t, builders.V5ePools(3)...)
	f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-3-node-0", "pool-3-node-1")
	all := f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	_, r, _ := f.commit(jsKey("a"))
	nodes := slotNodes(r) // one slice, one pod per node
	pod, moved := all[1], nodes[1]
	lv := &leaving{t: t, f: f, at: at, node: moved, relabel: func(n *corev1.Node) { n.Labels[wellknown.NodePoolLabel] = "pool-3" }}

	lv.after(stepReserved)
	if !lv.moved {
		f.placed[all[0].UID] = nodes[0]
		f.s.Reserve(all[0], nodes[0])
		if res := f.permit(all[0]); res.Wait <= 0 {
			t.Fatalf("Permit of the first member = %+v, want it to wait", res)
		}
	}
	lv.after(stepWaiting)
	id, ok := lv.filterAndReserve(pod)
	lv.after(stepGate)
	if !ok || !lv.permit(pod) {
		return
	}
	lv.after(stepBinding)
	f.bind(all[0], nodes[0])
	f.unreserve(pod, id)
	lv.after(stepBindFailed)
	lv.retry(pod)
}

// leaveAlone admits a queued plain pod on the quota of flavor v5e and runs
// it through its steps on the first node of that flavor, relabelling the
// node out of the flavor (to topology 4x4) after step at.
func leaveAlone(t *testing.T, at int) {
	f := withQueue(newFixture(t, builders.V5ePools(2)...), 8, quota.BestEffortFIFO)
	pod := unit.Pod("p").TPU("4").Label(wellknown.QueueNameLabel, "multislice-queue").Obj()
	f.addPods(pod)
	nodes, fail, _ := admission.AdmitAlone(f.s, pod, time.Minute)
	if fail != nil {
		t.Fatalf("AdmitAlone: %v", fail)
	}
	lv := &leaving{t: t, f: f, at: at, node: nodes[0], relabel: func(n *corev1.Node) { n.Labels[wellknown.TPUTopologyLabel] = "4x4" }}

	lv.after(stepReserved)
	id, ok := lv.filterAndReserve(pod)
	if !ok || !lv.permit(pod) {
		return
	}
	lv.after(stepBinding)
	f.unreserve(pod, id)
	lv.after(stepBindFailed)
	lv.retry(pod)
}

// leaving runs a pod's steps towards node, which is relabelled once, after
// step at. Until then every step lets the pod through; from then on none
// does, and the step the pod is stopped at ends its run.
type leaving struct {
	t       *testing.T
	f       *fixture
	at      int
	node    string
	relabel func(*corev1.Node)
	moved   bool
}

// after marks the end of step: the node is relabelled if it is at.
func (lv *leaving) after(step int) {
	if step != lv.at {
		return
	}
	n := lv.f.nodes[lv.node].DeepCopy()
	lv.relabel(n)
	lv.f.addNodes(n)
	lv.moved = true
}

// filterAndReserve runs Filter and, if it lets p through, Reserve for p on
// the node, with the relabel after Filter when that is the step.
func (lv *leaving) filterAndReserve(p *corev1.Pod) (uint64, bool) {
	if !lv.filter(p) {
		return 0, false
	}
	lv.after(stepRetryFiltered)
	lv.f.placed[p.UID] = lv.node
	id := lv.f.s.Reserve(p, lv.node)
	if lv.moved {
		if id != 0 {
			lv.t.Errorf("Reserve took room for %s under reservation %d on %s, which left the slice", p.Name, id, lv.node)
		}
		if r, ok := lv.f.reservationOf(keyOf(lv.f, p), p); ok {
			if _, in := r.Reserved[p.UID]; in {
				lv.t.Errorf("%s is reserved under its reservation on %s, which left the slice", p.Name, lv.node)
			}
		}
	}
	lv.after(stepRetryReserved)
	return id, true
}

// filter runs Filter for p on the node as the state has it.
func (lv *leaving) filter(p *corev1.Pod) bool {
	ok, why := nodeAllowed(lv.f.s, p, lv.node, lv.f.free(lv.node))
	switch {
	case lv.moved && ok:
		lv.t.Errorf("Filter lets %s onto %s after it left the slice", p.Name, lv.node)
	case !lv.moved && !ok:
		lv.t.Fatalf("Filter keeps %s off %s before it moved: %s", p.Name, lv.node, why)
	}
	return ok
}

// permit runs Permit for p and reports whether it let p through.
func (lv *leaving) permit(p *corev1.Pod) bool {
	res := lv.f.permit(p)
	switch {
	case lv.moved && res.Allow:
		lv.t.Errorf("Permit lets %s bind to %s after it left the slice", p.Name, lv.node)
	case !lv.moved && !res.Allow:
		lv.t.Fatalf("Permit of %s before the node moved = %+v, want it let through", p.Name, res)
	}
	if lv.moved && !slices.Contains(lv.f.obs.releases(), state.ReleaseNodeMoved) {
		lv.t.Errorf("releases %v, want the reservation released for the node that moved", lv.f.obs.releases())
	}
	return res.Allow
}

// retry runs p's next scheduling cycle on the node, after its bind failed.
func (lv *leaving) retry(p *corev1.Pod) {
	if _, ok := lv.filterAndReserve(p); ok {
		lv.permit(p)
	}
	if !lv.moved {
		lv.t.Fatalf("the node never moved: step %d is not one of the run's", lv.at)
	}
}

// keyOf is the key of p's workload.
func keyOf(f *fixture, p *corev1.Pod) workload.Key {
	sp, _ := f.s.Pod(p.UID)
	return sp.Member.Key
}
