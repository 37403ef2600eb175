package feed

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

// The consumer feed and the provisioning controller read one
// ProvisioningRequest informer: one watch and one cache per replica.
func TestRequestInformerIsMadeOnce(t *testing.T) {
	var ri requestInformer
	cfg := &rest.Config{Host: "https://127.0.0.1:1"}
	a, err := ri.get(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ri.get(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// What one caller's cache holds, the other's lister reads.
	req := &autoscalingv1.ProvisioningRequest{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "r"}}
	if err := a.Informer().GetIndexer().Add(req); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lister().ProvisioningRequests("ns").Get("r"); err != nil {
		t.Fatalf("a second caller got an informer of its own: %v", err)
	}
}
