package feed

import (
	"context"
	"sync"

	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	autoscalinginformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
)

// startConsumedRequestInformer feeds the state the ProvisioningRequests
// users make themselves: each is the gang of the pods that consume it
// (workload.SourceProvisioningRequest). It runs on every replica, as the
// other sources do; the requests a queue's check makes are the
// provisioning controller's (leader only) and are skipped here.
func (rt *Runtime) startConsumedRequestInformer(ctx context.Context, cfg *rest.Config) (toolscache.SharedIndexInformer, error) {
	requests, err := rt.requests.get(cfg)
	if err != nil {
		return nil, err
	}
	informer := requests.Informer()
	err = rt.feedSource(ctx, informer, func(obj any) (derived, bool) {
		req, ok := obj.(*autoscalingv1.ProvisioningRequest)
		if !ok || !provisioning.UserMade(req) {
			return derived{}, false
		}
		w, err := provisioning.Consumer(req)
		return derived{key: provisioning.ConsumerKey(req), w: w, err: err, ref: provisioning.ConsumedRef(req.Namespace, req.Name, req.UID)}, true
	})
	if err != nil {
		return nil, err
	}
	rt.requests.start(ctx)
	return informer, nil
}

// requestInformer makes the ProvisioningRequest informer once, for all who
// read requests: one watch and one cache of them per replica.
type requestInformer struct {
	mu       sync.Mutex
	factory  multisliceinformers.SharedInformerFactory
	requests autoscalinginformers.ProvisioningRequestInformer
}

// get returns the informer, made on first use with a client of cfg.
func (ri *requestInformer) get(cfg *rest.Config) (autoscalinginformers.ProvisioningRequestInformer, error) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.requests == nil {
		client, err := multisliceclient.NewForConfig(jsonConfig(cfg))
		if err != nil {
			return nil, err
		}
		ri.factory = multisliceinformers.NewSharedInformerFactory(client, 0)
		ri.requests = ri.factory.Autoscaling().V1().ProvisioningRequests()
		ri.requests.Informer() // registered with the factory before it starts
	}
	return ri.requests, nil
}

// start starts the informer until ctx ends, if it is not running yet.
func (ri *requestInformer) start(ctx context.Context) {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.factory != nil {
		ri.factory.Start(ctx.Done())
	}
}
