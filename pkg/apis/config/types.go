// Package config holds the arguments of this project's scheduler plugins:
// the internal types here, the versioned (user-facing) types in v1, with
// defaulting and conversion, and validation in validation/.
package config

import "time"

// MultisliceGangArgs configures the MultisliceGang plugin.
type MultisliceGangArgs struct {
	// PermitTimeout bounds how long a workload's reserved domains are held,
	// and its pods wait in Permit, before every required pod is reserved.
	// When it passes, all waiting pods are rejected and the domains released.
	PermitTimeout time.Duration
	// FollowerTimeout bounds how long, after a staged workload's leaders are
	// bound, the rest of each slice's capacity stays reserved for followers.
	FollowerTimeout time.Duration
	// DefaultDomainKey is the node label that confines gangs naming no
	// exclusive topology themselves ("" leaves them unconfined).
	DefaultDomainKey string
	// DefaultLocalQueue admits workloads that name no LocalQueue through
	// the LocalQueue of this name in their namespace ("": they are not
	// quota-managed).
	DefaultLocalQueue string
	// QuotaStarvationTimeout is how long the head of a BestEffortFIFO
	// ClusterQueue may wait for quota before the workloads behind it wait
	// for it too.
	QuotaStarvationTimeout time.Duration
	// QuotaReconcileInterval is how often the leader compares every
	// ClusterQueue's usage with what the API shows (pods on nodes), and
	// reports and corrects any difference.
	QuotaReconcileInterval time.Duration
	// RestartHold is how long a running workload's quota and healthy
	// domains stay kept for it while its owner restarts it (0: not kept).
	RestartHold time.Duration
	// QueuedStartDepth is each ClusterQueue's start window: how many of its
	// workloads, in queue order, may have been started and still wait to
	// be admitted; further queued Jobs and JobSets stay suspended until
	// they rank within it (0: every one starts at once).
	QueuedStartDepth int
}
