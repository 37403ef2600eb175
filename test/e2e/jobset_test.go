package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// restartAttemptLabel is the label the JobSet controller puts on the Jobs
// and pods of each attempt (sigs.k8s.io/jobset/pkg/constants.RestartsKey).
const restartAttemptLabel = "jobset.sigs.k8s.io/restart-attempt"

// A 2-slice JobSet goes JobSet → Jobs → pods through the real controllers
// and the JobSet webhooks, and multislice-scheduler binds every pod: each
// slice lands on its own v5e pool, followers pinned to their leader's pool.
func TestTwoSliceJobSetRunsThroughWebhooks(t *testing.T) {
	ns := namespace(t)
	js := createJobSet(t, v5eJobSet(ns, "two-slices", 2))
	pods := waitRunning(t, js, 4, 90*time.Second)

	leaderPool := map[string]string{} // job index → pool of its leader
	for _, p := range pods {
		if p.Spec.SchedulerName != app.Name {
			t.Errorf("%s: schedulerName %q", p.Name, p.Spec.SchedulerName)
		}
		if p.Annotations[batchv1.JobCompletionIndexAnnotation] == "0" {
			leaderPool[p.Labels[jobsetv1alpha2.JobIndexKey]] = poolOfNode(t, p.Spec.NodeName)
		}
		// ExtendedResourceToleration admission let the pod onto the pool's
		// google.com/tpu=present:NoSchedule taint.
		tolerates := false
		for _, tol := range p.Spec.Tolerations {
			tolerates = tolerates || tol.Key == string(wellknown.ResourceTPU)
		}
		if !tolerates {
			t.Errorf("%s: no google.com/tpu toleration: %v", p.Name, p.Spec.Tolerations)
		}
	}
	if len(leaderPool) != 2 || leaderPool["0"] == "" || leaderPool["0"] == leaderPool["1"] {
		t.Fatalf("slice leaders on pools %v, want two different pools", leaderPool)
	}

	for _, p := range pods {
		slice := p.Labels[jobsetv1alpha2.JobIndexKey]
		pool := poolOfNode(t, p.Spec.NodeName)
		if pool != leaderPool[slice] {
			t.Errorf("%s of slice %s on pool %s, its leader on %s", p.Name, slice, pool, leaderPool[slice])
		}
		if p.Annotations[batchv1.JobCompletionIndexAnnotation] == "0" {
			// The pod webhook's exclusive-placement affinities.
			aff := p.Spec.Affinity
			if aff == nil || aff.PodAffinity == nil || aff.PodAntiAffinity == nil ||
				len(aff.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution) == 0 ||
				aff.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].TopologyKey != wellknown.NodePoolLabel ||
				len(aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution) == 0 ||
				aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].TopologyKey != wellknown.NodePoolLabel {
				t.Errorf("leader %s lacks the JobSet webhook's affinities on %s: %+v", p.Name, wellknown.NodePoolLabel, aff)
			}
		} else if got := p.Spec.NodeSelector[wellknown.NodePoolLabel]; got != leaderPool[slice] {
			// The webhook pinned the follower to its leader's pool.
			t.Errorf("follower %s nodeSelector %s=%q, want %q", p.Name, wellknown.NodePoolLabel, got, leaderPool[slice])
		}

		// Bound by multislice-scheduler, not the default scheduler.
		events, err := client.CoreV1().Events(ns).List(t.Context(), metav1.ListOptions{FieldSelector: fields.AndSelectors(
			fields.OneTermEqualSelector("involvedObject.name", p.Name),
			fields.OneTermEqualSelector("reason", "Scheduled")).String()})
		if err != nil {
			t.Fatal(err)
		}
		by := ""
		for _, e := range events.Items {
			by = e.ReportingController + e.Source.Component
		}
		if by != app.Name {
			t.Errorf("%s: Scheduled event from %q, want %q", p.Name, by, app.Name)
		}
	}

	// Followers were held back by the validating webhook until their
	// leader was scheduled: the Job controller records the rejections.
	jobEvents, err := client.CoreV1().Events(ns).List(t.Context(), metav1.ListOptions{FieldSelector: "involvedObject.kind=Job,reason=FailedCreate"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range jobEvents.Items {
		if !strings.Contains(e.Message, `admission webhook "vpod.kb.io" denied the request`) {
			t.Errorf("unexpected pod creation failure of %s: %s", e.InvolvedObject.Name, e.Message)
		}
	}
	t.Logf("slices on pools %v; %d follower creations held back by the webhook", leaderPool, len(jobEvents.Items))
}

// Failing the node pool of a running slice evicts its pods; the Job fails
// and the JobSet controller recreates the whole JobSet, which lands on the
// remaining healthy pools. Recovery makes the pool Ready again.
func TestPoolFailureRestartsJobSet(t *testing.T) {
	ns := namespace(t)
	js := createJobSet(t, v5eJobSet(ns, "survivor", 2))
	pods := waitRunning(t, js, 4, 90*time.Second)
	var victim string
	for _, p := range pods {
		if p.Labels[jobsetv1alpha2.JobIndexKey] == "0" {
			victim = poolOfNode(t, p.Spec.NodeName)
		}
	}

	injector := &faults.Injector{Client: client}
	if err := injector.FailPool(t.Context(), victim); err != nil {
		t.Fatal(err)
	}
	recovered := false
	t.Cleanup(func() {
		if !recovered {
			_ = injector.RecoverPool(context.Background(), victim)
		}
	})
	// KWOK reports the nodes NotReady; the node lifecycle controller adds
	// its NoExecute taint.
	if err := injector.WaitForHealth(t.Context(), victim, faults.Failed, 60*time.Second); err != nil {
		t.Fatal(err)
	}
	poll(t, "node lifecycle taint on pool "+victim, 60*time.Second, func(ctx context.Context) (bool, error) {
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.NodePoolLabel + "=" + victim})
		if err != nil {
			return false, nil
		}
		for _, n := range nodes.Items {
			tainted := false
			for _, taint := range n.Spec.Taints {
				tainted = tainted || (taint.Key == corev1.TaintNodeNotReady && taint.Effect == corev1.TaintEffectNoExecute)
			}
			if !tainted {
				return false, nil
			}
		}
		return true, nil
	})

	poll(t, "JobSet restart", 90*time.Second, func(ctx context.Context) (bool, error) {
		cur, err := jobsets.JobsetV1alpha2().JobSets(ns).Get(ctx, js.Name, metav1.GetOptions{})
		return err == nil && cur.Status.Restarts >= 1, nil
	})
	for _, p := range waitRunning(t, js, 4, 120*time.Second) {
		if pool := poolOfNode(t, p.Spec.NodeName); pool == victim {
			t.Errorf("%s runs on the failed pool %s", p.Name, pool)
		}
		if p.Labels[restartAttemptLabel] == "0" {
			t.Errorf("%s is from before the restart", p.Name)
		}
	}

	if err := injector.RecoverPool(t.Context(), victim); err != nil {
		t.Fatal(err)
	}
	recovered = true
	if err := injector.WaitForHealth(t.Context(), victim, faults.Healthy, 90*time.Second); err != nil {
		t.Fatal(err)
	}
}

// Pods complete after the run time set on them, so the JobSet completes.
func TestJobSetCompletesAfterRunTime(t *testing.T) {
	ns := namespace(t)
	js := v5eJobSet(ns, "short", 1)
	js.Spec.ReplicatedJobs[0].Template.Spec.Template.Annotations = map[string]string{localcluster.RunTimeAnnotation: "3s"}
	js = createJobSet(t, js)
	poll(t, "JobSet completion", 90*time.Second, func(ctx context.Context) (bool, error) {
		cur, err := jobsets.JobsetV1alpha2().JobSets(ns).Get(ctx, js.Name, metav1.GetOptions{})
		return err == nil && cur.Status.TerminalState == string(jobsetv1alpha2.JobSetCompleted), nil
	})
	pods, err := jobSetPods(t.Context(), js)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods {
		if p.Status.Phase != corev1.PodSucceeded {
			t.Errorf("%s is %s, want Succeeded", p.Name, p.Status.Phase)
		}
	}
}

// Editing the node pool file while the cluster runs adds and removes nodes.
func TestNodePoolFileChangesCluster(t *testing.T) {
	original, err := os.ReadFile(poolsFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.WriteFile(poolsFile, original, 0o644) })
	// The new pool goes first in the pools list: appended at the end of
	// the file it would land in whatever list comes last.
	const pools = "\npools:\n"
	at := strings.Index(string(original), pools)
	if at < 0 {
		t.Fatalf("%s has no top-level pools list", poolsFile)
	}
	at += len(pools)
	extra := string(original[:at]) + `  - name: e2e-extra
    nodes: 2
    zone: europe-west4-a
    gpu: {model: nvidia-h100-80gb, perNode: 8}
` + string(original[at:])
	writeAtomically(t, poolsFile, extra)
	poll(t, "nodes of pool e2e-extra Ready", 60*time.Second, func(ctx context.Context) (bool, error) {
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.NodePoolLabel + "=e2e-extra"})
		if err != nil || len(nodes.Items) != 2 {
			return false, nil
		}
		for _, n := range nodes.Items {
			gpus := n.Status.Allocatable[wellknown.ResourceGPU]
			if n.Labels[wellknown.GPUAcceleratorLabel] != "nvidia-h100-80gb" || gpus.Value() != 8 {
				return false, nil
			}
			ready := false
			for _, c := range n.Status.Conditions {
				ready = ready || (c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue)
			}
			if !ready {
				return false, nil
			}
		}
		return true, nil
	})

	writeAtomically(t, poolsFile, string(original))
	poll(t, "pool e2e-extra removed", 60*time.Second, func(ctx context.Context) (bool, error) {
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.NodePoolLabel + "=e2e-extra"})
		return err == nil && len(nodes.Items) == 0, nil
	})
}

// Every example manifest is accepted by the cluster: schema, JobSet
// webhooks and all (server-side dry run).
func TestExamplesAreAccepted(t *testing.T) {
	ns := namespace(t)
	var files []string
	for _, pattern := range []string{"manifests/examples/*.yaml", "manifests/examples/*/*.yaml"} {
		matches, err := filepath.Glob(filepath.Join(repoRoot, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	applied := 0
	kinds := map[string]int{}
	for _, f := range files {
		base := filepath.Base(f)
		if base == "nodepools.yaml" || base == "demo.yaml" || filepath.Base(filepath.Dir(f)) == "helm" {
			// The node pool file, the demo's script and Helm values are
			// no Kubernetes objects (the Helm release has its own test).
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := localcluster.DecodeYAML(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, o := range objs {
			if o.GetKind() == "JobSet" {
				o.SetNamespace(ns)
			}
			kinds[o.GetKind()]++
		}
		if err := cluster.DryRunApply(t.Context(), objs, ns); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		applied += len(objs)
	}
	if applied < 6 {
		t.Errorf("only %d example objects found", applied)
	}
	// JobSets, PriorityClasses, and a scheduler-plugins PodGroup with its
	// pods, whose CRD the local cluster installs.
	for _, kind := range []string{"JobSet", "PriorityClass", "PodGroup", "Pod"} {
		if kinds[kind] == 0 {
			t.Errorf("no %s among the examples (%v)", kind, kinds)
		}
	}
}

func writeAtomically(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}
