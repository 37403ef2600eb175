package multislicegang

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	testingclock "k8s.io/utils/clock/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const (
	sched = "multislice-scheduler"
	ns    = "ns"
	v5e   = "tpu-v5-lite-podslice"
)

var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// ---- nodes ----

type nodeBuilder struct{ n *corev1.Node }

// node is a Ready node with 8 CPUs, 32Gi and 110 pod slots.
func node(name string) *nodeBuilder {
	return &nodeBuilder{n: &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("8"),
				corev1.ResourceMemory: resource.MustParse("32Gi"),
				corev1.ResourcePods:   resource.MustParse("110"),
			},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}}
}

// inPool makes the node a host of a v5e 2x4 TPU node pool with 4 chips.
func (b *nodeBuilder) inPool(pool string) *nodeBuilder {
	b.n.Labels[wellknown.NodePoolLabel] = pool
	b.n.Labels[wellknown.TPUAcceleratorLabel] = v5e
	b.n.Labels[wellknown.TPUTopologyLabel] = "2x4"
	b.n.Status.Allocatable[wellknown.ResourceTPU] = resource.MustParse("4")
	return b
}

func (b *nodeBuilder) obj() *corev1.Node { return b.n }

// poolNodes names the two nodes of pool.
func poolNodes(pool string) []string {
	return []string{pool + "-node-0", pool + "-node-1"}
}

// pools is pools pool-1…pool-n of two nodes each.
func pools(n int) []*corev1.Node {
	var out []*corev1.Node
	for p := 1; p <= n; p++ {
		pool := fmt.Sprintf("pool-%d", p)
		for _, name := range poolNodes(pool) {
			out = append(out, node(name).inPool(pool).obj())
		}
	}
	return out
}

// ---- JobSets ----

type jobSetBuilder struct{ js *jobsetv1alpha2.JobSet }

// jobSet is a JobSet in namespace ns, exclusive per node pool.
func jobSet(name string) *jobSetBuilder {
	return &jobSetBuilder{js: &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name, UID: types.UID(name + "-uid"),
			CreationTimestamp: metav1.NewTime(epoch),
			Annotations:       map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel},
		},
	}}
}

// job adds replicas Jobs of parallelism pods each asking for 4 chips of a
// v5e 2x4 pool.
func (b *jobSetBuilder) job(name string, replicas, parallelism int32) *jobSetBuilder {
	mode := batchv1.IndexedCompletion
	b.js.Spec.ReplicatedJobs = append(b.js.Spec.ReplicatedJobs, jobsetv1alpha2.ReplicatedJob{
		Name: name, Replicas: replicas,
		Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			Parallelism:    &parallelism,
			Completions:    &parallelism,
			CompletionMode: &mode,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				NodeSelector: map[string]string{wellknown.TPUAcceleratorLabel: v5e, wellknown.TPUTopologyLabel: "2x4"},
				Containers: []corev1.Container{{Name: "main", Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")},
					Limits:   corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")},
				}}},
			}},
		}},
	})
	return b
}

func (b *jobSetBuilder) created(t time.Time) *jobSetBuilder {
	b.js.CreationTimestamp = metav1.NewTime(t)
	return b
}

// unconfined drops the exclusive topology: the JobSet is all or nothing,
// but its Jobs go anywhere.
func (b *jobSetBuilder) unconfined() *jobSetBuilder {
	delete(b.js.Annotations, wellknown.ExclusiveTopologyAnnotation)
	return b
}

func (b *jobSetBuilder) obj() *jobsetv1alpha2.JobSet { return b.js }

func jsKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: ns, Name: name}
}

// ---- pods ----

type podBuilder struct{ p *corev1.Pod }

// pod is a pending pod of this scheduler asking for nothing.
func pod(name string) *podBuilder {
	return &podBuilder{p: &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(name), Labels: map[string]string{}, CreationTimestamp: metav1.NewTime(epoch)},
		Spec:       corev1.PodSpec{SchedulerName: sched, Containers: []corev1.Container{{Name: "main"}}},
	}}
}

// member is pod index of global Job job of js, labelled and shaped the way
// JobSet and the Job controller create it.
func member(js *jobsetv1alpha2.JobSet, job, index int) *podBuilder {
	rj, jobName := replicatedJobOf(js, job)
	b := pod(fmt.Sprintf("%s-%d", jobName, index))
	b.p.UID = types.UID(fmt.Sprintf("%s/%s", js.UID, b.p.Name))
	b.p.Labels = map[string]string{
		wellknown.JobSetNameLabel:         js.Name,
		wellknown.JobSetUIDLabel:          string(js.UID),
		wellknown.JobGlobalIndexLabel:     strconv.Itoa(job),
		wellknown.RestartAttemptLabel:     strconv.Itoa(int(js.Status.Restarts)),
		wellknown.JobCompletionIndexLabel: strconv.Itoa(index),
		wellknown.JobKeyLabel:             jobName,
	}
	spec := rj.Template.Spec.Template.Spec.DeepCopy()
	spec.SchedulerName = sched
	b.p.Spec = *spec
	return b
}

func replicatedJobOf(js *jobsetv1alpha2.JobSet, job int) (*jobsetv1alpha2.ReplicatedJob, string) {
	i := job
	for k := range js.Spec.ReplicatedJobs {
		rj := &js.Spec.ReplicatedJobs[k]
		if i < int(rj.Replicas) {
			return rj, fmt.Sprintf("%s-%s-%d", js.Name, rj.Name, i)
		}
		i -= int(rj.Replicas)
	}
	panic(fmt.Sprintf("JobSet %s has no Job %d", js.Name, job))
}

// members lists every pod of every Job of js, Job by Job.
func members(js *jobsetv1alpha2.JobSet) []*corev1.Pod {
	var out []*corev1.Pod
	job := 0
	for _, rj := range js.Spec.ReplicatedJobs {
		for range rj.Replicas {
			for i := range int(*rj.Template.Spec.Parallelism) {
				out = append(out, member(js, job, i).obj())
			}
			job++
		}
	}
	return out
}

func (b *podBuilder) label(k, v string) *podBuilder {
	b.p.Labels[k] = v
	return b
}

func (b *podBuilder) uid(uid string) *podBuilder {
	b.p.UID = types.UID(uid)
	return b
}

func (b *podBuilder) tpu(chips string) *podBuilder {
	c := &b.p.Spec.Containers[0]
	if c.Resources.Requests == nil {
		c.Resources.Requests = corev1.ResourceList{}
	}
	c.Resources.Requests[wellknown.ResourceTPU] = resource.MustParse(chips)
	return b
}

func (b *podBuilder) priority(p int32) *podBuilder {
	b.p.Spec.Priority = &p
	return b
}

func (b *podBuilder) on(node string) *podBuilder {
	b.p.Spec.NodeName = node
	return b
}

func (b *podBuilder) obj() *corev1.Pod { return b.p }

// boundTo returns a copy of p bound to node, as the informer delivers it.
func boundTo(p *corev1.Pod, node string) *corev1.Pod {
	out := p.DeepCopy()
	out.Spec.NodeName = node
	out.Status.Phase = corev1.PodRunning
	return out
}

// withLabel returns a copy of p with label k set to v ("" removes it).
func withLabel(p *corev1.Pod, k, v string) *corev1.Pod {
	out := p.DeepCopy()
	if v == "" {
		delete(out.Labels, k)
	} else {
		out.Labels[k] = v
	}
	return out
}

// ---- fixture ----

// fixture is a plugin on a state with a fake clock, no framework handle,
// and both workload APIs served. It plays the scheduler's part: the pods
// it placed (bound or reserved) are what the cycle's snapshot counts.
type fixture struct {
	t     *testing.T
	clock *testingclock.FakeClock
	st    *state.State
	pl    *Plugin
	nodes map[string]*corev1.Node
	// placed are the pods on nodes, as the scheduler's cache has them.
	placed map[types.UID]*corev1.Pod
	// snapshots counts the requests read from the scheduler's snapshot:
	// a plan reads them, reusing a reservation or a failure does not.
	snapshots int
	// cycles holds each pod's current scheduling cycle.
	cycles map[types.UID]fwk.CycleState
}

func newFixture(t *testing.T, nodes ...*corev1.Node) *fixture {
	t.Helper()
	clk := testingclock.NewFakeClock(epoch)
	st := state.New(state.Options{Clock: clk})
	st.AddScheduler(sched)
	st.SetAPI(workload.SourceJobSet, state.APIServed)
	st.SetAPI(workload.SourcePodGroup, state.APIServed)
	f := &fixture{
		t: t, clock: clk, st: st,
		nodes:  map[string]*corev1.Node{},
		placed: map[types.UID]*corev1.Pod{},
		cycles: map[types.UID]fwk.CycleState{},
	}
	f.pl = &Plugin{
		args:  &config.MultisliceGangArgs{PermitTimeout: time.Minute, FollowerTimeout: time.Minute},
		rt:    feed.NewRuntime(),
		state: st,
		sort:  newSortKeys(st),
	}
	f.pl.requested = f.requested
	for _, n := range nodes {
		f.nodes[n.Name] = n
		st.UpsertNode(n)
	}
	return f
}

// requested is what the placed pods on node request.
func (f *fixture) requested(node string) (workload.Resources, bool) {
	f.snapshots++
	if _, ok := f.nodes[node]; !ok {
		return nil, false
	}
	out := workload.Resources{}
	for _, p := range f.placed {
		if p.Spec.NodeName != node {
			continue
		}
		for name, v := range workload.PodRequests(&p.Spec) {
			out[name] += v
		}
	}
	return out, true
}

func (f *fixture) addJobSet(js *jobsetv1alpha2.JobSet) {
	f.t.Helper()
	w, err := workload.FromJobSet(js, "")
	if err != nil {
		f.t.Fatalf("FromJobSet: %v", err)
	}
	f.st.UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
}

// addPods feeds pods as the informer would; pods on a node are placed.
func (f *fixture) addPods(pods ...*corev1.Pod) {
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			f.placed[p.UID] = p
		}
		f.st.UpsertPod(p)
	}
}

// deletePods feeds the deletion of pods as the informer would.
func (f *fixture) deletePods(pods ...*corev1.Pod) {
	for _, p := range pods {
		delete(f.placed, p.UID)
		f.st.DeletePod(p)
	}
}

// cycle starts a new scheduling cycle for p.
func (f *fixture) cycle(p *corev1.Pod) fwk.CycleState {
	cs := framework.NewCycleState()
	f.cycles[p.UID] = cs
	return cs
}

// preFilter runs PreFilter in a new cycle of p.
func (f *fixture) preFilter(p *corev1.Pod) (*fwk.PreFilterResult, *fwk.Status) {
	return f.pl.PreFilter(context.Background(), f.cycle(p), p, nil)
}

// nodeInfo is node as the scheduler's snapshot has it.
func (f *fixture) nodeInfo(name string) fwk.NodeInfo {
	var pods []*corev1.Pod
	for _, p := range f.placed {
		if p.Spec.NodeName == name {
			pods = append(pods, p)
		}
	}
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(f.nodes[name])
	return ni
}

func (f *fixture) filter(p *corev1.Pod, node string) *fwk.Status {
	return f.pl.Filter(context.Background(), f.cycles[p.UID], p, f.nodeInfo(node))
}

// reserve runs Reserve for p on node in p's current cycle.
func (f *fixture) reserve(p *corev1.Pod, node string) *fwk.Status {
	assumed := p.DeepCopy()
	assumed.Spec.NodeName = node
	f.placed[p.UID] = assumed
	return f.pl.Reserve(context.Background(), f.cycles[p.UID], p, node)
}

func (f *fixture) permit(p *corev1.Pod) (*fwk.Status, time.Duration) {
	return f.pl.Permit(context.Background(), f.cycles[p.UID], p, "")
}

func (f *fixture) unreserve(p *corev1.Pod) {
	delete(f.placed, p.UID)
	f.pl.Unreserve(context.Background(), f.cycles[p.UID], p, "")
}

// slicePool is the pool reserved for slice i of key's reservation ("" for none).
func (f *fixture) slicePool(key workload.Key, i int) string {
	r, ok := f.st.ReservationOf(key)
	if !ok || r.Slices[i] == nil {
		return ""
	}
	return r.Slices[i].Domain
}

// slotNodes lists, sorted, the nodes with room planned for slice i of
// key's reservation.
func (f *fixture) slotNodes(key workload.Key, i int) []string {
	r, ok := f.st.ReservationOf(key)
	if !ok || r.Slices[i] == nil {
		return nil
	}
	var out []string
	for _, slot := range r.Slices[i].Slots {
		if slot.Count > 0 && !slices.Contains(out, slot.Node) {
			out = append(out, slot.Node)
		}
	}
	slices.Sort(out)
	return out
}

// ---- statuses ----

// status is the part of a framework status the tests compare.
type status struct {
	Code    fwk.Code
	Message string
}

func statusOf(s *fwk.Status) status { return status{Code: s.Code(), Message: s.Message()} }

// nodeNames lists a PreFilter result's nodes, sorted (nil for all nodes).
func nodeNames(r *fwk.PreFilterResult) []string {
	if r.AllNodes() {
		return nil
	}
	out := r.NodeNames.UnsortedList()
	slices.Sort(out)
	return out
}
