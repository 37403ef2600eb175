package cyclestate

import (
	"errors"
	"strings"
	"testing"

	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
)

// other is an entry of the wrong type under the cycle's key.
type other struct{}

func (other) Clone() fwk.StateData { return other{} }

func TestRead(t *testing.T) {
	c := &admission.Cycle{}
	cases := map[string]struct {
		write func(cs fwk.CycleState)
		want  *admission.Cycle
		// wantErr is part of the error; wantNotFound: it wraps
		// fwk.ErrNotFound.
		wantErr      string
		wantNotFound bool
	}{
		"written": {write: func(cs fwk.CycleState) { Write(cs, c) }, want: c},
		"PreFilter did not run": {
			write:        func(fwk.CycleState) {},
			wantErr:      `reading "multislice.dev/cycle" from the cycle state: not found (MultisliceGang's PreFilter did not run in this cycle)`,
			wantNotFound: true,
		},
		"another type under the key": {
			write:   func(cs fwk.CycleState) { cs.Write(key, other{}) },
			wantErr: `reading "multislice.dev/cycle" from the cycle state: got cyclestate.other, want the cycle`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cs := framework.NewCycleState()
			tc.write(cs)
			got, err := Read(cs)
			if got != tc.want {
				t.Errorf("Read = %p, want %p", got, tc.want)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Read error %v, want one containing %q", err, tc.wantErr)
			}
			if errors.Is(err, fwk.ErrNotFound) != tc.wantNotFound {
				t.Errorf("error wraps fwk.ErrNotFound: %v, want %v", !tc.wantNotFound, tc.wantNotFound)
			}
		})
	}
}

// A clone of the cycle state (preemption's simulations take one) shares
// the cycle, which is never changed once written.
func TestCloneSharesTheCycle(t *testing.T) {
	c := &admission.Cycle{}
	cs := framework.NewCycleState()
	Write(cs, c)
	got, err := Read(cs.Clone())
	if err != nil || got != c {
		t.Errorf("Read(clone) = %p, %v; want %p", got, err, c)
	}
}
