package demo

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const head = "apiVersion: localcluster.multislice-scheduler.io/v1alpha1\nkind: Demo\n"

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, file, want string
	}{
		{"wrong kind", "apiVersion: v1\nkind: Pod\nsteps: [{apply: a.yaml}]\n", "apiVersion/kind"},
		{"no steps", head + "steps: []\n", "steps: at least one step"},
		{"unknown field", head + "steps: [{aply: a.yaml}]\n", `unknown field "steps[0].aply"`},
		{"two actions", head + "steps: [{apply: a.yaml, sleep: 1s}]\n", "steps[0]: must have exactly one of"},
		{"no action", head + "steps: [{note: hi}]\n", "steps[0]: must have exactly one of"},
		{"bad state", head + "steps: [{waitFor: {jobset: a, state: Done}}]\n", `steps[0].waitFor.state: "Done" is not one of`},
		{"nothing to wait for", head + "steps: [{waitFor: {state: Running}}]\n", "steps[0].waitFor: must name exactly one of jobset (a name, or * for all), job, provisioningRequest, pool, computeClass (names 0)"},
		{"two things to wait for", head + "steps: [{waitFor: {jobset: a, job: b, state: Running}}]\n", "steps[0].waitFor: must name exactly one of"},
		{"job restarted", head + "steps: [{waitFor: {job: a, state: Restarted}}]\n", `steps[0].waitFor.state: "Restarted" is not one of Running, Completed, Finished (for a job)`},
		{"job condition", head + "steps: [{waitFor: {job: a, state: Running, condition: Provisioned}}]\n", "steps[0].waitFor.condition: does not go with"},
		{"request state", head + "steps: [{waitFor: {provisioningRequest: r, state: Running}}]\n", "steps[0].waitFor.state: does not go with"},
		{"request condition", head + "steps: [{waitFor: {provisioningRequest: r, condition: Ready}}]\n", `steps[0].waitFor.condition: "Ready" is not one of Accepted, Provisioned, Failed, BookingExpired, CapacityRevoked`},
		{"pool state", head + "steps: [{waitFor: {pool: p, poolState: Healthy}}]\n", `steps[0].waitFor.poolState: "Healthy" is not one of Ready, Removed`},
		{"jobset pool state", head + "steps: [{waitFor: {jobset: a, state: Running, poolState: Ready}}]\n", "steps[0].waitFor.poolState: does not go with"},
		{"all running", head + "steps: [{waitFor: {jobset: '*', state: Running}}]\n", "steps[0].waitFor: jobset * can only wait for Completed or Finished"},
		{"fail nothing", head + "steps: [{failPool: {}}]\n", "steps[0].failPool: set pool or ofJobSet"},
		{"fail both", head + "steps: [{failPool: {pool: a, ofJobSet: b}}]\n", "steps[0].failPool: set pool or ofJobSet, not both"},
		{"negative slice", head + "steps: [{failPool: {ofJobSet: b, slice: -1}}]\n", "steps[0].failPool.slice: must not be negative"},
		{"zero sleep", head + "steps: [{apply: a.yaml}, {sleep: 0s}]\n", "steps[1].sleep: must be positive"},
		{"class nodes state", head + "steps: [{waitFor: {computeClass: c, nodes: Gone}}]\n", `steps[0].waitFor.nodes: "Gone" is not one of Ready, Recycled, Replaced`},
		{"class nodes and state", head + "steps: [{waitFor: {computeClass: c, nodes: Ready, state: Running}}]\n", "steps[0].waitFor.state: does not go with"},
		{"nodes without a class", head + "steps: [{waitFor: {pool: p, poolState: Ready, nodes: Ready}}]\n", "steps[0].waitFor.nodes: does not go with"},
		{"node pools and apply", head + "steps: [{nodePools: p.yaml, apply: a.yaml}]\n", "steps[0]: must have exactly one of apply, sleep, waitFor, nodePools"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestParseWaits(t *testing.T) {
	s, err := Parse([]byte(head + `steps:
- waitFor: {job: sample-job, state: Running}
- waitFor: {job: sample-job, state: Completed}
- waitFor: {provisioningRequest: job-sample-job-dws-prov-1, condition: Provisioned}
- waitFor: {pool: NODEPOOL_NAME, poolState: Removed}
- waitFor: {jobset: train, state: Restarted}
- waitFor: {computeClass: dws-model-inference-class, nodes: Recycled}
`))
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Steps[2].WaitFor; w.ProvisioningRequest != "job-sample-job-dws-prov-1" || w.Condition != "Provisioned" {
		t.Errorf("steps[2].waitFor = %+v", *w)
	}
}

func TestParseDefaults(t *testing.T) {
	s, err := Parse([]byte(head + "steps:\n- recoverPool: {}\n- waitFor: {jobset: '*', state: Finished}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Namespace != "default" || s.Timeout.Duration.Minutes() != 10 {
		t.Errorf("defaults: namespace %q timeout %s", s.Namespace, s.Timeout.Duration)
	}
}

// The shipped scenarios load, and every file they apply exists.
func TestShippedScenarios(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	matches, err := filepath.Glob(filepath.Join(filepath.Dir(self), "..", "..", "..", "manifests", "examples", "*", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(matches) < 2 {
		t.Fatalf("found %d scenarios", len(matches))
	}
	for _, m := range matches {
		if _, err := Load(m); err != nil {
			t.Error(err)
		}
	}
}

// A nodePools step's file must exist and be a valid node pool file.
func TestLoadNodePools(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "demo.yaml")
	if err := os.WriteFile(scenario, []byte(head+"steps:\n- nodePools: pools.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pools := filepath.Join(dir, "pools.yaml")
	for _, tc := range []struct {
		name, content, wantErr string
	}{
		{name: "missing", wantErr: "steps[0].nodePools"},
		{name: "invalid", content: "apiVersion: localcluster.multislice-scheduler.io/v1alpha1\nkind: NodePools\npools: [{name: a}]\n", wantErr: "steps[0].nodePools"},
		{name: "valid", content: "apiVersion: localcluster.multislice-scheduler.io/v1alpha1\nkind: NodePools\npools: [{name: a, nodes: 1, cpu: '8', memory: 32Gi}]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = os.Remove(pools)
			if tc.content != "" {
				if err := os.WriteFile(pools, []byte(tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Load(scenario)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Load = %v", err)
				}
				if got := s.Path(s.Steps[0].NodePools); got != pools {
					t.Errorf("nodePools resolves to %s, want %s", got, pools)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Load = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}
