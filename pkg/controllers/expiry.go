package controllers

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Expirer ends what outlived its time, every tick while this replica
// leads (state.Expire): reservations past their deadline (their pods
// rejected, their domains freed), claims and checks past theirs, and
// workloads past their maximum run duration, which it ends through the
// API (endOverrun). It runs on the leader only: a standby holds no
// reservation or claim of its own (a standby decides nothing), and ending
// a workload is a write.
type Expirer struct {
	st     *state.State
	act    func(context.Context, state.Actions)
	kube   kubernetes.Interface
	jobset jobsetclient.Interface
	ev     *Evictor
	clock  clock.WithTicker
	every  time.Duration
}

// NewExpirer returns the expiry controller: act carries out what the
// state answers (pods to reject or activate, events), kube and jobsets
// suspend Jobs and JobSets past their run, ev evicts other owners' pods.
// It looks every interval of clk.
func NewExpirer(st *state.State, act func(context.Context, state.Actions), kube kubernetes.Interface, jobsets jobsetclient.Interface, ev *Evictor,
	clk clock.WithTicker, every time.Duration) *Expirer {
	return &Expirer{st: st, act: act, kube: kube, jobset: jobsets, ev: ev, clock: clk, every: every}
}

// Run expires until ctx ends; start it once this replica leads.
func (x *Expirer) Run(ctx context.Context) { everyTick(ctx, x.clock, x.every, x.Expire) }

// everyTick runs pass at every tick of clk, every interval, until ctx
// ends.
func everyTick(ctx context.Context, clk clock.WithTicker, every time.Duration, pass func(context.Context)) {
	ticker := clk.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C():
			pass(ctx)
		}
	}
}

// Expire runs one pass: the state releases what is past its time, and
// the workloads past their run are ended.
func (x *Expirer) Expire(ctx context.Context) {
	acts := x.st.Upkeep().Expire()
	for _, e := range acts.Expired {
		endOverrun(ctx, x.kube, x.jobset, x.ev, e)
	}
	acts.Expired = nil
	x.act(ctx, acts)
}

// suspendPatch suspends an owner for good: the unsuspend annotation says
// the scheduler has started it once already, so it never does again.
func suspendPatch(now time.Time) []byte {
	return []byte(fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}},"spec":{"suspend":true}}`, wellknown.UnsuspendedAnnotation, now.UTC().Format(time.RFC3339)))
}

// endOverrun ends a workload past its maximum run duration. A Job is
// suspended with kube, a JobSet with jobsets: its controller
// removes the pods, and nothing restarts it (the scheduler unsuspends an
// object once only). Other owners' pods are evicted, as are a Job's or
// JobSet's when suspending it fails.
func endOverrun(ctx context.Context, kube kubernetes.Interface, jobsets jobsetclient.Interface, ev *Evictor, e state.Expiry) {
	if !ev.leading() {
		return
	}
	logger := klog.FromContext(ctx)
	msg := fmt.Sprintf("%s exceeded its maximum run duration of %s", e.Key, e.Limit)
	var err error
	switch e.Ref.Kind {
	case "Job":
		_, err = kube.BatchV1().Jobs(e.Ref.Namespace).Patch(ctx, e.Ref.Name, types.MergePatchType, suspendPatch(e.At), metav1.PatchOptions{})
	case "JobSet":
		_, err = jobsets.JobsetV1alpha2().JobSets(e.Ref.Namespace).Patch(ctx, e.Ref.Name, types.MergePatchType, suspendPatch(e.At), metav1.PatchOptions{})
	default:
		ev.Evict(ctx, e.Pods, ReasonMaximumRunDurationExceeded, msg)
		return
	}
	if err != nil && !apierrors.IsNotFound(err) {
		logger.Error(err, "Suspending a workload past its maximum run duration; evicting its pods instead", "workload", e.Key)
		ev.Evict(ctx, e.Pods, ReasonMaximumRunDurationExceeded, msg)
	}
}
