package perf

import (
	"os"
	"testing"

	"k8s.io/component-base/featuregate"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
)

// ourConfig is the scheduler configuration of our profile, as the
// scenarios name it.
const ourConfig = "../../manifests/scheduler/config.yaml"

// Every scenario run through our profile runs it with the feature gates
// our binary sets, and the baselines with upstream's defaults: the
// comparison is between what each scheduler ships as.
func TestScenariosRunOurProfileWithOurFeatureGates(t *testing.T) {
	raw, err := os.ReadFile("performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name                string                       `json:"name"`
		SchedulerConfigPath string                       `json:"schedulerConfigPath"`
		FeatureGates        map[featuregate.Feature]bool `json:"featureGates"`
	}
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	ours := 0
	for _, tc := range cases {
		if tc.SchedulerConfigPath != ourConfig {
			for f := range app.DefaultFeatureGates {
				if _, set := tc.FeatureGates[f]; set {
					t.Errorf("%s (a baseline) sets %s: baselines run upstream's defaults", tc.Name, f)
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

// workloadTemplates reads the ops of every test case.
func workloadTemplates(t *testing.T) map[string][]templateOp {
	t.Helper()
	raw, err := os.ReadFile("performance-config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name             string       `json:"name"`
		WorkloadTemplate []templateOp `json:"workloadTemplate"`
	}
	if err := yaml.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	out := map[string][]templateOp{}
	for _, tc := range cases {
		out[tc.Name] = tc.WorkloadTemplate
	}
	return out
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
