package app

import (
	"context"
	"sync"

	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// leadership says whether this replica is the one that schedules. Every
// replica keeps its state current from the informers, but only the leader
// writes: status, Workload objects, unsuspended Jobs, ProvisioningRequests.
// A standby writing from its own state (which knows no reservations) would
// fight the leader.
type leadership struct {
	once    sync.Once
	mu      sync.Mutex
	waiting bool
	leading chan struct{}
}

func (l *leadership) init() {
	l.once.Do(func() { l.leading = make(chan struct{}) })
}

// awaitLeadership makes the runtime's writers wait until Lead is called.
// Without it (benchmarks, tests that build a scheduler directly) the
// runtime leads from the start, as a scheduler without leader election does.
func (rt *Runtime) awaitLeadership() {
	rt.lead.init()
	rt.lead.mu.Lock()
	defer rt.lead.mu.Unlock()
	rt.lead.waiting = true
}

// Lead marks this replica the leader; writers waiting for it start.
// Leadership is never given back: the upstream command exits the process
// when it loses its lease.
func (rt *Runtime) Lead() {
	rt.lead.init()
	rt.lead.mu.Lock()
	defer rt.lead.mu.Unlock()
	select {
	case <-rt.lead.leading:
	default:
		close(rt.lead.leading)
	}
}

// Leading reports whether this replica may write.
func (rt *Runtime) Leading() bool {
	rt.lead.init()
	rt.lead.mu.Lock()
	waiting := rt.lead.waiting
	rt.lead.mu.Unlock()
	if !waiting {
		return true
	}
	select {
	case <-rt.lead.leading:
		return true
	default:
		return false
	}
}

// WhileLeading runs run in a goroutine once this replica leads (at once
// when leadership is not awaited), until ctx ends.
func (rt *Runtime) WhileLeading(ctx context.Context, run func(ctx context.Context)) {
	rt.lead.init()
	go func() {
		if !rt.Leading() {
			select {
			case <-ctx.Done():
				return
			case <-rt.lead.leading:
			}
		}
		run(ctx)
	}()
}

// ObserveLeadership wraps a leader-election lock so that the runtime leads
// once the lock is taken or renewed under its own identity: the upstream
// command's leader elector then runs the scheduler, and the runtime's
// writers with it, on the same lease.
func (rt *Runtime) ObserveLeadership(lock resourcelock.Interface) resourcelock.Interface {
	return &leaseObserver{Interface: lock, rt: rt}
}

type leaseObserver struct {
	resourcelock.Interface
	rt *Runtime
}

func (o *leaseObserver) Create(ctx context.Context, ler resourcelock.LeaderElectionRecord) error {
	err := o.Interface.Create(ctx, ler)
	o.observe(ler, err)
	return err
}

func (o *leaseObserver) Update(ctx context.Context, ler resourcelock.LeaderElectionRecord) error {
	err := o.Interface.Update(ctx, ler)
	o.observe(ler, err)
	return err
}

func (o *leaseObserver) observe(ler resourcelock.LeaderElectionRecord, err error) {
	if err == nil && ler.HolderIdentity == o.Interface.Identity() {
		o.rt.Lead()
	}
}
