// Package metrics defines this scheduler's Prometheus metrics. They are
// registered in component-base's legacy registry, which the scheduler
// serves on its /metrics endpoint next to kube-scheduler's own.
package metrics

import (
	"sync"
	"time"

	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

const subsystem = "multislice"

// releaseReasons lists every state.ReleaseReason, the values of
// multislice_reservation_releases_total's reason label, for its help and
// the reference page generated from it (hack/gen-docs reads constants of
// this package only). TestReservationReleasesHelpListsEveryReason fails
// when pkg/state declares a reason missing here, or drops one listed.
const releaseReasons = "timeout, restart, node_failure, deletion, preemption, member_failed, rejected_by_filters, node_moved, stale_at_commit"

var (
	// GangWait measures from a gang's first member waiting to all of its
	// gang's pods bound.
	GangWait = metrics.NewHistogram(&metrics.HistogramOpts{
		Subsystem:      subsystem,
		Name:           "gang_wait_seconds",
		Help:           "Time from a gang's first pending member to every pod of the gang bound.",
		Buckets:        metrics.ExponentialBuckets(0.05, 2, 16),
		StabilityLevel: metrics.ALPHA,
	})
	// ActiveReservations is the number of workloads holding reserved domains.
	ActiveReservations = metrics.NewGauge(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "active_reservations",
		Help:           "Workloads currently holding a reservation of domains and room.",
		StabilityLevel: metrics.ALPHA,
	})
	// ReservationReleases counts reservations that ended before their
	// workload was placed, by reason.
	ReservationReleases = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "reservation_releases_total",
		Help:           "Reservations released before their workload was placed, by reason (" + releaseReasons + ").",
		StabilityLevel: metrics.ALPHA,
	}, []string{"reason"})
	// PlanningDuration measures one decision of a whole gang's placement:
	// the snapshots it read and the plans made on them.
	PlanningDuration = metrics.NewHistogram(&metrics.HistogramOpts{
		Subsystem:      subsystem,
		Name:           "planning_duration_seconds",
		Help:           "Time to snapshot the cluster and plan every slice of a gang at once.",
		Buckets:        metrics.ExponentialBuckets(0.0001, 2, 16),
		StabilityLevel: metrics.ALPHA,
	})
	// GangsWaiting counts gangs whose last plan failed, by whether waiting
	// can help (waiting_for_domains) or not (unplaceable).
	GangsWaiting = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "gangs_waiting",
		Help:           "Gangs whose last plan failed: unplaceable ones no cluster change short of new domains can help, the others wait for domains.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"state"})
)

// Queue metrics.
var (
	// PendingWorkloads counts, per ClusterQueue, the quota-managed workloads
	// not admitted yet.
	PendingWorkloads = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "pending_workloads",
		Help:           "Quota-managed workloads waiting to be admitted, per ClusterQueue.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue"})
	// AdmittedWorkloads counts, per ClusterQueue, the workloads charged to it.
	AdmittedWorkloads = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "admitted_workloads",
		Help:           "Workloads admitted (charged) per ClusterQueue.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue"})
	// QuotaUsage is what admitted workloads use of each quota.
	QuotaUsage = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "quota_usage",
		Help:           "Quota in use per ClusterQueue, flavor and resource (resource units: chips, cores, bytes).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue", "flavor", "resource"})
	// QuotaNominal is each ClusterQueue's nominal quota, what usage is
	// read against.
	QuotaNominal = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "quota_nominal",
		Help:           "Nominal quota per ClusterQueue, flavor and resource (resource units: chips, cores, bytes).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue", "flavor", "resource"})
	// QuotaBorrowed is what a ClusterQueue uses beyond its nominal quota.
	QuotaBorrowed = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "quota_borrowed",
		Help:           "Quota a ClusterQueue borrows from its cohort beyond its nominal quota, per flavor and resource.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue", "flavor", "resource"})
	// AdmissionWait measures from a workload's creation to its admission.
	AdmissionWait = metrics.NewHistogramVec(&metrics.HistogramOpts{
		Subsystem:      subsystem,
		Name:           "admission_wait_seconds",
		Help:           "Time from a quota-managed workload's creation to its admission (quota charged and every pod given a node), per ClusterQueue.",
		Buckets:        metrics.ExponentialBuckets(0.1, 2, 16),
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue"})
	// Admissions counts admitted workloads per ClusterQueue.
	Admissions = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "admissions_total",
		Help:           "Workloads admitted (quota charged and every pod given a node), per ClusterQueue.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"cluster_queue"})
	// QueueRejections counts the times a workload's queue kept it waiting.
	// Pods that consume a ProvisioningRequest their user made are in no
	// queue: their wait for it is not counted.
	QueueRejections = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "queue_rejections_total",
		Help:           "Times a quota-managed workload was kept waiting by its queue, by reason (QuotaExceeded, WaitingInQueue, YieldingToFairShare, LocalQueueNotFound, WaitingForProvisioning of its queue's admission check, ...). Pods of no queue waiting for their own ProvisioningRequest are not counted.",
		StabilityLevel: metrics.ALPHA,
	}, []string{"reason"})
	// Preemptions counts whole-workload preemption decisions by result.
	Preemptions = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "workload_preemptions_total",
		Help:           "Whole-workload preemption attempts of gang workloads, by result: preempted, no_victims, waiting (victims of an earlier preemption still terminating), raced (the victims chosen moved before they were claimed; nothing evicted, tried again).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"result"})
	// PreemptionVictims counts the workloads evicted whole.
	PreemptionVictims = metrics.NewCounter(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "preemption_victims_total",
		Help:           "Workloads evicted whole to place a higher-priority workload.",
		StabilityLevel: metrics.ALPHA,
	})
	// PreemptionDuration is how long choosing victims took.
	PreemptionDuration = metrics.NewHistogram(&metrics.HistogramOpts{
		Subsystem:      subsystem,
		Name:           "preemption_decision_seconds",
		Help:           "Time to choose the victims of one whole-workload preemption, simulations included.",
		Buckets:        metrics.ExponentialBuckets(0.0005, 2, 14),
		StabilityLevel: metrics.ALPHA,
	})
	// QuotaDrift counts differences found between what the ClusterQueues
	// are charged and what the API shows, by kind.
	QuotaDrift = metrics.NewCounterVec(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "quota_drift_total",
		Help:           "Workloads whose quota charge differed from what the API shows, found by the periodic reconcile, by kind (uncharged, phantom, stale_view).",
		StabilityLevel: metrics.ALPHA,
	}, []string{"kind"})
	// QuotaReconciles counts the reconciles of usage with the API.
	QuotaReconciles = metrics.NewCounter(&metrics.CounterOpts{
		Subsystem:      subsystem,
		Name:           "quota_reconciles_total",
		Help:           "Times the leader compared every ClusterQueue's usage with what the API shows.",
		StabilityLevel: metrics.ALPHA,
	})
	// PendingEvictions is the number of pods the leader still has to evict.
	PendingEvictions = metrics.NewGauge(&metrics.GaugeOpts{
		Subsystem:      subsystem,
		Name:           "pending_evictions",
		Help:           "Pods chosen for eviction (preemption, revoked capacity, maximum run duration) that are not gone yet; failed deletions are retried.",
		StabilityLevel: metrics.ALPHA,
	})
)

// all is every metric of this package: what Register registers, and what
// the shipped Grafana dashboard is checked against (dashboard_test.go).
func all() []metrics.Registerable {
	return []metrics.Registerable{GangWait, ActiveReservations, ReservationReleases, PlanningDuration, GangsWaiting,
		PendingWorkloads, AdmittedWorkloads, QuotaUsage, QuotaNominal, QuotaBorrowed, AdmissionWait, Admissions, QueueRejections,
		Preemptions, PreemptionVictims, PreemptionDuration, QuotaDrift, QuotaReconciles, PendingEvictions}
}

var registerOnce sync.Once

// Register registers the metrics once per process.
func Register() {
	registerOnce.Do(func() {
		legacyregistry.MustRegister(all()...)
	})
}

type observer struct{}

// Observer returns a state.Observer that records into these metrics.
func Observer() state.Observer {
	Register()
	return observer{}
}

func (observer) ReservationsActive(n int) { ActiveReservations.Set(float64(n)) }
func (observer) ReservationReleased(reason state.ReleaseReason) {
	ReservationReleases.WithLabelValues(string(reason)).Inc()
}
func (observer) GangPlaced(wait time.Duration) { GangWait.Observe(wait.Seconds()) }
func (observer) GangsWaiting(unplaceable, waiting int) {
	GangsWaiting.WithLabelValues("unplaceable").Set(float64(unplaceable))
	GangsWaiting.WithLabelValues("waiting_for_domains").Set(float64(waiting))
}

func (observer) WorkloadAdmitted(clusterQueue string, wait time.Duration) {
	Admissions.WithLabelValues(clusterQueue).Inc()
	AdmissionWait.WithLabelValues(clusterQueue).Observe(wait.Seconds())
}

// RecordQueues sets the queue gauges from a report. Series of queues gone
// from the report are dropped.
func RecordQueues(rep state.QueueReport) {
	PendingWorkloads.Reset()
	AdmittedWorkloads.Reset()
	QuotaUsage.Reset()
	QuotaNominal.Reset()
	QuotaBorrowed.Reset()
	for name, cq := range rep.ClusterQueues {
		PendingWorkloads.WithLabelValues(name).Set(float64(cq.Pending))
		AdmittedWorkloads.WithLabelValues(name).Set(float64(cq.Admitted))
		for fr, v := range cq.Usage {
			QuotaUsage.WithLabelValues(name, fr.Flavor, string(fr.Resource)).Set(float64(v) / 1000)
			// 0 when it borrows nothing: every quota has a series.
			QuotaBorrowed.WithLabelValues(name, fr.Flavor, string(fr.Resource)).Set(float64(cq.Borrowed[fr]) / 1000)
		}
		for fr, v := range cq.Nominal {
			QuotaNominal.WithLabelValues(name, fr.Flavor, string(fr.Resource)).Set(float64(v) / 1000)
		}
		for fr, v := range cq.Borrowed {
			if _, quota := cq.Usage[fr]; !quota {
				QuotaBorrowed.WithLabelValues(name, fr.Flavor, string(fr.Resource)).Set(float64(v) / 1000)
			}
		}
	}
}
