package workload_test

import (
	"errors"
	"maps"
	"strconv"
	"strings"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const (
	block    = wellknown.GCETopologyBlockLabel
	subblock = wellknown.GCETopologySubblockLabel
	host     = wellknown.GCETopologyHostLabel

	requiredKey      = wellknown.RequiredTopologyAnnotation
	preferredKey     = wellknown.PreferredTopologyAnnotation
	unconstrainedKey = wellknown.UnconstrainedTopologyAnnotation
	sliceLevelKey    = wellknown.SliceRequiredTopologyAnnotation
	sliceSizeKey     = wellknown.SliceSizeAnnotation
	groupKey         = wellknown.PodSetGroupNameAnnotation
)

// gpuLevels is a GKE GPU fleet's topology, highest level first.
var gpuLevels = []string{block, subblock, host}

// annotationsBuilder builds a pod template's annotations, one Kueue
// topology annotation per method.
type annotationsBuilder map[string]string

func annotations() annotationsBuilder { return annotationsBuilder{} }

func (a annotationsBuilder) with(k, v string) annotationsBuilder {
	a[k] = v
	return a
}

func (a annotationsBuilder) required(level string) annotationsBuilder {
	return a.with(requiredKey, level)
}

func (a annotationsBuilder) preferred(level string) annotationsBuilder {
	return a.with(preferredKey, level)
}

func (a annotationsBuilder) unconstrained(v string) annotationsBuilder {
	return a.with(unconstrainedKey, v)
}

func (a annotationsBuilder) sliceLevel(level string) annotationsBuilder {
	return a.with(sliceLevelKey, level)
}

func (a annotationsBuilder) sliceSize(n string) annotationsBuilder {
	return a.with(sliceSizeKey, n)
}

// slices sets both slice annotations: slices of n pods in level.
func (a annotationsBuilder) slices(level string, n int) annotationsBuilder {
	return a.sliceLevel(level).sliceSize(strconv.Itoa(n))
}

func (a annotationsBuilder) group(name string) annotationsBuilder {
	return a.with(groupKey, name)
}

func TestTopologyRequestOf(t *testing.T) {
	cases := map[string]struct {
		annotations annotationsBuilder
		pods        int32 // 8 unless set
		noPods      bool  // the pod set has 0 pods
		want        *workload.TopologyRequest
		// wantKey is the annotation the error names; wantReason is part
		// of its reason.
		wantKey, wantReason string
	}{
		// No request.
		"no annotations":        {annotations: nil},
		"unrelated annotations": {annotations: annotations().with(wellknown.QueueNameLabel, "lq")},
		"unconstrained false":   {annotations: annotations().unconstrained("false")},
		"unconstrained 0":       {annotations: annotations().unconstrained("0")},
		"a lookalike key":       {annotations: annotations().with(groupKey+"-x", "g")},

		// Valid requests.
		"required": {annotations: annotations().required(subblock),
			want: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblock}},
		"preferred": {annotations: annotations().preferred(block),
			want: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: block}},
		"unprefixed level": {annotations: annotations().required("rack"),
			want: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: "rack"}},
		"unconstrained true": {annotations: annotations().unconstrained("true"),
			want: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained}},
		"unconstrained True": {annotations: annotations().unconstrained("True"),
			want: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained}},
		"required with slices": {annotations: annotations().required(block).slices(host, 4),
			want: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block, SliceLevel: host, SliceSize: 4}},
		"preferred with one slice of all pods": {annotations: annotations().preferred(block).slices(subblock, 8),
			want: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: block, SliceLevel: subblock, SliceSize: 8}},
		"slices of one pod": {annotations: annotations().required(block).slices(host, 1),
			want: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block, SliceLevel: host, SliceSize: 1}},
		"slices only": {annotations: annotations().slices(host, 2),
			want: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: host, SliceSize: 2}},
		"unconstrained true with slices": {annotations: annotations().unconstrained("true").slices(host, 2),
			want: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: host, SliceSize: 2}},
		"unconstrained false with slices": {annotations: annotations().unconstrained("false").slices(host, 2),
			want: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: host, SliceSize: 2}},
		"slice size with a plus sign": {annotations: annotations().sliceLevel(host).sliceSize("+4"),
			want: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: host, SliceSize: 4}},
		"required in a group": {annotations: annotations().required(subblock).group("leader-workers"), pods: 1,
			want: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblock, Group: "leader-workers"}},
		"preferred in a group": {annotations: annotations().preferred(subblock).group("g1"),
			want: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: subblock, Group: "g1"}},
		"group name with a sign is no number": {annotations: annotations().required(block).group("-1"),
			want: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block, Group: "-1"}},

		// At most one of required, preferred and unconstrained; the
		// later one in that order is named.
		"required and preferred": {annotations: annotations().required(block).preferred(block),
			wantKey: preferredKey, wantReason: "may not be set together with " + requiredKey},
		"required and unconstrained false": {annotations: annotations().required(block).unconstrained("false"),
			wantKey: unconstrainedKey, wantReason: "may not be set together with " + requiredKey},
		"preferred and unconstrained": {annotations: annotations().preferred(block).unconstrained("true"),
			wantKey: unconstrainedKey, wantReason: "may not be set together with " + preferredKey},
		"all three": {annotations: annotations().required(block).preferred(host).unconstrained("true"),
			wantKey: preferredKey, wantReason: "at most one of"},

		// Multi-layer slice constraints are refused, not ignored.
		"multi-layer slice constraints": {annotations: annotations().required(block).with(wellknown.SliceTopologyConstraintsAnnotation, `[{"topology":"`+host+`","size":2}]`),
			wantKey: wellknown.SliceTopologyConstraintsAnnotation, wantReason: "is not supported"},

		// Levels are node label keys.
		"empty required":        {annotations: annotations().required(""), wantKey: requiredKey, wantReason: "is not a node label key"},
		"required not a key":    {annotations: annotations().required("not a key!"), wantKey: requiredKey, wantReason: "is not a node label key"},
		"preferred two slashes": {annotations: annotations().preferred("a/b/c"), wantKey: preferredKey, wantReason: "is not a node label key"},
		"slice level not a key": {annotations: annotations().required(block).sliceLevel("host=1").sliceSize("2"),
			wantKey: sliceLevelKey, wantReason: "is not a node label key"},
		"empty slice level": {annotations: annotations().sliceLevel("").sliceSize("2"), wantKey: sliceLevelKey, wantReason: "is not a node label key"},

		// Unconstrained is a boolean.
		"unconstrained yes":   {annotations: annotations().unconstrained("yes"), wantKey: unconstrainedKey, wantReason: "is not a boolean"},
		"unconstrained empty": {annotations: annotations().unconstrained(""), wantKey: unconstrainedKey, wantReason: "is not a boolean"},

		// Slice level and size come together.
		"slice level without size": {annotations: annotations().required(block).sliceLevel(host),
			wantKey: sliceLevelKey, wantReason: "needs " + sliceSizeKey},
		"slice size without level": {annotations: annotations().required(block).sliceSize("4"),
			wantKey: sliceSizeKey, wantReason: "needs " + sliceLevelKey},

		// The slice size is a whole number from 1 to pods that divides pods.
		"slice size a word":    {annotations: annotations().sliceLevel(host).sliceSize("four"), wantKey: sliceSizeKey, wantReason: "is not a whole number"},
		"slice size empty":     {annotations: annotations().sliceLevel(host).sliceSize(""), wantKey: sliceSizeKey, wantReason: "is not a whole number"},
		"slice size a decimal": {annotations: annotations().sliceLevel(host).sliceSize("4.0"), wantKey: sliceSizeKey, wantReason: "is not a whole number"},
		"slice size beyond int32": {annotations: annotations().sliceLevel(host).sliceSize("4294967298"),
			wantKey: sliceSizeKey, wantReason: "is not a whole number"},
		"slice size zero":     {annotations: annotations().slices(host, 0), wantKey: sliceSizeKey, wantReason: "must be at least 1"},
		"slice size negative": {annotations: annotations().slices(host, -2), wantKey: sliceSizeKey, wantReason: "must be at least 1"},
		"slice size above the pods": {annotations: annotations().required(block).slices(host, 16),
			wantKey: sliceSizeKey, wantReason: "is more than the pod set's 8 pods"},
		"slices of a pod set of no pods": {annotations: annotations().slices(host, 1), noPods: true,
			wantKey: sliceSizeKey, wantReason: "is more than the pod set's 0 pods"},
		"slice size does not divide": {annotations: annotations().required(block).slices(host, 3),
			wantKey: sliceSizeKey, wantReason: "does not divide the pod set's 8 pods"},
		"slice size does not divide one more": {annotations: annotations().slices(host, 4), pods: 9,
			wantKey: sliceSizeKey, wantReason: "does not divide the pod set's 9 pods"},

		// A group name: not a number, not with slices, only with
		// required or preferred.
		"group a number": {annotations: annotations().required(block).group("7"), wantKey: groupKey, wantReason: "is a number"},
		"group a big number": {annotations: annotations().required(block).group("123456789012345678901234567890"),
			wantKey: groupKey, wantReason: "is a number"},
		"group empty":       {annotations: annotations().required(block).group(""), wantKey: groupKey, wantReason: "is empty"},
		"group with slices": {annotations: annotations().required(block).slices(host, 2).group("g"), wantKey: groupKey, wantReason: "may not be set with"},
		"group alone":       {annotations: annotations().group("g"), wantKey: groupKey, wantReason: "needs " + requiredKey + " or " + preferredKey},
		"group unconstrained": {annotations: annotations().unconstrained("true").group("g"),
			wantKey: groupKey, wantReason: "needs " + requiredKey},
		"group with slices only": {annotations: annotations().slices(host, 2).group("g"), wantKey: groupKey, wantReason: "may not be set with"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pods := tc.pods
			if pods == 0 && !tc.noPods {
				pods = 8
			}
			before := maps.Clone(tc.annotations)
			got, err := workload.TopologyRequestOf(tc.annotations, pods)
			if !maps.Equal(before, tc.annotations) {
				t.Errorf("annotations modified: %v, were %v", tc.annotations, before)
			}
			if tc.wantKey == "" {
				if err != nil {
					t.Fatalf("TopologyRequestOf: %v", err)
				}
				if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
					t.Fatalf("TopologyRequestOf = %+v, want %+v", got, tc.want)
				}
				return
			}
			if got != nil {
				t.Errorf("a request with an error: %+v", got)
			}
			checkAnnotationError(t, err, tc.wantKey, tc.annotations[tc.wantKey], tc.wantReason)
		})
	}
}

// checkAnnotationError asserts that err is a *TopologyAnnotationError
// naming key and its value, whose message says reason.
func checkAnnotationError(t *testing.T, err error, key, value, reason string) {
	t.Helper()
	var ae *workload.TopologyAnnotationError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want a *TopologyAnnotationError", err, err)
	}
	if ae.Annotation != key || ae.Value != value {
		t.Errorf("error names %s: %q, want %s: %q", ae.Annotation, ae.Value, key, value)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "annotation "+key+": "+strconv.Quote(value)+" ") || !strings.Contains(msg, reason) {
		t.Errorf("error %q does not name %s: %q, or does not say %q", msg, key, value, reason)
	}
}

// The message users see, in full.
func TestTopologyRequestOfMessage(t *testing.T) {
	_, err := workload.TopologyRequestOf(annotations().required(block).slices(host, 3), 8)
	const want = `annotation kueue.x-k8s.io/podset-slice-size: "3" does not divide the pod set's 8 pods`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
	_, err = workload.TopologyRequestOf(annotations().required(block).slices(host, 2), 1)
	const one = `annotation kueue.x-k8s.io/podset-slice-size: "2" is more than the pod set's 1 pod`
	if err == nil || err.Error() != one {
		t.Fatalf("err = %v, want %s", err, one)
	}
}

func TestTopologyRequestCheckLevels(t *testing.T) {
	cases := map[string]struct {
		request *workload.TopologyRequest
		levels  []string // gpuLevels unless set
		noLevel bool     // levels is nil
		// wantKey and wantValue name the annotation the error names.
		wantKey, wantValue, wantReason string
	}{
		"nil request":              {request: nil, noLevel: true},
		"required block":           {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block}},
		"required host":            {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: host}},
		"preferred subblock":       {request: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: subblock}},
		"slices below":             {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block, SliceLevel: host, SliceSize: 2}},
		"slices at the same level": {request: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: subblock, SliceLevel: subblock, SliceSize: 2}},
		"unconstrained, no levels": {request: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained}, noLevel: true},
		"unconstrained, other levels": {request: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained},
			levels: []string{"rack"}},
		"slices only, top level": {request: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: block, SliceSize: 4}},
		"slices only, lowest":    {request: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: host, SliceSize: 4}},

		"required level missing": {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: "kubernetes.io/hostname"},
			wantKey: requiredKey, wantValue: "kubernetes.io/hostname", wantReason: "is not a level of the topology (levels, highest first: " + block},
		"preferred level missing": {request: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: "rack"},
			wantKey: preferredKey, wantValue: "rack", wantReason: "is not a level of the topology"},
		"required, no levels": {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block}, noLevel: true,
			wantKey: requiredKey, wantValue: block, wantReason: "which has none"},
		"slice level missing": {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block, SliceLevel: "rack", SliceSize: 2},
			wantKey: sliceLevelKey, wantValue: "rack", wantReason: "is not a level of the topology"},
		"slice-only level missing": {request: &workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: "rack", SliceSize: 2},
			wantKey: sliceLevelKey, wantValue: "rack", wantReason: "is not a level of the topology"},
		"slices above required": {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblock, SliceLevel: block, SliceSize: 2},
			wantKey: sliceLevelKey, wantValue: block, wantReason: `is above the pod set's level "` + subblock + `" (` + requiredKey + ")"},
		"slices above preferred": {request: &workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: host, SliceLevel: subblock, SliceSize: 2},
			wantKey: sliceLevelKey, wantValue: subblock, wantReason: "(" + preferredKey + ")"},
		// The main level is checked before the slice level.
		"both missing": {request: &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: "rack", SliceLevel: "zone", SliceSize: 2},
			wantKey: requiredKey, wantValue: "rack", wantReason: "is not a level"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			levels := tc.levels
			if levels == nil && !tc.noLevel {
				levels = gpuLevels
			}
			err := tc.request.CheckLevels(levels)
			if tc.wantKey == "" {
				if err != nil {
					t.Fatalf("CheckLevels(%v) = %v", levels, err)
				}
				return
			}
			checkAnnotationError(t, err, tc.wantKey, tc.wantValue, tc.wantReason)
		})
	}
}

func TestTopologyRequestString(t *testing.T) {
	for _, tc := range []struct {
		request *workload.TopologyRequest
		want    string
	}{
		{nil, "no topology request"},
		{&workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblock}, "required " + subblock},
		{&workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: block, SliceLevel: host, SliceSize: 4},
			"preferred " + block + ", slices of 4 in " + host},
		{&workload.TopologyRequest{Mode: workload.TopologyUnconstrained}, "unconstrained"},
		{&workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: host, SliceSize: 2}, "unconstrained, slices of 2 in " + host},
		{&workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block, Group: "lws"}, "required " + block + `, group "lws"`},
		{&workload.TopologyRequest{Mode: workload.TopologyMode(9)}, "TopologyMode(9)"},
	} {
		if got := tc.request.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
