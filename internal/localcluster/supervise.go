package localcluster

import (
	"fmt"
	"strconv"
	"time"
)

// SchedulerName is the component name of multislice-scheduler when it runs
// as one process; replicas are named SchedulerName-0, SchedulerName-1, …
const SchedulerName = "multislice-scheduler"

// defaultSchedulerName is the component name of the default kube-scheduler.
const defaultSchedulerName = "kube-scheduler"

// A scheduler that exited on its own stays down replicaRestartDelay before
// it is started again, twice as long after each exit that follows a short
// run, up to replicaRestartMaxDelay: kubelet's crash-loop back-off, shorter.
// A run of replicaStableRun or more starts the back-off over.
const (
	replicaRestartDelay    = time.Second
	replicaRestartMaxDelay = 30 * time.Second
	replicaStableRun       = time.Minute
)

// restartDelay is how long the scheduler name waits before its next start,
// counting its exit now: the back-off above.
func (c *Cluster) restartDelay(name string, now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.restarts == nil {
		c.restarts = map[string]restartRecord{}
	}
	r := c.restarts[name]
	if r.last.IsZero() || now.Sub(r.last) >= replicaStableRun+r.delay {
		r.delay = replicaRestartDelay
	} else {
		r.delay = min(2*r.delay, replicaRestartMaxDelay)
	}
	r.last = now
	c.restarts[name] = r
	return r.delay
}

// restartRecord is a scheduler's last restart: when it was asked, and the
// delay it waited.
type restartRecord struct {
	last  time.Time
	delay time.Duration
}

// ComponentExit is a component that exited without being asked to.
type ComponentExit struct {
	Name string
	At   time.Time
	// Err is how it exited, with the end of its log.
	Err error
	// Restarted: it was started again (a scheduler replica), rather than
	// failing the cluster.
	Restarted bool
}

// SchedulerReplicas names the multislice-scheduler processes, in order:
// SchedulerName alone, or SchedulerName-0 … SchedulerName-(N-1) when the
// cluster runs several replicas.
func (c *Cluster) SchedulerReplicas() []string {
	n := c.opts.SchedulerReplicas
	if n <= 1 {
		return []string{SchedulerName}
	}
	names := make([]string, n)
	for i := range names {
		names[i] = SchedulerName + "-" + strconv.Itoa(i)
	}
	return names
}

// restartsOnExit reports whether a component is started again when it
// exits on its own: the scheduler, as its Deployment's kubelet would start
// it again — replicas under leader election exit when they lose the lease,
// by design, and a lone scheduler that crashed or was killed must not take
// the cluster down with it (the state it rebuilds is the API's).
func (c *Cluster) restartsOnExit(name string) bool {
	if name == defaultSchedulerName || name == WebhookComponent {
		// The default scheduler, for pods that name no scheduler, and the
		// admission webhook: as stateless, and as restarted by their
		// kubelet.
		return true
	}
	for _, r := range c.SchedulerReplicas() {
		if r == name {
			return true
		}
	}
	return false
}

// watch waits for a component to exit. An exit nobody asked for fails the
// cluster (Failed, Err), except for the scheduler's, which is started again
// after its back-off (restartDelay); both are recorded (Exits).
func (c *Cluster) watch(p *process) {
	select {
	case <-p.done:
	case <-c.bg.Done():
		return
	}
	err := p.unexpectedExit()
	if err == nil {
		return
	}
	c.mu.Lock()
	stopped := c.stopped
	c.mu.Unlock()
	if stopped {
		return
	}
	exit := ComponentExit{Name: p.name, At: time.Now(), Err: err}
	if c.restartsOnExit(p.name) {
		// Handled here: the exit is no failure of the cluster.
		p.mu.Lock()
		p.stopping = true
		p.mu.Unlock()
		exit.Restarted = true
		c.recordExit(exit)
		delay := c.restartDelay(p.name, exit.At)
		c.logf("%s exited on its own; starting it again in %s: %v", p.name, delay, err)
		select {
		case <-time.After(delay):
		case <-c.bg.Done():
			return
		}
		if rerr := c.Restart(p.name); rerr != nil {
			c.fail(fmt.Errorf("restarting %s after it exited: %w", p.name, rerr))
		}
		return
	}
	c.recordExit(exit)
	c.fail(err)
}

func (c *Cluster) recordExit(e ComponentExit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.exits = append(c.exits, e)
}

// fail records the first failure and closes Failed.
func (c *Cluster) fail(err error) {
	c.failOnce.Do(func() {
		c.mu.Lock()
		c.failure = err
		c.mu.Unlock()
		close(c.failed)
	})
}

// Exits lists the components that exited without being asked to, in
// order.
func (c *Cluster) Exits() []ComponentExit {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ComponentExit(nil), c.exits...)
}

// process returns the current run of a component.
func (c *Cluster) process(name string) (*process, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.procs {
		if p.name == name {
			return p, nil
		}
	}
	names := make([]string, 0, len(c.procs))
	for _, p := range c.procs {
		names = append(names, p.name)
	}
	return nil, fmt.Errorf("no component %q (components: %v)", name, names)
}

// Kill sends SIGKILL to a component's process group, as a machine failure
// would, and waits until it has exited; the exit fails nothing. Restart
// starts it again.
func (c *Cluster) Kill(name string) error {
	p, err := c.process(name)
	if err != nil {
		return err
	}
	p.kill()
	c.logf("killed %s (pid %d)", name, p.pid())
	return nil
}

// Restart starts a component again with the arguments and environment it
// was first started with, killing it first if it still runs. Its log goes
// on in the same file.
func (c *Cluster) Restart(name string) error {
	old, err := c.process(name)
	if err != nil {
		return err
	}
	old.kill()
	c.mu.Lock()
	if c.stopped {
		// Stop may already have stopped every process it knew of.
		c.mu.Unlock()
		return fmt.Errorf("the cluster is stopped")
	}
	p, err := c.spawner.startProcess(name, old.bin, old.args, old.env, old.logDir, true)
	if err != nil {
		c.mu.Unlock()
		return err
	}
	for i, q := range c.procs {
		if q == old {
			c.procs[i] = p
		}
	}
	c.mu.Unlock()
	c.logf("restarted %-22s pid %d", name, p.pid())
	go c.watch(p)
	return recordChildren(c.opts.Dir, c.processes())
}
