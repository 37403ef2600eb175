package chaos

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// maxEventsShown bounds the events Evidence lists per violation.
const maxEventsShown = 12

// Evidence describes what the API shows of the objects a violation is
// about, at the moment it is found: each pod of its gang or pool (node,
// phase, conditions, when it was seen bound), the owner's state, its
// Workload object's conditions and the scheduler's latest events on them.
// It is written to the soak's log, so that a violation can be judged after
// the cluster is gone.
func (w *World) Evidence(v Violation) []string {
	var pods []*corev1.Pod
	for _, p := range w.Pods {
		m := MemberOf(p)
		switch {
		case v.gang != "" && m.GangKey() == v.gang,
			v.gang == "" && v.workload != (WorkloadID{}) && m.Workload == v.workload,
			v.pool != "" && poolOf(w, p) == v.pool && Live(p) && Bound(p):
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	var out []string
	uids := map[types.UID]string{}
	for _, p := range pods {
		out = append(out, describePod(w, p))
		uids[p.UID] = "pod " + p.Name
	}
	ids := map[WorkloadID]bool{}
	if v.workload != (WorkloadID{}) {
		ids[v.workload] = true
	}
	for _, p := range pods {
		ids[MemberOf(p).Workload] = true
	}
	for id := range ids {
		out = append(out, w.describeOwner(id)...)
		if uid := ownerUID(w, id); uid != "" {
			uids[uid] = id.String()
		}
	}
	if v.queue != "" {
		if cq := w.ClusterQueues[v.queue]; cq != nil {
			for _, f := range cq.Status.FlavorsUsage {
				for _, r := range f.Resources {
					out = append(out, fmt.Sprintf("ClusterQueue %s status: flavor %s %s total %s, borrowed %s", cq.Name, f.Name, r.Name, r.Total.String(), r.Borrowed.String()))
				}
			}
		}
	}
	return append(out, w.describeEvents(uids)...)
}

func describePod(w *World, p *corev1.Pod) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pod %s (created %s): ", p.Name, p.CreationTimestamp.Format("15:04:05"))
	if Bound(p) {
		fmt.Fprintf(&b, "on %s (pool %s, seen bound %s), ", p.Spec.NodeName, poolOf(w, p), w.BoundAt[p.UID].Format("15:04:05.000"))
	} else {
		b.WriteString("not bound, ")
	}
	b.WriteString(string(p.Status.Phase))
	if p.DeletionTimestamp != nil {
		fmt.Fprintf(&b, ", being deleted since %s", p.DeletionTimestamp.Format("15:04:05"))
	}
	if len(p.Spec.SchedulingGates) > 0 {
		b.WriteString(", scheduling-gated")
	}
	if c := podScheduled(p); c != nil {
		fmt.Fprintf(&b, ", PodScheduled=%s %s %q", c.Status, c.Reason, c.Message)
	}
	if len(p.Spec.NodeSelector) > 0 {
		if pool := p.Spec.NodeSelector[wellknown.NodePoolLabel]; pool != "" {
			fmt.Fprintf(&b, ", pinned to pool %s", pool)
		}
	}
	return b.String()
}

func (w *World) describeOwner(id WorkloadID) []string {
	var out []string
	switch id.Kind {
	case "JobSet":
		if js := w.JobSets[id.UID]; js != nil {
			out = append(out, fmt.Sprintf("%s: restarts %d, suspend %v, terminal %q, deleting %v", id, js.Status.Restarts,
				js.Spec.Suspend != nil && *js.Spec.Suspend, js.Status.TerminalState, js.DeletionTimestamp != nil))
		} else {
			out = append(out, id.String()+": gone")
		}
	case "PodGroup":
		if pg := w.PodGroups[id.Namespace+"/"+id.Name]; pg == nil {
			out = append(out, id.String()+": gone")
		}
	case "Job":
		if j := w.Jobs[id.UID]; j != nil {
			out = append(out, fmt.Sprintf("%s: suspend %v, active %d, succeeded %d, failed %d", id, j.Spec.Suspend != nil && *j.Spec.Suspend,
				j.Status.Active, j.Status.Succeeded, j.Status.Failed))
		}
	}
	if o, ok := w.Owners[id]; ok {
		out = append(out, fmt.Sprintf("%s shape: queue %q, domain key %q, gang %v of %d pods", id, o.Queue, o.DomainKey, o.Gang, o.Pods))
	}
	if wl := workloadObject(w, id); wl != nil {
		for _, c := range wl.Status.Conditions {
			out = append(out, fmt.Sprintf("Workload %s: %s=%s %s %q (since %s)", wl.Name, c.Type, c.Status, c.Reason, c.Message, c.LastTransitionTime.Format("15:04:05")))
		}
	}
	return out
}

// describeEvents lists the scheduler's latest events on the objects, by
// time.
func (w *World) describeEvents(objects map[types.UID]string) []string {
	type line struct {
		at   time.Time
		text string
	}
	var lines []line
	for uid, name := range objects {
		for _, e := range w.Events[uid] {
			series := ""
			if e.Count > 1 {
				series = fmt.Sprintf(" (×%d since %s; the message is the first one's)", e.Count, e.First.Format("15:04:05.000"))
			}
			lines = append(lines, line{e.At, fmt.Sprintf("event %s on %s: %s%s: %s", e.At.Format("15:04:05.000"), name, e.Reason, series, e.Message)})
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].at.Before(lines[j].at) })
	if len(lines) > maxEventsShown {
		lines = lines[len(lines)-maxEventsShown:]
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, l.text)
	}
	if len(out) == 0 {
		out = append(out, "no event of the scheduler on these objects")
	}
	return out
}
