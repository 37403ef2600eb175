package controllers

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestInflight(t *testing.T) {
	t.Run("a key runs once at a time", func(t *testing.T) {
		f := newInflight(4)
		release := make(chan struct{})
		var runs atomic.Int32
		write := func(context.Context) { runs.Add(1); <-release }
		if !f.Go(t.Context(), "a", write, nil) {
			t.Fatal("the first write of a did not start")
		}
		if f.Go(t.Context(), "a", write, nil) {
			t.Fatal("a second write of a started while the first runs")
		}
		close(release)
		f.Wait()
		if !f.Go(t.Context(), "a", write, nil) {
			t.Fatal("a write of a did not start once the first returned")
		}
		f.Wait()
		if runs.Load() != 2 {
			t.Errorf("%d writes ran, want 2", runs.Load())
		}
	})

	t.Run("a slow write holds back no other beyond the limit", func(t *testing.T) {
		f := newInflight(2)
		slow := make(chan struct{})
		defer close(slow)
		f.Go(t.Context(), "slow", func(context.Context) { <-slow }, nil)
		var done sync.WaitGroup
		done.Add(3)
		for _, key := range []string{"b", "c", "d"} {
			f.Go(t.Context(), key, func(context.Context) { done.Done() }, nil)
		}
		// Through the one free slot, one after the other, while the
		// slow write still runs.
		finished := make(chan struct{})
		go func() { done.Wait(); close(finished) }()
		select {
		case <-finished:
		case <-time.After(10 * time.Second):
			t.Fatal("writes behind a slow one did not run in the free slot")
		}
	})

	t.Run("then runs once the key is free, also for a dropped write", func(t *testing.T) {
		f := newInflight(1)
		ctx, cancel := context.WithCancel(t.Context())
		release, started := make(chan struct{}), make(chan struct{})
		var freed []bool
		var mu sync.Mutex
		then := func(key string) func() {
			return func() {
				mu.Lock()
				defer mu.Unlock()
				freed = append(freed, !f.Running(key))
			}
		}
		f.Go(ctx, "ran", func(context.Context) {
			if !f.Running("ran") {
				t.Error("Running is false while the write runs")
			}
			close(started)
			<-release
		}, then("ran"))
		<-started
		f.Go(ctx, "dropped", func(context.Context) {}, then("dropped"))
		cancel()
		time.Sleep(10 * time.Millisecond)
		close(release)
		f.Wait()
		if len(freed) != 2 || !freed[0] || !freed[1] {
			t.Errorf("then ran %d times, key free each time: %v; want twice, free", len(freed), freed)
		}
	})

	t.Run("at most limit at once", func(t *testing.T) {
		f := newInflight(3)
		var running, most atomic.Int32
		for i := range 20 {
			f.Go(t.Context(), string(rune('a'+i)), func(context.Context) {
				n := running.Add(1)
				for {
					m := most.Load()
					if n <= m || most.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(time.Millisecond)
				running.Add(-1)
			}, nil)
		}
		f.Wait()
		if most.Load() > 3 {
			t.Errorf("%d writes ran at once, want at most 3", most.Load())
		}
	})

	t.Run("a write waiting when the context ends is dropped", func(t *testing.T) {
		f := newInflight(1)
		ctx, cancel := context.WithCancel(t.Context())
		release, started := make(chan struct{}), make(chan struct{})
		f.Go(ctx, "running", func(context.Context) { close(started); <-release }, nil)
		<-started
		var ran atomic.Bool
		f.Go(ctx, "waiting", func(context.Context) { ran.Store(true) }, nil)
		cancel()
		// The waiting write sees the end before a slot frees.
		time.Sleep(10 * time.Millisecond)
		close(release)
		f.Wait()
		if ran.Load() {
			t.Error("a write that waited for a slot ran after its context ended")
		}
		if !f.Go(t.Context(), "waiting", func(context.Context) {}, nil) {
			t.Error("the dropped write's key is still taken")
		}
		f.Wait()
	})
}
