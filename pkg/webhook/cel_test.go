package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// matchers are the configuration's webhooks' match conditions, compiled
// as the apiserver compiles them (k8s.io/apiserver's webhook accessors),
// by webhook name.
func matchers(t testing.TB) map[string]matchconditions.Matcher {
	t.Helper()
	compiler := cel.NewConditionCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	out := map[string]matchconditions.Matcher{}
	for _, w := range Configuration(ConfigurationOptions{Name: "test"}).Webhooks {
		exprs := make([]cel.ExpressionAccessor, len(w.MatchConditions))
		for i, c := range w.MatchConditions {
			exprs[i] = &matchconditions.MatchCondition{Name: c.Name, Expression: c.Expression}
		}
		evaluator := compiler.CompileCondition(exprs, cel.OptionalVariableDeclarations{HasAuthorizer: true}, environment.StoredExpressions)
		out[w.Name] = matchconditions.NewMatcher(evaluator, w.FailurePolicy, "webhook", "admit", w.Name)
	}
	return out
}

// match evaluates a webhook's conditions on the creation of raw (a JSON
// object) as resource; an evaluation error is returned, as the apiserver
// would fail the request with it under failurePolicy Fail. Like the
// apiserver, it hands built-in kinds (pods, Jobs) to CEL as their Go
// types and custom resources (JobSets, LeaderWorkerSets) as unstructured
// JSON.
func match(m matchconditions.Matcher, resource metav1.GroupVersionResource, raw []byte) (bool, error) {
	var obj runtime.Object
	switch resource {
	case podsResource:
		obj = &corev1.Pod{}
	case jobsResource:
		obj = &batchv1.Job{}
	default:
		obj = &unstructured.Unstructured{}
	}
	into := any(obj)
	if u, ok := obj.(*unstructured.Unstructured); ok {
		into = &u.Object
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return false, fmt.Errorf("not a JSON object: %w", err)
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		// The apiserver drops a custom resource's null fields (none of
		// JobSet's or LeaderWorkerSet's is nullable) before admission.
		pruneNulls(u.Object)
	}
	meta, err := apimeta.Accessor(obj)
	if err != nil {
		return false, err
	}
	gvr := schema.GroupVersionResource(resource)
	gvk := gvr.GroupVersion().WithKind(strings.TrimSuffix(resource.Resource, "s"))
	attrs := admission.NewAttributesRecord(obj, nil, gvk, meta.GetNamespace(), meta.GetName(), gvr, "", admission.Create, &metav1.CreateOptions{}, false, nil)
	r := m.Match(context.Background(), &admission.VersionedAttributes{Attributes: attrs, VersionedKind: gvk, VersionedObject: admission.NewLazyObject(obj)}, nil, nil)
	return r.Matches, r.Error
}

// The apiserver calls the webhook for every object the webhook would
// change: the opt-in webhook for objects that opt in themselves, the
// namespace webhook for those of opted-in namespaces.
func TestMatchConditionsLetThroughEveryDecision(t *testing.T) {
	ms := matchers(t)
	for _, tc := range decisionCases() {
		t.Run(tc.name, func(t *testing.T) {
			raw := rawJSON(t, tc.obj)
			optIn, err := match(ms[OptInWebhook], tc.resource, raw)
			if err != nil {
				t.Fatalf("%s: %v", OptInWebhook, err)
			}
			namespaced, err := match(ms[NamespaceWebhook], tc.resource, raw)
			if err != nil {
				t.Fatalf("%s: %v", NamespaceWebhook, err)
			}
			if !tc.want.Mutates() {
				return
			}
			if tc.byNamespace && !namespaced {
				t.Errorf("the namespace webhook's conditions do not match an object it changes")
			}
			if !tc.byNamespace && !optIn {
				t.Errorf("the opt-in webhook's conditions do not match an object it changes")
			}
		})
	}
}

// Objects that do not opt in never reach the opt-in webhook, so that it
// being down never delays or blocks them; objects whose pods are some
// scheduler's already reach neither webhook.
func TestMatchConditionsKeepUnrelatedObjectsAway(t *testing.T) {
	ms := matchers(t)
	queued := func(p *builders.PodBuilder) { p.Label(wellknown.QueueNameLabel, ourQueue) }
	for _, tc := range []struct {
		name     string
		resource metav1.GroupVersionResource
		obj      any
		// neither: not even the namespace webhook is called.
		neither bool
	}{
		{"plain pod", podsResource, builders.Pod(ns, "p").Obj(), false},
		{"a Deployment's pod", podsResource, builders.Pod(ns, "web-7d4f").Label("pod-template-hash", "7d4f").Obj(), false},
		{"Job naming no queue", jobsResource, builders.Job(ns, "j").Obj(), false},
		{"JobSet naming no queue", jobSetsResource, builders.JobSet(ns, "js").ReplicatedJob("a", 1, 1).Obj(), false},
		{"LeaderWorkerSet naming no queue", lwsResource, newLWS(ns, "serve").obj(), false},
		{"queued pod of another scheduler", podsResource, builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).Scheduler("volcano").Obj(), true},
		{"queued pod of ours already", podsResource, builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).Scheduler(scheduler).Obj(), true},
		{"queued pod, bound", podsResource, builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).NodeName("n").Obj(), true},
		{"queued Job's pod (its Job was decided for)", podsResource,
			builders.Pod(ns, "j-x").Label(wellknown.JobNameLabel, "j").Label(wellknown.QueueNameLabel, ourQueue).Obj(), true},
		{"queued JobSet's pod", podsResource, builders.Pod(ns, "js-x").Label(wellknown.JobSetNameLabel, "js").Obj(), true},
		{"queued LeaderWorkerSet's pod", podsResource,
			builders.Pod(ns, "s-0").Label(wellknown.LWSNameLabel, "s").Label(wellknown.QueueNameLabel, ourQueue).Obj(), true},
		{"queued Job of ours already", jobsResource, builders.Job(ns, "j").Queue(ourQueue).Scheduler(scheduler).Obj(), true},
		{"queued JobSet's Job", jobsResource, builders.Job(ns, "j").Queue(ourQueue).Label(wellknown.JobSetNameLabel, "js").Obj(), true},
		{"queued JobSet of ours already", jobSetsResource,
			builders.JobSet(ns, "js").Label(wellknown.QueueNameLabel, ourQueue).Pod(func(p *builders.PodBuilder) { p.Scheduler(scheduler) }).ReplicatedJob("a", 1, 1).Obj(), true},
		{"queued LeaderWorkerSet of another scheduler", lwsResource,
			newLWS(ns, "serve").label(wellknown.QueueNameLabel, ourQueue).worker(func(t *corev1.PodTemplateSpec) { t.Spec.SchedulerName = "volcano" }).obj(), true},
		{"queued pod as an unknown resource", metav1.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"},
			builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).Obj(), true},
		{"JobSet whose pod template, not the JobSet, names a queue (the scheduler reads the JobSet's)", jobSetsResource,
			builders.JobSet(ns, "js").Pod(queued).ReplicatedJob("a", 1, 1).Obj(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := rawJSON(t, tc.obj)
			for _, hook := range []string{OptInWebhook, NamespaceWebhook} {
				ok, err := match(ms[hook], tc.resource, raw)
				if err != nil {
					t.Fatalf("%s: %v", hook, err)
				}
				if ok && (hook == OptInWebhook || tc.neither) {
					t.Errorf("%s's conditions match it", hook)
				}
			}
		})
	}
}

// The conditions evaluate without error on objects the apiserver accepts
// with fields missing, empty or of unexpected shapes: an error would fail
// the request under failurePolicy Fail.
func TestMatchConditionsNeverFail(t *testing.T) {
	ms := matchers(t)
	objects := []string{
		`{}`,
		`{"metadata":{}}`,
		`{"metadata":{"labels":{},"annotations":{}},"spec":{}}`,
		`{"spec":{"schedulingGroup":{}}}`,
		`{"spec":{"template":{}}}`,
		`{"spec":{"template":{"metadata":{}}}}`,
		`{"spec":{"replicatedJobs":[]}}`,
		`{"spec":{"replicatedJobs":[{}]}}`,
		`{"spec":{"replicatedJobs":[{"template":{"spec":{"template":{}}}}]}}`,
		`{"spec":{"leaderWorkerTemplate":{}}}`,
		`{"spec":{"leaderWorkerTemplate":{"leaderTemplate":{}}}}`,
		`{"metadata":{"labels":{"kueue.x-k8s.io/queue-name":"q"}},"spec":{"leaderWorkerTemplate":{"workerTemplate":{"metadata":{"annotations":{}}}}}}`,
	}
	for _, resource := range []metav1.GroupVersionResource{podsResource, jobsResource, jobSetsResource, lwsResource} {
		for _, obj := range objects {
			for name, m := range ms {
				if _, err := match(m, resource, []byte(obj)); err != nil {
					t.Errorf("%s, %s %s: %v", name, resource.Resource, obj, err)
				}
			}
		}
	}
}

// The configuration registers both webhooks at ServePath, for the
// creation of the four resources, with the given failure policy, only
// the namespace webhook's namespaces labelled, and kube-system never.
func TestConfiguration(t *testing.T) {
	cfg := Configuration(ConfigurationOptions{Name: "multislice-webhook", FailurePolicy: admissionregistrationv1.Ignore,
		ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr.To("https://127.0.0.1:1" + ServePath)}})
	if len(cfg.Webhooks) != 2 {
		t.Fatalf("%d webhooks", len(cfg.Webhooks))
	}
	for _, w := range cfg.Webhooks {
		if *w.FailurePolicy != admissionregistrationv1.Ignore || *w.ClientConfig.URL != "https://127.0.0.1:1/mutate" || len(w.Rules) != 4 {
			t.Errorf("%s: policy %s, url %s, %d rules", w.Name, *w.FailurePolicy, *w.ClientConfig.URL, len(w.Rules))
		}
		sel, err := metav1.LabelSelectorAsSelector(w.NamespaceSelector)
		if err != nil {
			t.Fatal(err)
		}
		opted := map[string]string{corev1.LabelMetadataName: optedNS, wellknown.DefaultSchedulerNamespaceLabel: "true"}
		plain := map[string]string{corev1.LabelMetadataName: ns}
		system := map[string]string{corev1.LabelMetadataName: metav1.NamespaceSystem, wellknown.DefaultSchedulerNamespaceLabel: "true"}
		wantPlain := w.Name == OptInWebhook
		if !sel.Matches(labels.Set(opted)) || sel.Matches(labels.Set(plain)) != wantPlain || sel.Matches(labels.Set(system)) {
			t.Errorf("%s: namespace selector %s", w.Name, sel)
		}
	}
	if p := *Configuration(ConfigurationOptions{}).Webhooks[0].FailurePolicy; p != admissionregistrationv1.Fail {
		t.Errorf("default failure policy %s, want Fail", p)
	}
}

// pruneNulls removes the null members of every object within v.
func pruneNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			pruneNulls(e)
		}
	case []any:
		for _, e := range x {
			pruneNulls(e)
		}
	}
}
