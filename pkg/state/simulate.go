package state

import (
	"maps"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Preemption tries victims on a snapshot: it takes workloads, their
// charges and their pods out of the copy, plans, and puts them back. The
// live state is never changed by it.

// Uncharge simulates the workload's quota charge being released while its
// pods stay where they are. The returned function restores the snapshot.
func (sn *Snapshot) Uncharge(key workload.Key) (undo func()) {
	v := sn.Workloads[key]
	if v == nil || v.Charge == nil || sn.Quota == nil || sn.Quota.View == nil {
		return func() {}
	}
	sn.Quota.View.Remove(v.Charge)
	return func() { sn.Quota.View.Add(v.Charge) }
}

// RemoveWorkload simulates the workload being gone from the snapshot: its
// pods' requests and the room its reservation planned are freed, its
// holds and reserved domains dropped and its quota charge released. The
// returned function restores the snapshot exactly.
func (sn *Snapshot) RemoveWorkload(key workload.Key) (undo func()) {
	return sn.remove(key, true)
}

// Displace is RemoveWorkload with the workload's quota charge kept: what
// capacity preemption takes from a victim is its domains, never its quota.
func (sn *Snapshot) Displace(key workload.Key) (undo func()) {
	return sn.remove(key, false)
}

func (sn *Snapshot) remove(key workload.Key, uncharge bool) (undo func()) {
	v := sn.Workloads[key]
	if v == nil {
		return func() {}
	}
	type change struct {
		node   *NodeView
		free   workload.Resources
		holder map[workload.Holder]int
		res    bool
	}
	var changes []change
	seen := map[string]bool{}
	for _, p := range v.Pods {
		n := sn.Nodes[p.Node]
		if n == nil {
			continue
		}
		if !seen[p.Node] {
			seen[p.Node] = true
			// Free may be shared (NodeView.Free): the undo keeps it and
			// the node changes a copy.
			changes = append(changes, change{node: n, free: n.Free, holder: n.Holders, res: n.Reserved})
			n.Free = maps.Clone(n.Free)
		}
		for name, q := range p.Request {
			n.Free[name] += q
		}
		// Replaced, not changed: the map may be the state's own.
		n.Holders = withoutHoldersOf(n.Holders, key)
	}
	if sn.Self == nil || key != sn.Self.Key {
		// Other workloads' planned room was taken from Free.
		for name, out := range v.Outstanding {
			n := sn.Nodes[name]
			if n == nil {
				continue
			}
			if !seen[name] {
				seen[name] = true
				changes = append(changes, change{node: n, free: n.Free, holder: n.Holders, res: n.Reserved})
				n.Free = maps.Clone(n.Free)
			}
			for r, q := range out {
				if _, ok := n.Free[r]; ok {
					n.Free[r] += q
				}
			}
		}
	}
	for name, n := range sn.Nodes {
		if !v.Reserved {
			// Only a reservation marks nodes reserved by the workload: a
			// workload without one (every preemption candidate) skips the
			// walk over every node.
			break
		}
		if n.Reserved && n.ReservedBy == key {
			if !seen[name] {
				seen[name] = true
				changes = append(changes, change{node: n, free: maps.Clone(n.Free), holder: n.Holders, res: true})
			}
			n.Reserved = false
		}
	}
	delete(sn.Workloads, key)
	uncharged := uncharge && sn.Quota != nil && sn.Quota.View != nil && v.Charge != nil
	if uncharged {
		sn.Quota.View.Remove(v.Charge)
	}
	return func() {
		for _, c := range changes {
			c.node.Free, c.node.Holders, c.node.Reserved = c.free, c.holder, c.res
		}
		if uncharged {
			sn.Quota.View.Add(v.Charge)
		}
		sn.Workloads[key] = v
	}
}

// ClusterQueueOf returns the ClusterQueue a workload view of sn is charged
// to, or for sn's own workload the one it waits in (nil: none).
func (sn *Snapshot) ClusterQueueOf(v *WorkloadView) *quota.ClusterQueue {
	if v == sn.Self && sn.Quota != nil {
		return sn.Quota.ClusterQueue
	}
	if v.Charge == nil {
		return nil
	}
	return sn.ClusterQueues[v.Charge.ClusterQueue]
}

// withoutHoldersOf is holders without those of key's workload: holders
// itself when it has none, a new map otherwise.
func withoutHoldersOf(holders map[workload.Holder]int, key workload.Key) map[workload.Holder]int {
	var out map[workload.Holder]int
	for h := range holders {
		if h.Key == key {
			if out == nil {
				out = maps.Clone(holders)
			}
			delete(out, h)
		}
	}
	if out == nil {
		return holders
	}
	return out
}
