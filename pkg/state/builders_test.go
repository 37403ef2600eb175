package state_test

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const (
	sched = "multislice-scheduler"
	ns    = "ns"
	// v5e is the accelerator every builder node pool carries.
	v5e = "tpu-v5-lite-podslice"
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

// inPool puts the node in a GKE TPU node pool: pool, accelerator and
// topology labels, and 4 chips.
func (b *nodeBuilder) inPool(pool string) *nodeBuilder {
	b.n.Labels[wellknown.NodePoolLabel] = pool
	b.n.Labels[wellknown.TPUAcceleratorLabel] = v5e
	b.n.Labels[wellknown.TPUTopologyLabel] = "2x4"
	return b.tpu(4)
}

func (b *nodeBuilder) tpu(chips int) *nodeBuilder {
	b.n.Status.Allocatable[wellknown.ResourceTPU] = *resource.NewQuantity(int64(chips), resource.DecimalSI)
	return b
}

func (b *nodeBuilder) label(k, v string) *nodeBuilder {
	b.n.Labels[k] = v
	return b
}

func (b *nodeBuilder) ready(status corev1.ConditionStatus) *nodeBuilder {
	b.n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status}}
	return b
}

// heartbeat changes only what a kubelet status heartbeat changes.
func (b *nodeBuilder) heartbeat(at time.Time) *nodeBuilder {
	b.n.ResourceVersion = strconv.FormatInt(at.Unix(), 10)
	for i := range b.n.Status.Conditions {
		b.n.Status.Conditions[i].LastHeartbeatTime = metav1.NewTime(at)
	}
	return b
}

func (b *nodeBuilder) obj() *corev1.Node { return b.n }

// tpuPool is a node pool of n nodes named <pool>-node-<i>.
func tpuPool(pool string, n int) []*corev1.Node {
	out := make([]*corev1.Node, 0, n)
	for i := range n {
		out = append(out, node(fmt.Sprintf("%s-node-%d", pool, i)).inPool(pool).obj())
	}
	return out
}

// pools is pools pool-1…pool-n of two nodes each.
func pools(n int) []*corev1.Node {
	var out []*corev1.Node
	for p := 1; p <= n; p++ {
		out = append(out, tpuPool(fmt.Sprintf("pool-%d", p), 2)...)
	}
	return out
}

// ---- JobSets ----

type jobSetBuilder struct{ js *jobsetv1alpha2.JobSet }

// jobSet is a JobSet in namespace ns with UID <name>-uid, exclusive per node
// pool; add replicated Jobs with job.
func jobSet(name string) *jobSetBuilder {
	return &jobSetBuilder{js: &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name, UID: types.UID(name + "-uid"),
			CreationTimestamp: metav1.NewTime(epoch),
			Annotations:       map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel},
		},
	}}
}

// job adds a replicated Job of replicas Jobs × parallelism pods, each pod
// asking for 4 chips of a v5e 2x4 pool.
func (b *jobSetBuilder) job(name string, replicas, parallelism int32) *jobSetBuilder {
	b.js.Spec.ReplicatedJobs = append(b.js.Spec.ReplicatedJobs, jobsetv1alpha2.ReplicatedJob{
		Name: name, Replicas: replicas,
		Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			Parallelism:    &parallelism,
			Completions:    &parallelism,
			CompletionMode: ptr(batchv1.IndexedCompletion),
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

// dependsOn makes the last replicated Job wait for job to reach status.
func (b *jobSetBuilder) dependsOn(job string, status jobsetv1alpha2.DependsOnStatus) *jobSetBuilder {
	rjs := b.js.Spec.ReplicatedJobs
	rjs[len(rjs)-1].DependsOn = []jobsetv1alpha2.DependsOn{{Name: job, Status: status}}
	return b
}

func (b *jobSetBuilder) inOrder() *jobSetBuilder {
	b.js.Spec.StartupPolicy = &jobsetv1alpha2.StartupPolicy{StartupPolicyOrder: jobsetv1alpha2.InOrder}
	return b
}

func (b *jobSetBuilder) uid(uid string) *jobSetBuilder {
	b.js.UID = types.UID(uid)
	return b
}

func (b *jobSetBuilder) unconfined() *jobSetBuilder {
	delete(b.js.Annotations, wellknown.ExclusiveTopologyAnnotation)
	return b
}

func (b *jobSetBuilder) obj() *jobsetv1alpha2.JobSet { return b.js }

func jsKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: ns, Name: name}
}

func pgKey(name string) workload.Key {
	return workload.Key{Source: workload.SourcePodGroup, Namespace: ns, Name: name}
}

// ---- PodGroups ----

type podGroupBuilder struct{ pg *schedv1alpha1.PodGroup }

func podGroup(name string, minMember int32) *podGroupBuilder {
	return &podGroupBuilder{pg: &schedv1alpha1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(name + "-uid"), CreationTimestamp: metav1.NewTime(epoch)},
		Spec:       schedv1alpha1.PodGroupSpec{MinMember: minMember},
	}}
}

// exclusive confines the group to one domain of key (our annotation).
func (b *podGroupBuilder) exclusive(key string) *podGroupBuilder {
	b.pg.Annotations = map[string]string{wellknown.PodGroupDomainKeyAnnotation: key}
	return b
}

func (b *podGroupBuilder) obj() *schedv1alpha1.PodGroup { return b.pg }

// ---- pods ----

type podBuilder struct{ p *corev1.Pod }

// pod is a pending pod of this scheduler asking for nothing.
func pod(name string) *podBuilder {
	return &podBuilder{p: &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(name), Labels: map[string]string{}, CreationTimestamp: metav1.NewTime(epoch)},
		Spec:       corev1.PodSpec{SchedulerName: sched, Containers: []corev1.Container{{Name: "main"}}},
	}}
}

// member is pod index of global Job job of js, labelled, annotated and
// shaped the way JobSet and the Job controller create it.
func member(js *jobsetv1alpha2.JobSet, job, index int) *podBuilder {
	rj, jobName := replicatedJobOf(js, job)
	name := fmt.Sprintf("%s-%d", jobName, index)
	b := pod(name)
	b.p.Labels = map[string]string{
		wellknown.JobSetNameLabel:         js.Name,
		wellknown.JobSetUIDLabel:          string(js.UID),
		wellknown.JobGlobalIndexLabel:     strconv.Itoa(job),
		wellknown.RestartAttemptLabel:     strconv.Itoa(int(js.Status.Restarts)),
		wellknown.JobCompletionIndexLabel: strconv.Itoa(index),
		wellknown.JobKeyLabel:             jobName,
	}
	if k, ok := js.Annotations[wellknown.ExclusiveTopologyAnnotation]; ok {
		b.p.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: k}
	}
	spec := rj.Template.Spec.Template.Spec.DeepCopy()
	spec.SchedulerName = sched
	b.p.Spec = *spec
	b.p.UID = types.UID(string(js.UID) + "/" + name)
	return b
}

// replicatedJobOf finds the replicated Job of a global Job index and the
// Job's name.
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

// members lists every pod of every Job of js.
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

// inPodGroup labels the pod as a member of PodGroup pg.
func (b *podBuilder) inPodGroup(pg string) *podBuilder {
	b.p.Labels[wellknown.PodGroupLabel] = pg
	return b
}

func (b *podBuilder) request(name corev1.ResourceName, q string) *podBuilder {
	c := &b.p.Spec.Containers[0]
	if c.Resources.Requests == nil {
		c.Resources.Requests = corev1.ResourceList{}
	}
	c.Resources.Requests[name] = resource.MustParse(q)
	return b
}

func (b *podBuilder) tpu(chips string) *podBuilder { return b.request(wellknown.ResourceTPU, chips) }
func (b *podBuilder) cpu(q string) *podBuilder     { return b.request(corev1.ResourceCPU, q) }

func (b *podBuilder) on(node string) *podBuilder {
	b.p.Spec.NodeName = node
	return b
}

func (b *podBuilder) gated() *podBuilder {
	b.p.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/hold"}}
	return b
}

// stagedLeader gives the pod the required affinity to its own Job that
// JobSet's webhook gives leaders under exclusive placement.
func (b *podBuilder) stagedLeader() *podBuilder {
	b.p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey: wellknown.NodePoolLabel,
		LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpIn, Values: []string{b.p.Labels[wellknown.JobKeyLabel]},
		}}},
	}}}}
	return b
}

func (b *podBuilder) scheduler(name string) *podBuilder {
	b.p.Spec.SchedulerName = name
	return b
}

func (b *podBuilder) obj() *corev1.Pod { return b.p }

// boundTo returns a copy of pod bound to node, as the informer delivers it.
func boundTo(p *corev1.Pod, node string) *corev1.Pod {
	out := p.DeepCopy()
	out.Spec.NodeName = node
	out.Status.Phase = corev1.PodRunning
	return out
}

// withPhase returns a copy of pod in phase.
func withPhase(p *corev1.Pod, phase corev1.PodPhase) *corev1.Pod {
	out := p.DeepCopy()
	out.Status.Phase = phase
	return out
}

func ptr[T any](v T) *T { return &v }

// ---- fixture ----

// fixture is a State on a fake clock, both workload APIs served, fed by
// the helpers below as the informers would feed it.
type fixture struct {
	t     *testing.T
	s     *state.State
	clock *testingclock.FakeClock
	obs   *observer
	// pods are the pods fed to the state, by UID, and placed where each
	// is bound or assumed, as the scheduler's own cache has them.
	pods   map[types.UID]*corev1.Pod
	placed map[types.UID]string
	nodes  map[string]*corev1.Node
}

func newFixture(t *testing.T, nodes ...*corev1.Node) *fixture {
	t.Helper()
	clk := testingclock.NewFakeClock(epoch)
	obs := &observer{}
	f := &fixture{
		t: t, clock: clk, obs: obs,
		s:      state.New(state.Options{Clock: clk, RejectionMemory: 5 * time.Minute, Observer: obs}),
		pods:   map[types.UID]*corev1.Pod{},
		placed: map[types.UID]string{},
		nodes:  map[string]*corev1.Node{},
	}
	f.s.AddScheduler(sched)
	f.s.SetAPI(workload.SourceJobSet, state.APIServed)
	f.s.SetAPI(workload.SourcePodGroup, state.APIServed)
	f.addNodes(nodes...)
	return f
}

func (f *fixture) addNodes(nodes ...*corev1.Node) state.Actions {
	var acts state.Actions
	for _, n := range nodes {
		f.nodes[n.Name] = n
		merge(&acts, f.s.UpsertNode(n))
	}
	return acts
}

// addJobSet feeds a JobSet as its informer would.
func (f *fixture) addJobSet(js *jobsetv1alpha2.JobSet) state.Actions {
	f.t.Helper()
	w, err := workload.FromJobSet(js, f.s.DefaultDomainKey())
	if err != nil {
		f.t.Fatalf("FromJobSet: %v", err)
	}
	return f.s.UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
}

// addPodGroup feeds a PodGroup as its informer would (no template).
func (f *fixture) addPodGroup(pg *schedv1alpha1.PodGroup) state.Actions {
	f.t.Helper()
	w, err := workload.FromPodGroup(pg, nil, f.s.DefaultDomainKey())
	if err != nil {
		f.t.Fatalf("FromPodGroup: %v", err)
	}
	return f.s.UpsertSource(pgKey(pg.Name), w, nil, corev1.ObjectReference{Kind: "PodGroup", Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID})
}

// addPods feeds pods (adds or updates) and returns what the state asked for.
func (f *fixture) addPods(pods ...*corev1.Pod) state.Actions {
	var acts state.Actions
	for _, p := range pods {
		f.pods[p.UID] = p
		switch {
		case p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed:
			delete(f.placed, p.UID)
		case p.Spec.NodeName != "":
			f.placed[p.UID] = p.Spec.NodeName
		}
		merge(&acts, f.s.UpsertPod(p))
	}
	return acts
}

// deletePod feeds the deletion of pod in its last observed form.
func (f *fixture) deletePod(p *corev1.Pod) state.Actions {
	delete(f.pods, p.UID)
	delete(f.placed, p.UID)
	return f.s.DeletePod(p)
}

// unreserve runs Unreserve for pod reserved under id.
func (f *fixture) unreserve(p *corev1.Pod, id uint64) state.Actions {
	if f.pods[p.UID].Spec.NodeName == "" {
		delete(f.placed, p.UID)
	}
	return f.s.Unreserve(p, id)
}

// bind feeds the binding of pod to node.
func (f *fixture) bind(p *corev1.Pod, node string) state.Actions {
	return f.addPods(boundTo(p, node))
}

// requested is what the pods the state places on node request, assumed
// ones included, as the scheduler's snapshot counts it.
func (f *fixture) requested(node string) (workload.Resources, bool) {
	if _, ok := f.nodes[node]; !ok {
		return nil, false
	}
	out := workload.Resources{}
	for uid, n := range f.placed {
		if n != node {
			continue
		}
		for name, v := range workload.PodRequests(&f.pods[uid].Spec) {
			out[name] += v
		}
	}
	return out, true
}

// free is what node has left.
func (f *fixture) free(node string) func() workload.Resources {
	return func() workload.Resources {
		req, _ := f.requested(node)
		return workload.FromList(f.nodes[node].Status.Allocatable).Sub(req)
	}
}

func (f *fixture) snapshot(key workload.Key) *state.Snapshot { return f.s.Snapshot(key, f.requested) }

// plan plans key's workload on a fresh snapshot, as PreFilter does.
func (f *fixture) plan(key workload.Key) (*state.Reservation, *planner.Failure) {
	return admission.Plan(f.snapshot(key))
}

// commit plans and commits key's workload with a one-minute permit
// timeout and follower timeout.
func (f *fixture) commit(key workload.Key) (uint64, *state.Reservation, state.Actions) {
	f.t.Helper()
	r, fail := f.plan(key)
	if fail != nil {
		f.t.Fatalf("plan %s: %v", key, fail)
	}
	r.FollowerTimeout = time.Minute
	id, acts, err := f.s.Commit(r, time.Minute)
	if err != nil {
		f.t.Fatalf("commit %s: %v", key, err)
	}
	return id, r, acts
}

// reserve runs Reserve for pod on the first node its reservation offers
// that no reserved or placed pod of the fixture uses yet.
func (f *fixture) reserve(p *corev1.Pod) (uint64, string) {
	f.t.Helper()
	nodes, ok := f.s.MemberNodes(p)
	if !ok {
		f.t.Fatalf("pod %s has no reservation", p.Name)
	}
	used := map[string]bool{}
	for uid, n := range f.placed {
		if uid != p.UID {
			used[n] = true
		}
	}
	for _, n := range sortedSet(nodes) {
		if used[n] {
			continue
		}
		f.pods[p.UID] = p
		f.placed[p.UID] = n
		return f.s.Reserve(p, n), n
	}
	f.t.Fatalf("no node left for %s among %v", p.Name, sortedSet(nodes))
	return 0, ""
}

// domains maps each slice of a reservation to its domain.
func domains(r *state.Reservation) map[int]string {
	out := map[int]string{}
	for i, sr := range r.Slices {
		out[i] = sr.Domain
	}
	return out
}

func merge(a *state.Actions, o state.Actions) {
	a.Activate = append(a.Activate, o.Activate...)
	a.Reject = append(a.Reject, o.Reject...)
	a.Events = append(a.Events, o.Events...)
	if o.Reason != "" {
		a.Reason = o.Reason
	}
}

// names lists the activated pods' names, sorted (duplicates kept).
func names(refs []state.PodRef) []string {
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.Name)
	}
	slices.Sort(out)
	return out
}

func podNames(pods ...*corev1.Pod) []string {
	out := make([]string, 0, len(pods))
	for _, p := range pods {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

func uids(pods ...*corev1.Pod) []types.UID {
	out := make([]types.UID, 0, len(pods))
	for _, p := range pods {
		out = append(out, p.UID)
	}
	slices.Sort(out)
	return out
}

func sortedSet[T interface{ UnsortedList() []string }](s T) []string {
	out := s.UnsortedList()
	slices.Sort(out)
	return out
}

// observer records what the state measures.
type observer struct {
	mu       sync.Mutex
	released []state.ReleaseReason
	placed   []time.Duration
}

func (o *observer) ReservationsActive(int) {}
func (o *observer) ReservationReleased(r state.ReleaseReason) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.released = append(o.released, r)
}
func (o *observer) GangPlaced(d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.placed = append(o.placed, d)
}
func (o *observer) GangsWaiting(int, int) {}

func (o *observer) releases() []state.ReleaseReason {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.released)
}

func (o *observer) placements() []time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.placed)
}
