package workload

// Fuzz targets for everything users write that this package reads: the
// labels and annotations on pods (membership), JobSet, Job and PodGroup
// objects (the model) and the resource quantities of their pod templates.
// Each target checks that no input panics, that a rejected input comes back
// as an *InvalidError naming the offending field, and that an accepted one
// is a model downstream code can index without checking it again: one slice
// per Job, Slices[i].Index == i, 1 <= Pods <= maxPods, 0 <= Group < Groups,
// every request positive and what the template asks for (not wrapped).
//
// The seed corpora are the JobSets, Jobs, PodGroups and Pods under
// manifests/examples and the inputs of this package's table tests; `make
// test-fuzz` runs every target.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// fuzzExamples returns the documents of the given kinds in the manifests
// under manifests/examples, as written.
func fuzzExamples(f *testing.F, kinds ...string) [][]byte {
	f.Helper()
	var out [][]byte
	sep := regexp.MustCompile(`(?m)^---[ \t]*$`)
	err := filepath.WalkDir("../../manifests/examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range sep.Split(string(data), -1) {
			var meta metav1.TypeMeta
			if yaml.Unmarshal([]byte(doc), &meta) != nil {
				continue
			}
			for _, k := range kinds {
				if meta.Kind == k {
					out = append(out, []byte(doc))
				}
			}
		}
		return nil
	})
	if err != nil || len(out) == 0 {
		f.Fatalf("no %v in manifests/examples (err %v)", kinds, err)
	}
	return out
}

// The pod labels FuzzMemberOf sets, by bit of its presence mask.
var fuzzMemberLabels = []string{
	wellknown.JobSetNameLabel,
	wellknown.JobGlobalIndexLabel,
	wellknown.RestartAttemptLabel,
	wellknown.JobSetUIDLabel,
	wellknown.JobCompletionIndexLabel,
	wellknown.JobNameLabel,
	wellknown.LegacyJobNameLabel,
	wellknown.JobControllerUIDLabel,
	wellknown.PodGroupLabel,
	wellknown.QueueNameLabel,
}

// fuzzMemberSeed is a FuzzMemberOf input from a pod's labels and annotations.
func fuzzMemberSeed(f *testing.F, labels, annotations map[string]string) {
	var present uint16
	values := make([]string, len(fuzzMemberLabels))
	for i, k := range fuzzMemberLabels {
		if v, ok := labels[k]; ok {
			present |= 1 << i
			values[i] = v
		}
	}
	q, hasQ := annotations[wellknown.QueueNameLabel]
	if hasQ {
		present |= 1 << len(fuzzMemberLabels)
	}
	f.Add(present, values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7], values[8], values[9], q, "app", "x")
}

// FuzzMemberOf reads membership from pods carrying any combination of the
// JobSet, Job, PodGroup and Kueue labels (and the queue-name annotation)
// with any values. A pod is a member of at most one workload, chosen in
// MemberOf's order; a malformed label is an error naming that label (a
// required one that is missing, or one the pod carries); a member's key,
// slice and owner are what its labels say.
func FuzzMemberOf(f *testing.F) {
	for _, doc := range fuzzExamples(f, "Pod") {
		var p corev1.Pod
		if err := yaml.Unmarshal(doc, &p); err != nil {
			f.Fatal(err)
		}
		fuzzMemberSeed(f, p.Labels, p.Annotations)
	}
	for _, labels := range []map[string]string{
		{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "2", wellknown.RestartAttemptLabel: "1", wellknown.JobCompletionIndexLabel: "0", wellknown.JobSetUIDLabel: "u1"},
		{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "x"},
		{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0", wellknown.RestartAttemptLabel: "9999999999999"},
		{wellknown.JobSetNameLabel: ""},
		{wellknown.PodGroupLabel: ""},
		{wellknown.JobNameLabel: "train", wellknown.QueueNameLabel: "lq", wellknown.JobControllerUIDLabel: "job-uid", wellknown.JobCompletionIndexLabel: "first"},
		{wellknown.LegacyJobNameLabel: "", wellknown.QueueNameLabel: "lq"},
		{wellknown.JobNameLabel: "train", wellknown.PodGroupLabel: "pg", wellknown.QueueNameLabel: "lq"},
		{wellknown.QueueNameLabel: "lq"},
	} {
		fuzzMemberSeed(f, labels, nil)
	}
	fuzzMemberSeed(f, map[string]string{wellknown.JobNameLabel: "train"}, map[string]string{wellknown.QueueNameLabel: "lq"})

	f.Fuzz(func(t *testing.T, present uint16, jobSetName, globalIndex, restartAttempt, jobSetUID, completionIndex,
		jobName, legacyJobName, controllerUID, podGroup, queueLabel, queueAnnotation, extraKey, extraValue string) {
		values := []string{jobSetName, globalIndex, restartAttempt, jobSetUID, completionIndex,
			jobName, legacyJobName, controllerUID, podGroup, queueLabel}
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", UID: "pod-uid",
			Labels: map[string]string{extraKey: extraValue}}}
		for i, k := range fuzzMemberLabels {
			if present&(1<<i) != 0 {
				p.Labels[k] = values[i]
			}
		}
		if present&(1<<len(fuzzMemberLabels)) != 0 {
			p.Annotations = map[string]string{wellknown.QueueNameLabel: queueAnnotation}
		}
		_, ofJobSet := p.Labels[wellknown.JobSetNameLabel]
		_, ofPodGroup := p.Labels[wellknown.PodGroupLabel]
		queue := wellknown.QueueName(p.Labels, p.Annotations)

		type read struct {
			m   Member
			ok  bool
			err error
		}
		var reads []read
		for _, fn := range []func(*corev1.Pod) (Member, bool, error){JobSetMember, PodGroupMember, JobMember} {
			m, ok, err := fn(p)
			fuzzCheckMember(t, p, m, ok, err)
			reads = append(reads, read{m, ok, err})
		}
		m, ok := PodMember(p)
		fuzzCheckMember(t, p, m, ok, nil)
		reads = append(reads, read{m, ok, nil})

		js, pg, job, own := reads[0], reads[1], reads[2], reads[3]
		if js.ok != ofJobSet || pg.ok != ofPodGroup || own.ok != (queue != "") {
			t.Fatalf("JobSetMember ok %v, PodGroupMember ok %v, PodMember ok %v for labels %v, annotations %v",
				js.ok, pg.ok, own.ok, p.Labels, p.Annotations)
		}
		if js.ok && js.err == nil {
			index, err := strconv.Atoi(p.Labels[wellknown.JobGlobalIndexLabel])
			if js.m.Key != (Key{SourceJobSet, "ns", p.Labels[wellknown.JobSetNameLabel]}) || err != nil || js.m.Slice != index ||
				js.m.OwnerUID != types.UID(p.Labels[wellknown.JobSetUIDLabel]) {
				t.Fatalf("JobSet member %+v of labels %v", js.m, p.Labels)
			}
		}
		if pg.ok && pg.err == nil && pg.m.Key != (Key{SourcePodGroup, "ns", p.Labels[wellknown.PodGroupLabel]}) {
			t.Fatalf("PodGroup member %+v of labels %v", pg.m, p.Labels)
		}
		if job.ok {
			if ofJobSet || queue == "" {
				t.Fatalf("Job member %+v of a pod of a JobSet or of no queue: labels %v", job.m, p.Labels)
			}
			name, has := p.Labels[wellknown.JobNameLabel]
			if !has {
				name = p.Labels[wellknown.LegacyJobNameLabel]
			}
			if job.err == nil && job.m.Key != (Key{SourceJob, "ns", name}) {
				t.Fatalf("Job member %+v of labels %v", job.m, p.Labels)
			}
		}
		if own.ok && own.m.Key != (Key{SourcePod, "ns", "p"}) {
			t.Fatalf("pod member %+v", own.m)
		}

		// MemberOf is the first source that claims the pod.
		want := read{}
		for _, r := range reads {
			if r.ok {
				want = r
				break
			}
		}
		gm, gok, gerr := MemberOf(p)
		if gok != want.ok || gm != want.m || (gerr == nil) != (want.err == nil) {
			t.Fatalf("MemberOf = %+v, %v, %v; want %+v, %v, %v", gm, gok, gerr, want.m, want.ok, want.err)
		}
	})
}

// fuzzCheckMember checks one membership read: not a member and no error,
// an *InvalidError naming a label the pod carries (or lacks, for a missing
// one), or a member whose key, slice and attempt downstream code can use
// as they are.
func fuzzCheckMember(t *testing.T, p *corev1.Pod, m Member, ok bool, err error) {
	t.Helper()
	if !ok {
		if err != nil || m != (Member{}) {
			t.Fatalf("not a member, but member %+v, err %v", m, err)
		}
		return
	}
	if err != nil {
		var inv *InvalidError
		if !errors.As(err, &inv) {
			t.Fatalf("error %v (%T) is not an *InvalidError", err, err)
		}
		label, found := strings.CutPrefix(inv.Field, "metadata.labels[")
		label, closed := strings.CutSuffix(label, "]")
		_, carried := p.Labels[label]
		if inv.Object != "Pod ns/p" || !found || !closed || inv.Reason == "" || (!carried && inv.Reason != "missing") {
			t.Fatalf("error %q does not name a label of pod ns/p, or one it lacks (labels %v)", err, p.Labels)
		}
		return
	}
	if m.Key.Namespace != "ns" || m.Key.Name == "" || m.Slice < 0 || m.Slice >= maxPods || m.RestartAttempt < 0 ||
		(m.Key.Source != SourcePod && m.Leader && !m.HasIndex) {
		t.Fatalf("member %+v of labels %v", m, p.Labels)
	}
}

// fuzzSpec is a pod spec with a container requesting request of resource
// name and limiting it to limit, and a container limiting google.com/tpu
// to tpuLimit. A quantity that does not parse is left out: the API decoder
// rejects it before any object reaches the model.
func fuzzSpec(name, request, limit, tpuLimit string) corev1.PodSpec {
	c := corev1.Container{Name: "c"}
	if q, err := resource.ParseQuantity(request); err == nil {
		c.Resources.Requests = corev1.ResourceList{corev1.ResourceName(name): q}
	}
	if q, err := resource.ParseQuantity(limit); err == nil {
		c.Resources.Limits = corev1.ResourceList{corev1.ResourceName(name): q}
	}
	tpu := corev1.Container{Name: "tpu"}
	if q, err := resource.ParseQuantity(tpuLimit); err == nil {
		tpu.Resources.Limits = corev1.ResourceList{wellknown.ResourceTPU: q}
	}
	return corev1.PodSpec{Containers: []corev1.Container{c, tpu}}
}

// fuzzCheckRequests checks got, the Resources of spec: one pod slot, and
// for every resource the spec asks a positive amount of, that amount
// rounded up to milli-units, or math.MaxInt64 when it is more than that
// holds (then too reports whether any was).
func fuzzCheckRequests(t *testing.T, spec *corev1.PodSpec, got Resources) (saturated bool) {
	t.Helper()
	m := map[corev1.ResourceName]int64(got) // all of it, the pod slot too
	if got[corev1.ResourcePods] != 1000 {
		t.Fatalf("requests %v: %d milli-pods, want one pod slot", m, got[corev1.ResourcePods])
	}
	list := PodRequestList(spec)
	for name, v := range got {
		if name == corev1.ResourcePods {
			continue
		}
		q, ok := list[name]
		switch {
		case !ok || v <= 0:
			t.Fatalf("requests %v: %s=%d, but the spec asks for %v", m, name, v, list)
		case q.Cmp(*maxMilli) > 0:
			if v != math.MaxInt64 {
				t.Fatalf("requests %v: %s=%d for %s, want it saturated at %d", m, name, v, q.String(), int64(math.MaxInt64))
			}
			saturated = true
		case resource.NewMilliQuantity(v, resource.DecimalSI).Cmp(q) < 0 || resource.NewMilliQuantity(v-1, resource.DecimalSI).Cmp(q) >= 0:
			t.Fatalf("requests %v: %s=%d milli-units is not %s rounded up", m, name, v, q.String())
		}
	}
	for name, q := range list {
		if name != corev1.ResourcePods && q.Sign() > 0 && got[name] == 0 {
			t.Fatalf("requests %v drop %s=%s", m, name, q.String())
		}
	}
	return saturated
}

// fuzzCheckInvalid checks that err is an *InvalidError about obj naming
// one of fields (any field when none is given).
func fuzzCheckInvalid(t *testing.T, err error, obj string, fields ...string) {
	t.Helper()
	var inv *InvalidError
	if !errors.As(err, &inv) {
		t.Fatalf("error %v (%T) is not an *InvalidError", err, err)
	}
	if inv.Object != obj || inv.Field == "" || inv.Reason == "" {
		t.Fatalf("error %q: object %q, field %q", err, inv.Object, inv.Field)
	}
	if len(fields) > 0 && !slicesContains(fields, inv.Field) {
		t.Fatalf("error %q names %s, want one of %q", err, inv.Field, fields)
	}
}

func slicesContains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// fuzzCheckModel checks what downstream code takes for granted of an
// accepted workload: its key, 1..maxSlices slices indexed by position,
// 1..maxPods pods each, startup groups in range, valid label keys, and
// requests that are what the template asks for. saturationOK allows
// requests too large to count (a PodGroup's, read from a member pod).
func fuzzCheckModel(t *testing.T, w *Workload, key Key, saturationOK bool) {
	t.Helper()
	if w == nil || w.Key != key {
		t.Fatalf("model %+v, want key %v", w, key)
	}
	if len(w.Slices) == 0 || len(w.Slices) > maxSlices || w.Groups < 1 {
		t.Fatalf("%d slices, %d groups", len(w.Slices), w.Groups)
	}
	total := 0
	for i, s := range w.Slices {
		if s.Index != i || s.Pods < 1 || s.Pods > maxPods || s.Group < 0 || s.Group >= w.Groups {
			t.Fatalf("slice %d: index %d, %d pods, group %d of %d", i, s.Index, s.Pods, s.Group, w.Groups)
		}
		if s.DomainKey != "" && len(validation.IsQualifiedName(s.DomainKey)) > 0 {
			t.Fatalf("slice %d: domain key %q is not a label key", i, s.DomainKey)
		}
		if s.Template != nil && fuzzCheckRequests(t, s.Template, s.Request) && !saturationOK {
			t.Fatalf("slice %d: requests %v too large to count were accepted", i, s.Request)
		}
		total += s.Pods
	}
	if totalPods(w) != total {
		t.Fatalf("TotalPods %d, want %d", totalPods(w), total)
	}
	if w.AtomicKey != "" && len(validation.IsQualifiedName(w.AtomicKey)) > 0 {
		t.Fatalf("atomic key %q is not a label key", w.AtomicKey)
	}
	for k := range w.ProvisioningAnnotations {
		if !strings.HasPrefix(k, wellknown.ProvReqAnnotationPrefix) {
			t.Fatalf("provisioning annotation %q", k)
		}
	}
}

// fuzzKeyInvalid is the field an annotation naming a node label key is
// invalid under, or "" when it is fine (absent, or empty where that means
// none).
func fuzzKeyInvalid(field, value string, present, emptyOK bool) []string {
	switch {
	case !present:
		return nil
	case value == "" && emptyOK:
		return nil
	case value == "" || len(validation.IsQualifiedName(value)) > 0:
		return []string{field}
	}
	return nil
}

// fuzzTooLarge reports whether spec asks for more of any resource than
// Resources holds.
func fuzzTooLarge(spec *corev1.PodSpec) bool {
	for name, q := range PodRequestList(spec) {
		if name != corev1.ResourcePods && q.Cmp(*maxMilli) > 0 {
			return true
		}
	}
	return false
}

// FuzzFromManifest decodes any JobSet, Job or PodGroup document (seeded
// with those of manifests/examples) and derives its workload: an accepted
// one passes fuzzCheckModel with one slice per Job of the JobSet, a
// rejected one is an *InvalidError whose field, if it indexes a
// replicated Job, indexes one that exists.
func FuzzFromManifest(f *testing.F) {
	for _, doc := range fuzzExamples(f, "JobSet", "Job", "PodGroup") {
		f.Add(doc, "")
		f.Add(doc, wellknown.NodePoolLabel)
	}
	f.Fuzz(func(t *testing.T, doc []byte, defaultKey string) {
		if len(validation.IsQualifiedName(defaultKey)) > 0 {
			defaultKey = "" // the scheduler's configuration validates it
		}
		var meta metav1.TypeMeta
		if yaml.Unmarshal(doc, &meta) != nil {
			return
		}
		replicated := regexp.MustCompile(`^spec\.replicatedJobs\[(\d+)\]`)
		switch meta.Kind {
		case "JobSet":
			var js jobsetv1alpha2.JobSet
			if yaml.Unmarshal(doc, &js) != nil {
				return
			}
			obj := fmt.Sprintf("JobSet %s/%s", js.Namespace, js.Name)
			w, err := FromJobSet(&js, defaultKey)
			if err != nil {
				fuzzCheckInvalid(t, err, obj)
				var inv *InvalidError
				errors.As(err, &inv)
				if m := replicated.FindStringSubmatch(inv.Field); m != nil {
					if i, _ := strconv.Atoi(m[1]); i >= len(js.Spec.ReplicatedJobs) {
						t.Fatalf("error %q names a replicated Job the JobSet does not have", err)
					}
				}
				return
			}
			fuzzCheckModel(t, w, Key{SourceJobSet, js.Namespace, js.Name}, false)
			n := 0
			for _, rj := range js.Spec.ReplicatedJobs {
				for range rj.Replicas {
					if s := w.Slices[n]; s.ReplicatedJob != rj.Name {
						t.Fatalf("slice %d of replicated Job %q, want %q", n, s.ReplicatedJob, rj.Name)
					}
					n++
				}
			}
			if n != len(w.Slices) {
				t.Fatalf("%d slices for %d Jobs", len(w.Slices), n)
			}
		case "Job":
			var job batchv1.Job
			if yaml.Unmarshal(doc, &job) != nil {
				return
			}
			w, err := FromJob(&job, defaultKey)
			if err != nil {
				fuzzCheckInvalid(t, err, fmt.Sprintf("Job %s/%s", job.Namespace, job.Name))
				return
			}
			fuzzCheckModel(t, w, Key{SourceJob, job.Namespace, job.Name}, false)
		case "PodGroup":
			var pg schedv1alpha1.PodGroup
			if yaml.Unmarshal(doc, &pg) != nil {
				return
			}
			w, err := FromPodGroup(&pg, nil, defaultKey)
			if err != nil {
				fuzzCheckInvalid(t, err, fmt.Sprintf("PodGroup %s/%s", pg.Namespace, pg.Name))
				return
			}
			fuzzCheckModel(t, w, Key{SourcePodGroup, pg.Namespace, pg.Name}, true)
		}
	})
}

// Bits of the flags argument of FuzzFromJobSet and FuzzFromJob.
const (
	fuzzHasParallelism = 1 << iota
	fuzzHasCompletions
	fuzzHasDomainKey
	fuzzHasOurDomainKey
	fuzzHasAtomicKey
	fuzzInOrder
	fuzzDependsOn
	fuzzSuspended
)

// FuzzFromJobSet derives the workload of a JobSet of two replicated Jobs
// with any replicas, parallelism, completions, topology annotations and
// requests, and checks the error against the fields that are invalid: an
// error iff one is, naming one of them; otherwise the model of
// fuzzCheckModel with replicas0+replicas1 slices in startup groups as the
// JobSet orders them.
func FuzzFromJobSet(f *testing.F) {
	all := fuzzHasParallelism | fuzzHasCompletions | fuzzHasDomainKey | fuzzHasAtomicKey
	f.Add(int32(2), int32(0), int32(4), int32(4), uint8(all), wellknown.NodePoolLabel, "", wellknown.ZoneLabel, "lq", "google.com/tpu", "4", "4", "")
	f.Add(int32(1), int32(2), int32(2), int32(0), uint8(fuzzHasParallelism|fuzzHasOurDomainKey|fuzzDependsOn), "", wellknown.ZoneLabel, "", "", "cpu", "500m", "2", "4")
	f.Add(int32(-1), int32(1), int32(1), int32(1), uint8(fuzzHasParallelism|fuzzInOrder), "bad key!", "", "", "", "memory", "1Gi", "", "")
	f.Add(int32(1<<20), int32(1), int32(0), int32(-3), uint8(fuzzHasParallelism|fuzzHasCompletions), "", "", "a/b/c", "", "cpu", "1E", "10E", "1e30")
	f.Add(int32(0), int32(0), int32(1), int32(1), uint8(0), "", "", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, replicas0, replicas1, parallelism, completions int32, flags uint8,
		domainKey, jobDomainKey, atomicKey, queue, resourceName, request, limit, tpuLimit string) {
		annotations := map[string]string{wellknown.ProvReqAnnotationPrefix + wellknown.MaxRunDurationSecondsParameter: "600"}
		if flags&fuzzHasDomainKey != 0 {
			annotations[wellknown.ExclusiveTopologyAnnotation] = domainKey
		}
		if flags&fuzzHasAtomicKey != 0 {
			annotations[wellknown.AtomicTopologyAnnotation] = atomicKey
		}
		spec := fuzzSpec(resourceName, request, limit, tpuLimit)
		first := jobsetv1alpha2.ReplicatedJob{Name: "a", Replicas: replicas0,
			Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: spec}}}}
		if flags&fuzzHasOurDomainKey != 0 {
			first.Template.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: jobDomainKey}
		}
		if flags&fuzzHasParallelism != 0 {
			first.Template.Spec.Parallelism = &parallelism
		}
		if flags&fuzzHasCompletions != 0 {
			first.Template.Spec.Completions = &completions
		}
		second := jobsetv1alpha2.ReplicatedJob{Name: "b", Replicas: replicas1}
		if flags&fuzzDependsOn != 0 {
			second.DependsOn = []jobsetv1alpha2.DependsOn{{Name: "a", Status: jobsetv1alpha2.DependencyComplete}}
		}
		js := &jobsetv1alpha2.JobSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "js", Annotations: annotations, Labels: map[string]string{wellknown.QueueNameLabel: queue}},
			Spec:       jobsetv1alpha2.JobSetSpec{ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{first, second}},
		}
		if flags&fuzzInOrder != 0 {
			js.Spec.StartupPolicy = &jobsetv1alpha2.StartupPolicy{StartupPolicyOrder: jobsetv1alpha2.InOrder}
		}
		if flags&fuzzSuspended != 0 {
			js.Spec.Suspend = &[]bool{true}[0]
		}

		// The fields that are invalid, found apart from FromJobSet.
		rj0 := "spec.replicatedJobs[0]"
		invalid := fuzzKeyInvalid("metadata.annotations["+wellknown.AtomicTopologyAnnotation+"]", atomicKey, flags&fuzzHasAtomicKey != 0, false)
		invalid = append(invalid, fuzzKeyInvalid("metadata.annotations["+wellknown.ExclusiveTopologyAnnotation+"]", domainKey, flags&fuzzHasDomainKey != 0, true)...)
		invalid = append(invalid, fuzzKeyInvalid(rj0+".template.metadata.annotations["+wellknown.ExclusiveTopologyAnnotation+"]", jobDomainKey, flags&fuzzHasOurDomainKey != 0, true)...)
		if replicas0 < 0 {
			invalid = append(invalid, rj0+".replicas")
		}
		p, c := int64(1), int64(math.MaxInt64)
		if flags&fuzzHasParallelism != 0 {
			p = int64(parallelism)
		}
		if flags&fuzzHasCompletions != 0 {
			c = int64(completions)
		}
		switch {
		case p <= 0:
			invalid = append(invalid, rj0+".template.spec.parallelism")
		case c <= 0:
			invalid = append(invalid, rj0+".template.spec.completions")
		case min(p, c) > maxPods:
			invalid = append(invalid, rj0+".template.spec.parallelism", rj0+".template.spec.completions")
		}
		if fuzzTooLarge(&spec) {
			invalid = append(invalid, rj0+".template.spec.template.spec")
		}
		if replicas1 < 0 {
			invalid = append(invalid, "spec.replicatedJobs[1].replicas")
		}
		switch jobs := int64(max(replicas0, 0)) + int64(max(replicas1, 0)); {
		case jobs == 0:
			invalid = append(invalid, "spec.replicatedJobs")
		case replicas0 > maxSlices:
			invalid = append(invalid, rj0+".replicas")
		case jobs > maxSlices:
			invalid = append(invalid, "spec.replicatedJobs[1].replicas")
		}

		w, err := FromJobSet(js, "")
		if len(invalid) > 0 {
			if err == nil {
				t.Fatalf("accepted, but %q are invalid", invalid)
			}
			fuzzCheckInvalid(t, err, "JobSet ns/js", invalid...)
			return
		}
		if err != nil {
			t.Fatalf("rejected a valid JobSet: %v", err)
		}
		fuzzCheckModel(t, w, Key{SourceJobSet, "ns", "js"}, false)
		staged := flags&(fuzzInOrder|fuzzDependsOn) != 0
		if len(w.Slices) != int(replicas0+replicas1) || (w.Groups == 2) != staged || w.QueueName != queue || w.Suspended != (flags&fuzzSuspended != 0) {
			t.Fatalf("%d slices, %d groups, queue %q, suspended %v", len(w.Slices), w.Groups, w.QueueName, w.Suspended)
		}
		for i, s := range w.Slices {
			wantGroup, wantPods, wantKey := 0, int(min(p, c)), domainKey
			if flags&fuzzHasDomainKey == 0 {
				wantKey = ""
			}
			if i >= int(replicas0) {
				wantPods = 1
				if staged {
					wantGroup = 1
				}
			} else if flags&fuzzHasOurDomainKey != 0 {
				wantKey = jobDomainKey // even empty: the Job's own annotation wins
			}
			if s.Group != wantGroup || s.Pods != wantPods || s.DomainKey != wantKey {
				t.Fatalf("slice %d: group %d, %d pods, domain key %q; want %d, %d, %q", i, s.Group, s.Pods, s.DomainKey, wantGroup, wantPods, wantKey)
			}
		}
	})
}

// FuzzFromJob derives the workload of a Job with any parallelism,
// completions, succeeded count, domain key annotations (JobSet's and
// ours), atomic topology key and requests, checking the error against the
// invalid fields as FuzzFromJobSet does. An accepted Job is one slice of
// what it runs at once, at least 1 and at most maxPods; a Job that runs
// nothing (parallelism or completions 0) is finished.
func FuzzFromJob(f *testing.F) {
	for _, doc := range fuzzExamples(f, "Job") {
		var job batchv1.Job
		if err := yaml.Unmarshal(doc, &job); err != nil {
			f.Fatal(err)
		}
		c := job.Spec.Template.Spec.Containers[0]
		cpu, mem := c.Resources.Requests[corev1.ResourceCPU], c.Resources.Limits[corev1.ResourceMemory]
		f.Add(*job.Spec.Parallelism, *job.Spec.Completions, int32(0), uint8(fuzzHasParallelism|fuzzHasCompletions|fuzzSuspended),
			"", "", "", "cpu", cpu.String(), mem.String(), "")
	}
	f.Add(int32(4), int32(10), int32(7), uint8(fuzzHasParallelism|fuzzHasCompletions|fuzzHasDomainKey), wellknown.NodePoolLabel, "", "", "nvidia.com/gpu", "1", "", "")
	f.Add(int32(0), int32(0), int32(0), uint8(fuzzHasParallelism|fuzzHasOurDomainKey|fuzzHasDomainKey), wellknown.NodePoolLabel, wellknown.ZoneLabel, "", "cpu", "1", "", "")
	f.Add(int32(2), int32(-1), int32(-5), uint8(fuzzHasParallelism|fuzzHasCompletions|fuzzHasAtomicKey), "", "", "", "memory", "", "1Ei", "9e18")
	f.Add(int32(math.MaxInt32), int32(0), int32(0), uint8(fuzzHasParallelism), "", "bad key!", "zone=a", "cpu", "0.0001m", "-1", "4")
	f.Fuzz(func(t *testing.T, parallelism, completions, succeeded int32, flags uint8,
		domainKey, ourDomainKey, atomicKey, resourceName, request, limit, tpuLimit string) {
		job := &batchv1.Job{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "train", Annotations: map[string]string{}, Labels: map[string]string{wellknown.QueueNameLabel: "lq"}},
			Spec:       batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: fuzzSpec(resourceName, request, limit, tpuLimit)}},
			Status:     batchv1.JobStatus{Succeeded: succeeded},
		}
		if flags&fuzzHasParallelism != 0 {
			job.Spec.Parallelism = &parallelism
		}
		if flags&fuzzHasCompletions != 0 {
			job.Spec.Completions = &completions
		}
		if flags&fuzzSuspended != 0 {
			job.Spec.Suspend = &[]bool{true}[0]
		}
		if flags&fuzzHasDomainKey != 0 {
			job.Annotations[wellknown.ExclusiveTopologyAnnotation] = domainKey
		}
		if flags&fuzzHasOurDomainKey != 0 {
			job.Annotations[wellknown.DomainKeyAnnotation] = ourDomainKey
		}
		if flags&fuzzHasAtomicKey != 0 {
			job.Annotations[wellknown.AtomicTopologyAnnotation] = atomicKey
		}

		ours := "metadata.annotations[" + wellknown.DomainKeyAnnotation + "]"
		invalid := fuzzKeyInvalid("metadata.annotations["+wellknown.ExclusiveTopologyAnnotation+"]", domainKey, flags&fuzzHasDomainKey != 0, true)
		invalid = append(invalid, fuzzKeyInvalid(ours, ourDomainKey, flags&fuzzHasOurDomainKey != 0, true)...)
		jobSetKey, ourKey := job.Annotations[wellknown.ExclusiveTopologyAnnotation], job.Annotations[wellknown.DomainKeyAnnotation]
		if jobSetKey != "" && ourKey != "" && jobSetKey != ourKey {
			invalid = append(invalid, ours)
		}
		invalid = append(invalid, fuzzKeyInvalid("metadata.annotations["+wellknown.AtomicTopologyAnnotation+"]", atomicKey, flags&fuzzHasAtomicKey != 0, false)...)
		p, c := int64(1), int64(math.MaxInt64)
		if job.Spec.Parallelism != nil {
			p = int64(parallelism)
		}
		if job.Spec.Completions != nil {
			c = int64(completions)
		}
		idle := p == 0 || c == 0
		switch {
		case idle:
		case p < 0:
			invalid = append(invalid, "spec.parallelism")
		case c < 0:
			invalid = append(invalid, "spec.completions")
		case min(p, c) > maxPods:
			invalid = append(invalid, "spec.parallelism", "spec.completions")
		}
		if fuzzTooLarge(&job.Spec.Template.Spec) {
			invalid = append(invalid, "spec.template.spec")
		}

		w, err := FromJob(job, "")
		if len(invalid) > 0 {
			if err == nil {
				t.Fatalf("accepted, but %q are invalid", invalid)
			}
			fuzzCheckInvalid(t, err, "Job ns/train", invalid...)
			return
		}
		if err != nil {
			t.Fatalf("rejected a valid Job: %v", err)
		}
		fuzzCheckModel(t, w, Key{SourceJob, "ns", "train"}, false)
		wantPods := 1
		if !idle {
			n := min(p, c)
			if job.Spec.Completions != nil {
				n = min(n, c-int64(succeeded)) // what is left to complete
			}
			wantPods = int(max(1, n))
		}
		if len(w.Slices) != 1 || w.Slices[0].Pods != wantPods || (idle && !w.Finished) || w.QueueName != "lq" {
			t.Fatalf("model %+v; want one slice of %d pods, finished if idle (%v)", w, wantPods, idle)
		}
	})
}

// FuzzFromPodGroup derives the workload of a PodGroup with any minMember,
// domain and atomic topology annotations, with and without a member's
// spec, and calls AtomicTopologyKey on the same annotations: minMember
// outside 1..maxPods and malformed keys are errors naming their field; an
// accepted group is one slice of minMember pods. The member's spec has
// containers, init containers (plain and sidecar) and overhead asking for
// any quantity of any resource (huge, negative, fractional, request or
// limit only), and PodRequests counts it as fuzzCheckRequests says,
// without modifying it.
func FuzzFromPodGroup(f *testing.F) {
	for _, doc := range fuzzExamples(f, "PodGroup") {
		var pg schedv1alpha1.PodGroup
		if err := yaml.Unmarshal(doc, &pg); err != nil {
			f.Fatal(err)
		}
		key, has := pg.Annotations[wellknown.PodGroupDomainKeyAnnotation]
		flags := uint8(fuzzHasParallelism)
		if has {
			flags |= fuzzHasDomainKey
		}
		f.Add(pg.Spec.MinMember, flags, key, "", "google.com/tpu", "", "4", "", "", "", "")
	}
	f.Add(int32(4), uint8(fuzzHasDomainKey|fuzzHasParallelism), wellknown.NodePoolLabel, "", "google.com/tpu", "", "4", "1Gi", "3", "", "")
	f.Add(int32(3), uint8(fuzzHasAtomicKey|fuzzHasParallelism), "", wellknown.ZoneLabel, "cpu", "1", "2", "4", "", "100m", "")
	f.Add(int32(0), uint8(fuzzHasAtomicKey|fuzzHasDomainKey), "bad key!", "", "memory", "", "", "", "", "", "")
	f.Add(int32(maxPods+1), uint8(fuzzHasAtomicKey|fuzzHasParallelism), "", "a/b/c", "cpu", "1E", "", "1e30", "", "", "")
	f.Add(int32(-1), uint8(fuzzHasAtomicKey), "", "zone=us-central1-a", "", "", "", "", "", "", "")
	// Requests too large to count, and a container asking for pod slots.
	f.Add(int32(2), uint8(fuzzHasParallelism), "", "", "memory", "1E", "10E", "1e30", "9223372036854775807", "0.1n", "-1")
	f.Add(int32(2), uint8(fuzzHasParallelism), "", "", "pods", "5", "", "", "", "", "8Ei")
	f.Fuzz(func(t *testing.T, minMember int32, flags uint8, domainKey, atomicKey, resourceName, request, limit, tpuLimit, initLimit, sidecarRequest, overhead string) {
		pg := &schedv1alpha1.PodGroup{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pg", Annotations: map[string]string{}},
			Spec:       schedv1alpha1.PodGroupSpec{MinMember: minMember},
		}
		if flags&fuzzHasDomainKey != 0 {
			pg.Annotations[wellknown.PodGroupDomainKeyAnnotation] = domainKey
		}
		atomicField := "metadata.annotations[" + wellknown.AtomicTopologyAnnotation + "]"
		if flags&fuzzHasAtomicKey != 0 {
			pg.Annotations[wellknown.AtomicTopologyAnnotation] = atomicKey
		}
		var template *corev1.PodSpec
		if flags&fuzzHasParallelism != 0 { // a member pod exists
			spec := fuzzSpec(resourceName, request, limit, tpuLimit)
			res := corev1.ResourceName(resourceName)
			if q, err := resource.ParseQuantity(initLimit); err == nil {
				spec.InitContainers = append(spec.InitContainers, corev1.Container{Name: "init",
					Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{res: q}}})
			}
			if q, err := resource.ParseQuantity(sidecarRequest); err == nil {
				always := corev1.ContainerRestartPolicyAlways
				spec.InitContainers = append(spec.InitContainers, corev1.Container{Name: "sidecar", RestartPolicy: &always,
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{res: q}}})
			}
			if q, err := resource.ParseQuantity(overhead); err == nil {
				spec.Overhead = corev1.ResourceList{res: q}
			}
			template = &spec
			before := spec.DeepCopy()
			fuzzCheckRequests(t, template, PodRequests(template))
			if !equalSpecs(before, template) {
				t.Fatalf("PodRequests modified the spec")
			}
		}

		badAtomic := fuzzKeyInvalid(atomicField, atomicKey, flags&fuzzHasAtomicKey != 0, false)
		key, err := AtomicTopologyKey("PodGroup ns/pg", pg.Annotations)
		if len(badAtomic) > 0 {
			fuzzCheckInvalid(t, err, "PodGroup ns/pg", atomicField)
		} else if err != nil || key != pg.Annotations[wellknown.AtomicTopologyAnnotation] {
			t.Fatalf("AtomicTopologyKey = %q, %v", key, err)
		}

		invalid := badAtomic
		if minMember <= 0 || minMember > maxPods {
			invalid = append(invalid, "spec.minMember")
		}
		invalid = append(invalid, fuzzKeyInvalid("metadata.annotations["+wellknown.PodGroupDomainKeyAnnotation+"]", domainKey, flags&fuzzHasDomainKey != 0, true)...)
		w, err := FromPodGroup(pg, template, "")
		if len(invalid) > 0 {
			if err == nil {
				t.Fatalf("accepted, but %q are invalid", invalid)
			}
			fuzzCheckInvalid(t, err, "PodGroup ns/pg", invalid...)
			return
		}
		if err != nil {
			t.Fatalf("rejected a valid PodGroup: %v", err)
		}
		fuzzCheckModel(t, w, Key{SourcePodGroup, "ns", "pg"}, true)
		if len(w.Slices) != 1 || w.Slices[0].Pods != int(minMember) || w.AtomicKey != key || (template == nil) != (w.Slices[0].Template == nil) {
			t.Fatalf("model %+v", w)
		}
	})
}

func equalSpecs(a, b *corev1.PodSpec) bool {
	x, _ := yaml.Marshal(a)
	y, _ := yaml.Marshal(b)
	return bytes.Equal(x, y)
}

// totalPods is the number of pods of all slices of w.
func totalPods(w *Workload) int {
	n := 0
	for _, s := range w.Slices {
		n += s.Pods
	}
	return n
}

// FuzzConsumerMember reads the request a pod consumes from any values of
// the current and deprecated annotation keys: a pod of no other workload
// is a member of the request's gang when either names a valid request
// (both naming the same one), and an error naming the annotations
// otherwise; never a member of a request named "" or by a bad name.
func FuzzConsumerMember(f *testing.F) {
	f.Add("req", "", true, false)
	f.Add("", "dws-gpu-request", false, true)
	f.Add("a", "b", true, true)
	f.Add("Not_A_Name", "", true, false)
	f.Fuzz(func(t *testing.T, current, deprecated string, hasCurrent, hasDeprecated bool) {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Annotations: map[string]string{}}}
		if hasCurrent {
			p.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] = current
		}
		if hasDeprecated {
			p.Annotations[wellknown.DeprecatedConsumeProvisioningRequestAnnotation] = deprecated
		}
		m, ok, err := MemberOf(p)
		if !hasCurrent {
			current = ""
		}
		if !hasDeprecated {
			deprecated = ""
		}
		name := current
		if name == "" {
			name = deprecated
		}
		switch {
		case name == "":
			if ok || err != nil {
				t.Fatalf("no request named, yet member %+v, %v, %v", m, ok, err)
			}
		case current != "" && deprecated != "" && current != deprecated:
			if !ok || err == nil {
				t.Fatalf("two requests named (%q, %q), yet %+v, %v, %v", current, deprecated, m, ok, err)
			}
		case len(validation.IsDNS1123Subdomain(name)) > 0:
			var inv *InvalidError
			if !ok || !errors.As(err, &inv) || !strings.HasPrefix(inv.Field, "metadata.annotations") {
				t.Fatalf("bad name %q, yet %+v, %v, %v", name, m, ok, err)
			}
		default:
			if !ok || err != nil || m.Key != (Key{SourceProvisioningRequest, "ns", name}) {
				t.Fatalf("request %q: %+v, %v, %v", name, m, ok, err)
			}
		}
	})
}
