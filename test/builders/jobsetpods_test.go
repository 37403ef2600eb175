package builders

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

const (
	// sha1sum of "ns/js-a-0" and "ns/js-b-2".
	jobKeyA0 = "096470930baad18d66ba4462920c58553b8f4b60"
	jobKeyB2 = "bfb1fb355ba536bee0bd1220a4af1725049207b5"
)

// twoReplicatedJobs: a has 2 Jobs of 2 pods, b 3 Jobs of 1 pod.
func twoReplicatedJobs() *jobsetv1alpha2.JobSet {
	js := JobSet("ns", "js").Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *PodBuilder) { p.Label("app", "train").Annotation("note", "x").TPU("4") }).
		ReplicatedJob("a", 2, 2).
		ReplicatedJob("b", 3, 1).
		Obj()
	js.UID = "uid-1"
	return js
}

func TestPodsOfLabelsAndAnnotations(t *testing.T) {
	pods := PodsOf(twoReplicatedJobs(), 1)
	if len(pods) != 2*2+3*1 {
		t.Fatalf("got %d pods, want 7", len(pods))
	}
	jobSetKeys := map[string]string{
		"jobset.sigs.k8s.io/jobset-name":            "js",
		"jobset.sigs.k8s.io/jobset-uid":             "uid-1",
		"jobset.sigs.k8s.io/replicatedjob-name":     "a",
		"jobset.sigs.k8s.io/restart-attempt":        "1",
		"jobset.sigs.k8s.io/replicatedjob-replicas": "2",
		"jobset.sigs.k8s.io/global-replicas":        "5",
		"jobset.sigs.k8s.io/job-index":              "0",
		"jobset.sigs.k8s.io/job-key":                jobKeyA0,
		"jobset.sigs.k8s.io/job-global-index":       "0",
		"jobset.sigs.k8s.io/group-name":             "default",
		"jobset.sigs.k8s.io/group-replicas":         "5",
		"jobset.sigs.k8s.io/job-group-index":        "0",
	}
	wantLabels := map[string]string{
		"app":                          "train",
		"batch.kubernetes.io/job-name": "js-a-0",
		"job-name":                     "js-a-0",
		"batch.kubernetes.io/job-completion-index": "1",
	}
	wantAnnotations := map[string]string{
		"note": "x",
		"alpha.jobset.sigs.k8s.io/exclusive-topology": wellknown.NodePoolLabel,
		"batch.kubernetes.io/job-completion-index":    "1",
	}
	for k, v := range jobSetKeys {
		wantLabels[k] = v
		wantAnnotations[k] = v
	}
	got := pods[1] // Job a-0, completion index 1
	if got.Name != "js-a-0-1-a1" || got.Namespace != "ns" {
		t.Errorf("pod %s/%s, want ns/js-a-0-1-a1", got.Namespace, got.Name)
	}
	if diff := cmp.Diff(wantLabels, got.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantAnnotations, got.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	if got.Spec.Hostname != "js-a-0-1" {
		t.Errorf("hostname %q, want js-a-0-1", got.Spec.Hostname)
	}
	wantEnv := []corev1.EnvVar{{Name: "JOB_COMPLETION_INDEX", ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['batch.kubernetes.io/job-completion-index']"},
	}}}
	if diff := cmp.Diff(wantEnv, got.Spec.Containers[0].Env); diff != "" {
		t.Errorf("env (-want +got):\n%s", diff)
	}
	if got.Spec.Affinity != nil {
		t.Errorf("PodsOf set an affinity: %+v", got.Spec.Affinity)
	}
}

func TestPodsOfIndexes(t *testing.T) {
	type idx struct{ name, rj, job, global, completion, jobKey string }
	want := []idx{
		{"js-a-0-0-a0", "a", "0", "0", "0", jobKeyA0},
		{"js-a-0-1-a0", "a", "0", "0", "1", jobKeyA0},
		{"js-a-1-0-a0", "a", "1", "1", "0", JobKey("ns", "js-a-1")},
		{"js-a-1-1-a0", "a", "1", "1", "1", JobKey("ns", "js-a-1")},
		{"js-b-0-0-a0", "b", "0", "2", "0", JobKey("ns", "js-b-0")},
		{"js-b-1-0-a0", "b", "1", "3", "0", JobKey("ns", "js-b-1")},
		{"js-b-2-0-a0", "b", "2", "4", "0", jobKeyB2},
	}
	of := func(pods []*corev1.Pod) []idx {
		var out []idx
		for _, p := range pods {
			out = append(out, idx{p.Name, p.Labels[jobsetv1alpha2.ReplicatedJobNameKey], p.Labels[jobsetv1alpha2.JobIndexKey],
				p.Labels[wellknown.JobGlobalIndexLabel], p.Labels[wellknown.JobCompletionIndexLabel], p.Labels[wellknown.JobKeyLabel]})
		}
		return out
	}
	js := twoReplicatedJobs()
	for _, tc := range []struct {
		name string
		pods []*corev1.Pod
		want []idx
	}{
		{"all", PodsOf(js, 0), want},
		{"first replicated Job", PodsOfReplicatedJob(js, 0, "a"), want[:4]},
		{"later replicated Job counts the earlier ones' replicas", PodsOfReplicatedJob(js, 0, "b"), want[4:]},
		{"unknown replicated Job", PodsOfReplicatedJob(js, 0, "c"), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, of(tc.pods), cmp.AllowUnexported(idx{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodsOfSpecVariants(t *testing.T) {
	three := int32(3)
	for _, tc := range []struct {
		name  string
		js    func() *jobsetv1alpha2.JobSet
		check func(t *testing.T, pods []*corev1.Pod)
	}{{
		name: "completions below parallelism bound the pods per Job",
		js: func() *jobsetv1alpha2.JobSet {
			js := JobSet("ns", "js").ReplicatedJob("a", 1, 4).Obj()
			js.Spec.ReplicatedJobs[0].Template.Spec.Completions = &three
			return js
		},
		check: func(t *testing.T, pods []*corev1.Pod) {
			if len(pods) != 3 {
				t.Errorf("got %d pods, want 3", len(pods))
			}
		},
	}, {
		name: "groups index their Jobs on their own",
		js: func() *jobsetv1alpha2.JobSet {
			js := JobSet("ns", "js").ReplicatedJob("a", 2, 1).ReplicatedJob("b", 1, 1).ReplicatedJob("c", 2, 1).Obj()
			js.Spec.ReplicatedJobs[0].GroupName = "g"
			js.Spec.ReplicatedJobs[2].GroupName = "g"
			return js
		},
		check: func(t *testing.T, pods []*corev1.Pod) {
			var got [][3]string
			for _, p := range pods {
				got = append(got, [3]string{p.Labels[jobsetv1alpha2.GroupNameKey],
					p.Labels[jobsetv1alpha2.GroupReplicasKey], p.Labels[jobsetv1alpha2.JobGroupIndexKey]})
			}
			want := [][3]string{{"g", "4", "0"}, {"g", "4", "1"}, {"default", "1", "0"}, {"g", "4", "2"}, {"g", "4", "3"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("group labels (-want +got):\n%s", diff)
			}
		},
	}, {
		name: "a replicated Job's exclusive topology overrides the JobSet's",
		js: func() *jobsetv1alpha2.JobSet {
			js := JobSet("ns", "js").Exclusive(wellknown.NodePoolLabel).ReplicatedJob("a", 1, 1).ReplicatedJob("b", 1, 1).Obj()
			js.Spec.ReplicatedJobs[1].Template.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.ZoneLabel}
			return js
		},
		check: func(t *testing.T, pods []*corev1.Pod) {
			for i, want := range []string{wellknown.NodePoolLabel, wellknown.ZoneLabel} {
				if got := pods[i].Annotations[wellknown.ExclusiveTopologyAnnotation]; got != want {
					t.Errorf("pod %s: exclusive topology %q, want %q", pods[i].Name, got, want)
				}
			}
		},
	}, {
		name: "the node-selector strategy pins pods to their Job's nodes",
		js: func() *jobsetv1alpha2.JobSet {
			return JobSet("ns", "js").Exclusive(wellknown.NodePoolLabel).
				Annotation(wellknown.NodeSelectorStrategyAnnotation, "true").ReplicatedJob("a", 1, 1).Obj()
		},
		check: func(t *testing.T, pods []*corev1.Pod) {
			p := pods[0]
			if got := p.Spec.NodeSelector[jobsetv1alpha2.NamespacedJobKey]; got != "ns_js-a-0" {
				t.Errorf("namespaced-job node selector %q, want ns_js-a-0", got)
			}
			want := []corev1.Toleration{{Key: jobsetv1alpha2.NoScheduleTaintKey, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
			if diff := cmp.Diff(want, p.Spec.Tolerations); diff != "" {
				t.Errorf("tolerations (-want +got):\n%s", diff)
			}
			if _, ok := p.Annotations[wellknown.NodeSelectorStrategyAnnotation]; !ok {
				t.Error("node-selector annotation not copied")
			}
		},
	}, {
		name: "DNS hostnames put pods in the JobSet's subdomain",
		js: func() *jobsetv1alpha2.JobSet {
			js := JobSet("ns", "js").ReplicatedJob("a", 1, 1).Obj()
			enabled := true
			js.Spec.Network = &jobsetv1alpha2.Network{EnableDNSHostnames: &enabled}
			return js
		},
		check: func(t *testing.T, pods []*corev1.Pod) {
			if got := pods[0].Spec.Subdomain; got != "js" {
				t.Errorf("subdomain %q, want js", got)
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			js := tc.js()
			before := js.DeepCopy()
			tc.check(t, PodsOf(js, 0))
			if diff := cmp.Diff(before, js); diff != "" {
				t.Errorf("PodsOf changed the JobSet (-before +after):\n%s", diff)
			}
		})
	}
}

func TestJobSetPodWebhook(t *testing.T) {
	prio := func(v int32) *int32 { return &v }
	pods := PodsOf(twoReplicatedJobs(), 0)
	leader, follower := pods[0], pods[1]
	plain := PodsOf(JobSet("ns", "plain").ReplicatedJob("a", 1, 2).Obj(), 0)[0]
	nodeSelector := PodsOf(JobSet("ns", "nss").Exclusive(wellknown.NodePoolLabel).
		Annotation(wellknown.NodeSelectorStrategyAnnotation, "true").ReplicatedJob("a", 1, 2).Obj(), 0)[0]

	leaderAffinity := &corev1.Affinity{
		PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "jobset.sigs.k8s.io/job-key", Operator: metav1.LabelSelectorOpIn, Values: []string{jobKeyA0}},
			}},
			TopologyKey:       wellknown.NodePoolLabel,
			NamespaceSelector: &metav1.LabelSelector{},
		}}},
		PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "jobset.sigs.k8s.io/job-key", Operator: metav1.LabelSelectorOpExists},
				{Key: "jobset.sigs.k8s.io/job-key", Operator: metav1.LabelSelectorOpNotIn, Values: []string{jobKeyA0}},
				{Key: "jobset.sigs.k8s.io/priority", Operator: metav1.LabelSelectorOpIn, Values: []string{"100"}},
			}},
			TopologyKey:       wellknown.NodePoolLabel,
			NamespaceSelector: &metav1.LabelSelector{},
		}}},
	}
	// A leader with an affinity of its own keeps it; the webhook appends.
	own := corev1.PodAffinityTerm{TopologyKey: wellknown.ZoneLabel, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}}
	ownLeader := leader.DeepCopy()
	ownLeader.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{own}}}
	ownLeaderAffinity := leaderAffinity.DeepCopy()
	ownLeaderAffinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution = append([]corev1.PodAffinityTerm{own},
		ownLeaderAffinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution...)
	notJobSet := Pod("ns", "p").Obj()

	for _, tc := range []struct {
		name         string
		pod          *corev1.Pod
		priority     *int32
		wantPriority string // "": no label
		wantAffinity *corev1.Affinity
	}{
		{"exclusive leader", leader, prio(100), "100", leaderAffinity},
		{"exclusive leader with an affinity", ownLeader, prio(100), "100", ownLeaderAffinity},
		{"exclusive follower", follower, prio(100), "100", nil},
		{"not exclusive", plain, prio(7), "7", nil},
		{"negative priority", plain, prio(-5), "-5", nil},
		{"no priority", follower, nil, "", nil},
		{"node-selector strategy", nodeSelector, prio(100), "", nil},
		{"not a JobSet pod", notJobSet, prio(100), "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := tc.pod.DeepCopy()
			JobSetPodWebhook(pod, tc.priority)
			got, has := pod.Labels[wellknown.JobSetPriorityLabel]
			if got != tc.wantPriority || has != (tc.wantPriority != "") {
				t.Errorf("priority label %q (present %v), want %q", got, has, tc.wantPriority)
			}
			if diff := cmp.Diff(tc.wantAffinity, pod.Spec.Affinity); diff != "" {
				t.Errorf("affinity (-want +got):\n%s", diff)
			}
			other := pod.DeepCopy()
			other.Labels, other.Spec.Affinity = tc.pod.Labels, tc.pod.Spec.Affinity
			if diff := cmp.Diff(tc.pod, other); diff != "" {
				t.Errorf("changed more than labels and affinity (-before +after):\n%s", diff)
			}
		})
	}
}

func TestIsJobLeaderAndLeaderPodName(t *testing.T) {
	pods := PodsOf(twoReplicatedJobs(), 2)
	for _, p := range pods {
		wantLeader := p.Labels[wellknown.JobCompletionIndexLabel] == "0"
		if IsJobLeader(p) != wantLeader {
			t.Errorf("IsJobLeader(%s) = %v", p.Name, !wantLeader)
		}
	}
	if got := LeaderPodName(pods[3]); got != "js-a-1-0-a2" {
		t.Errorf("LeaderPodName(%s) = %s, want js-a-1-0-a2", pods[3].Name, got)
	}
}
