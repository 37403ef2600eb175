package computeclass

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func TestValidate(t *testing.T) {
	flex := func(maxRun, lead *int64) cloudv1.Priority {
		p := cloudv1.Priority{MachineType: "g2-standard-24", MaxRunDurationSeconds: maxRun, FlexStart: &cloudv1.FlexStart{Enabled: true}}
		if lead != nil {
			p.FlexStart.NodeRecycling = &cloudv1.NodeRecycling{LeadTimeSeconds: lead}
		}
		return p
	}
	for name, tc := range map[string]struct {
		class *cloudv1.ComputeClass
		want  []string
	}{
		"seed 001":                       {class: seed001()},
		"the demo's short class":         {class: builders.ComputeClass("short").Spot("g2-standard-24").FlexStart("g2-standard-24", 180, 90).Obj()},
		"flex-start with the default":    {class: builders.ComputeClass("c").FlexStart("", 0, 604799).Obj()},
		"spot with a run time":           {class: builders.ComputeClass("c").Priority(cloudv1.Priority{Spot: ptr.To(true), MachineFamily: "n2", MaxRunDurationSeconds: ptr.To[int64](360)}).Obj()},
		"a GPU and a TPU class":          {class: builders.ComputeClass("c").Priority(cloudv1.Priority{GPU: &cloudv1.GPU{Type: "nvidia-l4", Count: 2}}).Priority(cloudv1.Priority{TPU: &cloudv1.TPU{Type: "tpu-v6e-slice", Count: 4, Topology: "4x4"}}).Obj()},
		"lead time as long as the run":   {class: builders.ComputeClass("c").Spot("g2-standard-24").FlexStart("g2-standard-24", 3600, 3600).Obj(), want: []string{"spec.priorities[1].flexStart.nodeRecycling.leadTimeSeconds: must be less than maxRunDurationSeconds (3600), got 3600"}},
		"lead time past the default run": {class: builders.ComputeClass("c").Priority(flex(nil, ptr.To[int64](604800))).Obj(), want: []string{"spec.priorities[0].flexStart.nodeRecycling.leadTimeSeconds: must be less than maxRunDurationSeconds (604800, the flex-start default), got 604800"}},
		"no lead time":                   {class: builders.ComputeClass("c").Priority(flex(nil, nil)).Priority(cloudv1.Priority{FlexStart: &cloudv1.FlexStart{Enabled: true, NodeRecycling: &cloudv1.NodeRecycling{}}}).Obj(), want: []string{"spec.priorities[1].flexStart.nodeRecycling.leadTimeSeconds: is required"}},
		"negative lead time":             {class: builders.ComputeClass("c").Priority(flex(nil, ptr.To[int64](-1))).Obj(), want: []string{"spec.priorities[0].flexStart.nodeRecycling.leadTimeSeconds: must not be negative, got -1"}},
		"flex-start longer than 7 days":  {class: builders.ComputeClass("c").FlexStart("g2-standard-24", 604801, 60).Obj(), want: []string{"spec.priorities[0].maxRunDurationSeconds: must be at most 604800 (7 days) for flex-start, got 604801"}},
		"zero run time":                  {class: builders.ComputeClass("c").Priority(cloudv1.Priority{MaxRunDurationSeconds: ptr.To[int64](0)}).Obj(), want: []string{"spec.priorities[0].maxRunDurationSeconds: must be positive, got 0"}},
		"spot flex-start":                {class: builders.ComputeClass("c").Priority(cloudv1.Priority{Spot: ptr.To(true), FlexStart: &cloudv1.FlexStart{Enabled: true}}).Obj(), want: []string{"spec.priorities[0].flexStart.enabled: flex-start VMs are not Spot VMs"}},
		"recycling without flex-start":   {class: builders.ComputeClass("c").Priority(cloudv1.Priority{FlexStart: &cloudv1.FlexStart{NodeRecycling: &cloudv1.NodeRecycling{LeadTimeSeconds: ptr.To[int64](60)}}}).Obj(), want: []string{"spec.priorities[0].flexStart.nodeRecycling: recycles flex-start nodes only"}},
		"no priorities":                  {class: builders.ComputeClass("c").Obj(), want: []string{"spec.priorities: at least one priority is required"}},
		"machine type of another family": {class: builders.ComputeClass("c").Priority(cloudv1.Priority{MachineFamily: "n2", MachineType: "g2-standard-24"}).Obj(), want: []string{"spec.priorities[0].machineType: g2-standard-24 is of machine family g2, not of machineFamily n2"}},
		"GPU without type or count":      {class: builders.ComputeClass("c").Priority(cloudv1.Priority{GPU: &cloudv1.GPU{}}).Obj(), want: []string{"spec.priorities[0].gpu.type: is required", "spec.priorities[0].gpu.count: must be at least 1, got 0"}},
		"TPU and GPU":                    {class: builders.ComputeClass("c").Priority(cloudv1.Priority{GPU: &cloudv1.GPU{Type: "nvidia-l4", Count: 1}, TPU: &cloudv1.TPU{Type: "tpu-v6e-slice", Count: 4, Topology: "bad topology"}}).Obj(), want: []string{"spec.priorities[0].tpu: a priority has gpu or tpu, not both", `spec.priorities[0].tpu.topology: "bad topology"`}},
		"unknown policy":                 {class: func() *cloudv1.ComputeClass { c := seed001(); c.Spec.WhenUnsatisfiable = "Sometimes"; return c }(), want: []string{`spec.whenUnsatisfiable: "Sometimes" is not one of DoNotScaleUp, ScaleUpAnyway`}},
		"name too long for a label":      {class: builders.ComputeClass(strings.Repeat("c", 64)).OnDemand("n4-standard-8").Obj(), want: []string{"metadata.name: \"" + strings.Repeat("c", 64) + "\" cannot be the value of the node label cloud.google.com/compute-class"}},
		"every error at once": {class: builders.ComputeClass("c").Priority(cloudv1.Priority{MinCores: ptr.To[int32](-1)}).FlexStart("g2-standard-24", 60, 120).Obj(),
			want: []string{"spec.priorities[0].minCores: must not be negative, got -1", "spec.priorities[1].flexStart.nodeRecycling.leadTimeSeconds: must be less than maxRunDurationSeconds (60), got 120"}},
	} {
		t.Run(name, func(t *testing.T) {
			err := Validate(tc.class)
			got := leafMessages(err)
			if len(got) != len(tc.want) {
				t.Fatalf("Validate = %v, want %d errors: %v", err, len(tc.want), tc.want)
			}
			for i, want := range tc.want {
				if !strings.HasPrefix(got[i], want) {
					t.Errorf("error %d: %q, want it to start with %q", i, got[i], want)
				}
			}
		})
	}
}

// leafMessages flattens an errors.Join of Validate; each leaf must be a
// *FieldError.
func leafMessages(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			out = append(out, leafMessages(e)...)
		}
		return out
	}
	return []string{err.Error()}
}

// fuzzField is the form of every error Validate returns.
var fuzzField = regexp.MustCompile(`^(metadata\.name|spec\.(priorities|whenUnsatisfiable|priorities\[\d+\](\.[a-zA-Z]+)+)): `)

// FuzzValidate reads any bytes as a class, as users write them, and
// checks that nothing panics, that each error of Validate is a FieldError
// naming a field of the class, and, for a class it accepts, that the
// lifetimes of its priorities are consistent (a node is recycled after it
// is created and before it ends) and that a node labelled as GKE labels
// the nodes of a priority is matched to that priority or an earlier one.
// The seed corpus is the classes under manifests/examples.
func FuzzValidate(f *testing.F) {
	files, _ := filepath.Glob("../../manifests/examples/*/*.yaml")
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), "kind: ComputeClass") {
			f.Add(data)
		}
	}
	for _, class := range []*cloudv1.ComputeClass{seed001(), builders.ComputeClass("c").FlexStart("g2-standard-24", 60, 120).Obj()} {
		data, _ := yaml.Marshal(class)
		f.Add(data)
	}
	f.Add([]byte("spec: {priorities: [{flexStart: {nodeRecycling: {leadTimeSeconds: -5}}, maxRunDurationSeconds: 9223372036854775807}]}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var class cloudv1.ComputeClass
		if yaml.Unmarshal(data, &class) != nil {
			return
		}
		err := Validate(&class)
		for _, msg := range leafMessages(err) {
			if !fuzzField.MatchString(msg) {
				t.Fatalf("error %q names no field", msg)
			}
		}
		var leaf *FieldError
		if err != nil && !errors.As(err, &leaf) {
			t.Fatalf("Validate returned %T", err)
		}
		for i := range class.Spec.Priorities {
			p := &class.Spec.Priorities[i]
			l := PriorityRunWindow(p, epoch)
			PriorityCapacity(p)
			if err != nil {
				continue
			}
			if !l.End.IsZero() && !l.End.After(epoch) {
				t.Fatalf("priority %d ends at %s, created at %s", i, l.End, epoch)
			}
			if !l.RecycleAt.IsZero() && (l.RecycleAt.Before(epoch) || !l.RecycleAt.Before(l.End)) {
				t.Fatalf("priority %d recycled at %s, created %s, ends %s", i, l.RecycleAt, epoch, l.End)
			}
			if class.Name == "" {
				continue
			}
			node := &corev1.Node{}
			node.CreationTimestamp.Time = epoch
			node.Labels = NodeLabels(class.Name, p, "")
			node.Status.Capacity = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100000")}
			if got := MatchPriority(&class, node); got < 0 || got > i {
				t.Fatalf("a node of priority %d matches priority %d", i, got)
			}
			if lt, got := NodeRunWindow(&class, node); got >= 0 && lt.PhaseAt(epoch.Add(time.Hour)) == "" {
				t.Fatalf("no phase")
			}
		}
	})
}
