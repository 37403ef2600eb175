package fleet

import (
	"context"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
)

// Changes signals that watched objects changed. Many signals before the
// next build make one build.
type Changes chan struct{}

// NewChanges returns a signal with nothing pending.
func NewChanges() Changes { return make(Changes, 1) }

// Notify signals a change; it never blocks.
func (c Changes) Notify() {
	select {
	case c <- struct{}{}:
	default:
	}
}

// LiveOptions time the rebuilds of Live.
type LiveOptions struct {
	// Settle is how long a change waits for those that come with it
	// before the model is rebuilt: a JobSet's start changes dozens of
	// objects within a second, and one rebuild shows them all. A change
	// is on the page within Settle and a rebuild, however many follow it.
	Settle time.Duration
	// Refresh rebuilds the model even when nothing changed, for what
	// time alone changes (a flex-start node reaching its recycling time);
	// a minute when not positive.
	Refresh time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Report receives the errors of publishing (nil: dropped).
	Report func(error)
}

// Live rebuilds the model of snapshot whenever changes signals, and every
// Refresh, and publishes it to hub, until ctx ends. The first model is
// built at once.
func Live(ctx context.Context, snapshot func(now time.Time) *cli.Cluster, changes Changes, b *Builder, hub *Hub, o LiveOptions) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	if o.Refresh <= 0 {
		o.Refresh = time.Minute
	}
	refresh := time.NewTicker(o.Refresh)
	defer refresh.Stop()
	for {
		if _, err := hub.Publish(b.Build(snapshot(now()))); err != nil && o.Report != nil {
			o.Report(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-refresh.C:
		case <-changes:
			select {
			case <-ctx.Done():
				return
			case <-time.After(o.Settle):
			}
			// What changed while settling is in this build.
			select {
			case <-changes:
			default:
			}
		}
	}
}
