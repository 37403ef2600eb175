package passes

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// A pass runs at once, again on a trigger, and again when the time it
// asked for comes; the loop ends with its context.
func TestRun(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakeClock(t0)
	trigger := make(chan struct{}, 1)
	var runs atomic.Int32
	ran := make(chan int32, 10)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(ctx, clk, trigger, func(context.Context) time.Time {
			n := runs.Add(1)
			ran <- n
			if n == 2 {
				return clk.Now().Add(time.Minute)
			}
			return time.Time{}
		})
	}()
	wait := func(want int32) {
		t.Helper()
		select {
		case n := <-ran:
			if n != want {
				t.Fatalf("pass %d, want %d", n, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("pass %d did not run", want)
		}
	}
	wait(1)
	trigger <- struct{}{}
	wait(2)
	for !clk.HasWaiters() {
		time.Sleep(time.Millisecond)
	}
	clk.Step(time.Minute)
	wait(3)
	cancel()
	<-done
}
