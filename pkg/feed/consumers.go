package feed

import (
	"context"

	toolscache "k8s.io/client-go/tools/cache"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
)

// startConsumedRequestInformer feeds the state the ProvisioningRequests
// users make themselves: each is the gang of the pods that consume it
// (workload.SourceProvisioningRequest). It runs on every replica, as the
// other sources do; the requests a queue's check makes are the
// provisioning controller's (leader only), which reads the same informer,
// and are skipped here.
func (f *Feed) startConsumedRequestInformer(ctx context.Context) (toolscache.InformerSynced, error) {
	informer := f.informers.multislice.Autoscaling().V1().ProvisioningRequests().Informer()
	reg, err := f.feedSource(ctx, informer, func(obj any) (derived, bool) {
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
	f.informers.multislice.Start(ctx.Done())
	return reg.HasSynced, nil
}
