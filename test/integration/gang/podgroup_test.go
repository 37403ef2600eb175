package gang_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Coscheduling users switch schedulers with no change: a scheduler-plugins
// PodGroup is an all-or-nothing gang; our annotation confines it to a domain.
func TestPodGroupsAreGangs(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	// The unconfined group's 4 pods may land on 4 different pools; the
	// fifth stays whole for the confined group.
	v5ePools(t, cp, 5)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "podgroup")
	client := spclient.NewForConfigOrDie(cp.Config)
	createGroup := func(name string, minMember int32, annotations map[string]string) {
		_, err := client.SchedulingV1alpha1().PodGroups(ns).Create(t.Context(), &schedv1alpha1.PodGroup{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations},
			Spec:       schedv1alpha1.PodGroupSpec{MinMember: minMember},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
	}
	member := func(group string, i int) string {
		name := fmt.Sprintf("%s-%d", group, i)
		cp.CreatePod(t, builders.Pod(ns, name).Scheduler(app.Name).TPU("4").Label(wellknown.PodGroupLabel, group).Obj())
		return name
	}

	// Unconfined: 3 of 3 members needed; 2 wait, the third lets all bind.
	createGroup("free", 3, nil)
	a, b := member("free", 0), member("free", 1)
	cp.ExpectPodStaysUnbound(t, ns, a, 2*time.Second)
	cp.ExpectPodStaysUnbound(t, ns, b, 0)
	c := member("free", 2)
	for _, p := range []string{a, b, c} {
		cp.WaitForPodBound(t, ns, p)
	}
	// A member beyond minMember joins the running group.
	cp.WaitForPodBound(t, ns, member("free", 3))

	// Confined to one pool by annotation: both members share a pool that
	// nothing else uses.
	createGroup("pinned", 2, map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.NodePoolLabel})
	p0, p1 := member("pinned", 0), member("pinned", 1)
	var pools []string
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		pools = pools[:0]
		for _, name := range []string{p0, p1} {
			pod, err := cp.Client.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil || pod.Spec.NodeName == "" {
				return false, nil
			}
			node, err := cp.Client.CoreV1().Nodes().Get(ctx, pod.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			pools = append(pools, node.Labels[wellknown.NodePoolLabel])
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("confined group not placed: %v", err)
	}
	if pools[0] != pools[1] {
		t.Errorf("confined group split across %v", pools)
	}
}
