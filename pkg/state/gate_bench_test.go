package state_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// BenchmarkGate is the gate's copy (State.Gate, as PreEnqueue asks it) of
// an ordinary pod and of a waiting gang member, on a fleet of pools of 2
// v5e hosts half held by running JobSets. Parallel runs it from every
// core at once, as the scheduling queue's PreEnqueue calls and the
// informers' handlers reach the state concurrently.
func BenchmarkGate(b *testing.B) {
	f := halfHeld(b, 1024)
	member := firstWaitingMember(f)
	plain := unit.Pod("plain").TPU("4").Obj()
	f.addPods(plain)
	asks := state.GateAsks{BehindHead: true}
	for _, tc := range []struct {
		name string
		pod  *corev1.Pod
	}{
		{"PlainPod", plain},
		{"GangMember", member},
	} {
		b.Run(fmt.Sprintf("%s/Serial", tc.name), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				f.s.Gate(tc.pod, asks)
			}
		})
		b.Run(fmt.Sprintf("%s/Parallel", tc.name), func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					f.s.Gate(tc.pod, asks)
				}
			})
		})
	}
}
