package state

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A charge nothing on the API backs — here planted in the book past every
// transition that would release it — is found on the second reconcile in a
// row, reported and released.
func TestReconcileReleasesAPhantomCharge(t *testing.T) {
	s := New(Options{})
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "ghost"}
	fr := quota.FlavorResource{Flavor: "f", Resource: "google.com/tpu"}
	s.book.Charge(key, quota.FromSlices("cq", map[int]quota.Usage{0: {fr: 8000}}))

	if found, _ := s.Upkeep().Reconcile(nil); len(found) != 0 {
		t.Fatalf("first reconcile reported %+v; a difference counts when seen twice", found)
	}
	found, _ := s.Upkeep().Reconcile(nil)
	if len(found) != 1 || found[0].Kind != DriftPhantom || !found[0].Fixed || found[0].ClusterQueue != "cq" {
		t.Fatalf("second reconcile = %+v, want the phantom charge found and released", found)
	}
	if s.book.ChargeOf(key) != nil {
		t.Error("the phantom charge is still in the book")
	}
	if found, _ := s.Upkeep().Reconcile(nil); len(found) != 0 {
		t.Errorf("third reconcile = %+v, want nothing", found)
	}
}
