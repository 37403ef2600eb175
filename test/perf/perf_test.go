// Package perf benchmarks multislice-scheduler with the upstream
// scheduler_perf harness: each scenario runs the same workload through the
// default kube-scheduler profile and through ours (or, for quota, through
// ours with and without queues), in one run, against a real apiserver and
// etcd. `make bench` runs it and tabulates the results. The quota scenarios
// drain queues of workloads, the hotswap scenarios follow preemption
// victims and gangs, and the provisioning scenarios answer
// ProvisioningRequests, which the harness cannot do alone: see
// drain_test.go, hotswap_test.go and provisioning_test.go. Every workload's
// pods bound over time are recorded beside (timeline_test.go), and its
// gangs' latency (ganglatency_test.go).
package perf

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	_ "net/http/pprof" // served only when PERF_PPROF_ADDR is set
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/events"
	_ "k8s.io/component-base/logs/json/register"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func TestMain(m *testing.M) {
	// PERF_PPROF_ADDR (e.g. localhost:6060) serves the runtime profiles
	// while a scenario runs, for a profile of a window of a run too long
	// for -cpuprofile: go tool pprof -seconds 60 http://ADDR/debug/pprof/profile
	if addr := os.Getenv("PERF_PPROF_ADDR"); addr != "" {
		go func() { fmt.Fprintln(os.Stderr, http.ListenAndServe(addr, nil)) }()
	}
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	configs, err := newScenarioConfigs("performance-config.yaml")
	if err != nil {
		b.Fatal(err)
	}
	registry, err := perSchedulerRegistry(configs)
	if err != nil {
		b.Fatal(err)
	}
	probes, drains, hotswaps, provisionings := newJobSetProbes(), newDrains(), newHotswaps(), newProvisionings()
	timelines := newTimelines()
	// Each hook acts only on the workloads that ask for it by parameter
	// (the probe: on those our profile schedules), but the timeline, which
	// counts the pods of every workload as they are bound, from before the
	// other hooks create any.
	nodesCreated := func(tCtx ktesting.TContext, s *scheduler.Scheduler, w *perf.Workload, nodes *corev1.NodeList) error {
		if err := timelines.nodesCreated(tCtx, s, w); err != nil {
			return err
		}
		if err := probes.nodesCreated(tCtx, s); err != nil {
			return err
		}
		if err := drains.nodesCreated(tCtx, s, w, nodes); err != nil {
			return err
		}
		if err := hotswaps.nodesCreated(tCtx, s, w, nodes); err != nil {
			return err
		}
		return provisionings.nodesCreated(tCtx, s, w, nodes)
	}
	perf.RunBenchmarkPerfScheduling(b, "performance-config.yaml", topic, registry,
		perf.WithPrepareFn(installCRDs), perf.WithNodeUpdateFn(nodesCreated), perf.WithPreRunFn(configs.preRun))
	if err := drains.write(topic); err != nil {
		b.Fatal(err)
	}
	if err := hotswaps.write(topic); err != nil {
		b.Fatal(err)
	}
	if err := provisionings.write(topic); err != nil {
		b.Fatal(err)
	}
	if err := timelines.write(topic); err != nil {
		b.Fatal(err)
	}
}

// topic names the results' files.
const topic = "multislice"

// perSchedulerRegistry returns our plugins as one registry for the whole
// run, the form the harness takes, while every workload's scheduler still
// gets plugins of its own: the harness starts a new scheduler against a
// new apiserver for each workload, and each scheduler needs one runtime
// (state and informers). The harness builds the scheduler itself (it
// takes a registry, not a command), so the runtime cannot come from
// app.Setup; it comes from app.NewRuntime, the function Setup builds it
// with, from our profile's configuration and the scheduler's client,
// configuration, informer factory and recorder, which the first plugin
// factory's handle gives (plugin factories run before the scheduler
// starts, as in the command), and the profiles of the scenario's own
// configuration (configs: ours, or ours with another setting shared by
// the whole scheduler, such as queuedStartDepth). The profiles of one scheduler share its
// informer factory, which tells the schedulers apart; a scheduler's
// runtime is dropped when its context ends, so that no state outlives its
// workload.
func perSchedulerRegistry(configs *scenarioConfigs) (frameworkruntime.Registry, error) {
	var mu sync.Mutex
	bySched := map[informers.SharedInformerFactory]frameworkruntime.Registry{}
	registryFor := func(ctx context.Context, h fwk.Handle) (frameworkruntime.Registry, error) {
		mu.Lock()
		defer mu.Unlock()
		key := h.SharedInformerFactory()
		if r, ok := bySched[key]; ok {
			return r, nil
		}
		profiles, err := configs.profiles()
		if err != nil {
			return nil, err
		}
		rt, err := app.NewRuntime(ctx, app.Scheduler{
			Client: h.ClientSet(), KubeConfig: h.KubeConfig(), Informers: h.SharedInformerFactory(),
			Recorder: func(string) events.EventRecorder { return h.EventRecorder() },
			Profiles: profiles,
		})
		if err != nil {
			return nil, err
		}
		r := app.Registry(rt)
		bySched[key] = r
		go func() {
			<-ctx.Done()
			mu.Lock()
			defer mu.Unlock()
			delete(bySched, key)
		}()
		return r, nil
	}
	out := frameworkruntime.Registry{}
	for name := range app.Registry(nil) {
		out[name] = func(ctx context.Context, args runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
			r, err := registryFor(ctx, h)
			if err != nil {
				return nil, err
			}
			return r[name](ctx, args, h)
		}
	}
	return out, nil
}

// scenarioConfigs tells the registry the scheduler configuration of the
// scenario whose scheduler is being built: scenarios run one at a time,
// and preRun, called before each builds its scheduler, records its own.
type scenarioConfigs struct {
	// byCase is each test case's schedulerConfigPath.
	byCase map[string]string

	mu      sync.Mutex
	current string
	loaded  map[string][]schedulerconfig.KubeSchedulerProfile
}

// newScenarioConfigs reads the test cases of the file path.
func newScenarioConfigs(path string) (*scenarioConfigs, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cases []struct {
		Name                string `json:"name"`
		SchedulerConfigPath string `json:"schedulerConfigPath"`
	}
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		return nil, err
	}
	c := &scenarioConfigs{byCase: map[string]string{}, loaded: map[string][]schedulerconfig.KubeSchedulerProfile{}}
	for _, tc := range cases {
		c.byCase[tc.Name] = tc.SchedulerConfigPath
	}
	return c, nil
}

// preRun records the configuration of the scenario tCtx runs
// (BenchmarkPerfScheduling/<test case>/<workload>).
func (c *scenarioConfigs) preRun(tCtx ktesting.TContext, _ *perf.Workload) (func(), error) {
	parts := strings.Split(tCtx.Name(), "/")
	if len(parts) < 2 {
		return nil, fmt.Errorf("%q names no test case", tCtx.Name())
	}
	path, ok := c.byCase[parts[1]]
	if !ok {
		return nil, fmt.Errorf("test case %q is not in the configuration", parts[1])
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.current = path
	return nil, nil
}

// profiles are the profiles of the current scenario's configuration.
func (c *scenarioConfigs) profiles() ([]schedulerconfig.KubeSchedulerProfile, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.loaded[c.current]; ok {
		return p, nil
	}
	cfg, err := options.LoadConfigFromFile(klog.Background(), c.current)
	if err != nil {
		return nil, err
	}
	if _, _, err := app.Settings(cfg.Profiles); err != nil {
		return nil, err
	}
	c.loaded[c.current] = cfg.Profiles
	return cfg.Profiles, nil
}

// installCRDs serves the JobSet and PodGroup APIs, as a cluster with JobSet
// installed has them, and the multislice.dev queue API from the CRDs `make
// generate` writes (manifests/crds/multislice.dev_*.yaml), in every
// workload's fresh apiserver, and waits until they are served.
func installCRDs(tCtx ktesting.TContext) error {
	client, err := apiextensionsclient.NewForConfig(tCtx.RESTConfig())
	if err != nil {
		return err
	}
	crds := builders.WorkloadCRDs()
	files, err := filepath.Glob("../../manifests/crds/multislice.dev_*.yaml")
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("no manifests/crds/multislice.dev_*.yaml: run 'make generate'")
	}
	files = append(files, provisioningCRDFiles(tCtx)...)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(data, crd); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		crds = append(crds, crd)
	}
	for _, crd := range crds {
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(tCtx, crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create CRD %s: %w", crd.Name, err)
		}
	}
	for _, crd := range crds {
		err := wait.PollUntilContextTimeout(tCtx, 100*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			got, err := client.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, crd.Name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			for _, c := range got.Status.Conditions {
				if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("CRD %s not established: %w", crd.Name, err)
		}
	}
	return nil
}
