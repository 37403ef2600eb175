package webhook

import (
	"strings"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// How the webhook is registered with the apiserver. The local cluster
// registers Configuration as built here; the Helm chart's template
// (charts/multislice-scheduler/templates/webhook.yaml) renders the same
// webhooks, which TestChartRendersTheConfiguration checks against the
// chart's expected output (hack/chartcheck/testdata/custom-expect.yaml).
//
// Only objects that opt in are ever sent to the webhook: the apiserver
// filters with matchConditions (CEL) and a namespace selector, so that a
// webhook that is down, whatever its failure policy, never delays or
// blocks a pod, Job, JobSet or LeaderWorkerSet that names no queue,
// consumes no ProvisioningRequest, is no PodGroup's member and is not in
// an opted-in namespace, nor one that names a scheduler already. The
// conditions let through a superset of what Decider changes (a queue
// name they cannot tell ours from Kueue's, say); Decider decides.

// Path is where the webhook serves its one endpoint.
const ServePath = "/mutate"

// Names of the two webhooks of the configuration: objects that opt in
// themselves, and objects of opted-in namespaces.
const (
	OptInWebhook     = "opt-in.webhook.multislice-scheduler.io"
	NamespaceWebhook = "namespace.webhook.multislice-scheduler.io"
)

// ConfigurationOptions are what differs between installations.
type ConfigurationOptions struct {
	// Name of the MutatingWebhookConfiguration.
	Name string
	// ClientConfig reaches the webhook's ServePath (a URL, or a Service
	// with Path ServePath) and holds the CA bundle it is served with.
	ClientConfig admissionregistrationv1.WebhookClientConfig
	// FailurePolicy: Fail (the default) or Ignore; see docs/tasks/webhook.md.
	FailurePolicy admissionregistrationv1.FailurePolicyType
}

// Configuration is the MutatingWebhookConfiguration of the webhook.
func Configuration(o ConfigurationOptions) *admissionregistrationv1.MutatingWebhookConfiguration {
	policy := o.FailurePolicy
	if policy == "" {
		policy = admissionregistrationv1.Fail
	}
	hook := func(name string, selector *metav1.LabelSelector, conditions []admissionregistrationv1.MatchCondition) admissionregistrationv1.MutatingWebhook {
		return admissionregistrationv1.MutatingWebhook{
			Name:                    name,
			ClientConfig:            o.ClientConfig,
			Rules:                   Rules(),
			FailurePolicy:           ptr.To(policy),
			MatchPolicy:             ptr.To(admissionregistrationv1.Equivalent),
			NamespaceSelector:       selector,
			ObjectSelector:          &metav1.LabelSelector{},
			SideEffects:             ptr.To(admissionregistrationv1.SideEffectClassNone),
			TimeoutSeconds:          ptr.To[int32](5),
			AdmissionReviewVersions: []string{"v1"},
			ReinvocationPolicy:      ptr.To(admissionregistrationv1.NeverReinvocationPolicy),
			MatchConditions:         conditions,
		}
	}
	notSystem := metav1.LabelSelectorRequirement{Key: corev1.LabelMetadataName, Operator: metav1.LabelSelectorOpNotIn, Values: []string{metav1.NamespaceSystem}}
	return &admissionregistrationv1.MutatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: admissionregistrationv1.SchemeGroupVersion.String(), Kind: "MutatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: o.Name},
		Webhooks: []admissionregistrationv1.MutatingWebhook{
			hook(OptInWebhook,
				&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{notSystem}},
				[]admissionregistrationv1.MatchCondition{
					{Name: "scheduler-unset", Expression: schedulerUnsetExpression},
					{Name: "opts-in", Expression: optsInExpression},
				}),
			hook(NamespaceWebhook,
				&metav1.LabelSelector{
					MatchLabels:      map[string]string{wellknown.DefaultSchedulerNamespaceLabel: "true"},
					MatchExpressions: []metav1.LabelSelectorRequirement{notSystem},
				},
				[]admissionregistrationv1.MatchCondition{
					{Name: "scheduler-unset", Expression: schedulerUnsetExpression},
				}),
		},
	}
}

// Rules are the objects the webhooks are called for: the creation of
// pods, Jobs, JobSets and LeaderWorkerSets (an API that is not served
// matches nothing).
func Rules() []admissionregistrationv1.RuleWithOperations {
	rule := func(group, version, resource string) admissionregistrationv1.RuleWithOperations {
		return admissionregistrationv1.RuleWithOperations{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
			Rule: admissionregistrationv1.Rule{
				APIGroups: []string{group}, APIVersions: []string{version}, Resources: []string{resource},
				Scope: ptr.To(admissionregistrationv1.NamespacedScope),
			},
		}
	}
	return []admissionregistrationv1.RuleWithOperations{
		rule("", "v1", "pods"),
		rule("batch", "v1", "jobs"),
		rule("jobset.x-k8s.io", "v1alpha2", "jobsets"),
		rule(wellknown.LWSGroup, wellknown.LWSVersion, wellknown.LWSResource),
	}
}

// PolicyRules are what the webhook reads: LocalQueues (is a queue
// ours?), namespaces (did one opt in?) and both kinds of PodGroup (which
// queue does a member's group name?). Nothing else, and no writes.
func PolicyRules() []rbacv1.PolicyRule {
	return []rbacv1.PolicyRule{
		{APIGroups: []string{"multislice.dev"}, Resources: []string{"localqueues"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: []string{"get", "list", "watch"}},
		{APIGroups: []string{"scheduling.x-k8s.io", "scheduling.k8s.io"}, Resources: []string{"podgroups"}, Verbs: []string{"get"}},
	}
}

// The CEL of the match conditions. Every field is read with optional
// selection (`.?`, with a default), never assumed: a condition that fails
// to evaluate would fail the request under failurePolicy Fail, so none
// may fail on any object the apiserver accepts. Kubernetes hands the
// object to CEL as it would be written in JSON.
//
// schedulerUnsetExpression: the object has a pod spec that names no
// scheduler (or default-scheduler) for the webhook to decide for. A pod:
// not bound, and not made from a Job's, JobSet's or LeaderWorkerSet's
// template (decided for at its parent's creation) unless it is a
// PodGroup's member (Decider.podQueue); a Job: not a JobSet's.
var schedulerUnsetExpression = celKeys.Replace(`request.resource.resource == 'pods' ? (
    object.?spec.?schedulerName.orValue('') in UNSET
    && object.?spec.?nodeName.orValue('') == ''
    && (![JOBSET_NAME, LWS_NAME, JOB_NAME, LEGACY_JOB_NAME].exists(k, k in object.?metadata.?labels.orValue({}))
        || POD_GROUP in object.?metadata.?labels.orValue({})
        || object.?spec.?schedulingGroup.?podGroupName.hasValue()))
: request.resource.resource == 'jobs' ? (
    object.?spec.?template.?spec.?schedulerName.orValue('') in UNSET
    && !(JOBSET_NAME in object.?metadata.?labels.orValue({})))
: request.resource.resource == 'jobsets' ?
    object.?spec.?replicatedJobs.orValue([]).exists(rj,
        rj.?template.?spec.?template.?spec.?schedulerName.orValue('') in UNSET)
: request.resource.resource == 'leaderworkersets' ? (
    object.?spec.?leaderWorkerTemplate.?workerTemplate.?spec.?schedulerName.orValue('') in UNSET
    || (object.?spec.?leaderWorkerTemplate.?leaderTemplate.hasValue()
        && object.?spec.?leaderWorkerTemplate.?leaderTemplate.?spec.?schedulerName.orValue('') in UNSET))
: false`)

// optsInExpression: the object opts in itself: it names a queue (where
// the scheduler reads it), its pods consume a ProvisioningRequest, or (a
// pod) it names a PodGroup, whose queue the webhook looks up.
var optsInExpression = celKeys.Replace(`request.resource.resource == 'pods' ? (
    QUEUE in object.?metadata.?labels.orValue({})
    || [QUEUE, CONSUME, CONSUME_DEPRECATED].exists(k, k in object.?metadata.?annotations.orValue({}))
    || POD_GROUP in object.?metadata.?labels.orValue({})
    || object.?spec.?schedulingGroup.?podGroupName.hasValue())
: request.resource.resource == 'jobs' ? (
    [object.?metadata.orValue({}), object.?spec.?template.?metadata.orValue({})].exists(m,
        QUEUE in m.?labels.orValue({}) || QUEUE in m.?annotations.orValue({}))
    || [CONSUME, CONSUME_DEPRECATED].exists(k, k in object.?spec.?template.?metadata.?annotations.orValue({})))
: request.resource.resource == 'jobsets' ? (
    QUEUE in object.?metadata.?labels.orValue({})
    || QUEUE in object.?metadata.?annotations.orValue({})
    || object.?spec.?replicatedJobs.orValue([]).exists(rj, [CONSUME, CONSUME_DEPRECATED].exists(k,
        k in rj.?template.?spec.?template.?metadata.?annotations.orValue({}))))
: request.resource.resource == 'leaderworkersets' ? (
    [object.?metadata.orValue({}),
     object.?spec.?leaderWorkerTemplate.?leaderTemplate.?metadata.orValue({}),
     object.?spec.?leaderWorkerTemplate.?workerTemplate.?metadata.orValue({})].exists(m,
        QUEUE in m.?labels.orValue({}) || QUEUE in m.?annotations.orValue({}))
    || [object.?spec.?leaderWorkerTemplate.?leaderTemplate.?metadata.orValue({}),
        object.?spec.?leaderWorkerTemplate.?workerTemplate.?metadata.orValue({})].exists(m,
        [CONSUME, CONSUME_DEPRECATED].exists(k, k in m.?annotations.orValue({}))))
: false`)

// celKeys spells the keys the expressions read.
var celKeys = strings.NewReplacer(
	"UNSET", "['', '"+corev1.DefaultSchedulerName+"']",
	"JOBSET_NAME", "'"+wellknown.JobSetNameLabel+"'",
	"LWS_NAME", "'"+wellknown.LWSNameLabel+"'",
	"LEGACY_JOB_NAME", "'"+wellknown.LegacyJobNameLabel+"'",
	"JOB_NAME", "'"+wellknown.JobNameLabel+"'",
	"POD_GROUP", "'"+wellknown.PodGroupLabel+"'",
	"QUEUE", "'"+wellknown.QueueNameLabel+"'",
	"CONSUME_DEPRECATED", "'"+wellknown.DeprecatedConsumeProvisioningRequestAnnotation+"'",
	"CONSUME", "'"+wellknown.ConsumeProvisioningRequestAnnotation+"'",
)
