package feed

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	listers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A Workload object the informer still has but the apiserver deleted (its
// owner was deleted and it was garbage-collected with it) is not a failed
// write: the status writer reports nothing, where it used to log one
// error per workload of a busy queue.
func TestSyncWorkloadOfAGoneObject(t *testing.T) {
	key := workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "p"}
	report := &state.WorkloadReport{
		Key:   key,
		Ref:   corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "pod-uid"},
		Model: &workload.Workload{Slices: []workload.Slice{{Name: "main", Pods: 1}}},
		Queue: "lq", ClusterQueue: "cq",
		Problem: &quota.Problem{Reason: quota.ReasonQuotaExceeded, Message: "no room"},
	}
	cases := map[string]struct {
		// stale is the informer's copy, changed so that a write is due.
		stale func(*multislicev1alpha1.Workload)
	}{
		"its status is stale": {stale: func(wl *multislicev1alpha1.Workload) { wl.Status.Conditions = nil }},
		"its spec is stale":   {stale: func(wl *multislicev1alpha1.Workload) { wl.Spec.QueueName = "other" }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cached := desiredWorkload(report, WorkloadName(key))
			tc.stale(cached)
			indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
			if err := indexer.Add(cached); err != nil {
				t.Fatal(err)
			}
			client := fake.NewSimpleClientset() // the apiserver no longer has it
			w := &statusWriter{client: client, workloads: listers.NewWorkloadLister(indexer)}
			if err := w.syncWorkload(context.Background(), report); err != nil {
				t.Errorf("syncWorkload: %v, want no error", err)
			}
			if got := len(client.Actions()); got != 1 {
				t.Errorf("%d API calls (%v), want the one write that found the object gone", got, client.Actions())
			}
		})
	}
}
