package state_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// verdict is the part of a state.Verdict the tests compare exactly.
type verdict struct {
	Gang, Wait, Unresolvable bool
}

func TestAdmit(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	all := builders.Members(js)
	cases := map[string]struct {
		// setup feeds the state and returns the pod to admit.
		setup   func(f *fixture) *corev1.Pod
		want    verdict
		wantMsg string
	}{
		"plain pod": {
			setup: func(f *fixture) *corev1.Pod { return unit.Pod("plain").Obj() },
		},
		"JobSet not observed yet": {
			setup: func(f *fixture) *corev1.Pod {
				f.addPods(all...)
				return all[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for JobSet ns/a to be observed",
		},
		"3 of 4 pods": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[:3]...)
				return all[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for 1 of 4 pods of JobSet ns/a to be created",
		},
		"1 of 4 pods": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[3])
				return all[3]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for 3 of 4 pods of JobSet ns/a to be created",
		},
		"a gated pod is not present": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[:3]...)
				f.addPods(builders.Member(js, 1, 1).Gate("example.com/hold").Obj())
				return all[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for 1 of 4 pods",
		},
		"all 4 pods: the head plans for the gang": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all...)
				return all[0]
			},
			want: verdict{Gang: true},
		},
		"all 4 pods: another member waits for the head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all...)
				return all[2]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for a-slice-0-0-a0 to find room for JobSet ns/a",
		},
		"all 4 pods: another member waits for the head, whose plan failed": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all...)
				f.s.PlanFailed(all[0], 0, &placement.Failure{Message: "waiting for 1 more domains"})
				return all[3]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for a-slice-0-0-a0 to find room for JobSet ns/a: waiting for 1 more domains",
		},
		"all 4 pods and a reservation: every member of it": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all...)
				f.commit(jsKey("a"))
				return all[2]
			},
			want: verdict{Gang: true},
		},
		"a terminal pod is not present": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[:3]...)
				f.addPods(builders.InPhase(all[3], corev1.PodFailed))
				return all[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for 1 of 4 pods",
		},
		"incomplete, and the pod itself not observed yet": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[:3]...)
				return all[3]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for the scheduler to observe pod ns/a-slice-1-1-a0",
		},
		"staged: every leader present is enough": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(stagedLeader(js, 1), stagedLeader(js, 0))
				return stagedLeader(js, 0)
			},
			want: verdict{Gang: true},
		},
		"staged: the other leader waits for the head": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(stagedLeader(js, 0), stagedLeader(js, 1))
				return stagedLeader(js, 1)
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for a-slice-0-0-a0 to find room for JobSet ns/a",
		},
		"staged: a leader missing": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(stagedLeader(js, 0), builders.Member(js, 0, 1).Obj())
				return stagedLeader(js, 0)
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for the first pod of 1 of 2 Jobs of JobSet ns/a to be created",
		},
		"staged: a Job whose leader left while a follower runs is not missing": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(builders.Member(js, 0, 1).Running("pool-1-node-1").Obj(), stagedLeader(js, 1))
				return stagedLeader(js, 1)
			},
			want: verdict{Gang: true},
		},
		"affinity to another label does not stage": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				leader := stagedLeader(js, 0)
				leader.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions[0].Key = "app"
				f.addPods(leader, builders.Member(js, 1, 0).Obj())
				return leader
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for 2 of 4 pods",
		},
		"pod of an older restart attempt": {
			setup: func(f *fixture) *corev1.Pod {
				restarted := js.DeepCopy()
				restarted.Status.Restarts = 2
				f.addJobSet(restarted)
				f.addPods(all[0])
				return all[0]
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: "restart attempt 0 of JobSet ns/a, which is at attempt 2",
		},
		"pod of a newer restart attempt": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				restarted := js.DeepCopy()
				restarted.Status.Restarts = 1
				p := builders.Member(restarted, 0, 0).Obj()
				f.addPods(p)
				return p
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting to observe restart attempt 1 of JobSet ns/a",
		},
		"Job index beyond the JobSet": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				p := builders.Member(js, 1, 0).Obj()
				p.Labels[wellknown.JobGlobalIndexLabel] = "7"
				f.addPods(p)
				return p
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: "names Job index 7, but JobSet ns/a has 2 Jobs",
		},
		"malformed membership label": {
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				p := builders.Member(js, 1, 0).Obj()
				p.Labels[wellknown.JobGlobalIndexLabel] = "x"
				f.addPods(p)
				return p
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: `"x" is not a non-negative integer`,
		},
		"malformed JobSet": {
			setup: func(f *fixture) *corev1.Pod {
				f.s.Feed().UpsertSource(jsKey("a"), nil, fmt.Errorf("JobSet ns/a: spec: broken"), corev1.ObjectReference{})
				f.addPods(all[0])
				return all[0]
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: "spec: broken",
		},
		"suspended JobSet": {
			setup: func(f *fixture) *corev1.Pod {
				suspended := js.DeepCopy()
				suspended.Spec.Suspend = ptr.To(true)
				f.addJobSet(suspended)
				f.addPods(all...)
				return all[0]
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: "JobSet ns/a is finished, suspended or being deleted",
		},
		"JobSet API unknown: wait": {
			setup: func(f *fixture) *corev1.Pod {
				f.s.Feed().SetAPI(workload.SourceJobSet, state.APIUnknown)
				f.addJobSet(js)
				f.addPods(all...)
				return all[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting to learn whether the JobSet API is served",
		},
		"JobSet API not served: plain": {
			setup: func(f *fixture) *corev1.Pod {
				f.s.Feed().SetAPI(workload.SourceJobSet, state.APINotServed)
				f.addPods(all[0])
				return all[0]
			},
		},
		"PodGroup API unknown while JobSet's is served": {
			setup: func(f *fixture) *corev1.Pod {
				f.s.Feed().SetAPI(workload.SourcePodGroup, state.APIUnknown)
				p := unit.Pod("pg-0").InPodGroup("pg").Obj()
				f.addPods(p)
				return p
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting to learn whether the PodGroup API is served",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			v := f.admit(tc.setup(f))
			if diff := cmp.Diff(tc.want, verdict{v.Gang, v.Wait, v.Unresolvable}); diff != "" {
				t.Errorf("verdict (-want +got):\n%s\nmessage: %q", diff, v.Message)
			}
			if !strings.Contains(v.Message, tc.wantMsg) {
				t.Errorf("message %q does not contain %q", v.Message, tc.wantMsg)
			}
		})
	}
}

// The gate opens once: the pod completing the gang activates its head (the
// pending member with the smallest name) exactly once; nothing else
// activates it again. The other members wait for the head's plan, and come
// with its commit.
func TestGateActivatesOnce(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	all := builders.Members(js)
	f := newFixture(t, builders.V5ePools(3)...)
	if acts := f.addJobSet(js); len(acts.Activate) != 0 {
		t.Errorf("JobSet without pods activated %v", names(acts.Activate))
	}
	steps := []struct {
		name string
		feed func() state.Actions
		want []string
	}{
		{"first pod", func() state.Actions { return f.addPods(all[0]) }, nil},
		{"second pod", func() state.Actions { return f.addPods(all[1]) }, nil},
		{"third pod", func() state.Actions { return f.addPods(all[2]) }, nil},
		{"fourth pod gated", func() state.Actions { return f.addPods(builders.Member(js, 1, 1).Gate("example.com/hold").Obj()) }, nil},
		{"gate removed", func() state.Actions { return f.addPods(all[3]) }, podNames(all[0])},
		{"status update of a member", func() state.Actions { return f.addPods(builders.InPhase(all[0], corev1.PodPending)) }, nil},
		{"unrelated plain pod", func() state.Actions { return f.addPods(unit.Pod("plain").CPU("1").Obj()) }, nil},
		{"pod of another JobSet", func() state.Actions {
			return f.addPods(builders.Member(unit.JobSet("b").ReplicatedJob("slice", 2, 2).Obj(), 0, 0).Obj())
		}, nil},
		{"pod of another scheduler in the JobSet's namespace", func() state.Actions {
			return f.addPods(unit.Pod("other").Scheduler("default-scheduler").Obj())
		}, nil},
	}
	for _, st := range steps {
		acts := st.feed()
		if diff := cmp.Diff(st.want, names(acts.Activate), cmpEmpty); diff != "" {
			t.Errorf("%s: activated (-want +got):\n%s", st.name, diff)
		}
		if len(acts.Reject) != 0 {
			t.Errorf("%s: rejected %v", st.name, acts.Reject)
		}
	}
	if v := f.admit(all[0]); v.Wait || v.Unresolvable {
		t.Errorf("Admit(head %s) = %+v, want admitted", all[0].Name, v)
	}
	for _, p := range all[1:] {
		if v := f.admit(p); !v.Wait || v.Message != "waiting for a-slice-0-0-a0 to find room for JobSet ns/a" {
			t.Errorf("Admit(%s) = %+v, want a wait for the head", p.Name, v)
		}
	}
	// The head's plan is committed: every pending member comes, once.
	_, _, acts := f.commit(jsKey("a"))
	if diff := cmp.Diff(podNames(all...), names(acts.Activate)); diff != "" {
		t.Errorf("commit: activated (-want +got):\n%s", diff)
	}
	for _, p := range all {
		if v := f.admit(p); v.Wait || v.Unresolvable {
			t.Errorf("Admit(%s) after commit = %+v, want admitted", p.Name, v)
		}
	}
	if acts := f.addPods(builders.InPhase(all[1], corev1.PodPending)); len(acts.Activate) != 0 {
		t.Errorf("status update after commit activated %v", names(acts.Activate))
	}
}

// cmpEmpty treats nil and empty slices alike.
var cmpEmpty = cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })

// Only leaders of a staged JobSet are required; the gate opens with them,
// through the first leader.
func TestStagedGateActivatesLeaders(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	f := newFixture(t, builders.V5ePools(3)...)
	f.addJobSet(js)
	l0, l1 := stagedLeader(js, 0), stagedLeader(js, 1)
	if acts := f.addPods(l0); len(acts.Activate) != 0 {
		t.Errorf("first leader activated %v", names(acts.Activate))
	}
	acts := f.addPods(l1)
	if diff := cmp.Diff(podNames(l0), names(acts.Activate)); diff != "" {
		t.Errorf("second leader activated (-want +got):\n%s", diff)
	}
	if v := f.admit(l1); !v.Wait || v.Message != "waiting for a-slice-0-0-a0 to find room for JobSet ns/a" {
		t.Errorf("Admit(second leader) = %+v, want a wait for the first", v)
	}
	sn := f.snapshot(jsKey("a"))
	if !sn.Self.Staged {
		t.Errorf("snapshot does not see the JobSet as staged")
	}
	r := f.mustPlan(jsKey("a"))
	// Followers not created yet are planned like their leader.
	for i, sr := range r.Slices {
		n := 0
		for _, s := range sr.Slots {
			n += s.Count
		}
		if n != 2 {
			t.Errorf("slice %d: %d pods planned, want 2 (slots %v)", i, n, sr.Slots)
		}
	}
}

func TestStartupGroups(t *testing.T) {
	dependsOn := func(status jobsetv1alpha2.DependsOnStatus) *jobsetv1alpha2.JobSet {
		return unit.JobSet("a").ReplicatedJob("init", 1, 1).ReplicatedJob("workers", 2, 2).DependsOn("init", status).Obj()
	}
	inOrder := unit.JobSet("a").ReplicatedJob("init", 1, 1).ReplicatedJob("workers", 2, 2).InOrder().Obj()
	cases := map[string]struct {
		js *jobsetv1alpha2.JobSet
		// initSucceeds: the init pod succeeds (and leaves the scheduler's
		// view) before the workers are created; otherwise it keeps running.
		initSucceeds bool
		// statusLags: the JobSet's status does not report the init Job
		// succeeded yet when the workers appear.
		statusLags bool
		// wantWaiting is the gate's message with 3 of the 4 workers.
		wantWaiting string
		wantActive  []int
		wantDomains map[int]string
	}{
		"dependsOn Complete": {
			js: dependsOn(jobsetv1alpha2.DependencyComplete), initSucceeds: true,
			wantWaiting: "waiting for 1 of 4 pods", wantActive: []int{1, 2},
			wantDomains: map[int]string{1: "pool-1", 2: "pool-2"},
		},
		"dependsOn Complete, status not updated yet": {
			js: dependsOn(jobsetv1alpha2.DependencyComplete), initSucceeds: true, statusLags: true,
			wantWaiting: "waiting for 1 of 4 pods", wantActive: []int{1, 2},
			wantDomains: map[int]string{1: "pool-1", 2: "pool-2"},
		},
		"dependsOn Ready": {
			js:          dependsOn(jobsetv1alpha2.DependencyReady),
			wantWaiting: "waiting for 1 of 5 pods", wantActive: []int{0, 1, 2},
			wantDomains: map[int]string{1: "pool-2", 2: "pool-3"},
		},
		"startupPolicy InOrder, init succeeded": {
			js: inOrder, initSucceeds: true,
			wantWaiting: "waiting for 1 of 4 pods", wantActive: []int{1, 2},
			wantDomains: map[int]string{1: "pool-1", 2: "pool-2"},
		},
		"startupPolicy InOrder, init running": {
			js:          inOrder,
			wantWaiting: "waiting for 1 of 5 pods", wantActive: []int{0, 1, 2},
			wantDomains: map[int]string{1: "pool-2", 2: "pool-3"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			key := jsKey("a")
			f.addJobSet(tc.js)
			init := builders.Member(tc.js, 0, 0).Obj()
			// The init group alone is the gang.
			acts := f.addPods(init)
			if diff := cmp.Diff([]string{init.Name}, names(acts.Activate)); diff != "" {
				t.Fatalf("init pod activated (-want +got):\n%s", diff)
			}
			if got := f.snapshot(key).Self.Active; !slices.Equal(got, []int{0}) {
				t.Errorf("active slices before the workers = %v, want [0]", got)
			}
			if diff := cmp.Diff(map[int]string{0: "pool-1"}, domains(f.mustPlan(key))); diff != "" {
				t.Errorf("init plan (-want +got):\n%s", diff)
			}
			f.bind(init, "pool-1-node-0")
			if tc.initSucceeds {
				f.deletePod(builders.InPhase(builders.Bound(init, "pool-1-node-0"), corev1.PodSucceeded))
				if !tc.statusLags {
					// The JobSet's status moves on as the init Job completes.
					done := tc.js.DeepCopy()
					done.Status.ReplicatedJobsStatus = []jobsetv1alpha2.ReplicatedJobStatus{{Name: "init", Succeeded: 1}}
					f.addJobSet(done)
				}
			}
			if tc.initSucceeds {
				// Done by the owner's word, or not known done yet.
				want := []int{}
				if tc.statusLags {
					want = []int{0}
				}
				if got := f.snapshot(key).Self.Active; !cmp.Equal(want, got, cmpopts.EquateEmpty()) {
					t.Errorf("active slices after init succeeded = %v, want %v", got, want)
				}
			}
			workers := builders.Members(tc.js)[1:]
			// A worker PreEnqueue sees before the informer delivers it
			// waits: there is nothing to admit it into yet.
			if v := f.admit(workers[0]); !v.Wait {
				t.Errorf("Admit(unobserved worker) = %+v, want wait", v)
			}
			if acts := f.addPods(workers[:3]...); len(acts.Activate) != 0 {
				t.Errorf("3 of 4 workers activated %v", names(acts.Activate))
			}
			if v := f.admit(workers[0]); !v.Wait || !strings.Contains(v.Message, tc.wantWaiting) {
				t.Errorf("Admit(worker) = %+v, want wait %q", v, tc.wantWaiting)
			}
			// The gang plans through its first worker.
			acts = f.addPods(workers[3])
			if diff := cmp.Diff(podNames(workers[0]), names(acts.Activate)); diff != "" {
				t.Errorf("last worker activated (-want +got):\n%s", diff)
			}
			for _, w := range workers[1:] {
				if v := f.admit(w); !v.Wait || !strings.Contains(v.Message, "waiting for "+workers[0].Name+" to find room") {
					t.Errorf("Admit(%s) = %+v, want a wait for the head", w.Name, v)
				}
			}
			if got := f.snapshot(key).Self.Active; !slices.Equal(got, tc.wantActive) {
				t.Errorf("active slices = %v, want %v", got, tc.wantActive)
			}
			if diff := cmp.Diff(tc.wantDomains, domains(f.mustPlan(key))); diff != "" {
				t.Errorf("worker plan (-want +got):\n%s", diff)
			}
		})
	}
}

// A change of the API's status re-runs PreEnqueue for the source's pods.
func TestSetAPIActivatesTheSourcesPods(t *testing.T) {
	f := newFixture(t, builders.V5ePools(1)...)
	f.s.Feed().SetAPI(workload.SourceJobSet, state.APIUnknown)
	js := unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj()
	all := builders.Members(js)
	f.addPods(all...)
	pg := unit.Pod("pg-0").InPodGroup("pg").Obj()
	f.addPods(pg)
	if v := f.admit(all[0]); !v.Gang || !v.Wait {
		t.Errorf("Admit with the API unknown = %+v, want a waiting gang pod", v)
	}
	acts := f.s.Feed().SetAPI(workload.SourceJobSet, state.APINotServed)
	if diff := cmp.Diff(podNames(all...), names(acts.Activate)); diff != "" {
		t.Errorf("SetAPI(NotServed) activated (-want +got):\n%s", diff)
	}
	if v := f.admit(all[0]); v.Gang || v.Wait {
		t.Errorf("Admit with the API not served = %+v, want a plain pod", v)
	}
	if ok, why := nodeAllowed(f.s, all[0], "pool-1-node-0", f.free("pool-1-node-0")); !ok {
		t.Errorf("Check of a pod of an unserved API refused: %s", why)
	}
	if acts := f.s.Feed().SetAPI(workload.SourceJobSet, state.APINotServed); !acts.Empty() {
		t.Errorf("unchanged SetAPI returned %+v", acts)
	}
	if got := f.s.Reports().API(workload.SourceJobSet); got != state.APINotServed {
		t.Errorf("API(JobSet) = %v, want APINotServed", got)
	}
}

// A pending pod that names a workload API last found not served asks for
// that API to be looked up again (it may have been installed since); pods
// of served or unknown APIs, updates and placed pods do not.
func TestPodOfAnAPINotServedAsksForRediscovery(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj()
	cases := map[string]struct {
		status state.APIStatus
		pod    *corev1.Pod
		again  bool // delivered a second time (an update)
		bound  bool // on a node already
		want   []workload.Source
	}{
		"JobSet pod, API not served":      {status: state.APINotServed, pod: builders.Members(js)[0], want: []workload.Source{workload.SourceJobSet}},
		"PodGroup pod, API not served":    {status: state.APINotServed, pod: unit.Pod("pg-0").InPodGroup("pg").Obj(), want: []workload.Source{workload.SourcePodGroup}},
		"JobSet pod, API served":          {status: state.APIServed, pod: builders.Members(js)[0]},
		"JobSet pod, API unknown":         {status: state.APIUnknown, pod: builders.Members(js)[0]},
		"an update of a pod already seen": {status: state.APINotServed, pod: builders.Members(js)[0], again: true},
		"a pod already bound":             {status: state.APINotServed, pod: builders.Members(js)[0], bound: true},
		"a plain pod":                     {status: state.APINotServed, pod: unit.Pod("plain").Obj()},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(1)...)
			f.s.Feed().SetAPI(workload.SourceJobSet, tc.status)
			f.s.Feed().SetAPI(workload.SourcePodGroup, tc.status)
			pod := tc.pod
			if tc.bound {
				pod = pod.DeepCopy()
				pod.Spec.NodeName = "pool-1-node-0"
			}
			acts := f.s.Feed().UpsertPod(pod)
			if tc.again {
				acts = f.s.Feed().UpsertPod(pod)
			}
			if !slices.Equal(acts.Rediscover, tc.want) {
				t.Errorf("Rediscover = %v, want %v", acts.Rediscover, tc.want)
			}
		})
	}
}
