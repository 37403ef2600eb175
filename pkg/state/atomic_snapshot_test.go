package state_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// An atomic workload's snapshot carries its key, and the nodes of its
// placed pods pin the zone the rest is planned in, even a node without its
// slice's domain label.
func TestSnapshotAtomicKey(t *testing.T) {
	var nodes []*corev1.Node
	for _, p := range []struct{ name, zone string }{{"pool-a1", "us-a"}, {"pool-a2", "us-a"}, {"pool-b1", "us-b"}, {"pool-b2", "us-b"}, {"pool-b3", "us-b"}} {
		nodes = append(nodes, builders.V5ePool(p.name).Zone(p.zone).Build()...)
	}
	nodes = append(nodes, builders.Node("host-0").TPU(builders.V5e, "2x4", 4).Zone("us-a").Obj())
	f := newFixture(t, nodes...)
	js := unit.JobSet("t").Annotation(wellknown.AtomicTopologyAnnotation, wellknown.ZoneLabel).InOrder().
		ReplicatedJob("init", 1, 1).ReplicatedJob("workers", 2, 2).Obj()
	js.Spec.ReplicatedJobs[0].Template.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: "example.com/rack"}
	f.addJobSet(js)
	pods := builders.Members(js)
	pods[0] = builders.Bound(pods[0], "host-0") // host-0 has no example.com/rack label
	f.addPods(pods...)
	sn := f.snapshot(jsKey("t"))
	if sn.AtomicKey != wellknown.ZoneLabel || sn.Nodes["host-0"] == nil {
		t.Fatalf("AtomicKey %q, host-0 in the snapshot: %v", sn.AtomicKey, sn.Nodes["host-0"] != nil)
	}
	// us-b is roomier, but the init pod runs in us-a.
	if got := domains(f.mustPlan(jsKey("t"))); got[1] != "pool-a1" || got[2] != "pool-a2" {
		t.Errorf("workers on %v, want pool-a1 and pool-a2", got)
	}
}

// A replacement pod of an unconfined slice of an atomic workload that runs
// whole may go only where the workload runs: its zone.
func TestAtomicReplacementStaysInTheZone(t *testing.T) {
	f := newFixture(t,
		builders.Node("a-0").Zone("us-a").Obj(), builders.Node("a-1").Zone("us-a").Obj(),
		builders.Node("b-0").Zone("us-b").Obj())
	js := unit.JobSet("t").Unconfined().Annotation(wellknown.AtomicTopologyAnnotation, wellknown.ZoneLabel).
		ReplicatedJob("workers", 2, 1).Obj()
	running := f.addRunning(js, "a-0", "a-1")
	if got := f.heldNodes(running[0]); len(got) != 2 || got[0] != "a-0" || got[1] != "a-1" {
		t.Fatalf("held nodes of an atomic unconfined slice = %v, want the zone's a-0, a-1", got)
	}
	plain := unit.JobSet("p").Unconfined().ReplicatedJob("workers", 1, 1).Obj()
	if got := f.heldNodes(f.addRunning(plain, "b-0")[0]); got != nil {
		t.Errorf("an unconfined slice without an atomic key is held to %v", got)
	}
}
