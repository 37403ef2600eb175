package chaos

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Fault timing: one fault every 20–60 s; a failed pool comes back after
// 30–90 s; a killed leader is started again after 2–8 s. At most
// maxFailedPools pools are down at once, so that the fleet keeps room.
const (
	minFaultGap, maxFaultGap     = 20 * time.Second, 60 * time.Second
	minPoolDown, maxPoolDown     = 30 * time.Second, 90 * time.Second
	minLeaderDown, maxLeaderDown = 2 * time.Second, 8 * time.Second
	maxFailedPools               = 2
	injectorTick                 = time.Second
	leaderWait                   = 30 * time.Second
	faultPoolPrefix              = "tpu-"
	opPoolFailures, opRecoveries = "pool failures", "pool recoveries"
	// One GPU host at a time fails alone, inside the fleet's topology:
	// a running gang of its subblock loses a host.
	maxFailedHosts                 = 1
	hostKeyPrefix                  = "node/"
	opHostFailures, opHostRecovery = "GPU host failures", "GPU host recoveries"
	opLeaderKills, opLeaderRestart = "leader kills (SIGKILL)", "leader restarts"
	opStandbyRestarts              = "standby restarts (SIGKILL, started again at once)"
)

// injector injects faults at random: whole TPU pools and single GPU hosts
// fail and recover,
// the scheduler's leader is killed and started again a few seconds later,
// the standby is restarted.
type injector struct {
	cluster *localcluster.Cluster
	pools   *faults.Injector
	rng     *rand.Rand
	stats   *Stats
	logf    func(format string, args ...any)
	// down is when each failed pool recovers.
	down map[string]time.Time
}

func (in *injector) run(ctx context.Context) {
	t := time.NewTicker(injectorTick)
	defer t.Stop()
	next := time.Now().Add(between(in.rng, minFaultGap, maxFaultGap))
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			in.recoverDue(ctx, now)
			if now.After(next) {
				in.inject(ctx)
				next = time.Now().Add(between(in.rng, minFaultGap, maxFaultGap))
			}
		}
	}
}

func between(rng *rand.Rand, lo, hi time.Duration) time.Duration {
	return lo + time.Duration(rng.Int64N(int64(hi-lo)+1))
}

// inject picks one fault: a pool failure (when fewer than maxFailedPools
// are down), a leader kill, a standby restart, or a GPU host failure (when
// none is down), weighted 2:3:1:1.
func (in *injector) inject(ctx context.Context) {
	type choice struct {
		weight int
		do     func(context.Context)
	}
	choices := []choice{{3, in.killLeader}, {1, in.restartStandby}}
	if in.failed(false) < maxFailedPools {
		choices = append(choices, choice{2, in.failPool})
	}
	if in.failed(true) < maxFailedHosts {
		choices = append(choices, choice{1, in.failHost})
	}
	total := 0
	for _, c := range choices {
		total += c.weight
	}
	r := in.rng.IntN(total)
	for _, c := range choices {
		if r < c.weight {
			c.do(ctx)
			return
		}
		r -= c.weight
	}
}

func (in *injector) failPool(ctx context.Context) {
	pools, err := in.pools.Pools(ctx)
	if err != nil {
		in.logf("injector: %v", err)
		return
	}
	var healthy []string
	for _, p := range pools {
		if strings.HasPrefix(p.Name, faultPoolPrefix) && p.Health == faults.Healthy {
			healthy = append(healthy, p.Name)
		}
	}
	if len(healthy) == 0 {
		return
	}
	pool := healthy[in.rng.IntN(len(healthy))]
	if err := in.pools.FailPool(ctx, pool); err != nil {
		in.logf("injector: fail pool %s: %v", pool, err)
		return
	}
	downFor := between(in.rng, minPoolDown, maxPoolDown)
	in.down[pool] = time.Now().Add(downFor)
	in.stats.Add(opPoolFailures, 1)
	in.logf("fault: pool %s fails (back in %s)", pool, downFor.Round(time.Second))
}

// recoverDue brings back the pools and hosts whose time is up.
func (in *injector) recoverDue(ctx context.Context, now time.Time) {
	for _, pool := range sortedKeys(in.down) {
		if now.After(in.down[pool]) {
			in.recover(ctx, pool)
		}
	}
}

// recover brings back what key names in down: a pool, or a GPU host
// (hostKeyPrefix).
func (in *injector) recover(ctx context.Context, key string) {
	what, name, op, back := "pool", key, opRecoveries, in.pools.RecoverPool
	if host, ok := strings.CutPrefix(key, hostKeyPrefix); ok {
		what, name, op, back = "GPU host", host, opHostRecovery, in.pools.RecoverNode
	}
	if err := back(ctx, name); err != nil {
		in.logf("injector: recover %s %s: %v", what, name, err)
		return
	}
	delete(in.down, key)
	in.stats.Add(op, 1)
	in.logf("fault: %s %s recovers", what, name)
}

// failed counts the hosts (hosts true) or pools that are down.
func (in *injector) failed(hosts bool) int {
	n := 0
	for key := range in.down {
		if strings.HasPrefix(key, hostKeyPrefix) == hosts {
			n++
		}
	}
	return n
}

// failHost fails one healthy host of the GPU fleet alone.
func (in *injector) failHost(ctx context.Context) {
	nodes, err := in.cluster.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.NodePoolLabel + "=" + GPUPool})
	if err != nil {
		in.logf("injector: %v", err)
		return
	}
	var healthy []string
	for i := range nodes.Items {
		if faults.NodeHealth(&nodes.Items[i]) == faults.Healthy {
			healthy = append(healthy, nodes.Items[i].Name)
		}
	}
	if len(healthy) == 0 {
		return
	}
	slices.Sort(healthy)
	host := healthy[in.rng.IntN(len(healthy))]
	if err := in.pools.FailNode(ctx, host); err != nil {
		in.logf("injector: fail host %s: %v", host, err)
		return
	}
	downFor := between(in.rng, minPoolDown, maxPoolDown)
	in.down[hostKeyPrefix+host] = time.Now().Add(downFor)
	in.stats.Add(opHostFailures, 1)
	in.logf("fault: GPU host %s fails (back in %s)", host, downFor.Round(time.Second))
}

// leader waits until a replica leads.
func (in *injector) leader(ctx context.Context) (string, bool) {
	deadline := time.Now().Add(leaderWait)
	for {
		if name, ok := in.cluster.SchedulerLeader(); ok {
			return name, true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return "", false
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (in *injector) killLeader(ctx context.Context) {
	name, ok := in.leader(ctx)
	if !ok {
		in.logf("injector: no scheduler replica leads; no leader to kill")
		in.stats.Add("leader kills skipped (no leader)", 1)
		return
	}
	if err := in.cluster.Kill(name); err != nil {
		in.logf("injector: kill %s: %v", name, err)
		return
	}
	downFor := between(in.rng, minLeaderDown, maxLeaderDown)
	in.stats.Add(opLeaderKills, 1)
	in.logf("fault: leader %s killed (SIGKILL); started again in %s", name, downFor.Round(100*time.Millisecond))
	select {
	case <-time.After(downFor):
	case <-ctx.Done():
	}
	// Started again even when the soak is over: the cluster then stops
	// with both replicas as it began.
	if err := in.cluster.Restart(name); err != nil {
		in.logf("injector: restart %s: %v", name, err)
		return
	}
	in.stats.Add(opLeaderRestart, 1)
	in.logf("fault: %s started again", name)
}

func (in *injector) restartStandby(ctx context.Context) {
	leader, ok := in.leader(ctx)
	if !ok {
		return
	}
	standbys := slices.DeleteFunc(in.cluster.SchedulerReplicas(), func(n string) bool { return n == leader })
	if len(standbys) == 0 {
		return
	}
	name := standbys[in.rng.IntN(len(standbys))]
	if err := in.cluster.Restart(name); err != nil {
		in.logf("injector: restart %s: %v", name, err)
		return
	}
	in.stats.Add(opStandbyRestarts, 1)
	in.logf("fault: standby %s killed and started again", name)
}

// recoverAll brings back every pool still failed, at the end of the soak.
func (in *injector) recoverAll(ctx context.Context) {
	for _, pool := range sortedKeys(in.down) {
		in.recover(ctx, pool)
	}
}
