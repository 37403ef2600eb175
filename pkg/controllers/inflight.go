package controllers

import (
	"context"
	"sync"
)

// inflight runs writes in the background, one per key at a time and at
// most limit at once, in the order they were started: a write starts as
// soon as a slot is free, not once a whole pass of writes has returned.
// In a burst of gangs, passes that waited for their slowest write made
// each later gang wait for the pass before it (its Workload object, then
// its ProvisioningRequest, a pass each), seconds at the end of a burst.
type inflight struct {
	// slots holds a token per write running.
	slots chan struct{}
	mu    sync.Mutex
	// keys are the writes started and not returned, waiting for a slot
	// or running; guarded by mu.
	keys map[string]bool
	wg   sync.WaitGroup
}

func newInflight(limit int) *inflight {
	return &inflight{slots: make(chan struct{}, limit), keys: map[string]bool{}}
}

// Go starts write for key in the background unless one for key has not
// returned yet; it reports whether it started. A write waiting for a slot
// when ctx ends is dropped: a later pass starts it again. Writers waiting
// for a slot get it first come, first served (a channel wakes blocked
// senders in order). then, when not nil, runs once key is free again,
// whether write ran or was dropped.
func (f *inflight) Go(ctx context.Context, key string, write func(context.Context), then func()) bool {
	f.mu.Lock()
	if f.keys[key] {
		f.mu.Unlock()
		return false
	}
	f.keys[key] = true
	f.mu.Unlock()
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		select {
		case f.slots <- struct{}{}:
			if ctx.Err() == nil {
				write(ctx)
			}
			<-f.slots
		case <-ctx.Done():
		}
		f.mu.Lock()
		delete(f.keys, key)
		f.mu.Unlock()
		if then != nil {
			then()
		}
	}()
	return true
}

// Running reports whether a write for key has not returned yet.
func (f *inflight) Running(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.keys[key]
}

// Wait returns once every write started has returned.
func (f *inflight) Wait() { f.wg.Wait() }
