package perf

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/component-base/featuregate"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// ourConfig is the scheduler configuration of our profile, as the
// scenarios name it; unwindowedConfig is it with no start window
// (queuedStartDepth: 0), for scenarios that need every queued JobSet
// started at once.
const (
	ourConfig        = "../../manifests/scheduler/config.yaml"
	unwindowedConfig = "unwindowed-profile.yaml"
)

// The unwindowed profile is the shipped one but for queuedStartDepth: 0.
func TestUnwindowedProfileIsOurs(t *testing.T) {
	read := func(path string) map[string]any {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	ours, unwindowed := read(ourConfig), read(unwindowedConfig)
	found := false
	for _, p := range unwindowed["profiles"].([]any) {
		for _, pc := range p.(map[string]any)["pluginConfig"].([]any) {
			if args, ok := pc.(map[string]any)["args"].(map[string]any); ok && args["kind"] == "MultisliceGangArgs" {
				if args["queuedStartDepth"] != 0.0 {
					t.Errorf("%s: queuedStartDepth = %v, want 0", unwindowedConfig, args["queuedStartDepth"])
				}
				delete(args, "queuedStartDepth")
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("%s has no MultisliceGangArgs", unwindowedConfig)
	}
	if diff := cmp.Diff(ours, unwindowed); diff != "" {
		t.Errorf("%s differs from %s beyond queuedStartDepth (-shipped +unwindowed):\n%s", unwindowedConfig, ourConfig, diff)
	}
}

// Every scenario run through our profile runs it with the feature gates
// our binary sets, and the baselines with upstream's defaults: the
// comparison is between what each scheduler ships as.
func TestScenariosRunOurProfileWithOurFeatureGates(t *testing.T) {
	ours := 0
	for _, tc := range scenarioCases(t) {
		if tc.SchedulerConfigPath != ourConfig && tc.SchedulerConfigPath != unwindowedConfig {
			for f := range app.DefaultFeatureGates {
				got, set := tc.FeatureGates[f]
				if !set || (inTreeGangs(tc.Name) && upstreamGangGates[f] && got) {
					continue
				}
				t.Errorf("%s (a baseline) sets %s: baselines run upstream's defaults", tc.Name, f)
			}
			for f, on := range tc.FeatureGates {
				if _, ours := app.DefaultFeatureGates[f]; !ours && !(inTreeGangs(tc.Name) && upstreamGangGates[f] && on) {
					t.Errorf("%s (a baseline) sets %s: baselines run upstream's defaults, or turn on its own gangs' gates", tc.Name, f)
				}
			}
			continue
		}
		ours++
		for f, want := range app.DefaultFeatureGates {
			if got, set := tc.FeatureGates[f]; !set || got != want {
				t.Errorf("%s: featureGates.%s = %v (set: %v), want %v as our binary sets it", tc.Name, f, got, set, want)
			}
		}
	}
	if ours == 0 {
		t.Fatalf("no scenario uses %s", ourConfig)
	}
}

// upstreamGangGates are the gates of Kubernetes' own gangs and their
// topology constraint, off by default upstream. A baseline may turn them
// on, and only them, when it is a variant that measures those gangs
// (inTreeGangs): it is then upstream's scheduler as a user who wants its
// gangs would run it.
var upstreamGangGates = map[featuregate.Feature]bool{
	"GenericWorkload":                 true,
	"TopologyAwareWorkloadScheduling": true,
}

// inTreeGangs reports whether a test case's variant measures Kubernetes'
// own gangs (its name says InTreeGangs).
func inTreeGangs(testCase string) bool {
	_, variant, _ := strings.Cut(testCase, "_")
	return strings.HasPrefix(variant, "InTreeGangs")
}

// workloadTemplates reads the ops of every test case.
func workloadTemplates(t *testing.T) map[string][]scenarioOp {
	t.Helper()
	out := map[string][]scenarioOp{}
	for _, tc := range scenarioCases(t) {
		out[tc.Name] = tc.WorkloadTemplate
	}
	return out
}

// scenarioCase is a test case of performance-config.yaml, with the fields
// the tests of this file read.
type scenarioCase struct {
	Name                   string                       `json:"name"`
	SchedulerConfigPath    string                       `json:"schedulerConfigPath"`
	FeatureGates           map[featuregate.Feature]bool `json:"featureGates"`
	DefaultPodTemplatePath string                       `json:"defaultPodTemplatePath"`
	WorkloadTemplate       []scenarioOp                 `json:"workloadTemplate"`
	Workloads              []struct {
		Name   string         `json:"name"`
		Params map[string]any `json:"params"`
	} `json:"workloads"`
}

// scenarioOp is an op of a test case's workload template.
type scenarioOp struct {
	templateOp
	PodTemplatePath string         `json:"podTemplatePath"`
	TemplatePath    string         `json:"templatePath"`
	TemplateParams  map[string]any `json:"templateParams"`
}

// scenarioCases reads the test cases of performance-config.yaml.
func scenarioCases(t *testing.T) []scenarioCase {
	t.Helper()
	raw, err := os.ReadFile("performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []scenarioCase
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

type templateOp struct {
	Opcode         string   `json:"opcode"`
	Name           string   `json:"name"`
	Namespace      string   `json:"namespace"`
	Namespaces     []string `json:"namespaces"`
	CollectMetrics bool     `json:"collectMetrics"`
}

// The node hook starts counting bound pods (timeline_test.go) at a
// workload's first createNodes op, which must come before any pod.
func TestScenariosCreateNodesBeforePods(t *testing.T) {
	for name, ops := range workloadTemplates(t) {
		for _, op := range ops {
			if op.Opcode == "createNodes" {
				break
			}
			if op.Opcode == "createPods" {
				t.Errorf("%s creates pods before its first createNodes op", name)
				break
			}
		}
	}
}

// The harness names a measurement by the namespace of a createPods op that
// collects metrics, or by a startCollectingMetrics op's name: that name
// must be its only namespace, for the report to find the measured pods'
// timeline, which is named by namespace.
func TestScenariosNameMeasurementsByNamespace(t *testing.T) {
	measured := 0
	for name, ops := range workloadTemplates(t) {
		for _, op := range ops {
			switch {
			case op.Opcode == "startCollectingMetrics":
				measured++
				if len(op.Namespaces) != 1 || op.Namespaces[0] != op.Name {
					t.Errorf("%s: startCollectingMetrics is named %q, its namespaces are %q: name it after its one namespace", name, op.Name, op.Namespaces)
				}
			case op.Opcode == "createPods" && op.CollectMetrics:
				measured++
			}
		}
	}
	if measured == 0 {
		t.Fatal("no measurement found in performance-config.yaml")
	}
}

// Plain pods are timed in groups of the workload's podsPerWorkload, the
// figure gangs are held against (ganglatency_test.go). So in a scenario
// with a variant that measures JobSet members in gangs of podsPerWorkload
// pods (templates/pod-jobset-member.yaml) and a variant that measures
// plain pods, every workload names podsPerWorkload, the members are made
// with it, and every variant has the same value for each workload: the
// plain pods' groups are as large as the gangs.
func TestScenariosGroupPlainPodsByTheGangSize(t *testing.T) {
	cases := scenarioCases(t)
	// A template makes gangs of podsPerWorkload pods when it names each
	// pod's JobSet so; it makes plain pods when it names none.
	const gangOfPodsPerWorkload = "jobset.sigs.k8s.io/jobset-name: {{ .prefix }}-{{ DivideInt .Index .podsPerWorkload }}"
	kind := func(template string) string {
		data, err := os.ReadFile(template)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.Contains(string(data), gangOfPodsPerWorkload):
			return "gangs"
		case strings.Contains(string(data), wellknown.JobSetNameLabel):
			return "other gangs"
		}
		return "plain"
	}
	type variant struct {
		name string
		// sizes: podsPerWorkload by workload, -1 where unset.
		sizes map[string]float64
		// gangs: its measured pods are gangs of podsPerWorkload, made
		// with the parameter of that name.
		gangs, plain, madeWithSize bool
	}
	scenarios := map[string][]variant{}
	for _, tc := range cases {
		v := variant{name: tc.Name, sizes: map[string]float64{}, madeWithSize: true}
		for _, w := range tc.Workloads {
			size, ok := w.Params["podsPerWorkload"].(float64)
			if !ok {
				size = -1
			}
			v.sizes[w.Name] = size
		}
		collecting := false
		for _, op := range tc.WorkloadTemplate {
			switch op.Opcode {
			case "startCollectingMetrics":
				collecting = true
			case "stopCollectingMetrics":
				collecting = false
			case "createPods":
				if !collecting && !op.CollectMetrics {
					continue
				}
				template := op.PodTemplatePath
				if template == "" {
					template = tc.DefaultPodTemplatePath
				}
				switch kind(template) {
				case "gangs":
					v.gangs = true
					v.madeWithSize = v.madeWithSize && op.TemplateParams["podsPerWorkload"] == "$podsPerWorkload"
				case "plain":
					v.plain = true
				}
			}
		}
		scenario, _, _ := strings.Cut(tc.Name, "_")
		scenarios[scenario] = append(scenarios[scenario], v)
	}
	compared := 0
	for scenario, variants := range scenarios {
		gangs, plain := -1, false
		for i, v := range variants {
			if v.gangs && gangs < 0 {
				gangs = i
			}
			plain = plain || (v.plain && !v.gangs)
		}
		if gangs < 0 || !plain {
			continue
		}
		compared++
		want := variants[gangs]
		for _, v := range variants {
			if v.gangs && !v.madeWithSize {
				t.Errorf("%s measures gangs of podsPerWorkload pods not made with podsPerWorkload: $podsPerWorkload", v.name)
			}
			for w, size := range v.sizes {
				if size <= 0 || size != want.sizes[w] {
					t.Errorf("%s, workload %s: podsPerWorkload %v, want %v as %s's (the gangs of scenario %s)", v.name, w, size, want.sizes[w], want.name, scenario)
				}
			}
		}
	}
	if compared == 0 {
		t.Fatal("no scenario compares gangs of podsPerWorkload pods with plain pods")
	}
}

// A scenario whose pods the harness creates as JobSets are started
// (jobSetController, jobsetcontroller_test.go) creates no pods in the
// watched namespace itself, and creates all its JobSets there before its
// first createNodes op, which starts the drain and the measurement: every
// workload then waits from the start, as if created at once, and the
// harness's pace of creating objects does not pace the run.
func TestScenariosPlayingJobSetControllerCreateJobSetsFirst(t *testing.T) {
	playing := 0
	for _, tc := range scenarioCases(t) {
		plays := 0
		for _, w := range tc.Workloads {
			if w.Params[jobSetControllerParam] == 1.0 {
				plays++
			}
		}
		if plays == 0 {
			continue
		}
		playing++
		if plays != len(tc.Workloads) {
			t.Errorf("%s: %d of its %d workloads set %s: 1; all or none should", tc.Name, plays, len(tc.Workloads), jobSetControllerParam)
		}
		nodes, measured, jobSets := false, false, 0
		for _, op := range tc.WorkloadTemplate {
			switch op.Opcode {
			case "createNodes":
				nodes = true
			case "startCollectingMetrics":
				measured = slices.Contains(op.Namespaces, jobSetControllerNamespace)
			case "stopCollectingMetrics":
				measured = false
			case "createPods":
				if op.Namespace == jobSetControllerNamespace {
					t.Errorf("%s creates pods in namespace %s, whose JobSets' pods the harness creates", tc.Name, op.Namespace)
				}
			case "createAny":
				if op.Namespace != jobSetControllerNamespace {
					continue
				}
				data, err := os.ReadFile(op.TemplatePath)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(data), "\nkind: JobSet\n") {
					continue
				}
				jobSets++
				if nodes || measured {
					t.Errorf("%s creates JobSets from %s after its first createNodes op or inside the measurement of namespace %s",
						tc.Name, op.TemplatePath, jobSetControllerNamespace)
				}
			}
		}
		if jobSets == 0 {
			t.Errorf("%s sets %s but creates no JobSet in namespace %s", tc.Name, jobSetControllerParam, jobSetControllerNamespace)
		}
	}
	if playing == 0 {
		t.Fatalf("no scenario sets %s", jobSetControllerParam)
	}
}
