package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

var unit = Unit{Namespace: "ns", Scheduler: "sched"}

func TestUnitPod(t *testing.T) {
	p := unit.Pod("p").Obj()
	got := []any{p.Namespace, p.Name, p.UID, p.CreationTimestamp.Time, p.Spec.SchedulerName, len(p.Spec.Containers[0].Resources.Requests), p.Spec.NodeName}
	want := []any{"ns", "p", types.UID("p"), Epoch, "sched", 0, ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("namespace, name, UID, created, scheduler, requests, node (-want +got):\n%s", diff)
	}
}

func TestUnitJobSet(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj()
	got := []any{js.Namespace, js.UID, js.CreationTimestamp.Time, js.Annotations[wellknown.ExclusiveTopologyAnnotation]}
	want := []any{"ns", types.UID("a-uid"), Epoch, wellknown.NodePoolLabel}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("namespace, UID, created, exclusive topology (-want +got):\n%s", diff)
	}
	spec := js.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec
	wantSelector := map[string]string{wellknown.TPUAcceleratorLabel: V5e, wellknown.TPUTopologyLabel: "2x4"}
	requests := spec.Containers[0].Resources.Requests
	if spec.SchedulerName != "sched" || !cmp.Equal(wantSelector, spec.NodeSelector) || len(requests) != 1 || requests.Name(wellknown.ResourceTPU, "").Value() != 4 {
		t.Errorf("pod template: scheduler %q, node selector %v, requests %v", spec.SchedulerName, spec.NodeSelector, requests)
	}
	if _, ok := unit.JobSet("a").Unconfined().Obj().Annotations[wellknown.ExclusiveTopologyAnnotation]; ok {
		t.Error("Unconfined kept the exclusive topology")
	}
}

func TestUnitPodGroup(t *testing.T) {
	pg := unit.PodGroup("pg", 3).Exclusive(wellknown.ZoneLabel).Obj()
	got := []any{pg.Namespace, pg.UID, pg.CreationTimestamp.Time, pg.Spec.MinMember, pg.Annotations}
	want := []any{"ns", types.UID("pg-uid"), Epoch, int32(3), map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.ZoneLabel}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("namespace, UID, created, min member, annotations (-want +got):\n%s", diff)
	}
}

func TestMembers(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("w", 2, 2).Obj()
	js.Status.Restarts = 1
	var got [][3]string
	for _, p := range Members(js) {
		if !p.CreationTimestamp.Equal(&js.CreationTimestamp) {
			t.Errorf("%s created at %v, want the JobSet's %v", p.Name, p.CreationTimestamp, js.CreationTimestamp)
		}
		got = append(got, [3]string{p.Name, string(p.UID), p.Labels[wellknown.RestartAttemptLabel]})
	}
	want := [][3]string{
		{"a-w-0-0-a1", "a-uid/a-w-0-0-a1", "1"},
		{"a-w-0-1-a1", "a-uid/a-w-0-1-a1", "1"},
		{"a-w-1-0-a1", "a-uid/a-w-1-0-a1", "1"},
		{"a-w-1-1-a1", "a-uid/a-w-1-1-a1", "1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("name, UID, restart attempt (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(Members(js)[2], Member(js, 1, 0).Obj()); diff != "" {
		t.Errorf("Member(1, 0) is not the third of Members (-want +got):\n%s", diff)
	}
	var on []string
	for _, p := range MembersOn(js, "n0", "n1", "n2", "n3") {
		if p.Status.Phase != corev1.PodRunning {
			t.Errorf("%s in phase %q, want Running", p.Name, p.Status.Phase)
		}
		on = append(on, p.Spec.NodeName)
	}
	if diff := cmp.Diff([]string{"n0", "n1", "n2", "n3"}, on); diff != "" {
		t.Errorf("MembersOn nodes (-want +got):\n%s", diff)
	}
}

// The copying helpers change their copy only.
func TestPodCopies(t *testing.T) {
	orig := unit.Pod("p").Label("team", "ml").Obj()
	before := orig.DeepCopy()
	for _, tc := range []struct {
		name string
		got  *corev1.Pod
		edit func(*corev1.Pod)
	}{
		{"Bound", Bound(orig, "n"), func(p *corev1.Pod) { p.Spec.NodeName, p.Status.Phase = "n", corev1.PodRunning }},
		{"Assumed", Assumed(orig, "n"), func(p *corev1.Pod) { p.Spec.NodeName = "n" }},
		{"InPhase", InPhase(orig, corev1.PodFailed), func(p *corev1.Pod) { p.Status.Phase = corev1.PodFailed }},
		{"Relabelled", Relabelled(orig, "team", "infra"), func(p *corev1.Pod) { p.Labels["team"] = "infra" }},
		{"Relabelled to remove", Relabelled(orig, "team", ""), func(p *corev1.Pod) { delete(p.Labels, "team") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := before.DeepCopy()
			tc.edit(want)
			if diff := cmp.Diff(want, tc.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if diff := cmp.Diff(before, orig); diff != "" {
		t.Errorf("the original changed (-before +after):\n%s", diff)
	}
}
