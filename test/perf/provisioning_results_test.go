package perf

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
)

// What a Provisioning run measured, and how.
//
// Per gang, from the pods, Workload objects and ProvisioningRequests seen
// (provisioning_test.go), its milestones in order:
//
//   - created: its first pod seen;
//   - members: its last pod seen — its head may now be admitted, and with
//     the check its quota is reserved at once, in PreEnqueue;
//   - workload object: its Workload object seen, which the scheduler's
//     status writer creates for a queued workload whose pods exist;
//   - request: its ProvisioningRequest (attempt 1) seen;
//   - provisioned: the fake provisioner's status update marking it
//     Provisioned returned;
//   - annotated: its first pod seen naming the request, or provisioned
//     when earlier (pods created from templates that name the request
//     name it from the start);
//   - bound: its last pod seen bound.
//
// The bind time runs from created to bound. Each phase is the time from
// the previous milestone to its own; without the check only members and
// bound apply. The milestones come from three watches that deliver
// independently, so a phase of a few milliseconds can come out below
// zero: it counts as zero. The workload rate is the gangs wholly bound
// over the time from the first gang's creation to the last one bound. The
// pace at which the gangs' Workload objects and requests were created is
// recorded too: their count, the time from the first to the last, and
// their rate over it.
//
// Checked, in both variants: every gang wholly bound, each slice on a pool
// of its own and the whole gang in one zone (the JobSets ask for it). With
// the check: one request per gang (attempt 1) and no other, each marked
// Provisioned before any pod of its gang was bound, and every pod bound
// naming its request. Without it: no request at all.

// provPhases name the phases, in order.
var provPhases = []string{"Members", "WorkloadObject", "Request", "Provisioned", "Annotated", "Bound"}

// provCounts is what the run's pods, Workload objects and requests say.
type provCounts struct {
	gangs, bound, placed int
	pods, podsBound      int
	// requests: those seen (outside the probe's namespace); provisioned:
	// those the fake provisioner marked; matched: gangs whose request was
	// seen; unexpected: requests that are no gang's first attempt.
	requests, provisioned, matched, unexpected int
	// unannotated: pods bound without naming their gang's request; early:
	// gangs with a pod bound before their request was marked Provisioned.
	unannotated, early int
	bind               []float64
	phases             map[string][]float64
	first, last        time.Time
	// objects and requestsSeen: when the gangs' Workload objects and
	// requests were seen created, the pace the status writer and the
	// provisioning controller kept.
	objects, requestsSeen span
}

// span is when the first and the last of some objects were seen.
type span struct {
	n           int
	first, last time.Time
}

func (s *span) add(t time.Time) {
	if t.IsZero() {
		return
	}
	s.n++
	if s.first.IsZero() || t.Before(s.first) {
		s.first = t
	}
	if t.After(s.last) {
		s.last = t
	}
}

func (s span) seconds() float64 { return s.last.Sub(s.first).Seconds() }

// rate is how many were created per second between the first and the
// last; 0 for fewer than two.
func (s span) rate() float64 {
	if s.n < 2 || s.seconds() <= 0 {
		return 0
	}
	return float64(s.n-1) / s.seconds()
}

// accountProvisioning counts a run at its end. objects maps Workload
// objects (namespace/name) to when they were first seen; check is the
// admission check the ClusterQueue lists ("" for none).
func accountProvisioning(gangs map[string]*provGang, requests map[string]*provRequest, objects map[string]time.Time, check string, nodePool, nodeZone map[string]string) provCounts {
	c := provCounts{phases: map[string][]float64{}, requests: len(requests)}
	for _, q := range requests {
		c.requestsSeen.add(q.seen)
		if !q.done.IsZero() {
			c.provisioned++
		}
	}
	for _, t := range objects {
		c.objects.add(t)
	}
	// occupants: per pool, the slices of the pods bound there.
	occupants := map[string]map[string]bool{}
	for _, g := range gangs {
		for _, p := range g.pods {
			if p.node == "" {
				continue
			}
			pool := nodePool[p.node]
			if occupants[pool] == nil {
				occupants[pool] = map[string]bool{}
			}
			occupants[pool][g.key()+"/"+p.slice] = true
		}
	}
	expected := map[string]bool{}
	for _, k := range slices.Sorted(maps.Keys(gangs)) {
		g := gangs[k]
		c.gangs++
		c.pods += g.want
		c.podsBound += g.bound()
		if created := g.created(); !created.IsZero() && (c.first.IsZero() || created.Before(c.first)) {
			c.first = created
		}
		var req *provRequest
		var reqName string
		if check != "" {
			reqName = provisioning.RequestName(g.workloadKey().ObjectName(), check, 1)
			expected[g.namespace+"/"+reqName] = true
			if req = requests[g.namespace+"/"+reqName]; req != nil {
				c.matched++
			}
			var firstBound time.Time
			for _, p := range g.pods {
				if p.node == "" {
					continue
				}
				if p.request != reqName {
					c.unannotated++
				}
				if firstBound.IsZero() || p.boundAt.Before(firstBound) {
					firstBound = p.boundAt
				}
			}
			if !firstBound.IsZero() && (req == nil || req.sent.IsZero() || firstBound.Before(req.sent)) {
				c.early++
			}
		}
		bind, whole := g.clock.latency(g.want)
		if !whole {
			continue
		}
		c.bound++
		c.bind = append(c.bind, bind.Seconds())
		if g.whole().After(c.last) {
			c.last = g.whole()
		}
		if placedInOneZone(g, nodePool, nodeZone, occupants) {
			c.placed++
		}
		milestones := []time.Time{g.created(), g.complete}
		names := []string{"Members"}
		if check != "" {
			if req == nil || req.done.IsZero() || g.annotated.IsZero() || objects[g.namespace+"/"+g.workloadKey().ObjectName()].IsZero() {
				continue
			}
			milestones = append(milestones, objects[g.namespace+"/"+g.workloadKey().ObjectName()], req.seen, req.done, latest(g.annotated, req.done))
			names = append(names, "WorkloadObject", "Request", "Provisioned", "Annotated")
		}
		milestones = append(milestones, g.whole())
		names = append(names, "Bound")
		for i, name := range names {
			c.phases[name] = append(c.phases[name], max(milestones[i+1].Sub(milestones[i]).Seconds(), 0))
		}
	}
	for k := range requests {
		if !expected[k] {
			c.unexpected++
		}
	}
	return c
}

// placedInOneZone: every pod bound, each slice on one pool that holds no
// other slice, and all of them in one zone.
func placedInOneZone(g *provGang, nodePool, nodeZone map[string]string, occupants map[string]map[string]bool) bool {
	if g.bound() != g.want {
		return false
	}
	pools := map[string]string{} // slice → pool
	zones := map[string]bool{}
	for _, p := range g.pods {
		pool := nodePool[p.node]
		if got, ok := pools[p.slice]; (ok && got != pool) || pool == "" || nodeZone[p.node] == "" {
			return false
		}
		pools[p.slice] = pool
		zones[nodeZone[p.node]] = true
	}
	for _, pool := range pools {
		if len(occupants[pool]) != 1 {
			return false
		}
	}
	return len(zones) == 1
}

// provisioningResult is what a run measured.
type provisioningResult struct {
	provCounts
	check      string
	timedOut   bool
	attempts   map[string]float64
	admissions float64
}

// measured is the time from the first gang's creation to the last one
// wholly bound.
func (r provisioningResult) measured() time.Duration {
	if r.first.IsZero() || r.last.IsZero() {
		return 0
	}
	return r.last.Sub(r.first)
}

// rate is the gangs wholly bound per second of the measured time.
func (r provisioningResult) rate() float64 {
	if s := r.measured().Seconds(); s > 0 {
		return float64(r.bound) / s
	}
	return 0
}

func (r provisioningResult) summary() string {
	s := fmt.Sprintf("%d of %d gangs wholly bound (%d placed as gangs in one zone) in %.2f s, %.1f workloads/s",
		r.bound, r.gangs, r.placed, r.measured().Seconds(), r.rate())
	if len(r.bind) > 0 {
		s += fmt.Sprintf("; bind p50 %.2f s, p90 %.2f s, p99 %.2f s", quantile(r.bind, 0.5), quantile(r.bind, 0.9), quantile(r.bind, 0.99))
	}
	s += fmt.Sprintf("; %d Workload objects created over %.2f s", r.objects.n, r.objects.seconds())
	if r.check != "" {
		s += fmt.Sprintf("; %d ProvisioningRequests over %.2f s, %d Provisioned", r.requests, r.requestsSeen.seconds(), r.provisioned)
		for _, name := range provPhases {
			if xs := r.phases[name]; len(xs) > 0 {
				s += fmt.Sprintf("; %s mean %.3f s", name, mean(xs))
			}
		}
	}
	return s
}

// verify holds a run to what the scenario promises (see above).
func (r provisioningResult) verify(want int) error {
	switch {
	case r.gangs != want:
		return fmt.Errorf("provisioning: %d gangs seen, want %d", r.gangs, want)
	case r.bound != want:
		return fmt.Errorf("provisioning: %d of %d gangs wholly bound (%d of %d pods)", r.bound, want, r.podsBound, r.pods)
	case r.placed != r.bound:
		return fmt.Errorf("provisioning: %d of %d gangs placed as gangs in one zone", r.placed, r.bound)
	case r.check == "" && r.requests > 0:
		return fmt.Errorf("provisioning: %d ProvisioningRequests created for a ClusterQueue without an admission check", r.requests)
	case r.check == "":
		return nil
	case r.matched != want || r.unexpected > 0:
		return fmt.Errorf("provisioning: %d of %d gangs had their ProvisioningRequest, and %d requests were no gang's first attempt", r.matched, want, r.unexpected)
	case r.early > 0:
		return fmt.Errorf("provisioning: %d gangs had a pod bound before their ProvisioningRequest was Provisioned", r.early)
	case r.unannotated > 0:
		return fmt.Errorf("provisioning: %d pods were bound without naming their ProvisioningRequest", r.unannotated)
	}
	return nil
}

// items renders the results as data items named like the harness's
// (BenchmarkPerfScheduling/<test case>/<workload>/provisioning), and
// reports the headline figures as benchmark metrics.
func (r provisioningResult) items(tCtx ktesting.TContext) []perf.DataItem {
	item := itemMaker(tCtx, "provisioning")
	counts := withAttempts(map[string]float64{
		"Gangs":                       float64(r.gangs),
		"GangsBound":                  float64(r.bound),
		"GangsPlaced":                 float64(r.placed),
		"Pods":                        float64(r.pods),
		"PodsBound":                   float64(r.podsBound),
		"Requests":                    float64(r.requests),
		"RequestsProvisioned":         float64(r.provisioned),
		"RequestsUnexpected":          float64(r.unexpected),
		"PodsBoundUnannotated":        float64(r.unannotated),
		"GangsBoundBeforeProvisioned": float64(r.early),
		"Admissions":                  r.admissions,
		"Check":                       oneIf(r.check != ""),
		"TimedOut":                    oneIf(r.timedOut),
	}, r.attempts)
	items := []perf.DataItem{
		item("ProvisioningCounts", "count", counts),
		item("ProvisioningDuration", "s", map[string]float64{"Measured": r.measured().Seconds()}),
		item("ProvisioningThroughput", "workloads/s", map[string]float64{"Workloads": r.rate()}),
	}
	if len(r.bind) > 0 {
		items = append(items, item("ProvisioningBindTime", "s", stats(r.bind)))
	}
	for metric, sp := range map[string]span{"ProvisioningWorkloadObjects": r.objects, "ProvisioningRequestsCreated": r.requestsSeen} {
		if sp.n > 0 {
			items = append(items, item(metric, "count", map[string]float64{"Count": float64(sp.n), "SpanSeconds": sp.seconds(), "PerSecond": sp.rate()}))
		}
	}
	for _, phase := range provPhases {
		if xs := r.phases[phase]; len(xs) > 0 {
			items = append(items, item("ProvisioningPhase"+phase, "s", stats(xs)))
		}
	}
	if b, ok := tCtx.TB().(*testing.B); ok && len(r.bind) > 0 {
		b.ReportMetric(quantile(r.bind, 0.5), "bind_p50_s")
		b.ReportMetric(quantile(r.bind, 0.99), "bind_p99_s")
		b.ReportMetric(r.rate(), "workloads/s")
	}
	return items
}

// stats summarises durations (seconds) for a data item.
func stats(xs []float64) map[string]float64 {
	return map[string]float64{
		"Count": float64(len(xs)), "Perc50": quantile(xs, 0.5), "Perc90": quantile(xs, 0.9), "Perc99": quantile(xs, 0.99),
		"Max": quantile(xs, 1), "Average": mean(xs),
	}
}

// latest is the later of a and b.
func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
