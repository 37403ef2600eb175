package faultinfra_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Two replicas of the binary: one leads and binds; killed, the other takes
// over within the lease duration (plus its retry period) and binds the
// next pod. Stopped, a leader releases its lease and exits 0.
func TestReplicaFailover(t *testing.T) {
	cp := harness.StartControlPlane(t)
	pool := builders.NodePool("plain").Nodes(1)
	cp.CreateNodePool(t, pool)
	ns := cp.CreateNamespace(t, "failover")

	opts := harness.ReplicaOptions{Config: harness.SchedulerConfig(t)}
	a := harness.StartReplica(t, cp, "a", opts)
	b := harness.StartReplica(t, cp, "b", opts)
	leader, since := harness.WaitForLeader(t, cp, a, b)
	standby := b
	if leader == b {
		standby = a
	}
	t.Logf("%s leads as %q since %s", leader.Name(), leader.Identity(), since.Format(time.RFC3339Nano))
	hostname, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(leader.Identity(), hostname+"_") {
		t.Errorf("identity %q, want kube-scheduler's <hostname>_<uuid> with hostname %q", leader.Identity(), hostname)
	}
	if id := standby.Identity(); id != "" {
		t.Errorf("standby %s wrote the lease as %q", standby.Name(), id)
	}

	cp.CreatePod(t, builders.Pod(ns, "before").Scheduler(app.Name).Obj())
	cp.WaitForPodBound(t, ns, "before")

	killed := time.Now()
	leader.Kill()
	if code, ok := leader.Exited(); !ok || code != -1 {
		t.Errorf("killed leader: exit code %d (exited %v), want -1 (signal)", code, ok)
	}
	next, at := harness.WaitForLeader(t, cp, standby)
	takeover := at.Sub(killed)
	t.Logf("%s took over %s after the leader was killed (lease duration 4s)", next.Name(), takeover.Round(time.Millisecond))
	if limit := 4*time.Second + 2*time.Second; takeover > limit {
		t.Errorf("takeover took %s, want at most %s", takeover, limit)
	}
	if holder, _, _ := harness.LeaseHolder(t, cp); holder != next.Identity() {
		t.Errorf("lease holder %q, want %s's %q", holder, next.Name(), next.Identity())
	}
	cp.CreatePod(t, builders.Pod(ns, "after").Scheduler(app.Name).Obj())
	cp.WaitForPodBound(t, ns, "after")

	next.Stop()
	if code, ok := next.Exited(); !ok || code != 0 {
		t.Errorf("stopped leader: exit code %d (exited %v), want 0", code, ok)
	}
	if holder, _, _ := harness.LeaseHolder(t, cp); holder != "" {
		t.Errorf("lease holder %q after the leader stopped, want it released", holder)
	}
}

// A leader whose lease renewals fail (through a FaultProxy) gives up after
// its renew deadline and exits 1; a replica with a clean connection takes
// over.
func TestReplicaThatCannotRenewExits(t *testing.T) {
	cp := harness.StartControlPlane(t)
	fp := cp.StartFaultProxy(t)
	opts := harness.ReplicaOptions{Config: harness.SchedulerConfig(t)}

	faulty := opts
	faulty.Kubeconfig = fp.Kubeconfig(t, "faulty")
	a := harness.StartReplica(t, cp, "faulty", faulty)
	harness.WaitForLeader(t, cp, a)
	b := harness.StartReplica(t, cp, "clean", opts)

	failed := time.Now()
	fp.SetRules(harness.FaultRule{Name: "leases", Match: harness.LeaseWrites(), Fail: 1})
	next, at := harness.WaitForLeader(t, cp, b)
	t.Logf("%s took over %s after the leader's renewals began to fail", next.Name(), at.Sub(failed).Round(time.Millisecond))
	deadline := time.Now().Add(10 * time.Second)
	for a.Running() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if code, ok := a.Exited(); !ok || code != 1 {
		t.Errorf("leader that lost its lease: exit code %d (exited %v), want 1", code, ok)
	}
	if c := fp.Counts()["leases"]; c.Failed == 0 {
		t.Errorf("no lease write failed: %+v", c)
	}
}
