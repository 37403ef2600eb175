package controllers

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// UsageReconciler compares, every interval, what the ClusterQueues are
// charged with what the API shows (state.Reconcile) and reports each
// difference: the metric multislice_quota_drift_total, a log line and a
// QuotaDrift warning on the ClusterQueue. The state corrects what it can.
// It runs on the leader only: the charges it corrects are the leader's
// admissions (a standby charges only what Workload objects record, and
// decides nothing), and its warnings are events.
type UsageReconciler struct {
	st     *state.State
	act    func(context.Context, state.Actions)
	events *EventSink
	pods   corelisters.PodLister
	clock  clock.WithTicker
	every  time.Duration
}

// NewUsageReconciler returns the usage reconciler, reading the API's pods
// from pods every interval of clk (never, for every <= 0); act carries out
// what the state answers.
func NewUsageReconciler(st *state.State, act func(context.Context, state.Actions), events *EventSink, pods corelisters.PodLister,
	clk clock.WithTicker, every time.Duration) *UsageReconciler {
	return &UsageReconciler{st: st, act: act, events: events, pods: pods, clock: clk, every: every}
}

// Run reconciles until ctx ends; start it once this replica leads and the
// pod informer has synced.
func (r *UsageReconciler) Run(ctx context.Context) {
	if r.every <= 0 {
		return
	}
	everyTick(ctx, r.clock, r.every, r.Reconcile)
}

// Reconcile runs one pass, once the queue API is served.
func (r *UsageReconciler) Reconcile(ctx context.Context) {
	if r.st.Reports().API(state.QueueAPI) != state.APIServed {
		return
	}
	list, err := r.pods.List(labels.Everything())
	if err != nil {
		return
	}
	logger := klog.FromContext(ctx)
	found, acts := r.st.Upkeep().Reconcile(list)
	// What the state could not charge from a record is decided here.
	charged := ChargeRunning(r.st, acts.Uncharged)
	acts.Uncharged = nil
	metrics.QuotaReconciles.Inc()
	for i := range found {
		d := &found[i]
		if d.Kind == state.DriftUncharged && charged[d.Key] {
			d.Fixed = true
		}
		metrics.QuotaDrift.WithLabelValues(string(d.Kind)).Inc()
		logger.Info("Quota usage differed from the API", "workload", d.Key, "kind", d.Kind, "clusterQueue", d.ClusterQueue, "corrected", d.Fixed, "detail", d.Message)
		if d.ClusterQueue != "" {
			ref := &corev1.ObjectReference{Kind: "ClusterQueue", APIVersion: multislicev1alpha1.SchemeGroupVersion.String(), Name: d.ClusterQueue}
			msg := d.Message
			if d.Fixed {
				msg += "; corrected"
			}
			r.events.Warn(ref, "QuotaDrift", msg)
		}
	}
	r.act(ctx, acts)
}

// chargeRunningTries bounds how often ChargeRunning decides again for one
// workload when what it read moved meanwhile; one still refused is charged
// on the next event or reconcile that finds it.
const chargeRunningTries = 3

// ChargeRunning charges each of keys, found running with no charge and no
// record of its admission, as admission.ForcedCharge decides on a copy
// (state.RunningCharges), applied through state.ChargeRunning, which
// refuses what moved since the copy. It reports the keys it charged. Only
// the leader calls it: a standby charges only what Workload objects
// record, and charges the rest when it starts to lead (ChargeAllRunning),
// before it admits anything.
func ChargeRunning(st *state.State, keys []workload.Key) map[workload.Key]bool {
	if len(keys) == 0 {
		return map[workload.Key]bool{}
	}
	return chargeRunning(st, st.Upkeep().RunningCharges(keys))
}

// ChargeAllRunning is ChargeRunning of every workload running with no
// charge and no record of its admission.
func ChargeAllRunning(st *state.State) map[workload.Key]bool {
	return chargeRunning(st, st.Upkeep().RunningCharges(nil))
}

func chargeRunning(st *state.State, copies []state.RunningCharge) map[workload.Key]bool {
	charged := map[workload.Key]bool{}
	for _, rc := range copies {
		if charged[rc.Key] {
			continue
		}
		for try := 1; ; try++ {
			if st.Upkeep().ChargeRunning(rc, admission.ForcedCharge(rc)) == nil {
				charged[rc.Key] = true
				break
			}
			again := st.Upkeep().RunningCharges([]workload.Key{rc.Key})
			if try == chargeRunningTries || len(again) == 0 {
				break
			}
			rc = again[0]
		}
	}
	return charged
}
