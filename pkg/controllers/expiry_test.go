package controllers

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	testingclock "k8s.io/utils/clock/testing"
	jobsetfake "sigs.k8s.io/jobset/client-go/clientset/versioned/fake"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A workload past its maximum run duration is ended through its owner: a
// Job or JobSet suspended for good (the annotation says it was started
// once), other owners' pods evicted, as are a Job's or JobSet's when the
// suspension fails. A standby ends nothing.
func TestEndOverrun(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pods := []state.PodRef{{Namespace: "ns", Name: "p0", UID: "u0"}, {Namespace: "ns", Name: "p1", UID: "u1"}}
	expiry := func(kind string) state.Expiry {
		return state.Expiry{Key: workload.Key{Source: workload.SourceJob, Namespace: "ns", Name: "train"}, Limit: time.Hour, At: at, Pods: pods,
			Ref: corev1.ObjectReference{Kind: kind, Namespace: "ns", Name: "train"}}
	}
	notFound := apierrors.NewNotFound(schema.GroupResource{Group: "batch", Resource: "jobs"}, "train")
	cases := map[string]struct {
		e          state.Expiry
		standby    bool
		failWith   error
		wantPatch  string // the resource patched, "" for none
		wantEvicts int
	}{
		"a Job is suspended":                           {e: expiry("Job"), wantPatch: "jobs"},
		"a JobSet is suspended":                        {e: expiry("JobSet"), wantPatch: "jobsets"},
		"a pod group's pods are evicted":               {e: expiry("PodGroup"), wantEvicts: 2},
		"a Job that cannot be suspended: pods evicted": {e: expiry("Job"), failWith: errors.New("boom"), wantPatch: "jobs", wantEvicts: 2},
		"a Job already gone: nothing more":             {e: expiry("Job"), failWith: notFound, wantPatch: "jobs"},
		"a standby ends nothing":                       {e: expiry("Job"), standby: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			kube, jobsets := k8sfake.NewClientset(), jobsetfake.NewClientset()
			var patched, body string
			react := func(a clienttesting.Action) (bool, runtime.Object, error) {
				p := a.(clienttesting.PatchAction)
				patched, body = a.GetResource().Resource, string(p.GetPatch())
				return true, nil, tc.failWith
			}
			kube.PrependReactor("patch", "jobs", react)
			jobsets.PrependReactor("patch", "jobsets", react)
			ev := NewEvictor(func() bool { return !tc.standby })
			endOverrun(t.Context(), kube, jobsets, ev, tc.e)
			if patched != tc.wantPatch {
				t.Fatalf("patched %q, want %q", patched, tc.wantPatch)
			}
			if patched != "" && (!strings.Contains(body, `"suspend":true`) || !strings.Contains(body, wellknown.UnsuspendedAnnotation) || !strings.Contains(body, at.Format(time.RFC3339))) {
				t.Errorf("patch = %s, want a suspension for good at %s", body, at)
			}
			if got := len(ev.pending); got != tc.wantEvicts {
				t.Errorf("%d pods to evict, want %d", got, tc.wantEvicts)
			}
		})
	}
}

// The expiry controller asks the state what is past its time once a tick
// of its clock, and carries out what the state answers.
func TestExpirerRunsEveryTick(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	st := state.New(state.Options{Clock: clk})
	passes := make(chan state.Actions, 4)
	x := NewExpirer(st, func(_ context.Context, acts state.Actions) { passes <- acts }, k8sfake.NewClientset(), jobsetfake.NewClientset(),
		NewEvictor(func() bool { return true }), clk, time.Second)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); x.Run(ctx) }()
	for i := range 2 {
		for !clk.HasWaiters() {
			time.Sleep(time.Millisecond)
		}
		clk.Step(time.Second)
		select {
		case <-passes:
		case <-time.After(10 * time.Second):
			t.Fatalf("no pass after tick %d", i+1)
		}
	}
	cancel()
	<-done
	select {
	case acts := <-passes:
		t.Fatalf("a pass without a tick: %+v", acts)
	default:
	}
}
