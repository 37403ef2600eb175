package multislicegang

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// op is one extension point run for one pod of the gang.
type op int

const (
	// opReserve runs PreFilter in a new cycle, then Reserve on the first
	// node PreFilter offers.
	opReserve op = iota
	opPermit
	opUnreserve
)

type gangStep struct {
	op  op
	pod int
	// want is Permit's status; wantWait whether it returned a positive
	// wait (and only then).
	want     status
	wantWait bool
}

func reserveStep(pod int) gangStep   { return gangStep{op: opReserve, pod: pod} }
func unreserveStep(pod int) gangStep { return gangStep{op: opUnreserve, pod: pod} }
func permitStep(pod int, want status, wait bool) gangStep {
	return gangStep{op: opPermit, pod: pod, want: want, wantWait: wait}
}

func TestReservePermitUnreserve(t *testing.T) {
	// a is one slice of two pods.
	js := unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj()
	all := builders.Members(js)
	key := jsKey("a")
	waiting := status{fwk.Wait, "waiting for 1 of 2 gang members of JobSet ns/a to be reserved"}
	allowed := status{}
	released := status{fwk.Unschedulable, "the reservation of JobSet ns/a was released"}
	cases := map[string]struct {
		steps         []gangStep
		wantReserved  bool
		wantCommitted bool
	}{
		"the first member waits": {
			steps:        []gangStep{reserveStep(0), permitStep(0, waiting, true)},
			wantReserved: true,
		},
		"the last member lets the gang bind": {
			steps: []gangStep{
				reserveStep(0), permitStep(0, waiting, true),
				reserveStep(1), permitStep(1, allowed, false),
			},
			wantReserved: true, wantCommitted: true,
		},
		"unreserve before commit releases the gang": {
			steps: []gangStep{
				reserveStep(0), permitStep(0, waiting, true),
				unreserveStep(0),
			},
		},
		"a member reserved after the release is rejected": {
			steps: []gangStep{
				reserveStep(0), permitStep(0, waiting, true),
				unreserveStep(0),
				permitStep(1, released, false),
			},
		},
		"unreserve after commit keeps the reservation": {
			steps: []gangStep{
				reserveStep(0), permitStep(0, waiting, true),
				reserveStep(1), permitStep(1, allowed, false),
				unreserveStep(1),
			},
			wantReserved: true, wantCommitted: true,
		},
		"a late permit after commit is allowed": {
			steps: []gangStep{
				reserveStep(0), permitStep(0, waiting, true),
				reserveStep(1), permitStep(1, allowed, false),
				permitStep(0, allowed, false),
			},
			wantReserved: true, wantCommitted: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(2)...)
			f.addGang(js)
			for i, s := range tc.steps {
				p := all[s.pod]
				where := fmt.Sprintf("step %d (pod %d)", i, s.pod)
				switch s.op {
				case opReserve:
					res := mustPreFilter(f, p)
					if st := f.reserve(p, nodeNames(res)[0]); !st.IsSuccess() {
						t.Fatalf("%s: Reserve: %v", where, st)
					}
				case opPermit:
					st, wait := f.permit(p)
					if diff := cmp.Diff(s.want, statusOf(st)); diff != "" {
						t.Errorf("%s: Permit (-want +got):\n%s", where, diff)
					}
					if (wait > 0) != s.wantWait || wait < 0 {
						t.Errorf("%s: Permit wait %v, want positive: %v", where, wait, s.wantWait)
					}
				case opUnreserve:
					f.unreserve(p)
				}
			}
			r, reserved := heldReservation(t, f, key)
			if reserved != tc.wantReserved || r.Committed != tc.wantCommitted {
				t.Errorf("reservation held %v committed %v, want %v %v", reserved, r.Committed, tc.wantReserved, tc.wantCommitted)
			}
		})
	}
}

// Unreserve of a member whose Reserve never ran (another plugin's Reserve
// failed first) does not release the gang's reservation. End to end: that
// the glue then gives the engine reservation 0 is TestReserveUnreserve's;
// that 0 releases nothing is the engine's.
func TestUnreserveWithoutReserve(t *testing.T) {
	f := newFixture(t, builders.V5ePools(1)...)
	all := f.addGang(unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj())
	res := mustPreFilter(f, all[0])
	f.reserve(all[0], nodeNames(res)[0])
	mustPreFilter(f, all[1])
	f.unreserve(all[1])
	if _, ok := heldReservation(t, f, jsKey("a")); !ok {
		t.Error("the reservation was released")
	}
}
