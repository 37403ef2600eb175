package faults_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
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
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	v5ePools(t, cp, 4)
	ns := cp.CreateNamespace(t, "failover")
	createQueues(t, cp.Queues(), ns, 8)
	fp := cp.StartFaultProxy(t)
	replicas := startPair(t, cp, fp, harness.SchedulerConfig(t))
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

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
