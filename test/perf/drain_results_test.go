package perf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/component-base/metrics/legacyregistry"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// What a drain measures, the scheduler counters it reads, and the checks
// a run makes before it measures.

// drainResult is what a drain measured.
type drainResult struct {
	name                       string
	workloads, pods, gangs     int
	admitSeconds, drainSeconds float64
	attempts                   map[string]float64
	admissions, rejections     float64
	// rejectionsByReason splits rejections by the reason the queue gave.
	rejectionsByReason map[string]float64
	peakRSSMB          float64
}

func (d *drain) result(end readings) drainResult {
	r := drainResult{
		workloads:    d.admitted,
		pods:         d.pods,
		gangs:        d.gangs,
		admitSeconds: d.lastAdmit.Sub(d.start.at).Seconds(),
		drainSeconds: d.lastDrain.Sub(d.start.at).Seconds(),
		attempts:     map[string]float64{},
		admissions:   end.admissions - d.start.admissions,
		rejections:   end.rejections - d.start.rejections,
		peakRSSMB:    peakRSSMB(),

		rejectionsByReason: map[string]float64{},
	}
	for reason, v := range end.rejectionsByReason {
		if n := v - d.start.rejectionsByReason[reason]; n > 0 {
			r.rejectionsByReason[reason] = n
		}
	}
	for result, v := range end.attempts {
		r.attempts[result] = v - d.start.attempts[result]
	}
	return r
}

// items renders a drain's results as data items named like the harness's
// (BenchmarkPerfScheduling/<test case>/<workload>/drain), and reports the
// headline figures as benchmark metrics.
func (r drainResult) items(tCtx ktesting.TContext) []perf.DataItem {
	item := itemMaker(tCtx, "drain")
	counts := withAttempts(map[string]float64{
		"Workloads":       float64(r.workloads),
		"Gangs":           float64(r.gangs),
		"Pods":            float64(r.pods),
		"Admissions":      r.admissions,
		"QueueRejections": r.rejections,
	}, r.attempts)
	total := counts["Attempts"]
	items := []perf.DataItem{
		item("QueueDrainCounts", "count", counts),
		item("QueueDrainDuration", "s", map[string]float64{"Admitted": r.admitSeconds, "Drained": r.drainSeconds}),
	}
	if len(r.rejectionsByReason) > 0 {
		items = append(items, item("QueueDrainRejections", "count", r.rejectionsByReason))
	}
	if r.peakRSSMB > 0 {
		items = append(items, item("QueueDrainPeakRSS", "MB", map[string]float64{"Max": r.peakRSSMB}))
	}
	if b, ok := tCtx.TB().(*testing.B); ok && r.workloads > 0 && r.admitSeconds > 0 {
		b.ReportMetric(float64(r.workloads)/r.admitSeconds, "admitted_workloads/s")
		b.ReportMetric(total/float64(r.workloads), "attempts/workload")
		b.ReportMetric(total/float64(r.pods), "attempts/pod")
		if r.peakRSSMB > 0 {
			b.ReportMetric(r.peakRSSMB, "peak_rss_MB")
		}
	}
	return items
}

// readings are the scheduler's counters at one time.
type readings struct {
	at time.Time
	// attempts are scheduling attempts of our profile, by result.
	attempts   map[string]float64
	admissions float64
	rejections float64
	// rejectionsByReason: multislice_queue_rejections_total by reason.
	rejectionsByReason map[string]float64
	gangsPlaced        float64
}

func read() (readings, error) {
	r := readings{at: time.Now(), attempts: map[string]float64{}, rejectionsByReason: map[string]float64{}}
	err := eachMetric(func(name string, m *dto.Metric) {
		switch name {
		case "scheduler_schedule_attempts_total":
			if label(m, "profile") == app.Name {
				r.attempts[label(m, "result")] += m.GetCounter().GetValue()
			}
		case "multislice_admissions_total":
			r.admissions += m.GetCounter().GetValue()
		case "multislice_queue_rejections_total":
			r.rejections += m.GetCounter().GetValue()
			r.rejectionsByReason[label(m, "reason")] += m.GetCounter().GetValue()
		case "multislice_gang_wait_seconds":
			r.gangsPlaced += float64(m.GetHistogram().GetSampleCount())
		}
	})
	return r, err
}

// eachMetric calls visit with every metric of the process's legacy
// registry, by family name.
func eachMetric(visit func(name string, m *dto.Metric)) error {
	families, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		return err
	}
	for _, f := range families {
		for _, m := range f.GetMetric() {
			visit(f.GetName(), m)
		}
	}
	return nil
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// resetPeakRSS starts the process's peak resident set size (VmHWM) afresh
// (Linux: writing 5 to /proc/self/clear_refs); where that is not possible,
// peakRSSMB reports nothing.
func resetPeakRSS() {
	rssResettable = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

var rssResettable bool

// peakRSSMB is the peak resident set size of the whole test process (the
// apiserver, the scheduler and the harness; etcd runs apart) since
// resetPeakRSS, in MiB; 0 if unknown.
func peakRSSMB() float64 {
	if !rssResettable {
		return 0
	}
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}

// probeJobSetAPI waits until the scheduler places JobSets as gangs. It
// learns of the JobSet API by polling discovery, and until it has, JobSet
// pods are scheduled as plain pods, which would make a run measure
// something else. A probe gang of one pod is placed; the scheduler counts
// it in multislice_gang_wait_seconds only if it placed it as a gang.
// Otherwise the probe is deleted and tried again.
func probeJobSetAPI(tCtx ktesting.TContext, jobsets jobsetclient.Interface) error {
	if _, err := tCtx.Client().CoreV1().Namespaces().Create(tCtx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: probeNamespace}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for i := 0; ; i++ {
		before, err := read()
		if err != nil {
			return err
		}
		// Unconfined and asking only for a little CPU, the probe fits the
		// nodes of any scenario (TPU pools or GPU hosts without pools).
		js := builders.JobSet(probeNamespace, fmt.Sprintf("probe-%d", i)).Unconfined().
			Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).CPU("100m") }).
			ReplicatedJob("slice", 1, 1).Obj()
		pods, err := createProbe(tCtx, jobsets, js)
		if err != nil {
			return err
		}
		err = wait.PollUntilContextTimeout(tCtx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			for _, p := range pods {
				got, err := tCtx.Client().CoreV1().Pods(probeNamespace).Get(ctx, p.Name, metav1.GetOptions{})
				if err != nil || got.Spec.NodeName == "" {
					return false, nil
				}
			}
			return true, nil
		})
		if err != nil {
			return fmt.Errorf("probe gang %s was not placed: %w", js.Name, err)
		}
		gang := wait.PollUntilContextTimeout(tCtx, 100*time.Millisecond, 3*time.Second, true, func(context.Context) (bool, error) {
			now, err := read()
			return err == nil && now.gangsPlaced > before.gangsPlaced, nil
		}) == nil
		if err := deleteProbe(tCtx, jobsets, js.Name, pods); err != nil {
			return err
		}
		if gang {
			tCtx.Logf("The scheduler places JobSets as gangs (probe %d)", i)
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("the scheduler still schedules JobSet pods as plain pods: it has not discovered the JobSet API")
		}
		time.Sleep(time.Second)
	}
}

// createProbe creates a probe JobSet and the pods of its first Job (the
// harness runs no JobSet controller), and returns the pods.
func createProbe(tCtx ktesting.TContext, jobsets jobsetclient.Interface, obj *jobsetv1alpha2.JobSet) ([]*corev1.Pod, error) {
	var created *jobsetv1alpha2.JobSet
	// The CRD may be established a moment after it was created.
	err := wait.PollUntilContextTimeout(tCtx, 200*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		var err error
		created, err = jobsets.JobsetV1alpha2().JobSets(obj.Namespace).Create(ctx, obj, metav1.CreateOptions{})
		return err == nil, nil
	})
	if err != nil {
		return nil, fmt.Errorf("probe JobSet: %w", err)
	}
	pods := builders.PodsOf(created, 0)
	for _, p := range pods {
		if _, err := tCtx.Client().CoreV1().Pods(obj.Namespace).Create(tCtx, p, metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("probe pod: %w", err)
		}
	}
	return pods, nil
}

func deleteProbe(tCtx ktesting.TContext, jobsets jobsetclient.Interface, name string, pods []*corev1.Pod) error {
	if err := jobsets.JobsetV1alpha2().JobSets(probeNamespace).Delete(tCtx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	for _, p := range pods {
		if err := tCtx.Client().CoreV1().Pods(probeNamespace).Delete(tCtx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return wait.PollUntilContextTimeout(tCtx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		for _, p := range pods {
			if _, err := tCtx.Client().CoreV1().Pods(probeNamespace).Get(ctx, p.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return false, nil
			}
		}
		return true, nil
	})
}

// waitQueuesActive waits until the scheduler has written every LocalQueue
// and ClusterQueue Active: it then serves the queue API and knows every
// queue object. It reports whether any LocalQueue exists.
func waitQueuesActive(tCtx ktesting.TContext, queues multisliceclient.Interface) (bool, error) {
	exist := false
	var notYet string
	err := wait.PollUntilContextTimeout(tCtx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		lqs, err := queues.MultisliceV1alpha1().LocalQueues(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		cqs, err := queues.MultisliceV1alpha1().ClusterQueues().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		exist = len(lqs.Items) > 0
		for _, lq := range lqs.Items {
			if !apimeta.IsStatusConditionTrue(lq.Status.Conditions, multislicev1alpha1.LocalQueueActive) {
				notYet = "LocalQueue " + lq.Namespace + "/" + lq.Name
				return false, nil
			}
		}
		for _, cq := range cqs.Items {
			if !apimeta.IsStatusConditionTrue(cq.Status.Conditions, multislicev1alpha1.ClusterQueueActive) {
				notYet = "ClusterQueue " + cq.Name
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		return false, fmt.Errorf("the scheduler never wrote %s Active: %w", notYet, err)
	}
	if exist {
		tCtx.Logf("The scheduler serves every LocalQueue and ClusterQueue")
	}
	return exist, nil
}
