package admission_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// groupModel is a JobSet of a leader (one pod of 8 GPUs: a whole host) and
// workers (one Job of workers pods of 2 GPUs), both asking r in group
// "team" (podset-group-name), and its members (leaderOn: the leader's
// node, "" for none).
func groupModel(workers int, r workload.TopologyRequest, leaderOn string) (*workload.Workload, []*state.Pod) {
	leaderPod := spec().Request(wellknown.ResourceGPU, "8")
	w := jobSetModel("a").slices(1, 1, "", 0, leaderPod).slices(1, workers, "", 0, gpuPod()).obj()
	r.Group = "team"
	leader, workerSet := r, r // one request per pod set, as a JobSet's replicated Jobs have
	w.Slices[0].ReplicatedJob, w.Slices[0].Topology = "leader", &leader
	w.Slices[1].ReplicatedJob, w.Slices[1].Topology = "workers", &workerSet
	members := []*state.Pod{member(w, 0, 0, leaderPod).p}
	members[0].Node = leaderOn
	for i := range workers {
		members = append(members, member(w, 1, i, gpuPod()).p)
	}
	return w, members
}

// The pod sets of a group (a leader and its workers) are kept in one
// domain of their level: the largest goes where it alone would, the others
// join it there, and when one of them does not fit there the group goes to
// another domain, all or nothing.
func TestPlanTopologyGroup(t *testing.T) {
	required := workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblock}
	preferred := workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: subblock}
	// halfFull leaves 6 of each host's 8 GPUs free in subblock sb of block
	// b0: 12 worker pods fit there, the leader's whole host does not.
	halfFull := func(sb string) func(*snap) {
		return func(s *snap) {
			for h := range 4 {
				s.gpus(fmt.Sprintf("b0-%s-h%d", sb, h), 2)
			}
		}
	}
	cases := map[string]struct {
		r        workload.TopologyRequest
		workers  int
		leaderOn string
		edit     []func(*snap)
		// want: the subblock each pod set's slice lands in (slice 0 the
		// leader, 1 the workers); wantFail: part of the failure.
		want         map[int]string
		wantFail     string
		unresolvable bool
	}{
		"both in the subblock the workers take": {
			r: required, workers: 12,
			want: map[int]string{0: "s0", 1: "s0"},
		},
		"the leader fits nowhere the workers would go alone: both move": {
			// s0 is the tightest for the workers, but has no whole host.
			r: required, workers: 12, edit: []func(*snap){halfFull("s0")},
			want: map[int]string{0: "s1", 1: "s1"},
		},
		"preferred: the same": {
			r: preferred, workers: 12, edit: []func(*snap){halfFull("s0")},
			want: map[int]string{0: "s1", 1: "s1"},
		},
		"no subblock takes the leader beside the workers now": {
			r: required, workers: 12, edit: []func(*snap){halfFull("s0"), halfFull("s1")},
			wantFail: `group "team" (pod sets workers, leader) fits whole in no one domain: where workers fit last (b0/s1), ` +
				`pod set leader: needs 1 pod in one ` + subblock,
		},
		"no subblock could ever take the leader beside the workers": {
			// 14 workers of 2 GPUs and a leader of 8: 36 GPUs, a subblock has 32.
			r: required, workers: 14,
			wantFail:     `group "team" (pod sets workers, leader) fits whole in no one domain`,
			unresolvable: true,
		},
		"a leader placed pins its workers": {
			// The workers alone would take s0, the tightest.
			r: required, workers: 8, leaderOn: "b0-s1-h0", edit: []func(*snap){halfFull("s0"), func(s *snap) { s.gpus("b0-s1-h0", 8) }},
			want: map[int]string{1: "s1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w, members := groupModel(tc.workers, tc.r, tc.leaderOn)
			s := snapshot().gpuFleet(1, 2, 4).self(w, members...)
			for _, e := range tc.edit {
				e(s)
			}
			s.gpuQueue(gpuFlavor())
			r, fail := admission.Plan(s.sn)
			if tc.wantFail != "" {
				if fail == nil || !strings.Contains(fail.Message, tc.wantFail) || fail.Unresolvable != tc.unresolvable {
					t.Fatalf("failure %+v, want one saying %q (unresolvable %v)", fail, tc.wantFail, tc.unresolvable)
				}
				return
			}
			if fail != nil {
				t.Fatalf("failed: %s", fail.Message)
			}
			got := map[int]string{}
			for i, sr := range r.Slices {
				subblocks := map[string]bool{}
				for _, sl := range sr.Slots {
					subblocks[strings.Split(sl.Node, "-")[1]] = true
				}
				got[i] = strings.Join(slices.Sorted(maps.Keys(subblocks)), ",")
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("subblocks by slice (-want +got):\n%s", diff)
			}
		})
	}
}
