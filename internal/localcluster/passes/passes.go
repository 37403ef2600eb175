// Package passes is the loop the local cluster's simulated provisioners
// run on: a pass over what they watch, again whenever a watched object
// changes and whenever a time the last pass asked for comes.
package passes

import (
	"context"
	"time"

	"k8s.io/utils/clock"
)

// Run calls pass until ctx ends: at once, then whenever trigger fires or
// the time pass returned comes (the zero time: only on a trigger).
func Run(ctx context.Context, clk clock.Clock, trigger <-chan struct{}, pass func(context.Context) time.Time) {
	for ctx.Err() == nil {
		next := pass(ctx)
		var timer clock.Timer
		var fired <-chan time.Time
		if !next.IsZero() {
			timer = clk.NewTimer(next.Sub(clk.Now()))
			// Looked at after the timer is set: a clock that moved on in
			// between would otherwise leave the timer a whole wait late.
			if !clk.Now().Before(next) {
				timer.Stop()
				continue
			}
			fired = timer.C()
		}
		select {
		case <-ctx.Done():
		case <-trigger:
		case <-fired:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}
