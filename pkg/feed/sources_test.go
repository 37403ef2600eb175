package feed

import (
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Only a definite answer lets a workload API count as not served (and its
// pods be scheduled as plain pods); throttling, server errors and timeouts
// leave it unknown, so gang pods wait instead of splitting across pools.
func TestResourceServed(t *testing.T) {
	gr := schema.GroupResource{Group: "jobset.x-k8s.io", Resource: "jobsets"}
	cases := map[string]struct {
		resources []*metav1.APIResourceList
		err       error
		want      state.APIStatus
		wantErr   bool
	}{
		"served": {
			resources: []*metav1.APIResourceList{{GroupVersion: "jobset.x-k8s.io/v1alpha2", APIResources: []metav1.APIResource{{Name: "jobsets"}}}},
			want:      state.APIServed,
		},
		"group served without the resource": {
			resources: []*metav1.APIResourceList{{GroupVersion: "jobset.x-k8s.io/v1alpha2", APIResources: []metav1.APIResource{{Name: "other"}}}},
			want:      state.APINotServed,
		},
		"group version not found": {
			err:  apierrors.NewNotFound(gr, ""),
			want: state.APINotServed,
		},
		"throttled": {
			err:     apierrors.NewTooManyRequests("slow down", 1),
			want:    state.APIUnknown,
			wantErr: true,
		},
		"server error": {
			err:     apierrors.NewInternalError(errors.New("boom")),
			want:    state.APIUnknown,
			wantErr: true,
		},
		"timeout": {
			err:     apierrors.NewTimeoutError("discovery", 5),
			want:    state.APIUnknown,
			wantErr: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			disc := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{Resources: tc.resources}}
			if tc.err != nil {
				disc.Fake.AddReactor("get", "resource", func(clienttesting.Action) (bool, runtime.Object, error) {
					return true, nil, tc.err
				})
			}
			got, err := resourceServed(disc, "jobset.x-k8s.io/v1alpha2", "jobsets")
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("status = %v, want %v", got, tc.want)
			}
		})
	}
}
