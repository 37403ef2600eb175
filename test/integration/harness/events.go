package harness

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// WaitForWorkloadEventObject waits for an event with reason about the
// named workload object (not one of its pods) and returns it, so tests can
// check its type and note. On timeout it lists the reasons the object did
// get.
func (cp *ControlPlane) WaitForWorkloadEventObject(t testing.TB, ns, name, reason string) eventsv1.Event {
	t.Helper()
	var found *eventsv1.Event
	var seen []eventsv1.Event
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		evs, err := cp.workloadEvents(ctx, ns, name)
		if err != nil {
			return false, nil
		}
		seen = evs
		for i := range evs {
			if evs[i].Reason == reason {
				found = &evs[i]
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("no %s event on %s/%s: %v; its events: %s", reason, ns, name, err, formatEvents(seen))
	}
	return *found
}

// workloadEvents lists the events about the named object that is not a pod,
// oldest first.
func (cp *ControlPlane) workloadEvents(ctx context.Context, ns, name string) ([]eventsv1.Event, error) {
	list, err := cp.Client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	var out []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.Name == name && e.Regarding.Kind != "Pod" {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return eventTime(out[i]).Before(eventTime(out[j])) })
	return out, nil
}

func eventTime(e eventsv1.Event) time.Time {
	if e.Series != nil {
		return e.Series.LastObservedTime.Time
	}
	if !e.EventTime.IsZero() {
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

func formatEvents(evs []eventsv1.Event) string {
	if len(evs) == 0 {
		return "none"
	}
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "\n  %s %s: %s", e.Type, e.Reason, e.Note)
	}
	return b.String()
}

// DescribeJobSet says where a JobSet stands, for failure messages: its pods
// per restart attempt (bound, terminating), the distinct reasons its
// unbound pods are unschedulable, and the events on the JobSet.
func (cp *ControlPlane) DescribeJobSet(ctx context.Context, ns, name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "JobSet %s/%s:", ns, name)
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
	if err != nil {
		fmt.Fprintf(&b, " cannot list pods: %v", err)
		return b.String()
	}
	type counts struct{ total, bound, terminating int }
	byAttempt := map[string]*counts{}
	reasons := map[string]int{}
	for _, p := range pods.Items {
		a := p.Labels[wellknown.RestartAttemptLabel]
		if byAttempt[a] == nil {
			byAttempt[a] = &counts{}
		}
		c := byAttempt[a]
		c.total++
		if p.Spec.NodeName != "" {
			c.bound++
		}
		if p.DeletionTimestamp != nil {
			c.terminating++
		}
		for _, cond := range p.Status.Conditions {
			if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse {
				reasons[cond.Reason+": "+cond.Message]++
			}
		}
	}
	if len(pods.Items) == 0 {
		b.WriteString(" no pods")
	}
	attempts := make([]string, 0, len(byAttempt))
	for a := range byAttempt {
		attempts = append(attempts, a)
	}
	slices.Sort(attempts)
	for _, a := range attempts {
		c := byAttempt[a]
		fmt.Fprintf(&b, " attempt %s: %d pods, %d bound, %d terminating;", a, c.total, c.bound, c.terminating)
	}
	for r, n := range reasons {
		fmt.Fprintf(&b, "\n  %d pods unschedulable: %s", n, r)
	}
	evs, err := cp.workloadEvents(ctx, ns, name)
	if err != nil {
		fmt.Fprintf(&b, "\n  cannot list events: %v", err)
		return b.String()
	}
	if len(evs) > 10 {
		evs = evs[len(evs)-10:]
	}
	b.WriteString("\n  events (latest last):")
	b.WriteString(formatEvents(evs))
	return b.String()
}
