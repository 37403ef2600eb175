package controllers

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/events"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// countingPods is a pod lister of no pods that counts its lists.
type countingPods struct {
	corelisters.PodLister
	lists int
}

func (c *countingPods) List(labels.Selector) ([]*corev1.Pod, error) {
	c.lists++
	return nil, nil
}

// The usage reconciler compares nothing until the queue API is served
// (nothing is charged without it), then reads the API's pods once a pass
// and carries out what the state answers; a non-positive interval turns
// it off.
func TestUsageReconcilerWaitsForTheQueueAPI(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	st := state.New(state.Options{Clock: clk})
	pods := &countingPods{}
	acted := 0
	r := NewUsageReconciler(st, func(context.Context, state.Actions) { acted++ }, NewEventSink(&events.FakeRecorder{}, clk), pods, clk, time.Minute)
	r.Reconcile(t.Context())
	if pods.lists != 0 || acted != 0 {
		t.Fatalf("before the queue API is served: %d lists, %d passes carried out", pods.lists, acted)
	}
	st.Feed().SetAPI(state.QueueAPI, state.APIServed)
	r.Reconcile(t.Context())
	if pods.lists != 1 || acted != 1 {
		t.Fatalf("with the queue API served: %d lists, %d passes carried out, want 1 and 1", pods.lists, acted)
	}

	off := NewUsageReconciler(st, func(context.Context, state.Actions) { acted++ }, nil, pods, clk, 0)
	done := make(chan struct{})
	go func() { defer close(done); off.Run(t.Context()) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a reconciler with no interval did not return")
	}
}
