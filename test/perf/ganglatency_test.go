package perf

import (
	"fmt"
	"time"

	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
)

// Gang latency: per gang, the time from its first member created to its
// last member bound.
//
// A gang member's scheduling attempt includes its whole gang's bind
// burst, which no placement decision shortens, so the per-pod attempt
// duration says little about gangs. The bound pods counter
// (timeline_test.go) therefore also notes, from the same handler on the
// scheduler's pod informer, when each pod was created and when it was
// first seen bound. When the workload ends, every namespace becomes,
// beside its timeline:
//
//   - if it holds pods of JobSets (the jobset.sigs.k8s.io/jobset-name
//     label the JobSet controller sets, as the member templates do) or of
//     Kubernetes PodGroups (spec.schedulingGroup.podGroupName): a
//     GangLatency data item, over its gangs wholly bound, of the time from
//     each gang's first member created to its last member bound. A gang is
//     the pods of the namespace with the same JobSet or PodGroup (gangOf),
//     all those seen: by the workload's end every pod it creates exists
//     and was seen.
//   - if it holds only plain pods, in a workload with the podsPerWorkload
//     parameter: a PlainGroupLatency data item, the same time for groups
//     of podsPerWorkload plain pods consecutive in creation order, the
//     figure the gangs are held against (what as many plain pods take in
//     the same run). podsPerWorkload is the gang size of the scenario's
//     gang variant, which its plain variants carry unused
//     (TestScenariosGroupPlainPodsByTheGangSize). The harness creates a
//     workload's pods from 30 goroutines, so creation order is the order
//     the informer saw them created in (the apiserver's), not the
//     template's index order; the gang variant's members are created the
//     same way. A last group smaller than podsPerWorkload is left out.
//
// Plain pods in a namespace that holds gangs (the quota scenarios'
// single-pod workloads) are not grouped: they are no baseline for those
// gangs. A pod's creation is when the informer delivered its addition:
// metadata.creationTimestamp has whole seconds only, and a gang binds in a
// fraction of one. Each item holds the figures of stats (Count: groups
// wholly bound; Perc50, Perc90, Perc99, Max and Average, in seconds, when
// there is any), Groups (groups seen, wholly bound or not), Pods (the
// pods of the groups wholly bound) and, for plain pods, GroupSize. They
// are named like the timeline's,
// BenchmarkPerfScheduling/<test case>/<workload>/<namespace>, and written
// to GangLatency_benchmark_<topic>_<time>.json.
const (
	gangLatencyMetric   = "GangLatency"
	plainGroupMetric    = "PlainGroupLatency"
	plainGroupSizeParam = "podsPerWorkload"
)

// feed notes a pod's creation and, if it was seen bound, its binding.
func (c *gangClock) feed(p *podTimes) {
	c.memberCreated(p.created)
	if !p.bound.IsZero() {
		c.memberBound(p.bound)
	}
}

// podTimes is one pod as the bound pods counter saw it.
type podTimes struct {
	// gang is its JobSet's name; "" for a plain pod.
	gang string
	// created is when it was first seen; bound when it was first seen
	// bound (zero: never).
	created, bound time.Time
}

// groupLatencies is what a namespace's gangs, or its groups of plain
// pods, took.
type groupLatencies struct {
	// plain: groups of size plain pods; otherwise gangs.
	plain bool
	size  int
	// groups counts the groups seen, wholly bound or not; pods the pods
	// of those wholly bound.
	groups, pods int
	// seconds is each group's latency, of the groups wholly bound, in the
	// order of their first members' creation.
	seconds []float64
}

// accountGroups groups a namespace's pods, given in creation order, into
// its gangs or, when it has none, into groups of groupSize consecutive
// plain pods (none when groupSize is not positive), and times them. ok is
// false when there is no group.
func accountGroups(pods []*podTimes, groupSize int) (g groupLatencies, ok bool) {
	var order []string
	gangs := map[string]*gangClock{}
	for _, p := range pods {
		if p.gang == "" {
			continue
		}
		c := gangs[p.gang]
		if c == nil {
			c = &gangClock{}
			gangs[p.gang] = c
			order = append(order, p.gang)
		}
		c.feed(p)
	}
	if len(order) > 0 {
		for _, name := range order {
			g.add(*gangs[name], gangs[name].members)
		}
		return g, true
	}
	if groupSize <= 0 || len(pods) < groupSize {
		return g, false
	}
	g.plain, g.size = true, groupSize
	for i := 0; i+groupSize <= len(pods); i += groupSize {
		var c gangClock
		for _, p := range pods[i : i+groupSize] {
			c.feed(p)
		}
		g.add(c, groupSize)
	}
	return g, true
}

// add counts a group of size members.
func (g *groupLatencies) add(c gangClock, size int) {
	g.groups++
	if d, whole := c.latency(size); whole {
		g.pods += size
		g.seconds = append(g.seconds, d.Seconds())
	}
}

// item renders the figures as a data item of the given name.
func (g groupLatencies) item(name string) perf.DataItem {
	data := map[string]float64{"Count": 0}
	if len(g.seconds) > 0 {
		data = stats(g.seconds)
	}
	data["Groups"] = float64(g.groups)
	data["Pods"] = float64(g.pods)
	metric := gangLatencyMetric
	if g.plain {
		metric = plainGroupMetric
		data["GroupSize"] = float64(g.size)
	}
	return perf.DataItem{Labels: map[string]string{"Name": name, "Metric": metric}, Unit: "s", Data: data}
}

// summary is a line for the test log.
func (g groupLatencies) summary() string {
	what := "gangs"
	if g.plain {
		what = fmt.Sprintf("groups of %d plain pods", g.size)
	}
	s := fmt.Sprintf("%d of %d %s wholly bound", len(g.seconds), g.groups, what)
	if len(g.seconds) > 0 {
		s += fmt.Sprintf(", first created to last bound p50 %.3f s, p99 %.3f s, max %.3f s",
			quantile(g.seconds, 0.5), quantile(g.seconds, 0.99), quantile(g.seconds, 1))
	}
	return s
}

// groupItems renders the gang latency of every namespace with a group
// as data items of the workload name (see above), and logs them.
func (tl *podTimeline) groupItems(logf func(format string, args ...any), name string, groupSize int) []perf.DataItem {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []perf.DataItem
	for _, ns := range tl.order {
		g, ok := accountGroups(tl.namespaces[ns].pods, groupSize)
		if !ok {
			continue
		}
		logf("Gang latency, namespace %s: %s", ns, g.summary())
		out = append(out, g.item(name+"/"+ns))
	}
	return out
}
