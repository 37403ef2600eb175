package workload

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// TopologyMode is how a pod set's pods are kept together in a topology.
type TopologyMode int

const (
	TopologyNone          TopologyMode = iota // no topology request
	TopologyRequired                          // all pods in one domain of Level, or none placed
	TopologyPreferred                         // the lowest level from Level up that holds them all; spread over top-level domains only when none does
	TopologyUnconstrained                     // anywhere, packed into as few domains as possible
)

func (m TopologyMode) String() string {
	switch m {
	case TopologyNone:
		return "none"
	case TopologyRequired:
		return "required"
	case TopologyPreferred:
		return "preferred"
	case TopologyUnconstrained:
		return "unconstrained"
	}
	return fmt.Sprintf("TopologyMode(%d)", int(m))
}

// TopologyRequest is where a pod set's pods may be placed in a topology of
// nested levels, as its pod template's Kueue annotations ask. A request
// returned by TopologyRequestOf always holds these invariants:
//   - Mode is not TopologyNone;
//   - Level is set (a valid label key) for TopologyRequired and
//     TopologyPreferred, and "" for TopologyUnconstrained;
//   - SliceSize > 0 exactly when SliceLevel is set (a valid label key),
//     and then SliceSize divides the pod set's pods;
//   - Group is set only for TopologyRequired and TopologyPreferred, never
//     with slices.
type TopologyRequest struct {
	Mode       TopologyMode
	Level      string // a node label key; "" for Unconstrained or slice-only requests
	SliceLevel string // each slice of SliceSize pods in one domain of SliceLevel ("" : no slices)
	SliceSize  int32  // 0 when SliceLevel is ""
	Group      string // podset-group-name: pod sets of one workload placed as one (leader and workers)
}

// TopologyAnnotationError says which topology annotation of a pod template
// is wrong, with its value and why. Callers that know the object and the
// template's field can turn it into an *InvalidError naming
// <template>.metadata.annotations[Annotation].
type TopologyAnnotationError struct {
	Annotation string // the annotation key
	Value      string // its value as written
	Reason     string
}

func (e *TopologyAnnotationError) Error() string {
	return fmt.Sprintf("annotation %s: %q %s", e.Annotation, e.Value, e.Reason)
}

// topologyModeAnnotations are the annotations of which a pod set may carry
// at most one, in the order their conflicts are reported.
var topologyModeAnnotations = []string{
	wellknown.RequiredTopologyAnnotation,
	wellknown.PreferredTopologyAnnotation,
	wellknown.UnconstrainedTopologyAnnotation,
}

// AsksForTopology reports whether annotations carry any of Kueue's
// topology annotations, well-formed or not: a LeaderWorkerSet group whose
// pods do is a gang (TopologyRequestOf says what it asks, or what is
// wrong).
func AsksForTopology(annotations map[string]string) bool {
	for _, key := range slices.Concat(topologyModeAnnotations, []string{
		wellknown.SliceRequiredTopologyAnnotation, wellknown.SliceSizeAnnotation, wellknown.SliceTopologyConstraintsAnnotation,
		wellknown.PodSetGroupNameAnnotation,
	}) {
		if _, ok := annotations[key]; ok {
			return true
		}
	}
	return false
}

// TopologyRequestOf reads the topology request of a pod set of pods pods from its pod template's annotations (nil, nil when there is none).
//
// The annotations are Kueue's, and every combination Kueue's admission
// refuses is refused here too. Our own rules go further: a slice size must
// divide the pod set's pods, since a partial slice would have no domain of
// its own; a group name must not be empty (Group "" means no group), nor a
// number of any length. The first problem found is returned as a
// *TopologyAnnotationError naming the annotation at fault; annotations are
// never modified.
func TopologyRequestOf(annotations map[string]string, pods int32) (*TopologyRequest, error) {
	bad := func(key, reason string, args ...any) error {
		return &TopologyAnnotationError{Annotation: key, Value: annotations[key], Reason: fmt.Sprintf(reason, args...)}
	}
	if _, ok := annotations[wellknown.SliceTopologyConstraintsAnnotation]; ok {
		// Refused rather than ignored: a pod set placed without the
		// constraints its user wrote would look placed as asked.
		return nil, bad(wellknown.SliceTopologyConstraintsAnnotation, "is not supported: keep each slice together with %s and %s (one layer of slices)",
			wellknown.SliceRequiredTopologyAnnotation, wellknown.SliceSizeAnnotation)
	}
	// Presence counts, whatever the value: an unconstrained "false"
	// beside a required level is as contradictory as "true" is.
	first := ""
	for _, key := range topologyModeAnnotations {
		if _, ok := annotations[key]; !ok {
			continue
		}
		if first != "" {
			return nil, bad(key, "may not be set together with %s: a pod set has at most one of required, preferred and unconstrained topology", first)
		}
		first = key
	}
	for _, key := range []string{wellknown.RequiredTopologyAnnotation, wellknown.PreferredTopologyAnnotation, wellknown.SliceRequiredTopologyAnnotation} {
		if v, ok := annotations[key]; ok {
			if errs := validation.IsQualifiedName(v); len(errs) > 0 {
				return nil, bad(key, "is not a node label key: %s", errs[0])
			}
		}
	}
	unconstrained := false
	if v, ok := annotations[wellknown.UnconstrainedTopologyAnnotation]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, bad(wellknown.UnconstrainedTopologyAnnotation, `is not a boolean: write "true" or "false"`)
		}
		unconstrained = b
	}
	sliceLevel, sliceSize, err := sliceOf(annotations, pods, bad)
	if err != nil {
		return nil, err
	}
	required, hasRequired := annotations[wellknown.RequiredTopologyAnnotation]
	preferred, hasPreferred := annotations[wellknown.PreferredTopologyAnnotation]
	group, hasGroup := annotations[wellknown.PodSetGroupNameAnnotation]
	if hasGroup {
		switch {
		case group == "":
			return nil, bad(wellknown.PodSetGroupNameAnnotation, "is empty: name the group its pod sets share")
		case isDecimal(group):
			return nil, bad(wellknown.PodSetGroupNameAnnotation, "is a number; a group name must not be one")
		case sliceLevel != "":
			return nil, bad(wellknown.PodSetGroupNameAnnotation, "may not be set with %s and %s: a group is placed whole, not in slices",
				wellknown.SliceRequiredTopologyAnnotation, wellknown.SliceSizeAnnotation)
		case !hasRequired && !hasPreferred:
			return nil, bad(wellknown.PodSetGroupNameAnnotation, "needs %s or %s: the group's pod sets are kept together at that level",
				wellknown.RequiredTopologyAnnotation, wellknown.PreferredTopologyAnnotation)
		}
	}
	r := &TopologyRequest{SliceLevel: sliceLevel, SliceSize: sliceSize, Group: group}
	switch {
	case hasRequired:
		r.Mode, r.Level = TopologyRequired, required
	case hasPreferred:
		r.Mode, r.Level = TopologyPreferred, preferred
	case unconstrained || sliceLevel != "":
		// Slices alone keep each slice together but the pod set anywhere.
		r.Mode = TopologyUnconstrained
	default:
		return nil, nil
	}
	return r, nil
}

// sliceOf reads a pod set's slice level and size: both or neither, the size
// an integer from 1 to pods that divides pods.
func sliceOf(annotations map[string]string, pods int32, bad func(key, reason string, args ...any) error) (string, int32, error) {
	level, hasLevel := annotations[wellknown.SliceRequiredTopologyAnnotation]
	size, hasSize := annotations[wellknown.SliceSizeAnnotation]
	switch {
	case !hasLevel && !hasSize:
		return "", 0, nil
	case !hasSize:
		return "", 0, bad(wellknown.SliceRequiredTopologyAnnotation, "needs %s: how many pods each slice has", wellknown.SliceSizeAnnotation)
	case !hasLevel:
		return "", 0, bad(wellknown.SliceSizeAnnotation, "needs %s: the level each slice is kept in", wellknown.SliceRequiredTopologyAnnotation)
	}
	n, err := strconv.ParseInt(size, 10, 32)
	switch {
	case err != nil:
		return "", 0, bad(wellknown.SliceSizeAnnotation, "is not a whole number of pods")
	case n < 1:
		return "", 0, bad(wellknown.SliceSizeAnnotation, "must be at least 1")
	case n > int64(pods):
		return "", 0, bad(wellknown.SliceSizeAnnotation, "is more than the pod set's %s", podCount(pods))
	case int64(pods)%n != 0:
		return "", 0, bad(wellknown.SliceSizeAnnotation, "does not divide the pod set's %s", podCount(pods))
	}
	return level, int32(n), nil
}

// CheckLevels says what is wrong with r against a topology whose levels are levels (highest first), naming the annotation: a level the topology lacks, a slice level above the main level.
//
// Level is read only for required and preferred requests: an
// unconstrained or slice-only request may use any domains, so only its
// slice level, if any, has to exist. A slice level equal to the main level
// is allowed (each slice in one domain, the pod set in one domain). A nil
// request fits every topology.
func (r *TopologyRequest) CheckLevels(levels []string) error {
	if r == nil {
		return nil
	}
	main := -1
	if r.Mode == TopologyRequired || r.Mode == TopologyPreferred {
		main = slices.Index(levels, r.Level)
		if main < 0 {
			return &TopologyAnnotationError{Annotation: r.levelAnnotation(), Value: r.Level, Reason: notALevel(levels)}
		}
	}
	if r.SliceLevel == "" {
		return nil
	}
	slice := slices.Index(levels, r.SliceLevel)
	switch {
	case slice < 0:
		return &TopologyAnnotationError{Annotation: wellknown.SliceRequiredTopologyAnnotation, Value: r.SliceLevel, Reason: notALevel(levels)}
	case slice < main:
		return &TopologyAnnotationError{Annotation: wellknown.SliceRequiredTopologyAnnotation, Value: r.SliceLevel,
			Reason: fmt.Sprintf("is above the pod set's level %q (%s): a slice must fit in one domain of it", r.Level, r.levelAnnotation())}
	}
	return nil
}

// levelAnnotation is the annotation r's Level was read from.
func (r *TopologyRequest) levelAnnotation() string {
	if r.Mode == TopologyPreferred {
		return wellknown.PreferredTopologyAnnotation
	}
	return wellknown.RequiredTopologyAnnotation
}

// String describes r in a few words for messages, e.g.
// "required cloud.google.com/gce-topology-subblock, slices of 4 in
// cloud.google.com/gce-topology-host".
func (r *TopologyRequest) String() string {
	if r == nil {
		return "no topology request"
	}
	var b strings.Builder
	b.WriteString(r.Mode.String())
	if r.Level != "" {
		b.WriteString(" " + r.Level)
	}
	if r.SliceLevel != "" {
		fmt.Fprintf(&b, ", slices of %d in %s", r.SliceSize, r.SliceLevel)
	}
	if r.Group != "" {
		fmt.Fprintf(&b, ", group %q", r.Group)
	}
	return b.String()
}

func notALevel(levels []string) string {
	if len(levels) == 0 {
		return "is not a level of the topology, which has none"
	}
	return fmt.Sprintf("is not a level of the topology (levels, highest first: %s)", strings.Join(levels, ", "))
}

// podCount is "1 pod" or "n pods".
func podCount(n int32) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// isDecimal reports whether s is a non-empty run of ASCII digits: a number,
// which a group name must not be (Kueue refuses those that fit 64 bits; we
// refuse them all).
func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
