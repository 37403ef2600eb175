package state_test

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// BenchmarkFilterAcrossTheFleet is the Filter rule asked of one pod on
// every node of a cluster of pools of 2 v5e hosts, half of them held by
// running JobSets (halfHeld), as a scheduling cycle asks it: one op is one
// pass over every node. The plain pod is refused on every held pool; the
// gang member ("new", slice 0) on held pools and allowed on free ones.
func BenchmarkFilterAcrossTheFleet(b *testing.B) {
	for _, nodes := range []int{1024, 4096} {
		f := halfHeld(b, nodes)
		names := make([]string, 0, len(f.nodes))
		for n := range f.nodes {
			names = append(names, n)
		}
		slices.Sort(names)
		free := map[string]func() workload.Resources{}
		for _, n := range names {
			free[n] = func() workload.Resources { return workload.FromList(f.nodes[n].Status.Allocatable) }
		}
		member := firstWaitingMember(f)
		// Indexed, as the informer has every pod the scheduler filters.
		plain := unit.Pod("plain").TPU("4").Obj()
		f.addPods(plain)
		for _, tc := range []struct {
			name string
			pod  *corev1.Pod
		}{
			{"PlainPod", plain},
			{"GangMember", member},
		} {
			b.Run(fmt.Sprintf("%dNodes/%s", nodes, tc.name), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					for _, n := range names {
						nodeAllowed(f.s, tc.pod, n, free[n])
					}
				}
			})
		}
	}
}

// firstWaitingMember is the gang member of f that is on no node, first by
// name.
func firstWaitingMember(f *fixture) *corev1.Pod {
	var member *corev1.Pod
	for _, p := range f.pods {
		if p.Labels != nil && p.Spec.NodeName == "" && (member == nil || p.Name < member.Name) {
			member = p
		}
	}
	return member
}
