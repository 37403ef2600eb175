package faults_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/endpoints/request"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// leaseDuration is the replicas' lease: a standby takes over at most this
// long (plus one retry period) after the leader stops renewing.
const leaseDuration = 4 * time.Second

// pair is two replicas of the scheduler binary with leader election, each
// talking to the apiserver through the fault proxy.
type pair struct {
	leader, standby *harness.Replica
}

// startPair starts two replicas with config and waits for one to lead.
func startPair(t *testing.T, cp *harness.ControlPlane, fp *harness.FaultProxy, config string) pair {
	t.Helper()
	opts := harness.ReplicaOptions{Config: config, Kubeconfig: fp.Kubeconfig(t, "replicas"), LeaseDuration: leaseDuration,
		ExtraArgs: []string{"--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics"}}
	a := harness.StartReplica(t, cp, "a", opts)
	b := harness.StartReplica(t, cp, "b", opts)
	t.Cleanup(func() {
		// Whichever replica still runs reconciled usage as it went.
		for _, r := range []*harness.Replica{a, b} {
			if r.Running() {
				if drift := r.Metric(t, "multislice_quota_drift_total", nil); drift != 0 {
					t.Errorf("replica %s's quota reconcile found %v drifted charges", r.Name(), drift)
				}
			}
		}
	})
	leader, _ := harness.WaitForLeader(t, cp, a, b)
	if leader == a {
		return pair{leader: a, standby: b}
	}
	return pair{leader: b, standby: a}
}

// failover kills the leader and waits for the standby to lead; it returns
// how long the takeover took, checked against the lease duration + 2 s.
func (p pair) failover(t *testing.T, cp *harness.ControlPlane) time.Duration {
	t.Helper()
	killed := time.Now()
	p.leader.Kill()
	_, at := harness.WaitForLeader(t, cp, p.standby)
	took := at.Sub(killed)
	if limit := leaseDuration + 2*time.Second; took > limit {
		t.Errorf("takeover took %s, over the lease duration + 2 s (%s)", took.Round(time.Millisecond), limit)
	}
	t.Logf("takeover: %s after the leader was killed", took.Round(time.Millisecond))
	return took
}

// queuedPod is a plain pod of 4 chips in LocalQueue lq.
func queuedPod(ns, name string) *corev1.Pod {
	return builders.Pod(ns, name).Scheduler(app.Name).NoRequests().TPU("4").
		Label(wellknown.QueueNameLabel, localQueue).
		NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).Obj()
}

// namedBinds matches the bindings of the named pods.
func namedBinds(names ...string) harness.RequestMatcher {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	binds := harness.Binds()
	return func(info *request.RequestInfo) bool { return binds(info) && want[info.Name] }
}

// A standby decides nothing. While the leader holds a queue's quota for a
// gang whose binds are in flight, queued plain pods arrive; the standby,
// which cannot see the leader's reservation, must not charge them (its
// metrics show no queue decision). The gang binds, the leader dies: the
// new leader starts from what the API shows — the gang holds the whole
// quota — and binds none of the plain pods on top of it.
func TestFailoverDoesNotOvercommit(t *testing.T) {
	c := newCluster(t, "failover", 4, 8)
	cp, ns, jobsets := c.cp, c.ns, c.jobsets
	fp := cp.StartFaultProxy(t)
	replicas := startPair(t, cp, fp, schedulerConfig(t, nil))

	fp.SetRules(harness.FaultRule{Name: "binds", Match: harness.Binds(), Hold: true})
	jobsets.Create(t, queued(ns, "gang", 1))
	fp.WaitHeld(t, "binds", 2)
	for i := range 2 {
		cp.CreatePod(t, queuedPod(ns, fmt.Sprintf("plain-%d", i)))
	}
	time.Sleep(2 * time.Second) // the standby sees the pods
	for _, m := range []string{"multislice_active_reservations", "multislice_queue_rejections_total"} {
		if got := replicas.standby.Metric(t, m, nil); got != 0 {
			t.Errorf("the standby decided: %s = %v", m, got)
		}
	}
	fp.Release("binds")
	cp.WaitWhollyPlaced(t, ns, "gang", 2)

	replicas.failover(t, cp)
	neverOver(t, cp, ns, 8, 6*time.Second)
	for i := range 2 {
		cp.ExpectPodStaysUnbound(t, ns, fmt.Sprintf("plain-%d", i), 0)
	}
	waitChips(t, cp, ns, 8)
}

// The leader killed at each step of a gang's life; the standby takes over
// from what the API shows. Whatever the step, afterwards no gang is
// partly bound, no ClusterQueue is over its quota, and the takeover took at
// most the lease duration + 2 s.
func TestFailoverAtEveryStepOfAGang(t *testing.T) {
	for _, step := range []struct {
		name string
		run  func(t *testing.T, f *failoverEnv)
	}{
		{"quota charged at the gate, bind in flight", failoverAtTheGate},
		{"members waiting in Permit", failoverInPermit},
		{"gang half bound", failoverMidBind},
		{"victims half evicted", failoverMidEviction},
	} {
		t.Run(step.name, func(t *testing.T) { step.run(t, startFailover(t)) })
	}
}

// failoverEnv is a control plane with v5e pools, a queue of 8 chips, the
// example PriorityClasses, the emulated kubelet and two replicas behind
// the fault proxy.
type failoverEnv struct {
	cp       *harness.ControlPlane
	fp       *harness.FaultProxy
	replicas pair
	jobsets  *harness.JobSets
	kubelet  *harness.Kubelet
	ns       string
}

func startFailover(t *testing.T) *failoverEnv {
	t.Helper()
	c := newCluster(t, "matrix", 2, 8)
	c.cp.CreateFromFile(t, "manifests/examples/priorityclasses.yaml")
	fp := c.cp.StartFaultProxy(t)
	config := schedulerConfig(t, map[string]any{"permitTimeoutSeconds": 30})
	return &failoverEnv{cp: c.cp, fp: fp, replicas: startPair(t, c.cp, fp, config),
		jobsets: c.jobsets, kubelet: c.cp.StartKubelet(t, 0), ns: c.ns}
}

// A queued plain pod is charged as it passes the leader's gate and its
// bind is in flight when the leader dies; another arrives meanwhile. The
// new leader binds exactly one of them: the quota holds one.
func failoverAtTheGate(t *testing.T, f *failoverEnv) {
	f.fp.SetRules(harness.FaultRule{Name: "binds", Match: harness.Binds(), Hold: true})
	for i := range 2 {
		f.cp.CreatePod(t, queuedPod(f.ns, fmt.Sprintf("plain-%d", i)))
	}
	f.fp.WaitHeld(t, "binds", 2)
	f.replicas.failover(t, f.cp)
	f.fp.SetRules()
	f.cp.CreatePod(t, queuedPod(f.ns, "plain-2"))
	waitChips(t, f.cp, f.ns, 8)
	neverOver(t, f.cp, f.ns, 8, 3*time.Second)
}

// A gang's members wait in Permit for one that cannot be placed (its
// affinity names a pod that does not exist) when the leader dies. Nothing
// of it is bound; once the member is replaced, the new leader places the
// gang whole.
func failoverInPermit(t *testing.T, f *failoverEnv) {
	js := f.jobsets.CreateObject(t, queued(f.ns, "gang", 1))
	pods := builders.PodsOf(js, 0)
	blocked := pods[1].DeepCopy()
	pods[1].Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey:   corev1.LabelHostname,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"example.com/missing": "true"}},
	}}}}
	for _, p := range pods {
		f.jobsets.CreatePod(t, p)
	}
	f.cp.WaitForWorkloadEvent(t, f.ns, "gang", "Reserved")
	f.cp.WaitForPodCondition(t, f.ns, pods[1].Name, corev1.PodScheduled, corev1.ConditionFalse)
	f.replicas.failover(t, f.cp)
	f.cp.ExpectNoneBound(t, f.ns, "gang", 2*time.Second)
	if err := f.cp.Client.CoreV1().Pods(f.ns).Delete(t.Context(), pods[1].Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	blocked.Name += "-retry"
	f.jobsets.CreatePod(t, blocked)
	f.cp.WaitWhollyPlaced(t, f.ns, "gang", 2)
}

// The leader dies with a gang half bound (binds slowed at the proxy). The
// new leader completes it where it is: one pool, no other workload in it.
func failoverMidBind(t *testing.T, f *failoverEnv) {
	f.fp.SetRules(harness.FaultRule{Name: "binds", Match: harness.Binds(), Delay: 1500 * time.Millisecond})
	js := f.jobsets.CreateObject(t, queued(f.ns, "gang", 1))
	pods := builders.PodsOf(js, 0)
	slow := pods[1].Name
	f.fp.SetRules(
		harness.FaultRule{Name: "slow", Match: namedBinds(slow), Hold: true},
		harness.FaultRule{Name: "binds", Match: harness.Binds()},
	)
	for _, p := range pods {
		f.jobsets.CreatePod(t, p)
	}
	f.cp.WaitForPodBound(t, f.ns, pods[0].Name)
	f.fp.WaitHeld(t, "slow", 1)
	f.replicas.failover(t, f.cp)
	f.fp.SetRules()
	f.cp.WaitWhollyPlaced(t, f.ns, "gang", 2)
	waitChips(t, f.cp, f.ns, 8)
}

// A high-priority JobSet preempts a low-priority one; the leader dies
// after marking the victims and before deleting them (deletions held). The
// new leader finishes the eviction — the victim gone whole — and places
// the preemptor.
func failoverMidEviction(t *testing.T, f *failoverEnv) {
	low := unqueued(f.ns, "low", 2)
	low.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.PriorityClassName = "low-priority-job"
	f.jobsets.Create(t, low)
	f.cp.WaitWhollyPlaced(t, f.ns, "low", 4)

	f.fp.SetRules(harness.FaultRule{Name: "deletes", Match: harness.PodDeletes(), Hold: true})
	high := unqueued(f.ns, "high", 1)
	high.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.PriorityClassName = "high-priority-job"
	f.jobsets.Create(t, high)
	f.fp.WaitHeld(t, "deletes", 1)
	f.replicas.failover(t, f.cp)
	f.fp.SetRules()
	f.kubelet.WaitTerminated(t, "the victim was left half evicted", harness.OfJobSet(f.ns, "low", 0), 4, nil)
	f.cp.WaitWhollyPlaced(t, f.ns, "high", 2)
}
