package demo

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Run executes the scenario's steps on the cluster, narrating on tl.
func Run(ctx context.Context, c *localcluster.Cluster, s *Scenario, tl *timeline.Timeline) error {
	ctx, cancel := context.WithTimeout(ctx, s.Timeout.Duration)
	defer cancel()
	js, err := jobsetclient.NewForConfig(c.AdminConfig)
	if err != nil {
		return err
	}
	// Custom resources speak JSON only.
	jsonCfg := rest.CopyConfig(c.AdminConfig)
	jsonCfg.ContentType = runtime.ContentTypeJSON
	jsonCfg.AcceptContentTypes = runtime.ContentTypeJSON
	requests, err := versioned.NewForConfig(jsonCfg)
	if err != nil {
		return err
	}
	r := &runner{cluster: c, client: c.Client, jobsets: js, requests: requests, injector: &faults.Injector{Client: c.Client}, s: s, tl: tl}
	for i, st := range s.Steps {
		if st.Note != "" {
			tl.Note("--", "%s", st.Note)
		}
		if err := r.step(ctx, st); err != nil {
			return fmt.Errorf("steps[%d]: %w", i, err)
		}
		select {
		case <-c.Failed():
			return c.Err()
		default:
		}
	}
	return nil
}

type runner struct {
	cluster  *localcluster.Cluster
	client   kubernetes.Interface
	jobsets  jobsetclient.Interface
	requests versioned.Interface
	injector *faults.Injector
	s        *Scenario
	tl       *timeline.Timeline
	failed   []string
}

func (r *runner) step(ctx context.Context, st Step) error {
	switch {
	case st.Apply != "":
		data, err := os.ReadFile(r.s.Path(st.Apply))
		if err != nil {
			return err
		}
		objs, err := localcluster.DecodeYAML(data)
		if err != nil {
			return fmt.Errorf("%s: %w", st.Apply, err)
		}
		r.tl.Note("--", "kubectl apply -f %s", st.Apply)
		return r.cluster.Apply(ctx, objs, r.s.Namespace)
	case st.Sleep != nil:
		select {
		case <-time.After(st.Sleep.Duration):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	case st.WaitFor != nil:
		return r.waitFor(ctx, *st.WaitFor)
	case st.NodePools != "":
		data, err := os.ReadFile(r.s.Path(st.NodePools))
		if err != nil {
			return err
		}
		plan, err := r.cluster.SetNodePools(ctx, data, 90*time.Second)
		if err != nil {
			return fmt.Errorf("%s: %w", st.NodePools, err)
		}
		r.tl.Note("--", "node pools of %s: %d nodes added, %d changed, %d removed, all Ready",
			st.NodePools, len(plan.Create), len(plan.Update)+len(plan.UpdateStatus), len(plan.Delete))
		return nil
	case st.FailPool != nil:
		pool, err := r.resolvePool(ctx, *st.FailPool)
		if err != nil {
			return err
		}
		r.tl.Note("pool "+pool, "fault injected: the whole node pool fails")
		if err := r.injector.FailPool(ctx, pool); err != nil {
			return err
		}
		r.failed = append(r.failed, pool)
		return nil
	case st.RecoverPool != nil:
		pools := r.failed
		if st.RecoverPool.Pool != "" || st.RecoverPool.OfJobSet != "" {
			pool, err := r.resolvePool(ctx, *st.RecoverPool)
			if err != nil {
				return err
			}
			pools = []string{pool}
		}
		for _, pool := range pools {
			r.tl.Note("pool "+pool, "repaired: failure taint removed")
			if err := r.injector.RecoverPool(ctx, pool); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("empty step")
}

// resolvePool finds the pool a PoolRef names.
func (r *runner) resolvePool(ctx context.Context, ref PoolRef) (string, error) {
	if ref.Pool != "" {
		return ref.Pool, nil
	}
	pods, err := r.client.CoreV1().Pods(r.s.Namespace).List(ctx, metav1.ListOptions{
		LabelSelector: jobsetv1alpha2.JobSetNameKey + "=" + ref.OfJobSet + "," + jobsetv1alpha2.JobGlobalIndexKey + "=" + strconv.Itoa(ref.Slice),
	})
	if err != nil {
		return "", err
	}
	for _, p := range pods.Items {
		if p.Annotations[batchv1.JobCompletionIndexAnnotation] != "0" || p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
			continue
		}
		node, err := r.client.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		return node.Labels[wellknown.NodePoolLabel], nil
	}
	return "", fmt.Errorf("slice %d of JobSet %s has no scheduled leader pod", ref.Slice, ref.OfJobSet)
}

func (r *runner) waitForJobSet(ctx context.Context, w WaitFor) error {
	err := r.poll(ctx, func(ctx context.Context) (bool, error) {
		if w.JobSet == "*" {
			list, err := r.jobsets.JobsetV1alpha2().JobSets(r.s.Namespace).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, nil
			}
			for i := range list.Items {
				if !reached(&list.Items[i], w.State, 0) {
					return false, nil
				}
			}
			return len(list.Items) > 0, nil
		}
		js, err := r.jobsets.JobsetV1alpha2().JobSets(r.s.Namespace).Get(ctx, w.JobSet, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, fmt.Errorf("no JobSet %s/%s", r.s.Namespace, w.JobSet)
		}
		if err != nil {
			return false, nil
		}
		running := int32(0)
		if w.State == StateRunning {
			if running, err = RunningPods(ctx, r.client, js); err != nil {
				return false, nil
			}
		}
		return reached(js, w.State, running), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for JobSet %s to be %s: %w", w.JobSet, w.State, err)
	}
	return nil
}

func reached(js *jobsetv1alpha2.JobSet, state string, runningPods int32) bool {
	switch state {
	case StateCompleted:
		return js.Status.TerminalState == string(jobsetv1alpha2.JobSetCompleted)
	case StateFinished:
		return js.Status.TerminalState != ""
	case StateRestarted:
		return js.Status.Restarts > 0
	case StateRunning:
		return runningPods == ExpectedPods(js)
	}
	return false
}

// ExpectedPods is how many pods a JobSet runs at once: the sum over its
// replicated jobs of replicas × parallelism.
func ExpectedPods(js *jobsetv1alpha2.JobSet) int32 {
	var n int32
	for _, rj := range js.Spec.ReplicatedJobs {
		p := int32(1)
		if rj.Template.Spec.Parallelism != nil {
			p = *rj.Template.Spec.Parallelism
		}
		n += rj.Replicas * p
	}
	return n
}

// RunningPods counts the JobSet's pods that are bound, Running and not
// being deleted.
func RunningPods(ctx context.Context, client kubernetes.Interface, js *jobsetv1alpha2.JobSet) (int32, error) {
	return runningPods(ctx, client, js.Namespace, jobsetv1alpha2.JobSetNameKey+"="+js.Name)
}

// runningPods counts the pods of namespace matching selector that are
// bound, Running and not being deleted.
func runningPods(ctx context.Context, client kubernetes.Interface, namespace, selector string) (int32, error) {
	pods, err := client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return 0, err
	}
	var n int32
	for _, p := range pods.Items {
		if p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
			n++
		}
	}
	return n, nil
}
