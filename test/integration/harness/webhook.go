package harness

import (
	"context"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/tools/cache"
	certutil "k8s.io/client-go/util/cert"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/webhook"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// WebhookConfigurationName names the MutatingWebhookConfiguration
// StartWebhook registers, as the local cluster names it.
const WebhookConfigurationName = "multislice-webhook"

// Webhook is multislice-webhook (pkg/webhook) served by the test process
// on loopback TLS, registered with the control plane as the local cluster
// registers it (webhook.Configuration), so that manifests written for
// Kueue are created as the local cluster and a chart install create them.
type Webhook struct {
	URL      string
	CABundle []byte

	stop context.CancelFunc
	done chan error
	once sync.Once
}

// StartWebhook serves the webhook for scheduler name wellknown.SchedulerName,
// registers it failing closed, and returns once the apiserver calls it. It
// stops when the test ends.
func StartWebhook(t testing.TB, cp *ControlPlane) *Webhook {
	t.Helper()
	certPEM, keyPEM, err := certutil.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{net.IPv4(127, 0, 0, 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certutil.WriteCert(filepath.Join(dir, webhook.CertFile), certPEM); err != nil {
		t.Fatal(err)
	}
	if err := certutil.WriteCert(filepath.Join(dir, webhook.KeyFile), keyPEM); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	client, err := metadata.NewForConfig(cp.Config)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	lookup := webhook.NewAPILookup(client, 0)
	lookup.Start(ctx)
	w := &Webhook{URL: "https://" + ln.Addr().String() + webhook.ServePath, CABundle: certPEM, stop: cancel, done: make(chan error, 1)}
	t.Cleanup(w.Stop)
	if !cache.WaitForCacheSync(t.Context().Done(), lookup.Synced) {
		t.Fatal("the webhook's informers did not sync (is the multislice.dev API installed?)")
	}
	srv := &webhook.Server{Handler: &webhook.Handler{Decider: &webhook.Decider{Scheduler: wellknown.SchedulerName, Lookup: lookup}}, Ready: lookup.Synced, CertDir: dir}
	go func() { w.done <- srv.Serve(ctx, ln) }()
	w.Register(t, cp, admissionregistrationv1.Fail)
	w.waitCalled(t, cp)
	return w
}

// Stop stops serving (the registration stays) and waits until it has.
func (w *Webhook) Stop() {
	w.once.Do(func() {
		w.stop()
		<-w.done
	})
}

// Register registers the webhook with policy, replacing an earlier
// registration.
func (w *Webhook) Register(t testing.TB, cp *ControlPlane, policy admissionregistrationv1.FailurePolicyType) {
	t.Helper()
	cfg := webhook.Configuration(webhook.ConfigurationOptions{
		Name:          WebhookConfigurationName,
		ClientConfig:  admissionregistrationv1.WebhookClientConfig{URL: ptr.To(w.URL), CABundle: w.CABundle},
		FailurePolicy: policy,
	})
	api := cp.Client.AdmissionregistrationV1().MutatingWebhookConfigurations()
	old, err := api.Get(t.Context(), cfg.Name, metav1.GetOptions{})
	if err == nil {
		cfg.ResourceVersion = old.ResourceVersion
		_, err = api.Update(t.Context(), cfg, metav1.UpdateOptions{})
	} else {
		_, err = api.Create(t.Context(), cfg, metav1.CreateOptions{})
	}
	if err != nil {
		t.Fatalf("registering the webhook: %v", err)
	}
}

// waitCalled dry-runs the creation of a pod that consumes a
// ProvisioningRequest until the apiserver has the registration and the
// webhook gives the pod our scheduler.
func (w *Webhook) waitCalled(t testing.TB, cp *ControlPlane) {
	t.Helper()
	probe := builders.Pod(metav1.NamespaceDefault, "webhook-probe").Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "probe").Obj()
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := cp.Client.CoreV1().Pods(probe.Namespace).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			last = err.Error()
			return false, nil
		}
		last = "schedulerName " + got.Spec.SchedulerName
		return got.Spec.SchedulerName == wellknown.SchedulerName, nil
	})
	if err != nil {
		t.Fatalf("the apiserver does not call the webhook (last: %s): %v", last, err)
	}
}
