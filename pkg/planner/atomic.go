package planner

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"

	"fmt"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// ValueFailure is why a gang did not fit under one value of its atomic key
// (e.g. one zone).
type ValueFailure struct {
	Value   string
	Failure *placement.Failure
}

// maxValuesShown bounds the reasons an atomic failure lists: a fleet may
// span many zones, and the first ones tried are the most promising.
const maxValuesShown = 3

// AtomicFailure combines why a gang of slices slices fits under none of
// the values of the node label key it must land within one value of. tried
// holds a failure per value, in the order the values were tried; pinned is
// the value the workload's placed pods hold it to ("" when none does, and
// every value was tried), then tried holds that value's failure alone.
//
// The gang could never fit (Unresolvable) only when no value could ever
// hold it. Its Reason is a quota reason only when quota is what stops it
// under every value that could hold it, so that waiting for quota (and
// preempting for it) applies exactly when quota is the obstacle.
func AtomicFailure(key string, slices int, pinned string, tried []ValueFailure) *placement.Failure {
	label := wellknown.ShortLabel(key)
	gang := "its slice"
	if slices != 1 {
		gang = fmt.Sprintf("all %d slices", slices)
	}
	if len(tried) == 0 {
		return &placement.Failure{Unresolvable: true,
			Message: fmt.Sprintf("no node it may use has the label %s, and %s must land within one %s", label, gang, label)}
	}
	out := &placement.Failure{Unresolvable: true}
	var resolvable []*placement.Failure
	for _, t := range tried {
		if !t.Failure.Unresolvable {
			out.Unresolvable = false
			resolvable = append(resolvable, t.Failure)
		}
	}
	if len(resolvable) == 0 {
		// Whatever stops it everywhere for good.
		for _, t := range tried {
			resolvable = append(resolvable, t.Failure)
		}
	}
	out.Reason = resolvable[0].Reason
	for _, f := range resolvable {
		if f.Reason == "" {
			out.Reason = ""
			break
		}
	}
	if out.Reason != "" && sameMessage(tried) {
		// Quota stops it alike under every value: the zone is not the
		// obstacle, the quota message is.
		out.Message = tried[0].Failure.Message
		return out
	}
	if pinned != "" {
		out.Message = fmt.Sprintf("%s=%s, where the workload already runs, has no room for %s: %s", label, pinned, gang, tried[0].Failure.Message)
		return out
	}
	out.Message = fmt.Sprintf("no %s has room for %s: %s", label, gang, describeValues(tried))
	return out
}

func sameMessage(tried []ValueFailure) bool {
	for _, t := range tried[1:] {
		if t.Failure.Message != tried[0].Failure.Message {
			return false
		}
	}
	return true
}

// describeValues renders each distinct reason once, after the values it
// stops ("us-central1-a, us-central1-b: 2 slices need 2 domains …"), in
// the order tried, the first maxValuesShown reasons and values only.
func describeValues(tried []ValueFailure) string {
	type reason struct {
		message string
		values  []string
	}
	var reasons []*reason
	index := map[string]*reason{}
	for _, t := range tried {
		r := index[t.Failure.Message]
		if r == nil {
			r = &reason{message: t.Failure.Message}
			index[r.message] = r
			reasons = append(reasons, r)
		}
		r.values = append(r.values, t.Value)
	}
	parts := make([]string, 0, min(len(reasons), maxValuesShown)+1)
	shown := 0
	for _, r := range reasons[:min(len(reasons), maxValuesShown)] {
		values := r.values[:min(len(r.values), maxValuesShown)]
		names := strings.Join(values, ", ")
		if more := len(r.values) - len(values); more > 0 {
			names += fmt.Sprintf(" and %d more", more)
		}
		parts = append(parts, names+": "+r.message)
		shown += len(r.values)
	}
	if more := len(tried) - shown; more > 0 {
		parts = append(parts, fmt.Sprintf("%d more for other reasons", more))
	}
	return strings.Join(parts, "; ")
}
