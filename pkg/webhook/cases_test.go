package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The cluster every case is decided in: namespace "team" has LocalQueue
// "ours" (multislice.dev); "kueue-queue" is a name no LocalQueue of ours
// has (Kueue's); namespace "opted" has the opt-in label; the PodGroups
// below exist.
const (
	ns         = "team"
	optedNS    = "opted"
	ourQueue   = "ours"
	kueueQueue = "kueue-queue"
	scheduler  = "multislice-scheduler"
	// longQueue is a LocalQueue name too long for a label value.
	longQueue = "a-local-queue-whose-name-is-longer-than-the-sixty-three-characters-a-label-value-may-have"
)

func testLookup() *fakeLookup {
	return &fakeLookup{
		queues:  map[string]bool{ns + "/" + ourQueue: true, optedNS + "/" + ourQueue: true, ns + "/" + longQueue: true},
		optedIn: map[string]bool{optedNS: true},
		groups: map[GroupRef]string{
			{Namespace: ns, Name: "pg-ours"}:                 ourQueue,
			{Namespace: ns, Name: "pg-kueue"}:                kueueQueue,
			{Namespace: ns, Name: "pg-none"}:                 "",
			{InTree: true, Namespace: ns, Name: "gang-ours"}: ourQueue,
		},
	}
}

// fakeLookup is a Lookup of maps; err, when set, is every answer.
type fakeLookup struct {
	queues  map[string]bool
	optedIn map[string]bool
	groups  map[GroupRef]string
	err     error
}

func (f *fakeLookup) LocalQueue(_ context.Context, namespace, name string) (bool, error) {
	return f.queues[namespace+"/"+name], f.err
}

func (f *fakeLookup) NamespaceOptedIn(_ context.Context, namespace string) (bool, error) {
	return f.optedIn[namespace], f.err
}

func (f *fakeLookup) PodGroupQueue(_ context.Context, g GroupRef) (string, bool, error) {
	q, ok := f.groups[g]
	return q, ok, f.err
}

// decisionCase is an object created in testLookup's cluster and what the
// webhook decides for it.
type decisionCase struct {
	name     string
	resource metav1.GroupVersionResource
	obj      any
	want     Decision
	// byNamespace: the object opts in by its namespace only, so only the
	// namespace webhook is called for it.
	byNamespace bool
}

// reason builds the reason a decision gives.
func reason(kind, why string) string { return "the " + kind + " " + why }

func queueReason(namespace, queue string) string {
	return "names LocalQueue " + namespace + "/" + queue + " (multislice.dev)"
}

var optedReason = "namespace " + optedNS + " has label " + wellknown.DefaultSchedulerNamespaceLabel + "=true"

func decisionCases() []decisionCase {
	jobSpec := Path{"spec", "template", "spec"}
	rjSpec := func(i int) Path { return Path{"spec", "replicatedJobs", i, "template", "spec", "template", "spec"} }
	worker := Path{"spec", "leaderWorkerTemplate", "workerTemplate"}
	leader := Path{"spec", "leaderWorkerTemplate", "leaderTemplate"}
	in := func(p Path, more ...any) Path { return append(append(Path{}, p...), more...) }
	podSpec := []Path{{"spec"}}
	seedJobSet := func(namespace string) *builders.JobSetBuilder {
		return builders.JobSet(namespace, "low-jax-trillium").Exclusive(wellknown.NodePoolLabel).
			Pod(func(p *builders.PodBuilder) { p.TPU("4") }).ReplicatedJob("slice", 2, 4)
	}
	return []decisionCase{
		// Jobs.
		{name: "Job naming our queue by its label (seed 003)", resource: jobsResource,
			obj:  builders.Job(ns, "sample-job").Queue(ourQueue).Suspended(true).Obj(),
			want: Decision{PodSpecs: []Path{jobSpec}, Reason: reason("Job", queueReason(ns, ourQueue))}},
		{name: "Job naming our queue on its pod template", resource: jobsResource,
			obj:  builders.Job(ns, "j").PodLabel(wellknown.QueueNameLabel, ourQueue).Obj(),
			want: Decision{PodSpecs: []Path{jobSpec}, Reason: reason("Job", queueReason(ns, ourQueue))}},
		{name: "Job naming default-scheduler explicitly and our queue", resource: jobsResource,
			obj:  builders.Job(ns, "j").Queue(ourQueue).Scheduler(corev1.DefaultSchedulerName).Obj(),
			want: Decision{PodSpecs: []Path{jobSpec}, Reason: reason("Job", queueReason(ns, ourQueue))}},
		{name: "Job naming a queue that is not ours", resource: jobsResource,
			obj: builders.Job(ns, "j").Queue(kueueQueue).Obj()},
		{name: "Job naming no queue", resource: jobsResource,
			obj: builders.Job(ns, "j").Obj()},
		{name: "Job naming another scheduler and our queue", resource: jobsResource,
			obj: builders.Job(ns, "j").Queue(ourQueue).Scheduler("volcano").Obj()},
		{name: "Job naming our scheduler already", resource: jobsResource,
			obj: builders.Job(ns, "j").Queue(ourQueue).Scheduler(scheduler).Obj()},
		{name: "Job whose pods consume a request (seed 003 without a queue, deprecated key)", resource: jobsResource,
			obj:  builders.Job(ns, "dws-gpu-job").PodAnnotation(wellknown.DeprecatedConsumeProvisioningRequestAnnotation, "dws-gpu-request").Obj(),
			want: Decision{PodSpecs: []Path{jobSpec}, Reason: reason("Job", "its pods consume ProvisioningRequest team/dws-gpu-request")}},
		{name: "Job whose pods consume a request (current key)", resource: jobsResource,
			obj:  builders.Job(ns, "j").PodAnnotation(wellknown.ConsumeProvisioningRequestAnnotation, "req").Obj(),
			want: Decision{PodSpecs: []Path{jobSpec}, Reason: reason("Job", "its pods consume ProvisioningRequest team/req")}},
		{name: "Job whose pods name two different requests", resource: jobsResource,
			obj: builders.Job(ns, "j").PodAnnotation(wellknown.ConsumeProvisioningRequestAnnotation, "a").
				PodAnnotation(wellknown.DeprecatedConsumeProvisioningRequestAnnotation, "b").Obj()},
		{name: "JobSet's Job naming our queue: its JobSet decides", resource: jobsResource,
			obj: builders.Job(ns, "js-slice-0").Queue(ourQueue).Label(wellknown.JobSetNameLabel, "js").Obj()},
		{name: "Job in an opted-in namespace", resource: jobsResource, byNamespace: true,
			obj:  builders.Job(optedNS, "j").Obj(),
			want: Decision{PodSpecs: []Path{jobSpec}, Reason: reason("Job", optedReason)}},
		{name: "Job in an opted-in namespace naming another scheduler", resource: jobsResource, byNamespace: true,
			obj: builders.Job(optedNS, "j").Scheduler("volcano").Obj()},

		// JobSets.
		{name: "JobSet naming our queue by annotation (seed 000)", resource: jobSetsResource,
			obj:  seedJobSet(ns).Annotation(wellknown.QueueNameLabel, ourQueue).Obj(),
			want: Decision{PodSpecs: []Path{rjSpec(0)}, Reason: reason("JobSet", queueReason(ns, ourQueue))}},
		{name: "JobSet naming our queue by label, one replicated Job another scheduler's (seed 002)", resource: jobSetsResource,
			obj: builders.JobSet(ns, "multislice-2slice").Label(wellknown.QueueNameLabel, ourQueue).
				ReplicatedJob("a", 1, 2).Pod(func(p *builders.PodBuilder) { p.Scheduler("volcano") }).ReplicatedJob("b", 1, 2).
				Pod(func(p *builders.PodBuilder) { p.Scheduler(corev1.DefaultSchedulerName) }).ReplicatedJob("c", 1, 2).Obj(),
			want: Decision{PodSpecs: []Path{rjSpec(0), rjSpec(2)}, Reason: reason("JobSet", queueReason(ns, ourQueue))}},
		{name: "JobSet whose pods are ours already", resource: jobSetsResource,
			obj: builders.JobSet(ns, "js").Label(wellknown.QueueNameLabel, ourQueue).
				Pod(func(p *builders.PodBuilder) { p.Scheduler(scheduler) }).ReplicatedJob("slice", 2, 4).Obj()},
		{name: "JobSet naming a queue that is not ours", resource: jobSetsResource,
			obj: seedJobSet(ns).Label(wellknown.QueueNameLabel, kueueQueue).Obj()},
		{name: "JobSet naming no queue", resource: jobSetsResource,
			obj: seedJobSet(ns).Obj()},
		{name: "JobSet with no replicated Jobs", resource: jobSetsResource,
			obj: builders.JobSet(ns, "empty").Label(wellknown.QueueNameLabel, ourQueue).Obj()},
		{name: "JobSet whose pods consume a request", resource: jobSetsResource,
			obj: builders.JobSet(ns, "js").ReplicatedJob("plain", 1, 1).
				Pod(func(p *builders.PodBuilder) { p.Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "req") }).ReplicatedJob("consumer", 1, 1).Obj(),
			want: Decision{PodSpecs: []Path{rjSpec(0), rjSpec(1)}, Reason: reason("JobSet", "its pods consume ProvisioningRequest team/req")}},
		{name: "JobSet in an opted-in namespace", resource: jobSetsResource, byNamespace: true,
			obj:  seedJobSet(optedNS).Obj(),
			want: Decision{PodSpecs: []Path{rjSpec(0)}, Reason: reason("JobSet", optedReason)}},

		// LeaderWorkerSets.
		{name: "LeaderWorkerSet naming our queue, one template", resource: lwsResource,
			obj: newLWS(ns, "serve").label(wellknown.QueueNameLabel, ourQueue).obj(),
			want: Decision{PodSpecs: []Path{in(worker, "spec")}, QueueLabels: []Path{in(worker, "metadata")}, Queue: ourQueue,
				Reason: reason("LeaderWorkerSet", queueReason(ns, ourQueue))}},
		{name: "LeaderWorkerSet whose leader template names our queue", resource: lwsResource,
			obj: newLWS(ns, "serve").leader(func(t *corev1.PodTemplateSpec) { t.Labels = map[string]string{wellknown.QueueNameLabel: ourQueue} }).obj(),
			want: Decision{PodSpecs: []Path{in(leader, "spec"), in(worker, "spec")}, QueueLabels: []Path{in(worker, "metadata")}, Queue: ourQueue,
				Reason: reason("LeaderWorkerSet", queueReason(ns, ourQueue))}},
		{name: "LeaderWorkerSet naming our queue, workers another scheduler's", resource: lwsResource,
			obj: newLWS(ns, "serve").annotate(wellknown.QueueNameLabel, longQueue).leader(func(*corev1.PodTemplateSpec) {}).
				worker(func(t *corev1.PodTemplateSpec) { t.Spec.SchedulerName = "volcano" }).obj(),
			want: Decision{PodSpecs: []Path{in(leader, "spec")}, QueueLabels: []Path{in(leader, "metadata")}, Queue: longQueue,
				Reason: reason("LeaderWorkerSet", queueReason(ns, longQueue))}},
		{name: "LeaderWorkerSet naming a queue that is not ours", resource: lwsResource,
			obj: newLWS(ns, "serve").label(wellknown.QueueNameLabel, kueueQueue).obj()},
		{name: "LeaderWorkerSet in an opted-in namespace", resource: lwsResource, byNamespace: true,
			obj:  newLWS(optedNS, "serve").obj(),
			want: Decision{PodSpecs: []Path{in(worker, "spec")}, Reason: reason("LeaderWorkerSet", optedReason)}},

		// Pods.
		{name: "bare pod naming our queue by label", resource: podsResource,
			obj:  builders.Pod(ns, "notebook").Label(wellknown.QueueNameLabel, ourQueue).Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", queueReason(ns, ourQueue))}},
		{name: "bare pod naming our queue by annotation, default-scheduler explicitly", resource: podsResource,
			obj:  builders.Pod(ns, "notebook").Annotation(wellknown.QueueNameLabel, ourQueue).Scheduler(corev1.DefaultSchedulerName).Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", queueReason(ns, ourQueue))}},
		{name: "bare pod naming a queue that is not ours", resource: podsResource,
			obj: builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, kueueQueue).Obj()},
		{name: "plain pod", resource: podsResource,
			obj: builders.Pod(ns, "p").Obj()},
		{name: "pod naming our queue and another scheduler", resource: podsResource,
			obj: builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).Scheduler("volcano").Obj()},
		{name: "pod naming our queue, bound already", resource: podsResource,
			obj: builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).NodeName("node-1").Obj()},
		{name: "pod consuming a request (seed 003 without a queue)", resource: podsResource,
			obj:  builders.Pod(ns, "p").Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "req").Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", "its pods consume ProvisioningRequest team/req")}},
		{name: "member of a PodGroup naming our queue", resource: podsResource,
			obj:  builders.Pod(ns, "member-0").InPodGroup("pg-ours").Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", queueReason(ns, ourQueue))}},
		{name: "Job's pod in a PodGroup naming our queue", resource: podsResource,
			obj:  builders.Pod(ns, "member-0").InPodGroup("pg-ours").Label(wellknown.JobNameLabel, "j").Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", queueReason(ns, ourQueue))}},
		{name: "member of a PodGroup naming Kueue's queue, the pod ours: the group's counts", resource: podsResource,
			obj: builders.Pod(ns, "member-0").InPodGroup("pg-kueue").Label(wellknown.QueueNameLabel, ourQueue).Obj()},
		{name: "member of a PodGroup naming no queue", resource: podsResource,
			obj: builders.Pod(ns, "member-0").InPodGroup("pg-none").Obj()},
		{name: "member of a PodGroup that does not exist", resource: podsResource,
			obj: builders.Pod(ns, "member-0").InPodGroup("pg-missing").Obj()},
		{name: "member of a Kubernetes PodGroup naming our queue", resource: podsResource,
			obj:  builders.Pod(ns, "member-0").InSchedulingGroup("gang-ours").Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", queueReason(ns, ourQueue))}},
		{name: "Job's pod naming our queue: its Job decides", resource: podsResource,
			obj: builders.Pod(ns, "j-abcde").Label(wellknown.JobNameLabel, "j").Label(wellknown.QueueNameLabel, ourQueue).Obj()},
		{name: "legacy-labelled Job's pod consuming a request: its Job decides", resource: podsResource,
			obj: builders.Pod(ns, "j-abcde").Label(wellknown.LegacyJobNameLabel, "j").Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "req").Obj()},
		{name: "JobSet's pod in a PodGroup: its JobSet decides", resource: podsResource,
			obj: builders.Pod(ns, "js-0").Label(wellknown.JobSetNameLabel, "js").InPodGroup("pg-ours").Obj()},
		{name: "LeaderWorkerSet's pod naming our queue: its set decides", resource: podsResource,
			obj: builders.Pod(ns, "serve-0").Label(wellknown.LWSNameLabel, "serve").Label(wellknown.QueueNameLabel, ourQueue).Obj()},
		{name: "pod in an opted-in namespace", resource: podsResource, byNamespace: true,
			obj:  builders.Pod(optedNS, "web-7d4f").Obj(),
			want: Decision{PodSpecs: podSpec, Reason: reason("pod", optedReason)}},
		{name: "Job's pod in an opted-in namespace: its Job decides", resource: podsResource,
			obj: builders.Pod(optedNS, "j-abcde").Label(wellknown.JobNameLabel, "j").Obj()},
	}
}

// lwsBuilder builds a LeaderWorkerSet of one worker template.
type lwsBuilder struct{ lws *LeaderWorkerSet }

func newLWS(namespace, name string) *lwsBuilder {
	return &lwsBuilder{lws: &LeaderWorkerSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: wellknown.LWSGroup + "/" + wellknown.LWSVersion, Kind: "LeaderWorkerSet"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: LeaderWorkerSetSpec{LeaderWorkerTemplate: LeaderWorkerTemplate{
			WorkerTemplate: corev1.PodTemplateSpec{Spec: builders.Pod(namespace, "").Obj().Spec},
		}},
	}}
}

func (b *lwsBuilder) label(k, v string) *lwsBuilder {
	metav1.SetMetaDataLabel(&b.lws.ObjectMeta, k, v)
	return b
}

func (b *lwsBuilder) annotate(k, v string) *lwsBuilder {
	metav1.SetMetaDataAnnotation(&b.lws.ObjectMeta, k, v)
	return b
}

// leader gives the set a leader template, a copy of the workers', edited.
func (b *lwsBuilder) leader(edit func(*corev1.PodTemplateSpec)) *lwsBuilder {
	t := b.lws.Spec.LeaderWorkerTemplate.WorkerTemplate.DeepCopy()
	edit(t)
	b.lws.Spec.LeaderWorkerTemplate.LeaderTemplate = t
	return b
}

func (b *lwsBuilder) worker(edit func(*corev1.PodTemplateSpec)) *lwsBuilder {
	edit(&b.lws.Spec.LeaderWorkerTemplate.WorkerTemplate)
	return b
}

func (b *lwsBuilder) obj() *LeaderWorkerSet { return b.lws }

// rawJSON is an object as a request carries it.
func rawJSON(t testing.TB, obj any) []byte {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// decideFor decides for obj as Review does.
func decideFor(ctx context.Context, d *Decider, obj any) (Decision, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		return d.Pod(ctx, o)
	case *batchv1.Job:
		return d.Job(ctx, o)
	case *jobsetv1alpha2.JobSet:
		return d.JobSet(ctx, o)
	case *LeaderWorkerSet:
		return d.LeaderWorkerSet(ctx, o)
	}
	panic(fmt.Sprintf("no decision for a %T", obj))
}
