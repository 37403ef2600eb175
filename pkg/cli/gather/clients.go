// Package gather reads from the API what pkg/cli computes from: it lists
// the objects a cli.Cluster holds once (`kubectl multislice`), or keeps
// them up to date from informers and hands out snapshots (the fleet page,
// cmd/multislice-fleet). Both go through the same table of resources
// (resources.go), so they read the same objects into the same fields and
// treat an API that is not served, or not readable, the same way.
package gather

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	schedclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
)

// Clients are the API clients the objects are read with.
type Clients struct {
	Kube kubernetes.Interface
	// Multislice serves multislice.dev, autoscaling.x-k8s.io
	// (ProvisioningRequests) and cloud.google.com (ComputeClasses).
	Multislice multisliceclient.Interface
	JobSets    jobsetclient.Interface
	PodGroups  schedclient.Interface
}

// NewClients builds the clients of cfg. Custom resources speak JSON only.
func NewClients(cfg *rest.Config) (*Clients, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 50, 100
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	crd := rest.CopyConfig(cfg)
	crd.ContentType, crd.AcceptContentTypes = runtime.ContentTypeJSON, runtime.ContentTypeJSON
	c := &Clients{Kube: kube}
	if c.Multislice, err = multisliceclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if c.JobSets, err = jobsetclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if c.PodGroups, err = schedclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	return c, nil
}
