package feed

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
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
	rt      *Runtime
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
	f.rt.Act(ctx, f.rt.state.SetAdmissionCheck(ac.Name, c))
}

// startCheckFeed feeds AdmissionChecks and ProvisioningRequestConfigs, and
// starts the provisioning controller once the ProvisioningRequest API is
// served.
func (rt *Runtime) startCheckFeed(ctx context.Context, pods corelisters.PodLister, workloads listers.WorkloadLister) ([]toolscache.InformerSynced, error) {
	v1 := rt.informers.multislice.Multislice().V1alpha1()
	kube := rt.cluster.Client
	f := &checkFeed{rt: rt, checks: v1.AdmissionChecks().Lister(), configs: v1.ProvisioningRequestConfigs().Lister()}
	checks, err := v1.AdmissionChecks().Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { f.setObj(ctx, obj) },
		UpdateFunc: func(_, obj any) { f.setObj(ctx, obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if ac, ok := obj.(*multislicev1alpha1.AdmissionCheck); ok {
				rt.Act(ctx, rt.state.SetAdmissionCheck(ac.Name, nil))
			}
		},
	})
	if err != nil {
		return nil, err
	}
	// A request is owned by its Workload object: one written may let a
	// request waiting for it be created. Only the provisioning controller
	// is woken: the status writer, which wrote it, has nothing to create.
	if _, err := v1.Workloads().Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { rt.pokeProvisioner() },
	}); err != nil {
		return nil, err
	}
	// A config changes every check that names it.
	configs, err := v1.ProvisioningRequestConfigs().Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { f.resync(ctx) },
		UpdateFunc: func(_, _ any) { f.resync(ctx) },
		DeleteFunc: func(any) { f.resync(ctx) },
	})
	if err != nil {
		return nil, err
	}
	go func() {
		interval := apiPollInitial
		for {
			status, err := resourceServed(kube.Discovery(), provisioningAPI.groupVersion, provisioningAPI.resource)
			if err == nil && status == state.APIServed {
				f.served.Store(true)
				f.resync(ctx)
				c := controllers.NewProvisioner(rt.state, rt.Act, rt.events, rt.evictions(), rt.cluster.Multislice, kube, pods, workloads)
				// The consumer feed's informer, which this one shares.
				requests := rt.informers.multislice.Autoscaling().V1().ProvisioningRequests()
				err := c.Start(ctx, requests, rt.WhileLeading)
				rt.informers.multislice.Start(ctx.Done())
				if err != nil {
					klog.FromContext(ctx).Error(err, "Starting the provisioning controller")
					return
				}
				rt.provisioning.Store(c)
				klog.FromContext(ctx).Info("Running provisioning admission checks", "api", provisioningAPI.groupVersion)
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

// PokeProvisioning wakes the status writer and the provisioning
// controller: a workload reserved quota for its check, and its Workload
// object, then its request, can be created now rather than on the next
// tick.
func (rt *Runtime) PokeProvisioning() {
	if w := rt.statusWriter.Load(); w != nil {
		w.Poke()
	}
	rt.pokeProvisioner()
}

// pokeProvisioner wakes the provisioning controller alone.
func (rt *Runtime) pokeProvisioner() {
	if p := rt.provisioning.Load(); p != nil {
		p.Poke()
	}
}
