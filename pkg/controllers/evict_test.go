package controllers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
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
	ev.add(state.PodRef{Namespace: "ns", Name: "victim", UID: "victim-uid"}, corev1.PodReasonPreemptionByScheduler, "preempted", false)
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

// A move off a recycled node evicts through the Eviction API, which marks
// the pod DisruptionTarget itself: nothing is patched or deleted directly.
// A PodDisruptionBudget that allows no disruption now (429) is retried
// until the eviction goes through.
func TestEvictionViaAPIIsRetriedThroughBudgets(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "moving", UID: "moving-uid"},
		Spec: corev1.PodSpec{SchedulerName: "multislice-scheduler", NodeName: "n1"}}
	cs := kubefake.NewClientset(pod)
	budget := 1
	var evictions []string
	cs.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		if a.GetSubresource() != "eviction" {
			return false, nil, nil
		}
		if budget > 0 {
			budget--
			return true, nil, apierrors.NewTooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10)
		}
		ev := a.(k8stesting.CreateAction).GetObject().(*policyv1.Eviction)
		evictions = append(evictions, ev.Name+" uid="+string(*ev.DeleteOptions.Preconditions.UID))
		return true, nil, nil
	})
	lister := informers.NewSharedInformerFactory(cs, 0).Core().V1().Pods()
	if err := lister.Informer().GetIndexer().Add(pod); err != nil {
		t.Fatal(err)
	}
	ev := NewEvictor(func() bool { return true })
	ev.EvictViaAPI(context.Background(), []state.PodRef{{Namespace: "ns", Name: "moving", UID: "moving-uid"}}, ReasonMigrating, "moves off a recycled node")
	due, _ := ev.due(time.Now())
	if len(due) != 1 || !due[0].viaAPI {
		t.Fatalf("due %+v, want one eviction through the API", due)
	}
	if evictOne(context.Background(), cs, lister.Lister(), due[0]) {
		t.Fatal("done although the budget refused the eviction")
	}
	ev.failed(due[0], time.Now())
	if !ev.Evicting("moving-uid") {
		t.Fatal("the refused eviction was dropped")
	}
	if !evictOne(context.Background(), cs, lister.Lister(), due[0]) {
		t.Fatal("not done once the budget allowed it")
	}
	if diff := cmp.Diff([]string{"moving uid=moving-uid"}, evictions); diff != "" {
		t.Errorf("evictions (-want +got):\n%s", diff)
	}
	for _, a := range cs.Actions() {
		if a.GetVerb() == "delete" || a.GetVerb() == "patch" {
			t.Errorf("the pod was written directly (%s %s), not evicted through the API", a.GetVerb(), a.GetSubresource())
		}
	}

	// Standbys evict nothing.
	standby := NewEvictor(func() bool { return false })
	standby.EvictViaAPI(context.Background(), []state.PodRef{{Namespace: "ns", Name: "moving", UID: "moving-uid"}}, ReasonMigrating, "")
	if standby.Len() != 0 {
		t.Error("a standby took an eviction")
	}
}
