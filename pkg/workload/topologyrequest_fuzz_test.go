package workload

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// fuzzTopologyKeys are the annotations FuzzTopologyRequestOf may set; bit i
// of its flags sets fuzzTopologyKeys[i] to the i-th value.
var fuzzTopologyKeys = []string{
	wellknown.RequiredTopologyAnnotation,
	wellknown.PreferredTopologyAnnotation,
	wellknown.UnconstrainedTopologyAnnotation,
	wellknown.SliceRequiredTopologyAnnotation,
	wellknown.SliceSizeAnnotation,
	wellknown.PodSetGroupNameAnnotation,
}

// FuzzTopologyRequestOf reads any combination of the six topology
// annotations, with any values, for any pod count, and checks: no panic;
// the annotations are left alone; an error is a *TopologyAnnotationError
// naming a present annotation and its value; every combination Kueue
// refuses is refused, and nothing else is but a slice size that does not
// divide the pods or an empty group name; an accepted request holds
// TopologyRequest's invariants and fits a topology made of its own levels.
// levels, split at commas, is a topology CheckLevels is tried against.
func FuzzTopologyRequestOf(f *testing.F) {
	const (
		block, subblock, host = wellknown.GCETopologyBlockLabel, wellknown.GCETopologySubblockLabel, wellknown.GCETopologyHostLabel
		gpu                   = block + "," + subblock + "," + host
	)
	f.Add(uint8(0b000001), block, "", "", "", "", "", int32(8), gpu)
	f.Add(uint8(0b011010), "", subblock, "", host, "4", "", int32(8), gpu)
	f.Add(uint8(0b011000), "", "", "", host, "3", "", int32(8), gpu)
	f.Add(uint8(0b011100), "", "", "false", block, "+2", "", int32(6), host)
	f.Add(uint8(0b100001), subblock, "", "", "", "", "leader", int32(1), gpu)
	f.Add(uint8(0b100010), "", host, "", "", "", "007", int32(1), "")
	f.Add(uint8(0b111111), "a/b/c", "", "maybe", "", "-1", "", int32(-5), ",,")
	f.Add(uint8(0b011001), host, "", "", block, "2147483647", "", int32(2147483647), gpu)
	f.Add(uint8(0b011001), subblock, "", "", subblock, "2", "", int32(4), gpu)
	f.Add(uint8(0b000110), "", block, "true", "", "", "", int32(2), gpu)
	f.Fuzz(func(t *testing.T, flags uint8, required, preferred, unconstrained, sliceLevel, sliceSize, group string, pods int32, levels string) {
		values := []string{required, preferred, unconstrained, sliceLevel, sliceSize, group}
		annotations := map[string]string{"unrelated": "x"}
		for i, key := range fuzzTopologyKeys {
			if flags&(1<<i) != 0 {
				annotations[key] = values[i]
			}
		}
		before := maps.Clone(annotations)
		r, err := TopologyRequestOf(annotations, pods)
		if !maps.Equal(before, annotations) {
			t.Fatalf("annotations modified: %v, were %v", annotations, before)
		}
		refused, extra := kueueRefuses(annotations, pods), ourRefusals(annotations, pods)
		if err != nil {
			if r != nil {
				t.Fatalf("both a request and an error: %+v, %v", r, err)
			}
			var ae *TopologyAnnotationError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v (%T) is not a *TopologyAnnotationError", err, err)
			}
			if v, ok := annotations[ae.Annotation]; !ok || v != ae.Value || !slices.Contains(fuzzTopologyKeys, ae.Annotation) {
				t.Fatalf("error %q names %s: %q, which the annotations %v do not hold", err, ae.Annotation, ae.Value, annotations)
			}
			if !strings.HasPrefix(err.Error(), "annotation "+ae.Annotation+": ") || ae.Reason == "" {
				t.Fatalf("error %q does not name its annotation, or says nothing", err)
			}
			if !refused && !extra {
				t.Fatalf("refused %v for %d pods, which Kueue accepts and we do too: %v", annotations, pods, err)
			}
			return
		}
		if refused || extra {
			t.Fatalf("accepted %v for %d pods as %+v (Kueue refuses: %v)", annotations, pods, r, refused)
		}
		if r == nil {
			for _, key := range []string{wellknown.RequiredTopologyAnnotation, wellknown.PreferredTopologyAnnotation,
				wellknown.SliceRequiredTopologyAnnotation, wellknown.SliceSizeAnnotation, wellknown.PodSetGroupNameAnnotation} {
				if _, ok := annotations[key]; ok {
					t.Fatalf("no request from %v", annotations)
				}
			}
			if b, err := strconv.ParseBool(annotations[wellknown.UnconstrainedTopologyAnnotation]); err == nil && b {
				t.Fatalf("no request from %v", annotations)
			}
			return
		}
		fuzzCheckTopologyRequest(t, r, annotations, pods)
		own := []string{}
		if r.Level != "" {
			own = append(own, r.Level)
		}
		if r.SliceLevel != "" && r.SliceLevel != r.Level {
			own = append(own, r.SliceLevel)
		}
		if err := r.CheckLevels(own); err != nil {
			t.Fatalf("%v does not fit a topology of its own levels %q: %v", r, own, err)
		}
		fuzzCheckLevels(t, r, strings.Split(levels, ","))
	})
}

// fuzzCheckTopologyRequest checks TopologyRequest's invariants on r, read
// from annotations for a pod set of pods pods.
func fuzzCheckTopologyRequest(t *testing.T, r *TopologyRequest, annotations map[string]string, pods int32) {
	t.Helper()
	switch r.Mode {
	case TopologyRequired, TopologyPreferred:
		key := wellknown.RequiredTopologyAnnotation
		if r.Mode == TopologyPreferred {
			key = wellknown.PreferredTopologyAnnotation
		}
		if v, ok := annotations[key]; !ok || v != r.Level || len(validation.IsQualifiedName(r.Level)) > 0 {
			t.Fatalf("%+v: level %q is not %s of %v", r, r.Level, key, annotations)
		}
	case TopologyUnconstrained:
		if r.Level != "" {
			t.Fatalf("unconstrained request with a level: %+v", r)
		}
	default:
		t.Fatalf("request of mode %v: %+v", r.Mode, r)
	}
	if (r.SliceSize > 0) != (r.SliceLevel != "") || r.SliceSize < 0 {
		t.Fatalf("slice size %d with slice level %q", r.SliceSize, r.SliceLevel)
	}
	if r.SliceSize > 0 && (r.SliceSize > pods || pods%r.SliceSize != 0 || len(validation.IsQualifiedName(r.SliceLevel)) > 0) {
		t.Fatalf("slices of %d in %q for %d pods", r.SliceSize, r.SliceLevel, pods)
	}
	if r.Group != "" && (r.SliceLevel != "" || r.Mode == TopologyUnconstrained || isDecimal(r.Group)) {
		t.Fatalf("group %q in %+v", r.Group, r)
	}
	if r.Group != annotations[wellknown.PodSetGroupNameAnnotation] {
		t.Fatalf("group %q, annotated %q", r.Group, annotations[wellknown.PodSetGroupNameAnnotation])
	}
	if s := r.String(); !strings.HasPrefix(s, r.Mode.String()) {
		t.Fatalf("String() = %q for %+v", s, r)
	}
}

// fuzzCheckLevels checks CheckLevels of r against levels: a nil error
// means r's levels are there, the slice level not above the main one; an
// error names one of r's level annotations and its value.
func fuzzCheckLevels(t *testing.T, r *TopologyRequest, levels []string) {
	t.Helper()
	err := r.CheckLevels(levels)
	main := -1
	if r.Mode != TopologyUnconstrained {
		main = slices.Index(levels, r.Level)
	}
	slice := slices.Index(levels, r.SliceLevel)
	ok := (r.Mode == TopologyUnconstrained || main >= 0) && (r.SliceLevel == "" || slice >= main && slice >= 0)
	if (err == nil) != ok {
		t.Fatalf("CheckLevels(%q) of %+v = %v", levels, r, err)
	}
	if err == nil {
		return
	}
	var ae *TopologyAnnotationError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v (%T) is not a *TopologyAnnotationError", err, err)
	}
	switch {
	case ae.Annotation == wellknown.SliceRequiredTopologyAnnotation && ae.Value == r.SliceLevel:
	case ae.Annotation == wellknown.RequiredTopologyAnnotation && r.Mode == TopologyRequired && ae.Value == r.Level:
	case ae.Annotation == wellknown.PreferredTopologyAnnotation && r.Mode == TopologyPreferred && ae.Value == r.Level:
	default:
		t.Fatalf("CheckLevels error %q names neither of %+v's levels", err, r)
	}
}

// kueueRefuses says whether Kueue's admission refuses a pod set of pods
// pods with these annotations, by the rules it documents, written out
// independently of TopologyRequestOf.
func kueueRefuses(a map[string]string, pods int32) bool {
	has := func(k string) bool { _, ok := a[k]; return ok }
	notKey := func(k string) bool { return has(k) && len(validation.IsQualifiedName(a[k])) > 0 }
	required, preferred := has(wellknown.RequiredTopologyAnnotation), has(wellknown.PreferredTopologyAnnotation)
	unconstrained := has(wellknown.UnconstrainedTopologyAnnotation)
	sliceLevel, sliceSize := has(wellknown.SliceRequiredTopologyAnnotation), has(wellknown.SliceSizeAnnotation)
	group := has(wellknown.PodSetGroupNameAnnotation)
	n := 0
	for _, b := range []bool{required, preferred, unconstrained} {
		if b {
			n++
		}
	}
	if n > 1 || notKey(wellknown.RequiredTopologyAnnotation) || notKey(wellknown.PreferredTopologyAnnotation) || notKey(wellknown.SliceRequiredTopologyAnnotation) {
		return true
	}
	if _, err := strconv.ParseBool(a[wellknown.UnconstrainedTopologyAnnotation]); unconstrained && err != nil {
		return true
	}
	if sliceLevel != sliceSize {
		return true
	}
	if sliceSize {
		size, err := strconv.ParseInt(a[wellknown.SliceSizeAnnotation], 10, 32)
		if err != nil || size < 1 || size > int64(pods) {
			return true
		}
	}
	if group {
		if _, err := strconv.ParseUint(a[wellknown.PodSetGroupNameAnnotation], 10, 64); err == nil {
			return true
		}
		if sliceLevel || sliceSize || !required && !preferred {
			return true
		}
	}
	return false
}

// ourRefusals says whether the annotations break one of the rules we add
// to Kueue's: a slice size that divides the pods, a non-empty group name
// that is no number of any length.
func ourRefusals(a map[string]string, pods int32) bool {
	if v, ok := a[wellknown.SliceSizeAnnotation]; ok {
		if size, err := strconv.ParseInt(v, 10, 32); err == nil && size >= 1 && int64(pods)%size != 0 {
			return true
		}
	}
	g, ok := a[wellknown.PodSetGroupNameAnnotation]
	return ok && (g == "" || isDecimal(g))
}
