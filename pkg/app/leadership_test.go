package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// fakeLock is a lease lock that accepts or refuses writes.
type fakeLock struct {
	identity string
	refuse   bool
}

func (l *fakeLock) Get(context.Context) (*resourcelock.LeaderElectionRecord, []byte, error) {
	return &resourcelock.LeaderElectionRecord{}, nil, nil
}

func (l *fakeLock) write() error {
	if l.refuse {
		return errors.New("conflict")
	}
	return nil
}
func (l *fakeLock) Create(context.Context, resourcelock.LeaderElectionRecord) error { return l.write() }
func (l *fakeLock) Update(context.Context, resourcelock.LeaderElectionRecord) error { return l.write() }
func (l *fakeLock) RecordEvent(string)                                              {}
func (l *fakeLock) Identity() string                                                { return l.identity }
func (l *fakeLock) Describe() string                                                { return "fake" }

// Writers wait for the lease: a standby never writes, and the leader's
// writers start once the lock is taken under its own identity.
func TestWritersFollowTheLease(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt := &Runtime{}
	rt.awaitLeadership()
	lock := &fakeLock{identity: "me", refuse: true}
	observed := rt.ObserveLeadership(lock)
	started := make(chan struct{})
	rt.WhileLeading(ctx, func(context.Context) { close(started) })

	// Another replica holds the lease: our writes fail.
	_ = observed.Update(ctx, resourcelock.LeaderElectionRecord{HolderIdentity: "me"})
	// A record naming another holder is not ours, even if written.
	lock.refuse = false
	_ = observed.Update(ctx, resourcelock.LeaderElectionRecord{HolderIdentity: "other"})
	select {
	case <-started:
		t.Fatal("a writer started without the lease")
	case <-time.After(50 * time.Millisecond):
	}
	if rt.Leading() {
		t.Fatal("leading without the lease")
	}
	if err := observed.Create(ctx, resourcelock.LeaderElectionRecord{HolderIdentity: "me"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the writer did not start once the lease was taken")
	}
	if !rt.Leading() {
		t.Error("not leading with the lease")
	}
}

// Without leader election (benchmarks, tests building the scheduler
// directly) the runtime leads from the start.
func TestLeadsWithoutLeaderElection(t *testing.T) {
	rt := &Runtime{}
	if !rt.Leading() {
		t.Fatal("a runtime that awaits no leadership does not lead")
	}
	done := make(chan struct{})
	rt.WhileLeading(context.Background(), func(context.Context) { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the writer did not start")
	}
}
