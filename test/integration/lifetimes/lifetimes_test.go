package lifetimes_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

const (
	class    = "dws-model-inference-class"
	gpuModel = "nvidia-l4"
)

// env is a control plane with the JobSet and ComputeClass APIs and the
// scheduler.
type env struct {
	cp      *harness.ControlPlane
	jobsets *harness.JobSets
	ns      string
}

func start(t *testing.T) *env {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.InstallComputeClassCRD(t)
	e := &env{cp: cp, jobsets: cp.NewJobSets(t, harness.AllAtOnce), ns: cp.CreateNamespace(t, "flex")}
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	return e
}

// createClass creates the class with two flex-start priorities:
// g2-standard-24 nodes that run for run24 seconds and are recycled lead24
// seconds before their end, and g2-standard-48 nodes that run a day.
func (e *env) createClass(t *testing.T, run24, lead24 int64) {
	t.Helper()
	cc := builders.ComputeClass(class).FlexStart("g2-standard-24", run24, lead24).FlexStart("g2-standard-48", 86400, 3600).Obj()
	if _, err := e.cp.Queues().Client.CloudV1().ComputeClasses().Create(t.Context(), cc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// pool creates a flex-start pool of two one-GPU nodes of the class, of
// machine type machine.
func (e *env) pool(t *testing.T, name, machine string) {
	t.Helper()
	e.cp.CreateNodePool(t, builders.NodePool(name).Nodes(2).GPU(gpuModel, 1).
		Label(wellknown.ComputeClassLabel, class).Label(wellknown.FlexStartLabel, "true").
		Label(corev1.LabelInstanceTypeStable, machine))
}

// jobSet is a JobSet of one slice of two one-GPU pods selecting the class,
// each slice on a node pool of its own; annotations are the JobSet's.
func (e *env) jobSet(name string, annotations map[string]string) *builders.JobSetBuilder {
	b := builders.JobSet(e.ns, name).Pod(func(p *builders.PodBuilder) {
		p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "1").NodeSelector(wellknown.ComputeClassLabel, class)
	})
	for k, v := range annotations {
		b.Annotation(k, v)
	}
	return b
}

// A workload whose maximum run is known goes to the flex-start pool whose
// nodes outlive it, as its class says (the g2-standard-24 nodes end after
// 30 minutes, the g2-standard-48 ones after a day), although the other
// pool comes first by name.
func TestRunLengthPicksNodesThatOutliveIt(t *testing.T) {
	e := start(t)
	e.createClass(t, 1800, -1)
	e.pool(t, "a-half-hour", "g2-standard-24")
	e.pool(t, "b-day", "g2-standard-48")
	e.jobsets.Create(t, e.jobSet("hour", map[string]string{
		wellknown.ProvReqAnnotationPrefix + wellknown.MaxRunDurationSecondsParameter: "3600",
	}).ReplicatedJob("slice", 1, 2).Obj())
	e.cp.CheckBoundInPool(t, e.ns, "b-day", "hour-slice-0-0-a0", "hour-slice-0-1-a0")

	// A run that both pools outlive takes the first of two equally tight
	// pools: the half-hour one.
	e.jobsets.Create(t, e.jobSet("short", map[string]string{
		wellknown.ProvReqAnnotationPrefix + wellknown.MaxRunDurationSecondsParameter: "600",
	}).ReplicatedJob("slice", 1, 2).Obj())
	e.cp.CheckBoundInPool(t, e.ns, "a-half-hour", "short-slice-0-0-a0", "short-slice-0-1-a0")
}

// Nodes whose replacement is being made (their class recycles them 59 of
// their 60 seconds early: at once) take no new workload while a pool that
// is not being recycled fits it.
func TestRecyclingPoolsTakeNoNewWork(t *testing.T) {
	e := start(t)
	e.createClass(t, 60, 59)
	e.pool(t, "a-recycling", "g2-standard-24")
	e.pool(t, "b-fresh", "g2-standard-48")
	time.Sleep(2 * time.Second) // the a-recycling nodes are past their recycling start
	e.jobsets.Create(t, e.jobSet("new", nil).ReplicatedJob("slice", 1, 2).Obj())
	e.cp.CheckBoundInPool(t, e.ns, "b-fresh", "new-slice-0-0-a0", "new-slice-0-1-a0")
}
