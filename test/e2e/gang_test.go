package e2e

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
)

// The seed scenario through the real JobSet → Job → pod path, with JobSet's
// webhooks staging leaders and followers: on three v5e 2x4 pools a 3-slice
// JobSet runs alone, one slice per pool; 1- and 2-slice JobSets wait with
// no pod bound, and run together once it is gone.
func TestThreeSliceJobSetRunsAloneThenOneAndTwoTogether(t *testing.T) {
	ns := namespace(t)
	three := createJobSet(t, v5eJobSet(ns, "three", 3))
	pods := waitRunning(t, three, 6, 120*time.Second)
	checkOnePoolPerSlice(t, pods, nil)

	one := createJobSet(t, v5eJobSet(ns, "one", 1))
	two := createJobSet(t, v5eJobSet(ns, "two", 2))
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, js := range []*jobsetv1alpha2.JobSet{one, two} {
			ps, err := jobSetPods(t.Context(), js)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if p.Spec.NodeName != "" {
					t.Fatalf("%s bound to %s while the 3-slice JobSet holds every pool", p.Name, p.Spec.NodeName)
				}
			}
		}
		time.Sleep(250 * time.Millisecond)
	}

	deleteJobSet(t, three)
	onePods := waitRunning(t, one, 2, 120*time.Second)
	twoPods := waitRunning(t, two, 4, 120*time.Second)
	used := map[string]string{}
	checkOnePoolPerSlice(t, onePods, used)
	checkOnePoolPerSlice(t, twoPods, used)
}

// checkOnePoolPerSlice checks each Job's pods share one pool that no other
// Job (in used, across JobSets) has.
func checkOnePoolPerSlice(t *testing.T, pods []corev1.Pod, used map[string]string) {
	t.Helper()
	if used == nil {
		used = map[string]string{}
	}
	poolOfJob := map[string]string{}
	for _, p := range pods {
		job := p.Labels[jobsetv1alpha2.JobSetNameKey] + "/" + p.Labels[jobsetv1alpha2.JobIndexKey] + "/" + p.Labels[jobsetv1alpha2.ReplicatedJobNameKey]
		pool := poolOfNode(t, p.Spec.NodeName)
		if prev, ok := poolOfJob[job]; ok && prev != pool {
			t.Errorf("Job %s split across %s and %s", job, prev, pool)
		}
		poolOfJob[job] = pool
	}
	for job, pool := range poolOfJob {
		if other, taken := used[pool]; taken && other != job {
			t.Errorf("pool %s shared by %s and %s", pool, other, job)
		}
		used[pool] = job
	}
}
