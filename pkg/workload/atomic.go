package workload

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// AtomicTopologyKey reads the node label a workload's slices must all share
// one value of from the annotations of its object (a JobSet, PodGroup or
// Job): "" when the object does not ask for it. obj names the object in
// errors ("JobSet ns/name"). A present annotation must name a node label
// key: an empty or malformed value is an *InvalidError naming the field,
// rather than silently dropping the constraint.
func AtomicTopologyKey(obj string, annotations map[string]string) (string, error) {
	key, ok := annotations[wellknown.AtomicTopologyAnnotation]
	if !ok {
		return "", nil
	}
	field := "metadata.annotations[" + wellknown.AtomicTopologyAnnotation + "]"
	if key == "" {
		return "", &InvalidError{obj, field, "must name a node label key, e.g. " + wellknown.ZoneLabel}
	}
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return "", &InvalidError{obj, field, fmt.Sprintf("%q is not a node label key: %s", key, errs[0])}
	}
	return key, nil
}
