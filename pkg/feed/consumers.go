package feed

import (
	"context"

	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
)

// startConsumedRequestInformer feeds the state the ProvisioningRequests
// users make themselves: each is the gang of the pods that consume it
// (workload.SourceProvisioningRequest). It runs on every replica, as the
// other sources do; the requests a queue's check makes are the
// provisioning controller's (leader only) and are skipped here.
func (rt *Runtime) startConsumedRequestInformer(ctx context.Context, cfg *rest.Config) (toolscache.SharedIndexInformer, error) {
	client, err := multisliceclient.NewForConfig(jsonConfig(cfg))
	if err != nil {
		return nil, err
	}
	factory := multisliceinformers.NewSharedInformerFactory(client, 0)
	informer := factory.Autoscaling().V1().ProvisioningRequests().Informer()
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
	factory.Start(ctx.Done())
	return informer, nil
}
