package harness

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// Queues creates and waits on queue objects (ResourceFlavors,
// ClusterQueues, LocalQueues) through the queue API's typed client.
type Queues struct {
	Client multisliceclient.Interface
}

// Queues returns the control plane's queue API client; the queue CRDs
// must be installed (InstallQueueCRDs).
func (cp *ControlPlane) Queues() *Queues {
	return &Queues{Client: multisliceclient.NewForConfigOrDie(cp.Config)}
}

// CreateFlavor creates ResourceFlavor name for the nodes carrying labels
// (none: every node).
func (q *Queues) CreateFlavor(t testing.TB, name string, labels map[string]string) {
	t.Helper()
	rf := &multislicev1alpha1.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: multislicev1alpha1.ResourceFlavorSpec{NodeLabels: labels}}
	if _, err := q.Client.MultisliceV1alpha1().ResourceFlavors().Create(t.Context(), rf, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ResourceFlavor %s: %v", name, err)
	}
}

// Quota is the nominal quota of one resource of a flavor; borrowing and
// lending limits below 0 are unset.
type Quota struct {
	Flavor                      string
	Resource                    corev1.ResourceName
	Nominal, Borrowing, Lending int64
}

// TPUQuota is a google.com/tpu quota of nominal chips, no limits set.
func TPUQuota(flavor string, nominal int64) Quota {
	return Quota{Flavor: flavor, Resource: wellknown.ResourceTPU, Nominal: nominal, Borrowing: -1, Lending: -1}
}

// ResourceGroup is one resource group covering the quotas' resources, with
// the quotas' flavors in order.
func ResourceGroup(quotas ...Quota) multislicev1alpha1.ResourceGroup {
	var g multislicev1alpha1.ResourceGroup
	covered := map[corev1.ResourceName]bool{}
	index := map[string]int{}
	for _, q := range quotas {
		if !covered[q.Resource] {
			covered[q.Resource] = true
			g.CoveredResources = append(g.CoveredResources, q.Resource)
		}
		rq := multislicev1alpha1.ResourceQuota{Name: q.Resource, NominalQuota: *resource.NewQuantity(q.Nominal, resource.DecimalSI)}
		if q.Borrowing >= 0 {
			rq.BorrowingLimit = resource.NewQuantity(q.Borrowing, resource.DecimalSI)
		}
		if q.Lending >= 0 {
			rq.LendingLimit = resource.NewQuantity(q.Lending, resource.DecimalSI)
		}
		i, seen := index[q.Flavor]
		if !seen {
			i = len(g.Flavors)
			index[q.Flavor] = i
			g.Flavors = append(g.Flavors, multislicev1alpha1.FlavorQuotas{Name: q.Flavor})
		}
		g.Flavors[i].Resources = append(g.Flavors[i].Resources, rq)
	}
	return g
}

// CreateClusterQueue creates ClusterQueue name with spec.
func (q *Queues) CreateClusterQueue(t testing.TB, name string, spec multislicev1alpha1.ClusterQueueSpec) {
	t.Helper()
	cq := &multislicev1alpha1.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}
	if _, err := q.Client.MultisliceV1alpha1().ClusterQueues().Create(t.Context(), cq, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create ClusterQueue %s: %v", name, err)
	}
}

// CreateLocalQueue creates LocalQueue ns/name pointing at ClusterQueue cq.
func (q *Queues) CreateLocalQueue(t testing.TB, ns, name, cq string) {
	t.Helper()
	lq := &multislicev1alpha1.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: multislicev1alpha1.LocalQueueSpec{ClusterQueue: cq}}
	if _, err := q.Client.MultisliceV1alpha1().LocalQueues(ns).Create(t.Context(), lq, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create LocalQueue %s/%s: %v", ns, name, err)
	}
}

// WaitWorkload waits until Workload object ns/name satisfies ok, and
// returns it; what says what was waited for.
func (q *Queues) WaitWorkload(t testing.TB, ns, name, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return WaitWorkload(t, q.Client, ns, name, what, ok)
}

// WaitWorkloadOf waits until the Workload object the scheduler keeps for
// the workload key satisfies ok, and returns it.
func (q *Queues) WaitWorkloadOf(t testing.TB, key workload.Key, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return WaitWorkload(t, q.Client, key.Namespace, key.ObjectName(), what, ok)
}

// JobSetKey is the workload key of JobSet ns/name.
func JobSetKey(ns, name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: ns, Name: name}
}

// WaitClusterQueue waits until ClusterQueue name's status counts pending
// and admitted workloads and chips of google.com/tpu in use, and returns
// it.
func (q *Queues) WaitClusterQueue(t testing.TB, name string, pending, admitted int32, chips int64) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	return q.waitClusterQueue(t, name, fmt.Sprintf("%d pending, %d admitted, %d chips in use", pending, admitted, chips), func(st multislicev1alpha1.ClusterQueueStatus) bool {
		return st.PendingWorkloads == pending && st.AdmittedWorkloads == admitted && builders.TPUInUse(st.FlavorsUsage) == chips
	})
}

// WaitClusterQueueUsage waits until ClusterQueue name's status says chips
// of google.com/tpu are in use, and returns it.
func (q *Queues) WaitClusterQueueUsage(t testing.TB, name string, chips int64) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	return q.waitClusterQueue(t, name, fmt.Sprintf("%d chips in use", chips), func(st multislicev1alpha1.ClusterQueueStatus) bool {
		return builders.TPUInUse(st.FlavorsUsage) == chips
	})
}

// WaitResourceInUse waits until ClusterQueue name's status says total of
// resource are in use over its flavors, none of it borrowed, and returns
// it.
func (q *Queues) WaitResourceInUse(t testing.TB, name string, resource corev1.ResourceName, total int64) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	return q.waitClusterQueue(t, name, fmt.Sprintf("%d %s in use, none borrowed", total, resource), func(st multislicev1alpha1.ClusterQueueStatus) bool {
		var used int64
		for _, f := range st.FlavorsUsage {
			for _, r := range f.Resources {
				if r.Name == resource {
					if !r.Borrowed.IsZero() {
						return false
					}
					used += r.Total.Value()
				}
			}
		}
		return used == total
	})
}

// waitClusterQueue waits until ClusterQueue name's status satisfies ok
// (what says what), and returns it.
func (q *Queues) waitClusterQueue(t testing.TB, name, what string, ok func(multislicev1alpha1.ClusterQueueStatus) bool) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	var cq *multislicev1alpha1.ClusterQueue
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := q.Client.MultisliceV1alpha1().ClusterQueues().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		cq = got
		return ok(got.Status), nil
	})
	if err != nil {
		var last any
		if cq != nil {
			last = cq.Status
		}
		t.Fatalf("ClusterQueue %s status never had %s; last: %+v", name, what, last)
	}
	return cq
}
