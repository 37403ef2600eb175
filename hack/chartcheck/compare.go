package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/hasher"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/internal/manifests"
)

// helmLabels are the labels Helm charts conventionally add to every object
// and kustomize does not: the only difference the comparison ignores.
var helmLabels = []string{
	"helm.sh/chart",
	"app.kubernetes.io/managed-by",
	"app.kubernetes.io/instance",
	"app.kubernetes.io/version",
}

// contentHashPlaceholder replaces the hash suffix of a content-addressed
// name (see normalize), so that two renders of different but equivalent
// contents name the object alike.
const contentHashPlaceholder = "<content-hash>"

// Decode splits a multi-document YAML stream (kustomize's or Helm's
// output) into objects, skipping empty and comment-only documents.
func Decode(data []byte) ([]*unstructured.Unstructured, error) { return manifests.Decode(data) }

// objectKey identifies an object in a render, as kubectl does.
type objectKey struct{ kind, namespace, name string }

func (k objectKey) String() string {
	if k.namespace == "" {
		return k.kind + " " + k.name
	}
	return k.kind + " " + k.namespace + "/" + k.name
}

// Difference is one way two renders differ: an object only one of them
// has (Path empty), or a field of an object both have.
type Difference struct {
	Object string
	Path   string
	Detail string
}

func (d Difference) String() string {
	if d.Path == "" {
		return d.Object + ": " + d.Detail
	}
	return d.Object + ": " + d.Path + ": " + d.Detail
}

// Sides name the two renders in messages.
type Sides struct{ Want, Got string }

// Compare reports how got differs from want, object by object: an object
// is identified by kind, namespace and name, and two objects are equal when
// their fields are, after normalize. With subset, want may be partial:
// got may have other objects and other fields, and only what want says is
// checked (lists must still have want's length).
func Compare(want, got []*unstructured.Unstructured, sides Sides, subset bool) ([]Difference, error) {
	w, err := normalize(want)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sides.Want, err)
	}
	g, err := normalize(got)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sides.Got, err)
	}
	keys := slices.Collect(maps.Keys(w))
	for k := range g {
		if _, ok := w[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b objectKey) int { return strings.Compare(a.String(), b.String()) })
	var diffs []Difference
	for _, k := range keys {
		wo, inWant := w[k]
		gotObj, inGot := g[k]
		switch {
		case !inGot:
			diffs = append(diffs, Difference{Object: k.String(), Detail: fmt.Sprintf("in %s, not in %s", sides.Want, sides.Got)})
		case !inWant:
			if !subset {
				diffs = append(diffs, Difference{Object: k.String(), Detail: fmt.Sprintf("in %s, not in %s", sides.Got, sides.Want)})
			}
		default:
			c := comparer{sides: sides, subset: subset}
			c.values("", wo, gotObj)
			for _, d := range c.diffs {
				d.Object = k.String()
				diffs = append(diffs, d)
			}
		}
	}
	return diffs, nil
}

// normalize keys a render's objects by kind, namespace and name, with
// what does not change their meaning made alike:
//   - Helm's own labels (helmLabels) are dropped from every metadata.labels,
//     the object's and its templates'. Selectors keep theirs: they select.
//   - A ConfigMap or Secret whose name ends in the hash kustomize's
//     generators compute from its content has that suffix replaced by
//     contentHashPlaceholder, and so do the references to it in the
//     objects of its namespace (the suffix is checked, not assumed: a wrong
//     one leaves the name as it is, and the objects differ).
//   - A ConfigMap's data entries named *.yaml, *.yml or *.json are
//     compared as the documents they hold, not as text.
func normalize(objs []*unstructured.Unstructured) (map[objectKey]map[string]any, error) {
	copies := make([]*unstructured.Unstructured, len(objs))
	for i, o := range objs {
		copies[i] = o.DeepCopy()
	}
	renamed := map[string]map[string]string{} // namespace → hashed name → placeholder name
	for _, o := range copies {
		if o.GetKind() != "ConfigMap" && o.GetKind() != "Secret" {
			continue
		}
		base, ok, err := contentHashBase(o)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", o.GetKind(), o.GetName(), err)
		}
		if ok {
			if renamed[o.GetNamespace()] == nil {
				renamed[o.GetNamespace()] = map[string]string{}
			}
			renamed[o.GetNamespace()][o.GetName()] = base + "-" + contentHashPlaceholder
		}
	}
	out := map[objectKey]map[string]any{}
	for _, o := range copies {
		obj := o.Object
		if names := renamed[o.GetNamespace()]; len(names) > 0 {
			obj = replaceStrings(obj, names).(map[string]any)
		}
		dropHelmLabels(obj)
		if o.GetKind() == "ConfigMap" {
			if err := parseEmbeddedDocuments(obj); err != nil {
				return nil, fmt.Errorf("ConfigMap %s: %w", o.GetName(), err)
			}
		}
		u := unstructured.Unstructured{Object: obj}
		key := objectKey{kind: u.GetKind(), namespace: u.GetNamespace(), name: u.GetName()}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s appears twice", key)
		}
		out[key] = obj
	}
	return out, nil
}

// contentHashBase tells whether obj's name is base-HASH with HASH the
// hash kustomize gives a generated ConfigMap or Secret named base with
// obj's content.
func contentHashBase(obj *unstructured.Unstructured) (string, bool, error) {
	name := obj.GetName()
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return "", false, nil
	}
	node, err := kyaml.FromMap(obj.Object)
	if err != nil {
		return "", false, err
	}
	// The name the generator was given. kustomize v0.21's hasher does not
	// see it (it looks it up at a path it never finds); should it ever,
	// this is the name it would hash.
	base := name[:i]
	if err := node.SetName(base); err != nil {
		return "", false, err
	}
	hash, err := (&hasher.Hasher{}).Hash(node)
	if err != nil {
		return "", false, err
	}
	return base, hash == name[i+1:], nil
}

// replaceStrings returns v with every string that is a key of names
// replaced by its value.
func replaceStrings(v any, names map[string]string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = replaceStrings(e, names)
		}
		return t
	case []any:
		for i, e := range t {
			t[i] = replaceStrings(e, names)
		}
		return t
	case string:
		if r, ok := names[t]; ok {
			return r
		}
		return t
	default:
		return v
	}
}

// dropHelmLabels removes helmLabels from every metadata.labels in v, and
// the labels map itself if nothing else is left in it.
func dropHelmLabels(v any) {
	switch t := v.(type) {
	case map[string]any:
		if md, ok := t["metadata"].(map[string]any); ok {
			if labels, ok := md["labels"].(map[string]any); ok {
				for _, l := range helmLabels {
					delete(labels, l)
				}
				if len(labels) == 0 {
					delete(md, "labels")
				}
			}
		}
		for _, e := range t {
			dropHelmLabels(e)
		}
	case []any:
		for _, e := range t {
			dropHelmLabels(e)
		}
	}
}

// parseEmbeddedDocuments replaces a ConfigMap's YAML and JSON data entries
// by what they hold.
func parseEmbeddedDocuments(cm map[string]any) error {
	data, ok := cm["data"].(map[string]any)
	if !ok {
		return nil
	}
	for key, v := range data {
		text, ok := v.(string)
		if !ok || !(strings.HasSuffix(key, ".yaml") || strings.HasSuffix(key, ".yml") || strings.HasSuffix(key, ".json")) {
			continue
		}
		var doc any
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			return fmt.Errorf("data[%q]: %w", key, err)
		}
		data[key] = doc
	}
	return nil
}

type comparer struct {
	sides  Sides
	subset bool
	diffs  []Difference
}

func (c *comparer) report(path, format string, args ...any) {
	c.diffs = append(c.diffs, Difference{Path: path, Detail: fmt.Sprintf(format, args...)})
}

// values compares want and got at path.
func (c *comparer) values(path string, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			c.mismatch(path, want, got)
			return
		}
		keys := slices.Sorted(maps.Keys(w))
		if !c.subset {
			for k := range g {
				if _, ok := w[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
		}
		for _, k := range keys {
			wv, inWant := w[k]
			gv, inGot := g[k]
			p := fieldPath(path, k)
			switch {
			case !inGot:
				c.report(p, "%s has %s, %s has no such field", c.sides.Want, show(wv), c.sides.Got)
			case !inWant:
				c.report(p, "%s has %s, %s has no such field", c.sides.Got, show(gv), c.sides.Want)
			default:
				c.values(p, wv, gv)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok {
			c.mismatch(path, want, got)
			return
		}
		if len(w) != len(g) {
			c.report(path, "%d items in %s, %d in %s", len(w), c.sides.Want, len(g), c.sides.Got)
		}
		for i := range min(len(w), len(g)) {
			c.values(path+"["+strconv.Itoa(i)+"]", w[i], g[i])
		}
	default:
		if !scalarsEqual(want, got) {
			c.mismatch(path, want, got)
		}
	}
}

func (c *comparer) mismatch(path string, want, got any) {
	c.report(path, "%s %s, %s %s", c.sides.Want, show(want), c.sides.Got, show(got))
}

// scalarsEqual compares leaves; numbers by value, whichever of int64 and
// float64 the decoder chose for them.
func scalarsEqual(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// fieldPath appends key to path: .key, or ["key"] when key is no plain
// identifier (labels, annotations, data entries).
func fieldPath(path, key string) string {
	if identifier.MatchString(key) {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

// show formats a value for a message, cut short when long.
func show(v any) string {
	if v == nil {
		return "null"
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	const limit = 120
	if len(data) > limit {
		return string(data[:limit]) + "…"
	}
	return string(data)
}
