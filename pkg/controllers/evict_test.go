package controllers

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// An eviction whose deletion fails is retried, with a backoff, until the
// pod is gone; a pod already gone, replaced by another of its name, or
// being deleted needs nothing more.
func TestEvictionIsRetriedUntilThePodIsGone(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "victim", UID: "victim-uid"},
		Spec: corev1.PodSpec{SchedulerName: "multislice-scheduler", NodeName: "n1"}}
	cs := kubefake.NewClientset(pod)
	fails := 2
	cs.PrependReactor("delete", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		if fails > 0 {
			fails--
			return true, nil, apierrors.NewInternalError(errors.New("etcd is busy"))
		}
		return false, nil, nil
	})
	factory := informers.NewSharedInformerFactory(cs, 0)
	pods := factory.Core().V1().Pods()
	if err := pods.Informer().GetIndexer().Add(pod); err != nil {
		t.Fatal(err)
	}
	ev := NewEvictor(func() bool { return true })
	ev.add(state.PodRef{Namespace: "ns", Name: "victim", UID: "victim-uid"}, corev1.PodReasonPreemptionByScheduler, "preempted")
	now := time.Now()
	for attempt := 1; attempt <= 3; attempt++ {
		due, _ := ev.due(now.Add(time.Hour))
		if len(due) != 1 {
			t.Fatalf("attempt %d: %d evictions due, want 1", attempt, len(due))
		}
		if done := evictOne(context.Background(), cs, pods.Lister(), due[0]); done != (attempt == 3) {
			t.Fatalf("attempt %d: done = %v", attempt, done)
		}
		if attempt < 3 {
			ev.failed(due[0], now)
			if d, next := ev.due(now); len(d) != 0 || !next.After(now) {
				t.Fatalf("attempt %d: retried at once (%d due, next %v)", attempt, len(d), next)
			}
		}
	}
	if _, err := cs.CoreV1().Pods("ns").Get(context.Background(), "victim", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("the victim still exists: %v", err)
	}
	// Marked DisruptionTarget before it is deleted.
	patches := 0
	for _, a := range cs.Actions() {
		if a.GetVerb() == "patch" && a.GetSubresource() == "status" {
			patches++
		}
	}
	if patches == 0 {
		t.Error("the victim was never marked DisruptionTarget")
	}

	for name, p := range map[string]*corev1.Pod{
		"replaced": {ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "victim", UID: "other-uid"}},
		"deleting": {ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "victim", UID: "victim-uid", DeletionTimestamp: &metav1.Time{Time: now}}},
	} {
		t.Run(name, func(t *testing.T) {
			cs := kubefake.NewClientset(p)
			lister := informers.NewSharedInformerFactory(cs, 0).Core().V1().Pods()
			if err := lister.Informer().GetIndexer().Add(p); err != nil {
				t.Fatal(err)
			}
			e := &eviction{ref: state.PodRef{Namespace: "ns", Name: "victim", UID: "victim-uid"}, reason: "CapacityRevoked"}
			if !evictOne(context.Background(), cs, lister.Lister(), e) || len(cs.Actions()) != 0 {
				t.Errorf("evictOne wrote %v, want nothing and done", cs.Actions())
			}
		})
	}
}
