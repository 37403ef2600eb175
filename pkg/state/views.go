package state

// The State is one index behind one lock, reached through views, each of
// one concern and each a value holding the State it views:
//
//   - State itself: the cycle's entry points (Gate, Cycle, FullPlan,
//     Preemption, SnapshotForMove, Apply, Reserve, Permit, …) and the
//     index's primitives they and the views share (indexing a pod, a
//     workload's head and pending members, releasing a reservation,
//     settling a charge);
//   - Feed: what the informers tell (nodes, pods, workload sources, queue
//     objects, checks, recorded admissions, API discovery);
//   - Reports: what is read for users, controllers and metrics, changing
//     nothing;
//   - Upkeep: what the leader's controllers write back on their own time
//     (expiry, reconcile, running charges, provisioning requests,
//     recycling);
//   - copier: under a lock its caller holds, the values a decision reads
//     (snapshots, rounds, facts);
//   - applier: under the write lock, the validation and write-back of a
//     Decision (what Apply, Reserve and Permit refuse or write);
//   - queues: the queues' bookkeeping of waiting workloads (which queue a
//     workload waits in, what it still needs, its check).
//
// A view takes no lock of its own: an exported method takes s.mu, an
// unexported one (…Locked) expects its caller to hold it, as State's do.

// Feed is what the informers tell the State.
type Feed struct{ s *State }

// Feed returns the view the informers write through.
func (s *State) Feed() Feed { return Feed{s} }

// Reports reads the State for users, controllers and metrics; it changes
// nothing.
type Reports struct{ s *State }

// Reports returns the read-only view of the State.
func (s *State) Reports() Reports { return Reports{s} }

// Upkeep is what the leader's controllers write back on their own time:
// expiries, reconcile, running charges, provisioning requests, recycling.
type Upkeep struct{ s *State }

// Upkeep returns the view the leader's controllers write through.
func (s *State) Upkeep() Upkeep { return Upkeep{s} }

// copier builds the values a decision reads, under a lock its caller
// holds; it writes only caches of what it computed.
type copier struct{ s *State }

// applier validates a Decision against the live index and writes it back,
// under the write lock its caller holds.
type applier struct{ s *State }

// queues keeps the queues' bookkeeping of waiting workloads, under the
// lock its caller holds.
type queues struct{ s *State }
