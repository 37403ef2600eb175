package scheduler_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestShippedConfigIsValidAndRunsBesideDefaultScheduler(t *testing.T) {
	cfg, err := options.LoadConfigFromFile(klog.Background(), harness.SchedulerConfig(t))
	if err != nil {
		t.Fatalf("shipped config does not load: %v", err)
	}
	if len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != app.Name {
		t.Errorf("profiles = %+v, want exactly one named %q", cfg.Profiles, app.Name)
	}
	le := cfg.LeaderElection
	if !le.LeaderElect {
		t.Error("leader election is off; the Deployment runs 2 replicas")
	}
	if le.ResourceName == "kube-scheduler" || le.ResourceName == "" {
		t.Errorf("lease name %q would contend with the default scheduler", le.ResourceName)
	}
	if le.ResourceNamespace != "multislice-system" {
		t.Errorf("lease namespace %q, want multislice-system (where the RBAC grants it)", le.ResourceNamespace)
	}
}

// gangProfile enables MultisliceGang and its gate and opens its args.
const gangProfile = `profiles:
- schedulerName: multislice-scheduler
  plugins:
    multiPoint:
      enabled: [{name: MultisliceGang}, {name: MultisliceGate}]
      disabled: [{name: PrioritySort}]
  pluginConfig:
  - name: MultisliceGang
    args:
`

func TestInvalidConfigFailsStartupNamingTheField(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cases := map[string]struct {
		config    string
		wantField string
	}{
		"unknown top-level field": {
			config:    "podMaxBackofSeconds: 10\n",
			wantField: "podMaxBackofSeconds",
		},
		"unknown field in a profile": {
			config:    "profiles:\n- schedulerName: multislice-scheduler\n  pluginConfg: []\n",
			wantField: "pluginConfg",
		},
		"out of range value": {
			config:    "percentageOfNodesToScore: 150\nprofiles:\n- schedulerName: multislice-scheduler\n",
			wantField: "percentageOfNodesToScore",
		},
		"wrong type": {
			config:    "parallelism: many\nprofiles:\n- schedulerName: multislice-scheduler\n",
			wantField: "parallelism",
		},
		"unknown plugin": {
			config:    "profiles:\n- schedulerName: multislice-scheduler\n  plugins:\n    filter:\n      enabled:\n      - name: NoSuchPlugin\n",
			wantField: "NoSuchPlugin",
		},
		"unknown plugin arg": {
			config:    gangProfile + "      permitTimeoutSecond: 30\n",
			wantField: `unknown field "permitTimeoutSecond"`,
		},
		"invalid plugin arg": {
			config:    gangProfile + "      followerTimeoutSeconds: -5\n",
			wantField: "MultisliceGangArgs.followerTimeoutSeconds",
		},
		"MultisliceGang without its gate": {
			config:    strings.Replace(gangProfile, ", {name: MultisliceGate}", "", 1) + "      permitTimeoutSeconds: 30\n",
			wantField: "MultisliceGang is enabled without MultisliceGate",
		},
		"the gate without MultisliceGang": {
			config:    "profiles:\n- schedulerName: multislice-scheduler\n  plugins:\n    preEnqueue:\n      enabled:\n      - name: MultisliceGate\n",
			wantField: "MultisliceGate is enabled without MultisliceGang",
		},
		"duplicate profile": {
			config:    "profiles:\n- schedulerName: multislice-scheduler\n- schedulerName: multislice-scheduler\n",
			wantField: "profiles[1].schedulerName",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			header := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection:\n  leaderElect: false\n"
			path := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(path, []byte(header+tc.config), 0o600); err != nil {
				t.Fatal(err)
			}
			rendered := harness.RenderSchedulerConfig(t, path, cp.KubeconfigPath)
			_, _, err := harness.SetupScheduler(t.Context(), []string{"--config=" + rendered, "--secure-port=0"})
			if err == nil {
				t.Fatalf("scheduler started with an invalid config")
			}
			if !strings.Contains(err.Error(), tc.wantField) {
				t.Errorf("error does not name %q: %v", tc.wantField, err)
			}
		})
	}
}
