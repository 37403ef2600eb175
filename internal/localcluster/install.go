package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/crds"
	"github.com/multislice-scheduler/multislice-scheduler/internal/manifests"
)

const fieldManager = "multislice-localcluster"

// DecodeYAML splits a multi-document YAML stream into objects, skipping
// empty documents.
func DecodeYAML(data []byte) ([]*unstructured.Unstructured, error) { return manifests.Decode(data) }

// Apply server-side applies objects, in order. Namespaced objects without a
// namespace go to defaultNamespace.
func (c *Cluster) Apply(ctx context.Context, objs []*unstructured.Unstructured, defaultNamespace string) error {
	return c.apply(ctx, objs, defaultNamespace, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
}

// DryRunApply is Apply with a server-side dry run: every admission step
// (webhooks included) and validation runs, nothing is stored.
func (c *Cluster) DryRunApply(ctx context.Context, objs []*unstructured.Unstructured, defaultNamespace string) error {
	return c.apply(ctx, objs, defaultNamespace, metav1.ApplyOptions{FieldManager: fieldManager, Force: true, DryRun: []string{metav1.DryRunAll}})
}

func (c *Cluster) apply(ctx context.Context, objs []*unstructured.Unstructured, defaultNamespace string, opts metav1.ApplyOptions) error {
	dyn, err := dynamic.NewForConfig(c.AdminConfig)
	if err != nil {
		return err
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(c.Client.Discovery()))
	for _, obj := range objs {
		gvk := obj.GroupVersionKind()
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			// A CRD applied earlier in the same batch may be new to discovery.
			mapper.Reset()
			if mapping, err = mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err != nil {
				return fmt.Errorf("%s %s: %w", gvk.Kind, obj.GetName(), err)
			}
		}
		ri := dyn.Resource(mapping.Resource)
		var target dynamic.ResourceInterface = ri
		if mapping.Scope.Name() == "namespace" {
			ns := obj.GetNamespace()
			if ns == "" {
				ns = defaultNamespace
			}
			target = ri.Namespace(ns)
		}
		if _, err := target.Apply(ctx, obj.GetName(), obj, opts); err != nil {
			return fmt.Errorf("apply %s %s: %w", gvk.Kind, obj.GetName(), err)
		}
	}
	return nil
}

// provisioningRequestCRD is our definition of the cluster autoscaler's
// ProvisioningRequest API. manifests/crds/kustomization.yaml leaves it out
// because a real cluster serves the API from its autoscaler's CRD; the
// local cluster has no autoscaler, so it installs this one for the
// simulated queued provisioner (internal/localcluster/provisioner) and the
// scheduler's provisioning admission check.
const provisioningRequestCRD = "autoscaling.x-k8s.io_provisioningrequests.yaml"

// computeClassCRD is our definition of GKE's ComputeClass API
// (pkg/apis/cloud/v1). manifests/crds/kustomization.yaml leaves it out
// because GKE serves that API itself; the local cluster installs it for
// the simulated node auto-provisioning (internal/localcluster/autoprovision)
// and for the classes users apply, seed 001's among them.
const computeClassCRD = "cloud.google.com_computeclasses.yaml"

// installCRDs installs the third-party CRDs (JobSet, scheduler-plugins'
// PodGroup, the autoscaler's ProvisioningRequest, GKE's ComputeClass) and ours
// (manifests/crds), and waits until they are served.
func (c *Cluster) installCRDs(ctx context.Context) error {
	var objs []*unstructured.Unstructured
	for _, crd := range []struct {
		kind string
		yaml []byte
	}{{"JobSet", crds.JobSet}, {"PodGroup", crds.PodGroup}} {
		decoded, err := DecodeYAML(crd.yaml)
		if err != nil {
			return fmt.Errorf("%s CRD: %w", crd.kind, err)
		}
		objs = append(objs, decoded...)
	}
	crdDir := filepath.Join(c.opts.RepoDir, "manifests", "crds")
	for _, crd := range []struct{ kind, file string }{{"ProvisioningRequest", provisioningRequestCRD}, {"ComputeClass", computeClassCRD}} {
		data, err := os.ReadFile(filepath.Join(crdDir, crd.file))
		if err != nil {
			return fmt.Errorf("%s CRD: %w", crd.kind, err)
		}
		decoded, err := DecodeYAML(data)
		if err != nil {
			return fmt.Errorf("%s CRD %s: %w", crd.kind, crd.file, err)
		}
		objs = append(objs, decoded...)
	}
	ours, _, err := manifests.Render(crdDir, "")
	if err != nil {
		return err
	}
	objs = append(objs, ours...)
	if err := c.Apply(ctx, objs, ""); err != nil {
		return err
	}
	for _, o := range objs {
		name := o.GetName()
		err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
			crd, err := c.dynamic.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
			for _, cond := range conds {
				m, _ := cond.(map[string]any)
				if m["type"] == "Established" && m["status"] == "True" {
					return true, nil
				}
			}
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("CRD %s not established: %w", name, err)
		}
	}
	return nil
}

// installSchedulerManifests applies what `kubectl apply -k manifests/`
// would, except the Deployment: the namespace, service account, RBAC and
// configuration of multislice-scheduler. The scheduler then runs as a
// process with exactly the identity and rights the Deployment would have.
func (c *Cluster) installSchedulerManifests(ctx context.Context) error {
	objs, _, err := manifests.Render(filepath.Join(c.opts.RepoDir, "manifests", "scheduler"), "")
	if err != nil {
		return err
	}
	var keep []*unstructured.Unstructured
	for _, o := range objs {
		if o.GetKind() != "Deployment" {
			keep = append(keep, o)
		}
	}
	return c.Apply(ctx, keep, "")
}

// JobSet admission webhooks, as the JobSet release installs them (including
// the release's objectSelector on the pod webhooks), but called at the
// controller's loopback address instead of through an in-cluster Service.
const (
	jobsetMutatingWebhooks   = "jobset-mutating-webhook-configuration"
	jobsetValidatingWebhooks = "jobset-validating-webhook-configuration"
	jobsetNameLabel          = "jobset.sigs.k8s.io/jobset-name"
)

type webhookSpec struct {
	name, path string
	rule       admissionregistrationv1.RuleWithOperations
	// podsOnly restricts the webhook to pods of a JobSet, as the release does.
	podsOnly bool
}

func (c *Cluster) registerJobSetWebhooks(ctx context.Context) error {
	jobsets := func(ops ...admissionregistrationv1.OperationType) admissionregistrationv1.RuleWithOperations {
		return admissionregistrationv1.RuleWithOperations{Operations: ops, Rule: admissionregistrationv1.Rule{
			APIGroups: []string{"jobset.x-k8s.io"}, APIVersions: []string{"v1alpha2"}, Resources: []string{"jobsets"}}}
	}
	pods := admissionregistrationv1.RuleWithOperations{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}},
	}
	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	clientConfig := func(s webhookSpec) admissionregistrationv1.WebhookClientConfig {
		return admissionregistrationv1.WebhookClientConfig{URL: ptr.To(loopbackURL("https", c.ports.jobsetWebhook) + s.path), CABundle: c.pki.CABundle()}
	}
	objectSelector := func(s webhookSpec) *metav1.LabelSelector {
		if !s.podsOnly {
			return nil
		}
		return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: jobsetNameLabel, Operator: metav1.LabelSelectorOpExists}}}
	}

	mutating := &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: jobsetMutatingWebhooks}}
	for _, s := range []webhookSpec{
		{"mjobset.kb.io", "/mutate-jobset-x-k8s-io-v1alpha2-jobset", jobsets(admissionregistrationv1.Create), false},
		{"mpod.kb.io", "/mutate--v1-pod", pods, true},
	} {
		mutating.Webhooks = append(mutating.Webhooks, admissionregistrationv1.MutatingWebhook{
			Name: s.name, ClientConfig: clientConfig(s), Rules: []admissionregistrationv1.RuleWithOperations{s.rule},
			ObjectSelector: objectSelector(s), FailurePolicy: &fail, SideEffects: &none,
			AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: ptr.To[int32](10),
		})
	}
	validating := &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: jobsetValidatingWebhooks}}
	for _, s := range []webhookSpec{
		{"vjobset.kb.io", "/validate-jobset-x-k8s-io-v1alpha2-jobset", jobsets(admissionregistrationv1.Create, admissionregistrationv1.Update), false},
		{"vpod.kb.io", "/validate--v1-pod", pods, true},
	} {
		validating.Webhooks = append(validating.Webhooks, admissionregistrationv1.ValidatingWebhook{
			Name: s.name, ClientConfig: clientConfig(s), Rules: []admissionregistrationv1.RuleWithOperations{s.rule},
			ObjectSelector: objectSelector(s), FailurePolicy: &fail, SideEffects: &none,
			AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: ptr.To[int32](10),
		})
	}

	if _, err := c.Client.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(ctx, mutating, metav1.CreateOptions{FieldManager: fieldManager}); err != nil {
		return fmt.Errorf("register JobSet mutating webhooks: %w", err)
	}
	if _, err := c.Client.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, validating, metav1.CreateOptions{FieldManager: fieldManager}); err != nil {
		return fmt.Errorf("register JobSet validating webhooks: %w", err)
	}
	return nil
}
