package webhook

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// patchOp is one JSON patch (RFC 6902) operation.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Patch writes d as a JSON patch of raw, the object as the request has
// it: schedulerName on d.PodSpecs, the queue name on d.QueueLabels (a
// label when it fits one, else an annotation of the same key), and the
// reason on the object's SchedulerNameReasonAnnotation. A parent a field
// goes into is added when the object lacks it, so that the patch applies
// to the object as it is; a location that is not an object is an error.
// Nil for a decision that changes nothing.
func Patch(raw []byte, d Decision, scheduler string) ([]byte, error) {
	if !d.Mutates() {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("decoding the object: %w", err)
	}
	p := &patcher{root: root}
	for _, spec := range d.PodSpecs {
		if err := p.set(append(append(Path{}, spec...), "schedulerName"), scheduler); err != nil {
			return nil, err
		}
	}
	key := "labels"
	if !wellknown.QueueNameFitsLabel(d.Queue) {
		key = "annotations"
	}
	for _, meta := range d.QueueLabels {
		if err := p.set(append(append(Path{}, meta...), key, wellknown.QueueNameLabel), d.Queue); err != nil {
			return nil, err
		}
	}
	if d.Reason != "" {
		if err := p.set(Path{"metadata", "annotations", wellknown.SchedulerNameReasonAnnotation}, d.Reason); err != nil {
			return nil, err
		}
	}
	return json.Marshal(p.ops)
}

// patcher collects operations while applying them to root, so that a
// later operation sees the parents an earlier one added.
type patcher struct {
	root any
	ops  []patchOp
}

// set emits the operations that make path hold value: an add of the first
// missing parent (holding the rest of the path), or an add of the value
// itself ("add" replaces a member that exists).
func (p *patcher) set(path Path, value any) error {
	node := p.root
	for i, seg := range path {
		last := i == len(path)-1
		switch s := seg.(type) {
		case string:
			m, ok := node.(map[string]any)
			if !ok {
				return fmt.Errorf("%s is not an object", pointer(path[:i]))
			}
			child, exists := m[s]
			if last || !exists || child == nil {
				v, err := nest(path[i+1:], value)
				if err != nil {
					return fmt.Errorf("%s: %w", pointer(path[:i+1]), err)
				}
				m[s] = v
				p.ops = append(p.ops, patchOp{Op: "add", Path: pointer(path[:i+1]), Value: v})
				return nil
			}
			node = child
		case int:
			l, ok := node.([]any)
			if !ok || s < 0 || s >= len(l) || last {
				return fmt.Errorf("%s has no item %d to set a field of", pointer(path[:i]), s)
			}
			node = l[s]
		default:
			return fmt.Errorf("path %v: segment %v is neither a key nor an index", path, seg)
		}
	}
	return fmt.Errorf("empty path")
}

// nest wraps value in objects along keys: nest({a, b}, v) = {a: {b: v}}.
// A list cannot be made up: an index among keys is an error.
func nest(keys Path, value any) (any, error) {
	for i := len(keys) - 1; i >= 0; i-- {
		k, ok := keys[i].(string)
		if !ok {
			return nil, fmt.Errorf("has no list to hold item %v", keys[i])
		}
		value = map[string]any{k: value}
	}
	return value, nil
}

// pointer renders a path as a JSON pointer (RFC 6901).
func pointer(path Path) string {
	var b strings.Builder
	for _, seg := range path {
		b.WriteByte('/')
		switch s := seg.(type) {
		case string:
			b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
		case int:
			b.WriteString(strconv.Itoa(s))
		}
	}
	return b.String()
}
