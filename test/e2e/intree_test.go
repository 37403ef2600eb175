package e2e

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The Kubernetes PodGroup example (manifests/examples/intree-podgroup), as
// written, on the local cluster, whose apiserver serves the in-tree API:
// its 4 pods run together in one v6e pool, and a 1-slice JobSet that
// arrives next lands in another pool, none shared.
func TestInTreePodGroupExample(t *testing.T) {
	const rel = "intree-podgroup/serving.yaml"
	ns := namespace(t)
	var pods []*corev1.Pod
	for _, o := range exampleObjects(t, rel) {
		switch o.GetKind() {
		case "PodGroup":
			in := &schedv1beta1.PodGroup{}
			fromUnstructured(t, rel, o, in)
			in.Namespace = ns
			if _, err := client.SchedulingV1beta1().PodGroups(ns).Create(t.Context(), in, metav1.CreateOptions{}); err != nil {
				t.Fatalf("create PodGroup %s: %v", in.Name, err)
			}
		case "Pod":
			p := createExamplePod(t, rel, ns, o)
			if p.Spec.SchedulingGroup == nil || p.Spec.SchedulingGroup.PodGroupName == nil {
				t.Fatalf("the apiserver dropped %s's spec.schedulingGroup: is the GenericWorkload gate on?", p.Name)
			}
			pods = append(pods, p)
		default:
			t.Fatalf("%s: unexpected %s %s", rel, o.GetKind(), o.GetName())
		}
	}
	if len(pods) != 4 {
		t.Fatalf("%s has %d pods, want 4", rel, len(pods))
	}
	serving := waitPodsRunning(t, ns, "app=serving", 4, 90*time.Second)
	checkAccelerator(t, serving, "tpu-v6e-slice")
	pool := ""
	for _, p := range serving {
		got := poolOfNode(t, p.Spec.NodeName)
		if pool != "" && got != pool {
			t.Fatalf("PodGroup serving split across pools %s and %s", pool, got)
		}
		pool = got
	}

	one := exampleJobSet(t, "podgroup-v6e/training-1slice.yaml", ns)
	runUntilDeleted(one)
	one = createJobSet(t, one)
	onePods := waitRunning(t, one, 4, 120*time.Second)
	checkOnePoolPerSlice(t, onePods, map[string]string{pool: "PodGroup.scheduling.k8s.io serving"})
	t.Logf("PodGroup serving on %s; %s on %s", pool, one.Name, poolOfNode(t, onePods[0].Spec.NodeName))
}
