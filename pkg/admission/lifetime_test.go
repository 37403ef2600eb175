package admission_test

import (
	"strings"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A workload whose maximum run is known goes to the pool whose nodes
// outlive it; when only short-lived capacity fits, it is placed there all
// the same and told so. Nodes being replaced are left alone while others
// fit.
func TestPreFilterHeedsNodeLifetimes(t *testing.T) {
	hour := func(n int) topology.NodeLifetime {
		return topology.NodeLifetime{End: builders.Epoch.Add(time.Duration(n) * time.Hour)}
	}
	twoHours := func(b *builders.JobSetBuilder) {
		b.Annotation(wellknown.ProvReqAnnotationPrefix+wellknown.MaxRunDurationSecondsParameter, "7200")
	}
	for name, tc := range map[string]struct {
		lifetimes map[string]topology.NodeLifetime
		edits     []func(*builders.JobSetBuilder)
		pool      string
		endsEarly string
	}{
		"the pool that outlives the run": {
			lifetimes: map[string]topology.NodeLifetime{"pool-1-node-0": hour(1), "pool-1-node-1": hour(1), "pool-2-node-0": hour(3), "pool-2-node-1": hour(3)},
			edits:     []func(*builders.JobSetBuilder){twoHours}, pool: "pool-2-node",
		},
		"short-lived capacity when nothing else fits, and a warning": {
			lifetimes: map[string]topology.NodeLifetime{"pool-1-node-0": hour(1), "pool-1-node-1": hour(1), "pool-2-node-0": hour(1), "pool-2-node-1": {End: builders.Epoch.Add(90 * time.Minute)}},
			edits:     []func(*builders.JobSetBuilder){twoHours}, pool: "pool-1-node",
			endsEarly: "node pool-1-node-0 goes away at 2025-01-01T01:00:00Z, 1h0m0s into the run",
		},
		"with no known run, the first pool, whatever its end": {
			lifetimes: map[string]topology.NodeLifetime{"pool-1-node-0": hour(1), "pool-1-node-1": hour(1)},
			pool:      "pool-1-node",
		},
		"not on a pool being recycled": {
			lifetimes: map[string]topology.NodeLifetime{"pool-1-node-0": {End: builders.Epoch.Add(time.Hour), Recycle: builders.Epoch}},
			pool:      "pool-2-node",
		},
	} {
		t.Run(name, func(t *testing.T) {
			st := prefilterState(t, 2)
			for node, l := range tc.lifetimes {
				st.Feed().SetNodeLifetime(node, l)
			}
			pods := addJobSet(t, st, "train", 1, tc.edits...)
			out := prefilter(st, pods[0], func(state.Actions) {})
			if out.Code != admission.Proceed || out.Reserved == "" {
				t.Fatalf("outcome %+v, want a reservation", out)
			}
			if got := poolOf(out.Nodes); got != tc.pool {
				t.Errorf("placed on %s, want %s", got, tc.pool)
			}
			if (tc.endsEarly == "") != (out.EndsEarly == "") || !strings.Contains(out.EndsEarly, tc.endsEarly) {
				t.Errorf("EndsEarly %q, want %q", out.EndsEarly, tc.endsEarly)
			}
		})
	}
}
