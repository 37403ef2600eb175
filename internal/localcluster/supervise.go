package localcluster

import (
	"fmt"
	"strconv"
	"time"
)

// SchedulerName is the component name of multislice-scheduler when it runs
// as one process; replicas are named SchedulerName-0, SchedulerName-1, …
const SchedulerName = "multislice-scheduler"

// replicaRestartDelay is how long a scheduler replica that exited on its
// own stays down before it is started again: kubelet's first back-off.
const replicaRestartDelay = time.Second

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
// exits on its own: scheduler replicas under leader election exit when
// they lose the lease, by design, and their Deployment restarts them.
func (c *Cluster) restartsOnExit(name string) bool {
	if c.opts.SchedulerReplicas <= 1 {
		return false
	}
	for _, r := range c.SchedulerReplicas() {
		if r == name {
			return true
		}
	}
	return false
}

// watch waits for a component to exit. An exit nobody asked for fails the
// cluster (Failed, Err), except for a scheduler replica, which is started
// again after replicaRestartDelay; both are recorded (Exits).
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
		c.logf("%s exited on its own; starting it again in %s: %v", p.name, replicaRestartDelay, err)
		select {
		case <-time.After(replicaRestartDelay):
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
