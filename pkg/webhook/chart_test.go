package webhook

import (
	"os"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// chartExpect is what `make verify-chart` checks the Helm chart renders
// with hack/chartcheck/testdata/custom-values.yaml (webhook.enabled,
// failurePolicy Ignore).
const chartExpect = "../../hack/chartcheck/testdata/custom-expect.yaml"

// The chart registers the webhooks Configuration builds (the local
// cluster's) and grants the webhook PolicyRules: the chart's template and
// this package cannot drift apart, as `make verify-chart` holds the chart
// to the same expectation.
func TestChartRendersTheConfiguration(t *testing.T) {
	data, err := os.ReadFile(chartExpect)
	if err != nil {
		t.Fatal(err)
	}
	var chartConfig *admissionregistrationv1.MutatingWebhookConfiguration
	var chartRole *rbacv1.ClusterRole
	for _, doc := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		var meta metav1.TypeMeta
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatal(err)
		}
		switch meta.Kind {
		case "MutatingWebhookConfiguration":
			chartConfig = &admissionregistrationv1.MutatingWebhookConfiguration{}
			if err := yaml.UnmarshalStrict([]byte(doc), chartConfig); err != nil {
				t.Fatal(err)
			}
		case "ClusterRole":
			var role rbacv1.ClusterRole
			if err := yaml.UnmarshalStrict([]byte(doc), &role); err != nil {
				t.Fatal(err)
			}
			if role.Name == "ms-webhook" {
				chartRole = &role
			}
		}
	}
	if chartConfig == nil || chartRole == nil {
		t.Fatalf("%s has no MutatingWebhookConfiguration or no ClusterRole ms-webhook", chartExpect)
	}
	want := Configuration(ConfigurationOptions{FailurePolicy: admissionregistrationv1.Ignore}).Webhooks
	got := chartConfig.Webhooks
	for i := range got {
		// Where it is served differs: a Service in the chart.
		if s := got[i].ClientConfig.Service; s == nil || s.Name != "ms-webhook" || s.Path == nil || *s.Path != ServePath {
			t.Errorf("webhook %s is served at %+v, want Service ms-webhook path %s", got[i].Name, s, ServePath)
		}
		got[i].ClientConfig = admissionregistrationv1.WebhookClientConfig{}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the chart's webhooks differ from Configuration's (-Go +chart); change both, then the chart's expected render:\n%s", diff)
	}
	if diff := cmp.Diff(PolicyRules(), chartRole.Rules); diff != "" {
		t.Errorf("the chart's ClusterRole differs from PolicyRules (-Go +chart):\n%s", diff)
	}
}
