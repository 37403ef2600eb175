package chaos

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func TestWriteSchedulerConfig(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		wantErr bool
	}{
		{name: "the shipped configuration", config: shippedConfig(t)},
		{
			name: "a profile without args gets them",
			config: `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: multislice-scheduler
  pluginConfig:
  - name: MultisliceGang
`,
		},
		{
			name: "no MultisliceGang to configure",
			config: `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: other
`,
			wantErr: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "in.yaml"), filepath.Join(dir, "out.yaml")
			if err := os.WriteFile(src, []byte(tc.config), 0o644); err != nil {
				t.Fatal(err)
			}
			err := WriteSchedulerConfig(src, dst, 60*time.Second)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			data, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				LeaderElection map[string]any `json:"leaderElection"`
				Profiles       []struct {
					PluginConfig []struct {
						Name string         `json:"name"`
						Args map[string]any `json:"args"`
					} `json:"pluginConfig"`
				} `json:"profiles"`
			}
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			args := doc.Profiles[0].PluginConfig[0].Args
			if args["permitTimeoutSeconds"] != float64(60) || args["followerTimeoutSeconds"] != float64(60) || args["kind"] != "MultisliceGangArgs" {
				t.Errorf("args = %v", args)
			}
			if strings.Contains(tc.config, "leaderElection") && doc.LeaderElection["resourceName"] != "multislice-scheduler" {
				t.Errorf("leader election not kept as shipped: %v", doc.LeaderElection)
			}
		})
	}
}

func shippedConfig(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "manifests", "scheduler", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestRecorder(t *testing.T) {
	var out bytes.Buffer
	r := NewRecorder(&out)
	r.evidence = func(v Violation) []string { return []string{"evidence of " + v.Key} }
	a := Violation{Invariant: Exclusive, Key: "a", Message: "pool shared"}
	b := Violation{Invariant: WithinQuota, Key: "b", Message: "over quota"}
	r.Observe([]Violation{a}, at(0))
	r.Observe([]Violation{a, b}, at(1)) // a goes on, b starts
	r.Observe([]Violation{b}, at(2))    // a ends
	r.Observe([]Violation{a, b}, at(3)) // a again: a new breach
	got := r.Records()
	if len(got) != 3 {
		t.Fatalf("%d records, want 3: %+v", len(got), got)
	}
	for i, want := range []struct {
		key         string
		first, last int
		open        bool
	}{{"a", 0, 1, false}, {"b", 1, 3, true}, {"a", 3, 3, true}} {
		if g := got[i]; g.Key != want.key || !g.First.Equal(at(want.first)) || !g.Last.Equal(at(want.last)) || g.Open != want.open {
			t.Errorf("record %d = %s %s–%s open %v, want %+v", i, g.Key, g.First, g.Last, g.Open, want)
		}
	}
	if n := strings.Count(out.String(), "VIOLATION"); n != 3 {
		t.Errorf("reported %d violations, want 3:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), "    evidence of a") {
		t.Errorf("no evidence:\n%s", out.String())
	}
}

func TestSummaryMarkdown(t *testing.T) {
	stats := NewStats()
	stats.Add("JobSets created", 4)
	stats.Add(opLeaderKills, 2)
	stats.Add("leader kills skipped (no leader)", 1)
	s := &Summary{Seed: 7, Duration: 3 * time.Minute, Checks: 10}
	s.Operations, s.Outcomes = stats.Rows()
	clean := s.Markdown()
	s.Violations = []Record{{Violation: Violation{Invariant: WithinQuota, Key: "q", Message: "a | b", Objects: []string{"ClusterQueue x"}}, First: at(0), Last: at(2), Open: true}}
	dirty := s.Markdown()
	for _, want := range []string{"seed 7", "| JobSets created | 4 |", "| leader kills (SIGKILL) | 2 |", "| leader kills skipped (no leader) | 1 |",
		"| **violations (c) usage within quota** (expected 0) | 0 |", "No violation."} {
		if !strings.Contains(clean, want) {
			t.Errorf("summary lacks %q:\n%s", want, clean)
		}
	}
	for _, want := range []string{"| **violations (c) usage within quota** (expected 0) | 1 |", `a \| b`, "2s (still at the end)"} {
		if !strings.Contains(dirty, want) {
			t.Errorf("summary lacks %q:\n%s", want, dirty)
		}
	}
}

func TestMemberOf(t *testing.T) {
	tests := []struct {
		name string
		pod  *podBuilder
		want string
	}{
		{"a JobSet pod is its JobSet's, by attempt", pod("p").ofJobSet("js", 2, 1).ofJob("js-slice-1"), "JobSet chaos/js#2"},
		{"a PodGroup pod", pod("p").ofPodGroup("pg"), "PodGroup chaos/pg"},
		{"a Job's pod", pod("p").ofJob("j"), "Job chaos/j"},
		{"a pod of its own", pod("p"), "Pod chaos/p"},
	}
	for _, tc := range tests {
		if got := MemberOf(tc.pod.obj()).GangKey(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// Generated workloads are what the invariants assume: pods of the
// scheduler under test asking for TPU chips only, JobSets and PodGroups
// confined to node pools, queued Jobs created suspended.
func TestGeneratedWorkloads(t *testing.T) {
	g := &generator{namespace: testNS, scheduler: testSched}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		s := shapeOf(rng)
		checkPod := func(kind string, spec corev1.PodSpec) {
			t.Helper()
			if spec.SchedulerName != testSched || len(spec.Containers) != 1 {
				t.Fatalf("%s pod spec %+v", kind, spec)
			}
			limits := spec.Containers[0].Resources.Limits
			if len(limits) != 1 || limits.Name(wellknown.ResourceTPU, "").Value() != ChipsPerPod {
				t.Errorf("%s pod asks for %v, want only %d chips", kind, limits, ChipsPerPod)
			}
			if spec.NodeSelector[wellknown.TPUAcceleratorLabel] != s.accel.Accelerator {
				t.Errorf("%s pod selects %v", kind, spec.NodeSelector)
			}
		}
		js := g.jobSet("js", s)
		if js.Annotations[wellknown.ExclusiveTopologyAnnotation] != wellknown.NodePoolLabel || js.Labels[GeneratedLabel] == "" ||
			wellknown.QueueName(js.Labels, nil) != s.queue || *js.Spec.Suspend != s.suspend {
			t.Errorf("JobSet %+v for %+v", js.ObjectMeta, s)
		}
		rj := js.Spec.ReplicatedJobs[0]
		if int(rj.Replicas) != s.slices || int(*rj.Template.Spec.Parallelism) != s.accel.PodsPer || rj.Template.Spec.Template.Annotations[localcluster.RunTimeAnnotation] != s.runTime.String() {
			t.Errorf("replicated Job %+v for %+v", rj, s)
		}
		checkPod("JobSet", rj.Template.Spec.Template.Spec)
		if o := JobSetOwner(js); o.Pods != s.slices*s.accel.PodsPer || !o.Gang {
			t.Errorf("JobSet owner %+v for %+v", o, s)
		}

		pg, pods := g.podGroup("pg", s)
		if pg.Annotations[wellknown.PodGroupDomainKeyAnnotation] != wellknown.NodePoolLabel || len(pods) != int(pg.Spec.MinMember) {
			t.Errorf("PodGroup %+v with %d pods", pg, len(pods))
		}
		for _, p := range pods {
			if p.Labels[wellknown.PodGroupLabel] != "pg" {
				t.Errorf("pod labels %v", p.Labels)
			}
			checkPod("PodGroup", p.Spec)
		}

		s.suspend = s.queue != ""
		job := g.job("job", s)
		if *job.Spec.Suspend != (s.queue != "") || int(*job.Spec.Parallelism) != s.slices {
			t.Errorf("Job %+v for %+v", job.Spec, s)
		}
		checkPod("Job", job.Spec.Template.Spec)
	}
}

func TestEvidence(t *testing.T) {
	w := world().jobSets(jobSet("a", 1, 2).exclusive()).
		event("a", "WaitingForDomains", at(5)).
		pods(pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0).unschedulable("no room")).obj()
	c := NewChecker(Config{PartialGangAfter: time.Minute, PendingAfter: time.Minute, ReservedFor: time.Minute})
	c.Check(w, at(0))
	vs := only(NoPartialGang, c.Check(w, at(61)))
	if len(vs) != 1 {
		t.Fatalf("violations: %s", keys(vs))
	}
	got := strings.Join(w.Evidence(vs[0]), "\n")
	for _, want := range []string{
		"pod a-0 (created 10:00:00): on v5e-0-a (pool v5e-0",
		`pod a-1 (created 10:00:00): not bound, Pending, PodScheduled=False Unschedulable "no room"`,
		"JobSet chaos/a: restarts 0",
		"on JobSet chaos/a: WaitingForDomains: because",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("evidence lacks %q:\n%s", want, got)
		}
	}
}
