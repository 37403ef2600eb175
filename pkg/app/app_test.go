package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/features"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/version"
)

func TestVersionFlagPrintsOurBuild(t *testing.T) {
	cases := map[string]struct {
		args  []string
		check func(t *testing.T, out string)
	}{
		"--version": {
			args: []string{"--version"},
			check: func(t *testing.T, out string) {
				if !strings.HasPrefix(out, "multislice-scheduler ") || strings.Contains(out, "v0.0.0-master") {
					t.Errorf("output %q is not our version line", out)
				}
			},
		},
		"--version=raw": {
			args: []string{"--version=raw"},
			check: func(t *testing.T, out string) {
				var info version.Info
				if err := json.Unmarshal([]byte(out), &info); err != nil {
					t.Fatalf("not JSON: %v: %q", err, out)
				}
				if info.KubernetesVersion != version.KubernetesVersion || info.GitVersion == "" {
					t.Errorf("info = %+v", info)
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cmd := NewCommand()
			var out bytes.Buffer
			cmd.SetOut(&out)
			cmd.SetArgs(tc.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			tc.check(t, out.String())
		})
	}
}

func TestCommandNameAndRegistry(t *testing.T) {
	cmd := NewCommand()
	if cmd.Name() != Name {
		t.Errorf("command name %q, want %q", cmd.Name(), Name)
	}
	registry := Registry(nil)
	var got []string
	for name, factory := range registry {
		if factory == nil {
			t.Errorf("plugin %s has no factory", name)
		}
		got = append(got, name)
	}
	slices.Sort(got)
	want := []string{"MultisliceGang", "MultisliceGate", "MultislicePreemption"}
	if !slices.Equal(got, want) {
		t.Errorf("registry = %v, want %v", got, want)
	}
	if names := PluginNames(); !slices.Equal(slices.Sorted(slices.Values(names)), want) {
		t.Errorf("PluginNames = %v, want %v", names, want)
	}
}

func TestKubernetesVersionMatchesGoMod(t *testing.T) {
	data, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "k8s.io/kubernetes "+version.KubernetesVersion) {
		t.Errorf("go.mod does not require k8s.io/kubernetes %s; update version.KubernetesVersion", version.KubernetesVersion)
	}
}

// Our default for NominatedNodeNameForExpectation holds unless the command
// line sets the gate, either way. (The flags' registry is global to the
// process and keeps what every case parsed: the cases run in order.)
func TestDefaultFeatureGatesYieldToTheCommandLine(t *testing.T) {
	gate := features.NominatedNodeNameForExpectation
	t.Cleanup(func() {
		if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(map[string]bool{string(gate): true}); err != nil {
			t.Error(err)
		}
	})
	ours := "--config=" + shippedConfig
	for _, tc := range []struct {
		args []string
		want bool
	}{
		// First: without a profile of ours the upstream default stands
		// (what the cases after it set would outlive them).
		{[]string{"--config=" + writeConfig(t, kubeSchedulerOnly)}, true},
		{[]string{ours}, false},
		{[]string{ours, "--feature-gates=NominatedNodeNameForExpectation=true"}, true},
		{[]string{ours, "--feature-gates=NominatedNodeNameForExpectation=false"}, false},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := NewCommand()
			if err := cmd.ParseFlags(tc.args); err != nil {
				t.Fatal(err)
			}
			if err := cmd.PersistentPreRunE(cmd, nil); err != nil {
				t.Fatal(err)
			}
			if got := utilfeature.DefaultFeatureGate.Enabled(gate); got != tc.want {
				t.Errorf("%s enabled = %v, want %v", gate, got, tc.want)
			}
		})
	}
}

// The in-tree workload scheduling cycle stays off: asked for on the
// command line, the scheduler refuses to start and names the gate.
func TestGenericWorkloadIsRefused(t *testing.T) {
	// The flags' registry keeps what was parsed: parse the gate off again.
	ours := "--config=" + shippedConfig
	t.Cleanup(func() {
		cmd := NewCommand()
		if err := cmd.ParseFlags([]string{ours, "--feature-gates=GenericWorkload=false"}); err != nil {
			t.Error(err)
		}
		if err := cmd.PersistentPreRunE(cmd, nil); err != nil {
			t.Error(err)
		}
	})
	cmd := NewCommand()
	if err := cmd.ParseFlags([]string{ours}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.PersistentPreRunE(cmd, nil); err != nil || utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) {
		t.Fatalf("by default: err = %v, gate on = %v", err, utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload))
	}
	cmd = NewCommand()
	if err := cmd.ParseFlags([]string{ours, "--feature-gates=GenericWorkload=true"}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.PersistentPreRunE(cmd, nil); err == nil || !strings.Contains(err.Error(), "GenericWorkload") {
		t.Fatalf("err = %v, want a refusal naming the gate", err)
	}
}

// shippedConfig is the configuration manifests/ ships: our profile.
const shippedConfig = "../../manifests/scheduler/config.yaml"

// kubeSchedulerOnly is kube-scheduler's own configuration: no plugin of ours.
const kubeSchedulerOnly = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
`

// writeConfig writes a configuration file and returns its path.
func writeConfig(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Our feature-gate defaults and our runtime apply only when a profile
// enables a plugin of ours, at any extension point.
func TestConfigEnablesOurPlugins(t *testing.T) {
	for name, tc := range map[string]struct {
		file    string
		want    bool
		wantErr string
	}{
		"no --config: kube-scheduler's default profile": {file: "", want: false},
		"the shipped configuration":                     {file: shippedConfig, want: true},
		"kube-scheduler's own profile":                  {file: writeConfig(t, kubeSchedulerOnly), want: false},
		"ours only at one extension point": {file: writeConfig(t, kubeSchedulerOnly+`  - schedulerName: other
    plugins:
      postFilter:
        enabled:
          - name: MultislicePreemption
`), want: true},
		"another out-of-tree plugin": {file: writeConfig(t, kubeSchedulerOnly+`    plugins:
      multiPoint:
        enabled:
          - name: Coscheduling
`), want: false},
		"not YAML: left to the scheduler's own loading": {file: writeConfig(t, "profiles: [\n"), want: false},
		"a missing file names the flag":                 {file: filepath.Join(t.TempDir(), "absent.yaml"), wantErr: "--config"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := configEnablesOurPlugins(tc.file)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("configEnablesOurPlugins = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}
