package tas

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// What a pod set's topology request means for Place: the rules the
// scheduler's plan (pkg/admission) places a pod set by, and `kubectl
// multislice why` explains it by, so both read a pod set alike.

// QueuelessLevels are the levels a pod set asking r is placed by when its
// workload goes through no queue (no flavor names a Topology for it): the
// levels its request names, highest first, above kubernetes.io/hostname.
func QueuelessLevels(r *workload.TopologyRequest) []string {
	var levels []string
	for _, l := range []string{r.Level, r.SliceLevel, corev1.LabelHostname} {
		if l != "" && !slices.Contains(levels, l) {
			levels = append(levels, l)
		}
	}
	return levels
}

// PodSetRequest is the Request of a pod set asking r in t, pods of its pods
// (all alike) still to place. Pods left to place that are not whole slices
// (a Job whose pods partly completed) keep to the pod set's level, pod by
// pod. r's levels must be t's (workload.TopologyRequest.CheckLevels).
func PodSetRequest(r *workload.TopologyRequest, t *topology.Tree, pods int32) Request {
	req := Request{Pods: pods, SliceSize: 1, SliceLevel: len(t.Levels) - 1}
	switch r.Mode {
	case workload.TopologyRequired:
		req.Mode = Required
	case workload.TopologyPreferred:
		req.Mode = Preferred
	default:
		req.Mode = Unconstrained
	}
	if r.Level != "" {
		req.Level = t.LevelOf(r.Level)
	}
	if r.SliceLevel != "" && pods%r.SliceSize == 0 {
		req.SliceLevel, req.SliceSize = t.LevelOf(r.SliceLevel), r.SliceSize
	}
	return req
}

// AskedLevel is the level r is kept within, the one a Failure names:
// Level for Required and Preferred, SliceLevel for Unconstrained.
func (r Request) AskedLevel() int {
	if r.Mode == Unconstrained {
		return r.SliceLevel
	}
	return r.Level
}

// PodsIn is how many pods asking request room takes, at most most (a
// request of nothing: most): what a node's fit is made of.
func PodsIn(room, request workload.Resources, most int32) int32 {
	return AsksIn(room, request.Asks(), most)
}

// AsksIn is PodsIn of the request asks lists, for a caller that counts
// one request in many rooms.
func AsksIn(room workload.Resources, asks workload.Asks, most int32) int32 {
	c := asks.Count(room)
	if c < 0 || c > int64(most) {
		return most
	}
	return int32(c)
}

// InResources adds to a placement message counting pods what each pod
// asks of the accelerator it needs (an extended resource), e.g. "needs 16
// pods in one …; each pod asks for 8 nvidia.com/gpu".
func InResources(msg string, request workload.Resources) string {
	for _, r := range slices.Sorted(maps.Keys(request)) {
		if v := request[r]; v > 0 && strings.Contains(string(r), "/") {
			return fmt.Sprintf("%s; each pod asks for %s %s", msg, workload.FormatAmount(r, v), r)
		}
	}
	return msg
}

// Takes is how many of r's pods each domain of level lvl takes now, in
// path order (that of t.Domains(lvl)), counted as Place counts them: whole
// slices times SliceSize at and above SliceLevel, pods below it. It is nil
// when r is not valid on t or lvl is not one of t's levels.
func Takes(t *topology.Tree, fit Fit, r Request, lvl int) []int32 {
	if validate(t, r) != nil || lvl < 0 || lvl >= len(t.Levels) {
		return nil
	}
	v := newView(t, fit, r)
	out := make([]int32, 0, v.start[lvl+1]-v.start[lvl])
	for i := v.start[lvl]; i < v.start[lvl+1]; i++ {
		if lvl <= r.SliceLevel {
			out = append(out, clamp32(v.doms[i].slices*int64(r.SliceSize)))
		} else {
			out = append(out, clamp32(v.doms[i].pods))
		}
	}
	return out
}
