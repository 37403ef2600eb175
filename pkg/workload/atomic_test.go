package workload

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

const atomicField = "metadata.annotations[" + wellknown.AtomicTopologyAnnotation + "]"

func TestAtomicTopologyKey(t *testing.T) {
	cases := map[string]struct {
		annotations map[string]string
		want        string
		// wantReason starts the error's reason (the rest is the label
		// validation's own wording).
		wantReason string
	}{
		"no annotations":         {},
		"other annotations only": {annotations: map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel}},
		"the zone":               {annotations: map[string]string{wellknown.AtomicTopologyAnnotation: wellknown.ZoneLabel}, want: wellknown.ZoneLabel},
		"an unprefixed label":    {annotations: map[string]string{wellknown.AtomicTopologyAnnotation: "rack"}, want: "rack"},
		"empty": {
			annotations: map[string]string{wellknown.AtomicTopologyAnnotation: ""},
			wantReason:  "must name a node label key, e.g. topology.kubernetes.io/zone",
		},
		"not a label key": {
			annotations: map[string]string{wellknown.AtomicTopologyAnnotation: "zone=us-central1-a"},
			wantReason:  `"zone=us-central1-a" is not a node label key: name part must consist of alphanumeric characters`,
		},
		"two slashes": {
			annotations: map[string]string{wellknown.AtomicTopologyAnnotation: "a/b/c"},
			wantReason:  `"a/b/c" is not a node label key: a valid label key must consist of alphanumeric characters`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := AtomicTopologyKey("JobSet ns/js", tc.annotations)
			if tc.wantReason == "" {
				if err != nil || got != tc.want {
					t.Fatalf("AtomicTopologyKey = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			var invalid *InvalidError
			if !errors.As(err, &invalid) {
				t.Fatalf("err = %v (%T), want an *InvalidError", err, err)
			}
			if invalid.Object != "JobSet ns/js" || invalid.Field != atomicField || !strings.HasPrefix(invalid.Reason, tc.wantReason) {
				t.Errorf("err = %+v, want JobSet ns/js, %s, a reason starting %q", *invalid, atomicField, tc.wantReason)
			}
			if got != "" {
				t.Errorf("key = %q with an error", got)
			}
		})
	}
}

// FromJobSet and FromPodGroup carry the annotation into the model, and
// reject a malformed one naming their object.
func TestAtomicKeyOfSources(t *testing.T) {
	zone := map[string]string{wellknown.AtomicTopologyAnnotation: wellknown.ZoneLabel}
	bad := map[string]string{wellknown.AtomicTopologyAnnotation: "not a key"}
	pg := func(annotations map[string]string) *schedv1alpha1.PodGroup {
		return &schedv1alpha1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pg", Annotations: annotations},
			Spec: schedv1alpha1.PodGroupSpec{MinMember: 2}}
	}
	for _, tc := range []struct {
		name       string
		build      func() (*Workload, error)
		want       string
		wantObject string
	}{
		{name: "JobSet without it", build: func() (*Workload, error) { return FromJobSet(jobset(nil, rj("s", 2, 1, nil)), "") }},
		{name: "JobSet with it", want: wellknown.ZoneLabel,
			build: func() (*Workload, error) { return FromJobSet(jobset(zone, rj("s", 2, 1, nil)), "") }},
		{name: "JobSet with a malformed one", wantObject: "JobSet ns/js",
			build: func() (*Workload, error) { return FromJobSet(jobset(bad, rj("s", 2, 1, nil)), "") }},
		{name: "PodGroup without it", build: func() (*Workload, error) { return FromPodGroup(pg(nil), nil, "") }},
		{name: "PodGroup with it", want: wellknown.ZoneLabel,
			build: func() (*Workload, error) { return FromPodGroup(pg(zone), nil, wellknown.NodePoolLabel) }},
		{name: "PodGroup with a malformed one", wantObject: "PodGroup ns/pg",
			build: func() (*Workload, error) { return FromPodGroup(pg(bad), nil, "") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := tc.build()
			if tc.wantObject != "" {
				var invalid *InvalidError
				if !errors.As(err, &invalid) || invalid.Object != tc.wantObject || invalid.Field != atomicField {
					t.Fatalf("err = %v, want an *InvalidError on %s %s", err, tc.wantObject, atomicField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if w.AtomicKey != tc.want {
				t.Errorf("AtomicKey = %q, want %q", w.AtomicKey, tc.want)
			}
		})
	}
}
