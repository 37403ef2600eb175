package feed

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	fakediscovery "k8s.io/client-go/discovery/fake"
	clienttesting "k8s.io/client-go/testing"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
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

// A discovery loop backed off for an hour looks again when poked: a JobSet
// CRD installed after the scheduler found it missing is picked up as soon
// as a pod names it, not at the next backed-off poll.
func TestDiscoveryLooksAgainWhenPoked(t *testing.T) {
	st := state.New(state.Options{})
	rt := New(Config{State: st, Act: func(context.Context, state.Actions) {}})
	var served atomic.Bool
	disc := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{Resources: []*metav1.APIResourceList{
		{GroupVersion: "jobset.x-k8s.io/v1alpha2", APIResources: []metav1.APIResource{{Name: "jobsets"}}}}}}
	disc.Fake.AddReactor("get", "resource", func(clienttesting.Action) (bool, runtime.Object, error) {
		if served.Load() {
			return false, nil, nil
		}
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "jobset.x-k8s.io"}, "")
	})
	started := make(chan struct{})
	api := workloadAPI{source: workload.SourceJobSet, groupVersion: "jobset.x-k8s.io/v1alpha2", resource: "jobsets",
		initial: time.Hour, max: time.Hour,
		start: func(context.Context) (toolscache.InformerSynced, error) {
			close(started)
			return func() bool { return true }, nil
		}}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go rt.discover(ctx, disc, api)

	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return st.Reports().API(workload.SourceJobSet) == state.APINotServed, nil
	}); err != nil {
		t.Fatalf("the API was never found not served: %v", err)
	}
	served.Store(true)
	rt.Rediscover([]workload.Source{workload.SourceJobSet})
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatalf("a poke did not make the loop look again (it polls once an hour)")
	}
	if err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return st.Reports().API(workload.SourceJobSet) == state.APIServed, nil
	}); err != nil {
		t.Fatalf("the API was not recorded as served: %v", err)
	}
}
