package feed

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// watchJobs feeds queue-managed plain Jobs into the state as workloads,
// from the scheduler's own informer factory (the batch API is always
// served, so no discovery is needed), and starts the controller that
// unsuspends queue-managed Jobs and JobSets while this replica leads. It
// returns that controller, for the JobSet informer to feed.
func (rt *Runtime) watchJobs(ctx context.Context) *controllers.Unsuspender {
	logger := klog.FromContext(ctx)
	jobs := rt.informers.kube.Batch().V1().Jobs()
	informer := jobs.Informer()
	st := rt.state
	un := controllers.NewUnsuspender(st, rt.events, rt.cluster.Client.BatchV1(), jobs.Lister(), rt.defaultDomainKey, rt.workloads.Write)
	context.AfterFunc(ctx, un.ShutDown)
	_, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if job, ok := obj.(*batchv1.Job); ok {
				rt.jobChanged(ctx, nil, job)
				un.JobChanged(job)
			}
		},
		UpdateFunc: func(oldObj, obj any) {
			old, _ := oldObj.(*batchv1.Job)
			if job, ok := obj.(*batchv1.Job); ok {
				rt.jobChanged(ctx, old, job)
				un.JobChanged(job)
			}
		},
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if job, ok := obj.(*batchv1.Job); ok && isJobWorkload(job) {
				rt.Act(ctx, st.DeleteSource(jobWorkloadKey(job)))
			}
		},
	})
	if err != nil {
		// Only a stopped informer refuses handlers; its pods then wait.
		logger.Error(err, "Watching Jobs; their queued pods wait")
		return un
	}
	go func() {
		// The scheduler starts its informer factory once every profile is
		// built; until the Jobs are listed, queued Job pods wait.
		if toolscache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			rt.Act(ctx, st.SetAPI(workload.SourceJob, state.APIServed))
			logger.Info("Watching workloads", "api", batchv1.SchemeGroupVersion.String(), "resource", "jobs")
		}
	}()
	rt.WhileLeading(ctx, func(ctx context.Context) { un.Run(ctx, informer.HasSynced) })
	return un
}

// isJobWorkload reports whether a Job is a workload of its own: it names a
// LocalQueue and no JobSet owns it (a JobSet's Jobs are its slices).
// Other Jobs' pods are plain pods, so nothing is derived for them.
func isJobWorkload(job *batchv1.Job) bool {
	return job.Labels[wellknown.JobSetNameLabel] == "" && workload.JobQueueName(job) != ""
}

func jobWorkloadKey(job *batchv1.Job) workload.Key {
	return workload.Key{Source: workload.SourceJob, Namespace: job.Namespace, Name: job.Name}
}

// deriveJob turns a Job that is a workload into the state's model.
func deriveJob(job *batchv1.Job, defaultDomainKey string) derived {
	w, err := workload.FromJob(job, defaultDomainKey)
	return derived{
		key: jobWorkloadKey(job),
		w:   w, err: err,
		ref: corev1.ObjectReference{Kind: "Job", APIVersion: batchv1.SchemeGroupVersion.String(), Namespace: job.Namespace, Name: job.Name, UID: job.UID},
	}
}

// jobChanged keeps the state's view of a Job current: its workload while
// it is one, forgotten when it stops being one (its queue label removed).
func (rt *Runtime) jobChanged(ctx context.Context, old, job *batchv1.Job) {
	if !isJobWorkload(job) {
		if old != nil && isJobWorkload(old) {
			rt.Act(ctx, rt.state.DeleteSource(jobWorkloadKey(old)))
		}
		return
	}
	d := deriveJob(job, rt.defaultDomainKey)
	if d.err != nil {
		rt.events.Warn(&d.ref, "InvalidWorkload", d.err.Error())
	}
	rt.Act(ctx, rt.state.UpsertSource(d.key, d.w, d.err, d.ref))
}
