package demo

import (
	"context"
	"fmt"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/autoprovision"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// pollInterval is how often a waitFor step looks.
const pollInterval = 500 * time.Millisecond

// waitFor runs a waitFor step: until its object is as it asks, the
// scenario's time runs out, or the cluster fails.
func (r *runner) waitFor(ctx context.Context, w WaitFor) error {
	switch {
	case w.Job != "":
		return r.waitForJob(ctx, w.Job, w.State)
	case w.ProvisioningRequest != "":
		return r.waitForRequest(ctx, w.ProvisioningRequest, w.Condition)
	case w.Pool != "":
		return r.waitForPool(ctx, w.Pool, w.PoolState)
	case w.ComputeClass != "":
		return r.waitForClassNodes(ctx, w.ComputeClass, w.Nodes)
	}
	return r.waitForJobSet(ctx, w)
}

// poll calls cond until it holds or fails, or the cluster fails.
func (r *runner) poll(ctx context.Context, cond wait.ConditionWithContextFunc) error {
	return wait.PollUntilContextCancel(ctx, pollInterval, true, func(ctx context.Context) (bool, error) {
		select {
		case <-r.cluster.Failed():
			return false, r.cluster.Err()
		default:
		}
		return cond(ctx)
	})
}

func (r *runner) waitForJob(ctx context.Context, name, state string) error {
	err := r.poll(ctx, func(ctx context.Context) (bool, error) {
		job, err := r.client.BatchV1().Jobs(r.s.Namespace).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, fmt.Errorf("no Job %s/%s", r.s.Namespace, name)
		}
		if err != nil {
			return false, nil
		}
		running := int32(0)
		if state == StateRunning {
			if running, err = RunningJobPods(ctx, r.client, job); err != nil {
				return false, nil
			}
		}
		return JobReached(job, state, running), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for Job %s to be %s: %w", name, state, err)
	}
	return nil
}

// JobReached reports whether a Job is in a state, runningPods being how
// many of its pods are bound and Running.
func JobReached(job *batchv1.Job, state string, runningPods int32) bool {
	switch state {
	case StateCompleted:
		return jobCondition(job, batchv1.JobComplete)
	case StateFinished:
		return jobCondition(job, batchv1.JobComplete) || jobCondition(job, batchv1.JobFailed)
	case StateRunning:
		parallelism := int32(1)
		if job.Spec.Parallelism != nil {
			parallelism = *job.Spec.Parallelism
		}
		suspended := job.Spec.Suspend != nil && *job.Spec.Suspend
		return !suspended && runningPods == parallelism
	}
	return false
}

func jobCondition(job *batchv1.Job, typ batchv1.JobConditionType) bool {
	for _, c := range job.Status.Conditions {
		if c.Type == typ && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// RunningJobPods counts the Job's pods that are bound, Running and not
// being deleted. Pods are the Job's by its UID, not only its name: a Job
// re-created under the same name has other pods.
func RunningJobPods(ctx context.Context, client kubernetes.Interface, job *batchv1.Job) (int32, error) {
	return runningPods(ctx, client, job.Namespace, wellknown.JobControllerUIDLabel+"="+string(job.UID))
}

func (r *runner) waitForRequest(ctx context.Context, name, condition string) error {
	err := r.poll(ctx, func(ctx context.Context) (bool, error) {
		// The scheduler creates the request once the workload's quota is
		// reserved: until then there is none.
		req, err := r.requests.AutoscalingV1().ProvisioningRequests(r.s.Namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		return RequestReached(req, condition), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for ProvisioningRequest %s to be %s: %w", name, condition, err)
	}
	return nil
}

// RequestReached reports whether a ProvisioningRequest's condition is
// True.
func RequestReached(req *autoscalingv1.ProvisioningRequest, condition string) bool {
	return meta.IsStatusConditionTrue(req.Status.Conditions, condition)
}

func (r *runner) waitForPool(ctx context.Context, pool, state string) error {
	err := r.poll(ctx, func(ctx context.Context) (bool, error) {
		nodes, err := r.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.NodePoolLabel + "=" + pool})
		if err != nil {
			return false, nil
		}
		return PoolReached(nodes.Items, state), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for node pool %s to be %s: %w", pool, state, err)
	}
	return nil
}

// PoolReached reports whether a pool's nodes are in a state.
func PoolReached(nodes []corev1.Node, state string) bool {
	switch state {
	case PoolRemoved:
		return len(nodes) == 0
	case PoolReady:
		for i := range nodes {
			if faults.NodeHealth(&nodes[i]) != faults.Healthy {
				return false
			}
		}
		return len(nodes) > 0
	}
	return false
}

func (r *runner) waitForClassNodes(ctx context.Context, class, state string) error {
	err := r.poll(ctx, func(ctx context.Context) (bool, error) {
		nodes, err := r.client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.ComputeClassLabel + "=" + class})
		if err != nil {
			return false, nil
		}
		return ClassNodesReached(nodes.Items, state), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the nodes of ComputeClass %s to be %s: %w", class, state, err)
	}
	return nil
}

// ClassNodesReached reports whether the nodes of a ComputeClass are in a
// state (NodesReady, NodesRecycled, NodesReplaced).
func ClassNodesReached(nodes []corev1.Node, state string) bool {
	switch state {
	case NodesReady:
		return PoolReached(nodes, PoolReady)
	case NodesRecycled:
		for _, n := range nodes {
			if _, ok := n.Annotations[autoprovision.CordonedAnnotation]; ok && n.Spec.Unschedulable {
				return true
			}
		}
	case NodesReplaced:
		for _, n := range nodes {
			if n.Annotations[autoprovision.ReplacesAnnotation] == "" {
				return false
			}
		}
		return len(nodes) > 0
	}
	return false
}
