package workload_test

import (
	"maps"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
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

// A pod of no other workload that consumes a ProvisioningRequest is a
// member of that request's gang, under either annotation key; members of
// a JobSet, a PodGroup, a queued Job or a queued pod stay theirs (a queue's
// check annotates its own pods once their request is provisioned).
func TestConsumerMember(t *testing.T) {
	consumer := workload.Key{Source: workload.SourceProvisioningRequest, Namespace: "ns", Name: "req"}
	for name, tc := range map[string]struct {
		labels, annotations map[string]string
		want                workload.Key
		member, invalid     bool
	}{
		"current key":    {annotations: map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "req"}, want: consumer, member: true},
		"deprecated key": {annotations: map[string]string{wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "req"}, want: consumer, member: true},
		"both keys, one request": {annotations: map[string]string{
			wellknown.ConsumeProvisioningRequestAnnotation: "req", wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "req"}, want: consumer, member: true},
		"both keys, two requests": {annotations: map[string]string{
			wellknown.ConsumeProvisioningRequestAnnotation: "req", wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "other"}, member: true, invalid: true},
		"not a name":         {annotations: map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "Not_A_Name"}, member: true, invalid: true},
		"unqueued Job's pod": {labels: map[string]string{wellknown.JobNameLabel: "job"}, annotations: map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "req"}, want: consumer, member: true},
		"queued Job's pod": {labels: map[string]string{wellknown.JobNameLabel: "job", wellknown.QueueNameLabel: "lq"},
			annotations: map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "req"},
			want:        workload.Key{Source: workload.SourceJob, Namespace: "ns", Name: "job"}, member: true},
		"queued pod": {labels: map[string]string{wellknown.QueueNameLabel: "lq"}, annotations: map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "req"},
			want: workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "p"}, member: true},
		"PodGroup's pod": {labels: map[string]string{wellknown.PodGroupLabel: "pg"}, annotations: map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "req"},
			want: workload.Key{Source: workload.SourcePodGroup, Namespace: "ns", Name: "pg"}, member: true},
		"no annotation": {},
	} {
		t.Run(name, func(t *testing.T) {
			pod := builders.Pod("ns", "p").Obj()
			pod.Labels, pod.Annotations = tc.labels, tc.annotations
			m, ok, err := workload.MemberOf(pod)
			if ok != tc.member || (err != nil) != tc.invalid {
				t.Fatalf("MemberOf = %+v, %v, %v; want member %v, invalid %v", m, ok, err, tc.member, tc.invalid)
			}
			if !tc.invalid && m.Key != tc.want {
				t.Errorf("key = %v, want %v", m.Key, tc.want)
			}
		})
	}
}

// A request's gang is its pods in all, one unconfined slice.
func TestFromConsumedRequest(t *testing.T) {
	key := workload.Key{Source: workload.SourceProvisioningRequest, Namespace: "ns", Name: "req"}
	w, err := workload.FromConsumedRequest(key, "uid", builders.Epoch, 5, false, workload.Consumption{Provisioned: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Slices) != 1 || w.Slices[0].Pods != 5 || w.Slices[0].DomainKey != "" || w.Confined() || w.Consumes == nil || !w.Consumes.Provisioned {
		t.Errorf("model %+v", w)
	}
	for _, pods := range []int{0, -1, 1 << 30} {
		if _, err := workload.FromConsumedRequest(key, "uid", builders.Epoch, pods, false, workload.Consumption{}); err == nil {
			t.Errorf("%d pods: no error", pods)
		}
	}
}
