package admission_test

import (
	"strings"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
)

// TestPreemptionResultsAreCountedAndListed: every step a preemption ends
// in but NotTried is counted under a result of its own, and the metric's
// help lists each, so that a dashboard knows every value it may see.
func TestPreemptionResultsAreCountedAndListed(t *testing.T) {
	help := metrics.Preemptions.Help
	seen := map[string]admission.PreemptionStep{}
	for _, step := range []admission.PreemptionStep{admission.NotTried, admission.Underway, admission.NoVictims, admission.Preempting, admission.Raced} {
		r := step.Result()
		if step == admission.NotTried {
			if r != "" {
				t.Errorf("NotTried is counted as %q; it is not an attempt", r)
			}
			continue
		}
		if r == "" {
			t.Errorf("step %d is not counted", step)
			continue
		}
		if other, ok := seen[r]; ok {
			t.Errorf("steps %d and %d share the result %q", other, step, r)
		}
		seen[r] = step
		if !strings.Contains(help, " "+r+",") && !strings.Contains(help, " "+r+" (") && !strings.Contains(help, " "+r+".") {
			t.Errorf("the help of workload_preemptions_total does not list %q: %s", r, help)
		}
	}
}
