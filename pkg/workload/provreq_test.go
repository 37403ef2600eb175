package workload_test

import (
	"maps"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The owner's provreq.kueue.x-k8s.io/ annotations, and only those, become
// the model's provisioning parameters.
func TestProvisioningAnnotations(t *testing.T) {
	js := builders.JobSet("ns", "train").Annotation("provreq.kueue.x-k8s.io/maxRunDurationSeconds", "600").
		Annotation("other.example.com/key", "x").ReplicatedJob("slice", 1, 1).Obj()
	w, err := workload.FromJobSet(js, "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"provreq.kueue.x-k8s.io/maxRunDurationSeconds": "600"}
	if !maps.Equal(w.ProvisioningAnnotations, want) {
		t.Errorf("ProvisioningAnnotations = %v, want %v", w.ProvisioningAnnotations, want)
	}
	plain, _ := workload.FromJobSet(builders.JobSet("ns", "plain").ReplicatedJob("slice", 1, 1).Obj(), "")
	if plain.ProvisioningAnnotations != nil {
		t.Errorf("a JobSet without them has %v", plain.ProvisioningAnnotations)
	}
}
