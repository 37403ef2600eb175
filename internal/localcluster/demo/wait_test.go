package demo

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

func TestJobReached(t *testing.T) {
	job := func(suspend bool, conds ...batchv1.JobConditionType) *batchv1.Job {
		j := &batchv1.Job{Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](2), Suspend: ptr.To(suspend)}}
		for _, c := range conds {
			j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: c, Status: corev1.ConditionTrue})
		}
		return j
	}
	falseComplete := job(false)
	falseComplete.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionFalse}}
	tests := map[string]struct {
		job     *batchv1.Job
		state   string
		running int32
		want    bool
	}{
		"all pods running":                 {job(false), StateRunning, 2, true},
		"one of two running":               {job(false), StateRunning, 1, false},
		"suspended, its pods not yet gone": {job(true), StateRunning, 2, false},
		"parallelism defaults to one":      {&batchv1.Job{}, StateRunning, 1, true},
		"completed":                        {job(false, batchv1.JobComplete), StateCompleted, 0, true},
		"complete is not True":             {falseComplete, StateCompleted, 0, false},
		"failed is not completed":          {job(false, batchv1.JobFailed), StateCompleted, 0, false},
		"failed is finished":               {job(false, batchv1.JobFailed), StateFinished, 0, true},
		"completed is finished":            {job(false, batchv1.JobComplete), StateFinished, 0, true},
		"running is not finished":          {job(false), StateFinished, 2, false},
		"restarted is for JobSets":         {job(false), StateRestarted, 2, false},
	}
	for name, tc := range tests {
		if got := JobReached(tc.job, tc.state, tc.running); got != tc.want {
			t.Errorf("%s: JobReached = %v, want %v", name, got, tc.want)
		}
	}
}

func TestRequestReached(t *testing.T) {
	req := &autoscalingv1.ProvisioningRequest{Status: autoscalingv1.ProvisioningRequestStatus{Conditions: []metav1.Condition{
		{Type: autoscalingv1.Accepted, Status: metav1.ConditionTrue},
		{Type: autoscalingv1.Provisioned, Status: metav1.ConditionFalse},
	}}}
	for cond, want := range map[string]bool{autoscalingv1.Accepted: true, autoscalingv1.Provisioned: false, autoscalingv1.Failed: false} {
		if got := RequestReached(req, cond); got != want {
			t.Errorf("RequestReached(%s) = %v, want %v", cond, got, want)
		}
	}
}

func TestPoolReached(t *testing.T) {
	node := func(ready bool) corev1.Node {
		status := corev1.ConditionFalse
		if ready {
			status = corev1.ConditionTrue
		}
		return corev1.Node{Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status}}}}
	}
	failed := node(true)
	failed.Spec.Taints = []corev1.Taint{{Key: faults.PoolFailureTaint, Effect: corev1.TaintEffectNoExecute}}
	tests := map[string]struct {
		nodes []corev1.Node
		state string
		want  bool
	}{
		"no nodes: removed":          {nil, PoolRemoved, true},
		"no nodes: not ready":        {nil, PoolReady, false},
		"nodes left: not removed":    {[]corev1.Node{node(true)}, PoolRemoved, false},
		"all ready":                  {[]corev1.Node{node(true), node(true)}, PoolReady, true},
		"one not ready yet":          {[]corev1.Node{node(true), node(false)}, PoolReady, false},
		"a failed node is not ready": {[]corev1.Node{node(true), failed}, PoolReady, false},
	}
	for name, tc := range tests {
		if got := PoolReached(tc.nodes, tc.state); got != tc.want {
			t.Errorf("%s: PoolReached = %v, want %v", name, got, tc.want)
		}
	}
}
