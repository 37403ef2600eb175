package app

import (
	"bytes"
	"encoding/json"
	"os"
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
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--feature-gates=NominatedNodeNameForExpectation=true"}, true},
		{[]string{"--feature-gates=NominatedNodeNameForExpectation=false"}, false},
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
	t.Cleanup(func() {
		cmd := NewCommand()
		if err := cmd.ParseFlags([]string{"--feature-gates=GenericWorkload=false"}); err != nil {
			t.Error(err)
		}
		if err := cmd.PersistentPreRunE(cmd, nil); err != nil {
			t.Error(err)
		}
	})
	cmd := NewCommand()
	if err := cmd.ParseFlags(nil); err != nil {
		t.Fatal(err)
	}
	if err := cmd.PersistentPreRunE(cmd, nil); err != nil || utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) {
		t.Fatalf("by default: err = %v, gate on = %v", err, utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload))
	}
	cmd = NewCommand()
	if err := cmd.ParseFlags([]string{"--feature-gates=GenericWorkload=true"}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.PersistentPreRunE(cmd, nil); err == nil || !strings.Contains(err.Error(), "GenericWorkload") {
		t.Fatalf("err = %v, want a refusal naming the gate", err)
	}
}

// PluginNames lists the names of the plugins this scheduler registers.
func PluginNames() []string {
	var out []string
	for _, p := range plugins(nil) {
		out = append(out, p.name)
	}
	return out
}
