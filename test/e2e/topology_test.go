package e2e

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/demo"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// `make demo SCENARIO=gpu-topology`: Kueue's topology annotations as its
// users write them, on the local cluster's GPU fleet gpu-h100 (2 blocks ×
// 2 subblocks × 4 hosts). The sliced JobSet runs whole in one block, each
// of its Jobs in one subblock; the Job runs in one subblock, of the other
// block (the JobSet fills its block); each pod has a host of its own.
func TestGPUTopologyDemo(t *testing.T) {
	s, err := demo.Load(filepath.Join(repoRoot, "manifests", "examples", "gpu-topology", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ns := s.Namespace
	// The scenario applies the queue objects; this removes them when the
	// test ends, after the workloads.
	applyQueueObjects(t, filepath.Join("gpu-topology", "queues.yaml"))
	t.Cleanup(func() { deleteTopologyWorkloads(t, ns) })

	history := recordWorkloads(t, ns)
	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tl, err := timeline.Watch(ctx, cluster.AdminConfig, ns, out)
	if err != nil {
		t.Fatal(err)
	}
	runErr := demo.Run(ctx, cluster, s, tl)
	t.Logf("timeline:\n%s", out.String())
	if runErr != nil {
		t.Fatalf("scenario: %v", runErr)
	}
	// Admitted once, each stays admitted while it runs.
	history.checkNoRelapse(t)

	// label → value of each pod's node, for the pods of a selector.
	where := func(selector string) (blocks, subblocks map[string]map[string]bool, hosts map[string]int) {
		pods, err := client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			t.Fatal(err)
		}
		blocks, subblocks, hosts = map[string]map[string]bool{}, map[string]map[string]bool{}, map[string]int{}
		for _, p := range pods.Items {
			node, err := client.CoreV1().Nodes().Get(t.Context(), p.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("pod %s on %q: %v", p.Name, p.Spec.NodeName, err)
			}
			job := p.Labels[wellknown.JobGlobalIndexLabel]
			if blocks[job] == nil {
				blocks[job], subblocks[job] = map[string]bool{}, map[string]bool{}
			}
			blocks[job][node.Labels[wellknown.GCETopologyBlockLabel]] = true
			subblocks[job][node.Labels[wellknown.GCETopologySubblockLabel]] = true
			hosts[node.Name]++
		}
		return blocks, subblocks, hosts
	}
	blocks, subblocks, hosts := where(wellknown.JobSetNameLabel + "=sliced")
	slicedBlocks := map[string]bool{}
	for job, b := range blocks {
		for v := range b {
			slicedBlocks[v] = true
		}
		if len(subblocks[job]) != 1 {
			t.Errorf("sliced Job %s spans subblocks %v, want one", job, subblocks[job])
		}
	}
	if len(blocks) != 2 || len(slicedBlocks) != 1 || len(hosts) != 8 {
		t.Errorf("sliced: Jobs %d in blocks %v on %d hosts, want 2 Jobs in one block on 8 hosts", len(blocks), slicedBlocks, len(hosts))
	}
	jobBlocks, jobSubblocks, jobHosts := where(wellknown.JobNameLabel + "=required-subblock")
	for _, sb := range jobSubblocks {
		if len(sb) != 1 || len(jobHosts) != 4 {
			t.Errorf("required-subblock on subblocks %v, %d hosts; want one subblock, 4 hosts", sb, len(jobHosts))
		}
	}
	for _, b := range jobBlocks {
		for v := range b {
			if slicedBlocks[v] {
				t.Errorf("required-subblock shares block %s with sliced, which fills it", v)
			}
		}
	}

	// The fleet page draws the pool by its Topology once selected: 2
	// blocks of 2 subblocks of 4 hosts, each host a cell.
	page, pageProblems := browser(t)
	if err := chromedp.Do(page, chromedp.Navigate(cluster.FleetURL())); err != nil {
		t.Fatalf("opening the fleet page: %v", err)
	}
	pageWaits(t, page, "the gpu-h100 tile", `!!document.querySelector('.tile[data-pool="gpu-h100"]')`, tiles, 30*time.Second)
	if err := chromedp.Do(page, chromedp.Click(chromedp.CSS(`.tile[data-pool="gpu-h100"]`))); err != nil {
		t.Fatalf("selecting gpu-h100: %v", err)
	}
	pageWaits(t, page, "gpu-h100's blocks, subblocks and hosts nested",
		`(() => { const top = document.querySelector('#detail .topology > .domains'); if (!top) return false;
			const blocks = [...top.children]; return blocks.length === 2 &&
			blocks.every((b) => b.querySelectorAll(':scope > .domains > .domain').length === 2) &&
			document.querySelectorAll('#detail .topology .host').length === 16; })()`,
		`document.getElementById("detail").textContent`, 30*time.Second)
	if problems := pageProblems(); len(problems) > 0 {
		t.Errorf("the page logged errors: %v", problems)
	}
}

func deleteTopologyWorkloads(t *testing.T, ns string) {
	ctx := context.Background()
	if err := client.BatchV1().Jobs(ns).Delete(ctx, "required-subblock", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete Job: %v", err)
	}
	if err := jobsets.JobsetV1alpha2().JobSets(ns).Delete(ctx, "sliced", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete JobSet: %v", err)
	}
	// Gone, objects and pods: a scenario run again must not apply to
	// objects still being deleted.
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		if _, err := client.BatchV1().Jobs(ns).Get(ctx, "required-subblock", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return false, nil
		}
		if _, err := jobsets.JobsetV1alpha2().JobSets(ns).Get(ctx, "sliced", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			return false, nil
		}
		for _, sel := range []string{wellknown.JobNameLabel + "=required-subblock", wellknown.JobSetNameLabel + "=sliced"} {
			pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: sel})
			if err != nil || len(pods.Items) > 0 {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Errorf("the scenario's workloads and pods not gone: %v", err)
	}
}
