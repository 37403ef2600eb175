package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// fleetScreenshot is where TestFleetPage saves what the page looks like at
// its end (docs/images/fleet.png is one such screenshot).
const fleetScreenshot = "_output/e2e/fleet.png"

// browser starts a headless Chromium (Debian's chromium, which `make
// test-e2e` installs when it is missing) with a fresh profile, and returns
// a context to drive a tab of it with chromedp. The exceptions the page
// throws and the errors it logs (a resource the page's policy refuses
// among them) are gathered for problems.
func browser(t *testing.T) (ctx context.Context, problems func() []string) {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("no chromium on PATH (`make chromium` installs Debian's; `make test-e2e` does it first): %v", err)
	}
	// The machine's network is closed: without the background-networking
	// flags Chromium stalls on what it fetches for itself.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox, // as root
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1440, 1000),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-color-profile", "srgb"),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancel)
	var mu sync.Mutex
	var seen []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleException || m.Type == chromedp.ConsoleError {
				mu.Lock()
				seen = append(seen, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line))
				mu.Unlock()
			}
		}
	}()
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// pageWaits polls a JavaScript condition in the page until it is true; it
// fails the test after timeout, showing what detail (a JavaScript
// expression of a string) says then.
func pageWaits(t *testing.T, ctx context.Context, what, cond, detail string, timeout time.Duration) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err == nil {
		return
	}
	seen, _ := chromedp.Run(ctx, chromedp.Evaluate[string](detail))
	t.Fatalf("the page does not show %s (%v); it shows: %s", what, err, seen)
}

// tileHeldBy is true when pool's tile is held by workload alone ("": by
// nothing).
func tileHeldBy(pool, workload string) string {
	return fmt.Sprintf(`(() => { const t = document.querySelector('.tile[data-pool=%q]'); return !!t && t.dataset.holders === %q; })()`, pool, workload)
}

// tiles says what every tile shows, for failure messages.
const tiles = `[...document.querySelectorAll('.tile')].map((t) => t.dataset.pool + ':' + t.dataset.health + ':' + t.dataset.holders).join(' ')`

// The fleet page of the local cluster, in a headless Chromium: it shows
// the node pools; once a queued 2-slice JobSet runs, its two pools as
// held by it, and the queue's usage and a second JobSet waiting for quota
// in the pending list; when one of the JobSet's pools fails, the tile
// turns failed and the timeline says so, without the page being loaded
// again; then the JobSet runs again on healthy pools. The page's end is
// saved as a screenshot.
func TestFleetPage(t *testing.T) {
	applyQueueExample(t, "seed-002-multislice-v5e.yaml")
	if err := cluster.Apply(t.Context(), exampleObjects(t, "priorityclasses.yaml"), ""); err != nil {
		t.Fatal(err)
	}
	ns := namespace(t)
	createSeedLocalQueue(t, ns, "lq")
	waitLocalQueueActive(t, ns, "lq")

	ctx, pageProblems := browser(t)
	url := cluster.FleetURL()
	begin := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	// Every pool of the cluster has its tile.
	nodes, err := client.CoreV1().Nodes().List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var pools []string
	for _, n := range nodes.Items {
		if p := n.Labels[wellknown.NodePoolLabel]; p != "" && !slices.Contains(pools, p) {
			pools = append(pools, p)
		}
	}
	slices.Sort(pools)
	pageWaits(t, ctx, "a tile per pool", fmt.Sprintf(`[...document.querySelectorAll('.tile')].map((t) => t.dataset.pool).sort().join(',') === %q`, strings.Join(pools, ",")), tiles, 30*time.Second)
	t.Logf("%s showed its %d pools %s after loading", url, len(pools), time.Since(begin).Round(time.Millisecond))
	// Gone if the page is loaded again.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.fleetTestMark = "first load"`)); err != nil {
		t.Fatal(err)
	}

	train := v5eJobSet(ns, "train", 2)
	train.Labels = map[string]string{wellknown.QueueNameLabel: "lq"}
	for i := range train.Spec.ReplicatedJobs {
		train.Spec.ReplicatedJobs[i].Template.Spec.Template.Spec.PriorityClassName = "high-priority-job"
	}
	train = createJobSet(t, train)
	held := map[string]bool{}
	for _, p := range waitRunning(t, train, 4, 120*time.Second) {
		held[poolOfNode(t, p.Spec.NodeName)] = true
	}
	if len(held) != 2 {
		t.Fatalf("JobSet train runs in pools %v, want 2", held)
	}
	trainRef := "JobSet " + ns + "/train"
	step := time.Now()
	for pool := range held {
		pageWaits(t, ctx, pool+" held by "+trainRef, tileHeldBy(pool, trainRef), tiles, 30*time.Second)
	}
	t.Logf("the page showed the JobSet's pools held %s after its pods ran", time.Since(step).Round(time.Millisecond))
	for _, pool := range pools {
		if strings.HasPrefix(pool, "tpu-v5e-2x4-") && !held[pool] {
			pageWaits(t, ctx, pool+" free", tileHeldBy(pool, ""), tiles, 10*time.Second)
		}
	}

	eval := v5eJobSet(ns, "eval", 2)
	eval.Labels = map[string]string{wellknown.QueueNameLabel: "lq"}
	for i := range eval.Spec.ReplicatedJobs {
		eval.Spec.ReplicatedJobs[i].Template.Spec.Template.Spec.PriorityClassName = "low-priority-job"
	}
	createJobSet(t, eval)
	waitWorkload(t, ns, "jobset-eval", "waiting for quota", 60*time.Second, waitingFor(multislicev1alpha1.WorkloadQuotaReserved, "QuotaExceeded"))
	evalRef := "JobSet " + ns + "/eval"
	pageWaits(t, ctx, evalRef+" first in the pending list, waiting for quota",
		fmt.Sprintf(`(() => { const r = document.querySelector('tr.pending[data-workload=%q]'); return !!r && r.dataset.position === "1" && r.textContent.includes("QuotaExceeded"); })()`, evalRef),
		`document.getElementById("pending").textContent`, 30*time.Second)
	pageWaits(t, ctx, "16 of the queue's 24 chips in use",
		fmt.Sprintf(`(() => { const b = document.querySelector('.queue[data-queue=%q] .bar'); return !!b && b.textContent.includes("16 of 24"); })()`, seedClusterQueue),
		`document.getElementById("queues").textContent`, 30*time.Second)

	// Fail one of the JobSet's pools.
	var failed string
	for pool := range held {
		failed = pool
		break
	}
	injector := &faults.Injector{Client: client}
	t.Cleanup(func() {
		if err := injector.RecoverPool(context.Background(), failed); err != nil {
			t.Errorf("recovering %s: %v", failed, err)
		}
		if err := injector.WaitForHealth(context.Background(), failed, faults.Healthy, 90*time.Second); err != nil {
			t.Error(err)
		}
	})
	step = time.Now()
	if err := injector.FailPool(t.Context(), failed); err != nil {
		t.Fatal(err)
	}
	pageWaits(t, ctx, failed+" failed", fmt.Sprintf(`(() => { const t = document.querySelector('.tile[data-pool=%q]'); return !!t && t.dataset.health === "failed"; })()`, failed), tiles, 60*time.Second)
	pageWaits(t, ctx, "the failure in the timeline",
		fmt.Sprintf(`!!document.querySelector('#timeline li.entry[data-kind="failure"][data-subject=%q]')`, "pool "+failed),
		`document.getElementById("timeline").textContent`, 30*time.Second)
	t.Logf("the page showed %s failed, in its tile and its timeline, %s after the fault", failed, time.Since(step).Round(time.Millisecond))

	// The JobSet restarts onto the two healthy pools; the page follows.
	var again []string
	poll(t, "JobSet train running again on healthy pools", 3*time.Minute, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, train)
		if err != nil {
			return false, nil
		}
		again = again[:0]
		running := 0
		for _, p := range pods {
			if p.Spec.NodeName != "" && p.Status.Phase == "Running" && p.DeletionTimestamp == nil {
				running++
				if pool := poolOfNode(t, p.Spec.NodeName); !slices.Contains(again, pool) {
					again = append(again, pool)
				}
			}
		}
		return running == 4 && len(again) == 2 && !slices.Contains(again, failed), nil
	}, func() string { return fmt.Sprint(again) })
	for _, pool := range again {
		pageWaits(t, ctx, pool+" held by "+trainRef+" again", tileHeldBy(pool, trainRef), tiles, 30*time.Second)
	}

	// A held pool's tooltip and, once selected, its detail say what it
	// is and who holds it since when.
	slices.Sort(again)
	tile := chromedp.CSS(fmt.Sprintf(".tile[data-pool=%q]", again[0]))
	if err := chromedp.Do(ctx, chromedp.Click(tile)); err != nil {
		t.Fatalf("selecting %s: %v", again[0], err)
	}
	pageWaits(t, ctx, "the detail of "+again[0], fmt.Sprintf(`document.querySelector("#detail h3")?.textContent === %q`, "Pool "+again[0]),
		`document.getElementById("detail").textContent`, 10*time.Second)
	detail, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("detail")))
	if err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.AttributeValue(tile, "title"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"tpu-v5-lite-podslice", "2x4", "us-west4-a", trainRef, "priority 2000000", "since "} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail of %s lacks %q:\n%s", again[0], want, detail)
		}
		if !strings.Contains(title.Value, want) {
			t.Errorf("the tooltip of %s lacks %q:\n%s", again[0], want, title.Value)
		}
	}

	if mark, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.fleetTestMark || "reloaded"`)); err != nil || mark != "first load" {
		t.Errorf("the page was loaded again (mark %q, %v): it should update itself", mark, err)
	}
	if errs := pageProblems(); len(errs) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(errs, "\n"))
	}

	// Let the timeline's ages settle, then keep what the page looks like.
	if err := chromedp.Do(ctx, chromedp.Sleep(time.Second)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(repoRoot, fleetScreenshot)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot of the page: %s", out)
}
