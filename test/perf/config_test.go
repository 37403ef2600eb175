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
