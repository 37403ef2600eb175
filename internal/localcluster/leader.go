package localcluster

import (
	"bytes"
	"io"
	"os"
)

// leaseAcquiredLine is what client-go's leader elector logs when it takes
// the lease. Two replicas on one host get identities (hostname_uuid) that
// name no process, so the log is what tells which process leads.
const leaseAcquiredLine = "Successfully acquired lease"

// leaseScan is how far a process's log has been read for leaseAcquiredLine,
// and whether this run of the process has logged it.
type leaseScan struct {
	offset   int64
	acquired bool
}

// acquiredLease reports whether this run of the process has logged that it
// acquired the lease, reading only what it logged since the last call.
func (p *process) acquiredLease() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lease.acquired {
		return true
	}
	if p.lease.offset < p.logStart {
		p.lease.offset = p.logStart
	}
	f, err := os.Open(p.logPath)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	if _, err := f.Seek(p.lease.offset, io.SeekStart); err != nil {
		return false
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return false
	}
	// Only whole lines: the rest is read again next time.
	end := bytes.LastIndexByte(data, '\n')
	if end < 0 {
		return false
	}
	p.lease.acquired = bytes.Contains(data[:end], []byte(leaseAcquiredLine))
	p.lease.offset += int64(end + 1)
	return p.lease.acquired
}

// SchedulerLeader names the multislice-scheduler replica that leads: the
// running replica that acquired the lease since it was last started (a
// replica that loses the lease exits, so there is at most one). It reports
// false while none does, e.g. between a leader's death and its lease
// expiring.
func (c *Cluster) SchedulerLeader() (string, bool) {
	for _, name := range c.SchedulerReplicas() {
		p, err := c.process(name)
		if err != nil {
			continue
		}
		if done, _ := p.exited(); done {
			continue
		}
		if c.opts.SchedulerReplicas <= 1 || p.acquiredLease() {
			return name, true
		}
	}
	return "", false
}
