package localcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/webhook"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// The admission webhook (cmd/multislice-webhook) runs as a component of
// its own, on loopback TLS with the cluster's certificates, as a user that
// may read only what it reads (webhook.PolicyRules), and is registered
// with the apiserver as the Helm chart registers it
// (webhook.Configuration), called at its loopback address instead of
// through a Service. Like kube-scheduler it is stateless and started again
// when it exits on its own.
const (
	// WebhookComponent is the webhook's component name (Kill, Restart).
	WebhookComponent = "multislice-webhook"
	webhookUser      = "multislice-webhook"
	webhookRole      = "multislice-webhook"
	// WebhookConfiguration names its MutatingWebhookConfiguration.
	WebhookConfiguration = "multislice-webhook"
)

// installWebhookRBAC lets the webhook's user read what it reads.
func (c *Cluster) installWebhookRBAC(ctx context.Context) error {
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: webhookRole}, Rules: webhook.PolicyRules()}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: webhookRole},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: webhookRole},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: webhookUser}},
	}
	if _, err := c.Client.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{FieldManager: fieldManager}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("ClusterRole %s: %w", webhookRole, err)
	}
	if _, err := c.Client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{FieldManager: fieldManager}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("ClusterRoleBinding %s: %w", webhookRole, err)
	}
	return nil
}

// webhookCertDir writes the loopback serving certificate where the
// webhook reads it (webhook.CertFile, webhook.KeyFile).
func (c *Cluster) webhookCertDir(serving keyPair) (string, error) {
	dir := filepath.Join(c.pki.dir, WebhookComponent)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for src, dst := range map[string]string{serving.Cert: webhook.CertFile, serving.Key: webhook.KeyFile} {
		data, err := os.ReadFile(src)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(dir, dst), data, 0o600); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// webhookArgs are the webhook's flags: it gives pods the name of the
// configuration's first profile.
func webhookArgs(kubeconfig, certDir, scheduler string, port int) []string {
	return []string{
		"--kubeconfig=" + kubeconfig,
		"--address=127.0.0.1:" + strconv.Itoa(port),
		"--cert-dir=" + certDir,
		"--scheduler-name=" + scheduler,
	}
}

// registerWebhook registers the webhook with the apiserver, at its
// loopback address, failing closed (the chart's default).
func (c *Cluster) registerWebhook(ctx context.Context) error {
	cfg := webhook.Configuration(webhook.ConfigurationOptions{
		Name: WebhookConfiguration,
		ClientConfig: admissionregistrationv1.WebhookClientConfig{
			URL:      ptr.To(loopbackURL("https", c.ports.webhook) + webhook.ServePath),
			CABundle: c.pki.CABundle(),
		},
		FailurePolicy: admissionregistrationv1.Fail,
	})
	if _, err := c.Client.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(ctx, cfg, metav1.CreateOptions{FieldManager: fieldManager}); err != nil {
		return fmt.Errorf("register the multislice-webhook: %w", err)
	}
	return nil
}

// WebhookURL is where the webhook serves its probes, "" when the cluster
// runs without it.
func (c *Cluster) WebhookURL() string {
	if c.opts.NoWebhook {
		return ""
	}
	return loopbackURL("https", c.ports.webhook)
}

// profileSchedulerName is the schedulerName of the first profile of a
// KubeSchedulerConfiguration file, wellknown.SchedulerName if it names
// none.
func profileSchedulerName(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var cfg struct {
		Profiles []struct {
			SchedulerName string `json:"schedulerName"`
		} `json:"profiles"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if len(cfg.Profiles) == 0 || cfg.Profiles[0].SchedulerName == "" {
		return wellknown.SchedulerName, nil
	}
	return cfg.Profiles[0].SchedulerName, nil
}
