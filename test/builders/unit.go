package builders

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// V5e is the accelerator of TPU v5e (v5 lite) node pools.
const V5e = "tpu-v5-lite-podslice"

// Epoch is when Unit's objects are created, and where unit tests start
// their fake clocks.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Unit builds objects for unit tests, which hand them to the code under
// test as the informers would once the apiserver stored them. What the
// apiserver would fill in is deterministic: UIDs derive from names (a
// JobSet's or PodGroup's is <name>-uid, a plain pod's its name) and every
// object is created at Epoch.
type Unit struct {
	// Namespace holds the objects.
	Namespace string
	// Scheduler is the schedulerName of the pods.
	Scheduler string
}

// Pod is a pending pod of the scheduler that asks for nothing.
func (u Unit) Pod(name string) *PodBuilder {
	return Pod(u.Namespace, name).Scheduler(u.Scheduler).NoRequests().UID(name).Created(Epoch)
}

// JobSet is a JobSet exclusive per node pool whose pods, of the scheduler,
// each ask for the 4 chips of a host of a v5e 2x4 slice and nothing else;
// add its slices with ReplicatedJob and get its pods with Members.
func (u Unit) JobSet(name string) *JobSetBuilder {
	return JobSet(u.Namespace, name).UID(name + "-uid").Created(Epoch).
		Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *PodBuilder) {
			p.Scheduler(u.Scheduler).NoRequests().TPU("4").
				NodeSelector(wellknown.TPUAcceleratorLabel, V5e).
				NodeSelector(wellknown.TPUTopologyLabel, "2x4")
		})
}

// PodGroup is an unconfined PodGroup of at least minMember pods.
func (u Unit) PodGroup(name string, minMember int32) *PodGroupBuilder {
	return PodGroup(u.Namespace, name, minMember).UID(name + "-uid").Created(Epoch)
}

// V5ePool is a pool of two v5e 2x4 hosts with 4 chips each.
func V5ePool(name string) *NodePoolBuilder { return NodePool(name).Nodes(2).TPU(V5e, "2x4", 4) }

// V5ePools are the nodes of V5ePools pool-1 to pool-n.
func V5ePools(n int) []*corev1.Node {
	var out []*corev1.Node
	for i := 1; i <= n; i++ {
		out = append(out, V5ePool(fmt.Sprintf("pool-%d", i)).Build()...)
	}
	return out
}

// Members are the pods of js at its current restart attempt
// (status.restarts), made as PodsOf makes them, Job by Job, each with UID
// <JobSet UID>/<pod name> and created with js.
func Members(js *jobsetv1alpha2.JobSet) []*corev1.Pod {
	pods := PodsOf(js, js.Status.Restarts)
	for _, p := range pods {
		p.UID = types.UID(string(js.UID) + "/" + p.Name)
		p.CreationTimestamp = js.CreationTimestamp
	}
	return pods
}

// MembersOn are Members(js), the i-th bound to nodes[i] and running: a
// node per pod.
func MembersOn(js *jobsetv1alpha2.JobSet, nodes ...string) []*corev1.Pod {
	pods := Members(js)
	if len(nodes) != len(pods) {
		panic(fmt.Sprintf("JobSet %s has %d pods, %d nodes given", js.Name, len(pods), len(nodes)))
	}
	for i, p := range pods {
		pods[i] = Bound(p, nodes[i])
	}
	return pods
}

// Member is the pod of Members(js) with completion index index in the Job
// of global index job, to edit further.
func Member(js *jobsetv1alpha2.JobSet, job, index int) *PodBuilder {
	for _, p := range Members(js) {
		if p.Labels[wellknown.JobGlobalIndexLabel] == strconv.Itoa(job) &&
			p.Labels[wellknown.JobCompletionIndexLabel] == strconv.Itoa(index) {
			return &PodBuilder{pod: p}
		}
	}
	panic(fmt.Sprintf("JobSet %s has no pod %d of Job %d", js.Name, index, job))
}
