package feed

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// watchJobs feeds queue-managed plain Jobs into the state as workloads,
// from the scheduler's own informer factory (the batch API is always
// served, so no discovery is needed).
func (f *Feed) watchJobs(ctx context.Context) {
	logger := klog.FromContext(ctx)
	informer := f.informers.kube.Batch().V1().Jobs().Informer()
	st := f.state
	_, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if job, ok := obj.(*batchv1.Job); ok {
				f.jobChanged(ctx, nil, job)
				if f.hooks.JobChanged != nil {
					f.hooks.JobChanged(job)
				}
			}
		},
		UpdateFunc: func(oldObj, obj any) {
			old, _ := oldObj.(*batchv1.Job)
			if job, ok := obj.(*batchv1.Job); ok {
				f.jobChanged(ctx, old, job)
				if f.hooks.JobChanged != nil {
					f.hooks.JobChanged(job)
				}
			}
		},
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if job, ok := obj.(*batchv1.Job); ok && isJobWorkload(job) {
				f.act(ctx, st.Feed().DeleteSource(jobWorkloadKey(job)))
			}
		},
	})
	if err != nil {
		// Only a stopped informer refuses handlers; its pods then wait.
		logger.Error(err, "Watching Jobs; their queued pods wait")
		return
	}
	go func() {
		// The scheduler starts its informer factory once every profile is
		// built; until the Jobs are listed, queued Job pods wait.
		if toolscache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
			f.act(ctx, st.Feed().SetAPI(workload.SourceJob, state.APIServed))
			logger.Info("Watching workloads", "api", batchv1.SchemeGroupVersion.String(), "resource", "jobs")
		}
	}()
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
func (f *Feed) jobChanged(ctx context.Context, old, job *batchv1.Job) {
	if !isJobWorkload(job) {
		if old != nil && isJobWorkload(old) {
			f.act(ctx, f.state.Feed().DeleteSource(jobWorkloadKey(old)))
		}
		return
	}
	d := deriveJob(job, f.defaultDomainKey)
	if d.err != nil {
		f.warn(&d.ref, "InvalidWorkload", d.err.Error())
	}
	f.act(ctx, f.state.Feed().UpsertSource(d.key, d.w, d.err, d.ref))
}
