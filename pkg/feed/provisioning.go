package feed

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	toolscache "k8s.io/client-go/tools/cache"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	listers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// provisioningAPI is where discovery looks for ProvisioningRequests.
var provisioningAPI = struct{ groupVersion, resource string }{autoscalingv1.SchemeGroupVersion.String(), "provisioningrequests"}

// checkFeed keeps the state's provisioning checks current from the
// AdmissionCheck and ProvisioningRequestConfig objects; a check cannot be
// used while the ProvisioningRequest API is not served.
type checkFeed struct {
	feed    *Feed
	checks  listers.AdmissionCheckLister
	configs listers.ProvisioningRequestConfigLister
	served  atomic.Bool
}

// resync resolves every AdmissionCheck again.
func (f *checkFeed) resync(ctx context.Context) {
	list, err := f.checks.List(labels.Everything())
	if err != nil {
		return
	}
	for _, ac := range list {
		f.set(ctx, ac)
	}
}

func (f *checkFeed) set(ctx context.Context, ac *multislicev1alpha1.AdmissionCheck) {
	var cfg *multislicev1alpha1.ProvisioningRequestConfig
	if ref := ac.Spec.Parameters; ref != nil {
		cfg, _ = f.configs.Get(ref.Name)
	}
	c, ours := provisioning.Resolve(ac, cfg)
	if ours && c.Problem == "" && !f.served.Load() {
		c.Problem = fmt.Sprintf("AdmissionCheck %s: the ProvisioningRequest API (%s) is not served; install the cluster autoscaler's CRD", ac.Name, provisioningAPI.groupVersion)
	}
	if !ours {
		c = nil
	}
	f.feed.act(ctx, f.feed.state.Feed().SetAdmissionCheck(ac.Name, c))
}

// startCheckFeed feeds AdmissionChecks and ProvisioningRequestConfigs,
// and tells Hooks.ProvisioningServed once the ProvisioningRequest API is
// served.
func (f *Feed) startCheckFeed(ctx context.Context) ([]toolscache.InformerSynced, error) {
	v1 := f.informers.multislice.Multislice().V1alpha1()
	cf := &checkFeed{feed: f, checks: v1.AdmissionChecks().Lister(), configs: v1.ProvisioningRequestConfigs().Lister()}
	checks, err := v1.AdmissionChecks().Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { cf.setObj(ctx, obj) },
		UpdateFunc: func(_, obj any) { cf.setObj(ctx, obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if ac, ok := obj.(*multislicev1alpha1.AdmissionCheck); ok {
				f.act(ctx, f.state.Feed().SetAdmissionCheck(ac.Name, nil))
			}
		},
	})
	if err != nil {
		return nil, err
	}
	// A config changes every check that names it.
	configs, err := v1.ProvisioningRequestConfigs().Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { cf.resync(ctx) },
		UpdateFunc: func(_, _ any) { cf.resync(ctx) },
		DeleteFunc: func(any) { cf.resync(ctx) },
	})
	if err != nil {
		return nil, err
	}
	go func() {
		interval := apiPollInitial
		for {
			status, err := resourceServed(f.clients.Client.Discovery(), provisioningAPI.groupVersion, provisioningAPI.resource)
			if err == nil && status == state.APIServed {
				cf.served.Store(true)
				cf.resync(ctx)
				if f.hooks.ProvisioningServed != nil {
					f.hooks.ProvisioningServed(ctx)
				}
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(interval):
			}
			interval = min(2*interval, apiPollMax)
		}
	}()
	return []toolscache.InformerSynced{checks.HasSynced, configs.HasSynced}, nil
}

func (f *checkFeed) setObj(ctx context.Context, obj any) {
	if ac, ok := obj.(*multislicev1alpha1.AdmissionCheck); ok {
		f.set(ctx, ac)
	}
}
