package feed

import (
	"context"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	cloudlisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// computeClassAPI is where discovery looks for GKE's ComputeClasses.
var computeClassAPI = struct{ groupVersion, resource string }{cloudv1.SchemeGroupVersion.String(), "computeclasses"}

// nodeLifetimes tells the state when nodes go away by themselves: a node
// GKE created from a ComputeClass's flex-start priority ends
// maxRunDurationSeconds after its creation and, with node recycling, is
// replaced leadTimeSeconds before that (computeclass.NodeRunWindow). The
// classes are watched once their API is served; until then, or for a
// class that is gone, a flex-start node ends after the default 7 days.
type nodeLifetimes struct {
	st    *state.State
	nodes corelisters.NodeLister
	// bounded holds the names of the nodes given a lifetime.
	bounded sync.Map
	mu      sync.RWMutex
	// classes is nil until the ComputeClass API is served and synced.
	classes cloudlisters.ComputeClassLister
}

// of is node's lifetime as the classes say now.
func (l *nodeLifetimes) of(node *corev1.Node) topology.NodeLifetime {
	name := computeclass.NodeClass(node)
	if name == "" && computeclass.NodeCapacity(node) != computeclass.FlexStart {
		return topology.NodeLifetime{}
	}
	l.mu.RLock()
	classes := l.classes
	l.mu.RUnlock()
	var class *cloudv1.ComputeClass
	if classes != nil && name != "" {
		class, _ = classes.Get(name)
	}
	lt, _ := computeclass.NodeRunWindow(class, node)
	return topology.NodeLifetime{End: lt.End, Recycle: lt.RecycleAt}
}

// set records node's lifetime in the state, before the node itself, so
// that it enters the state with it. Nodes that never had one (most) cost
// nothing: node status updates are frequent.
func (l *nodeLifetimes) set(node *corev1.Node) {
	lt := l.of(node)
	if lt == (topology.NodeLifetime{}) {
		if _, had := l.bounded.LoadAndDelete(node.Name); !had {
			return
		}
	} else {
		l.bounded.Store(node.Name, true)
	}
	l.st.Feed().SetNodeLifetime(node.Name, lt)
}

// resync records again the lifetime of every node of class name (every
// node with a class, for "").
func (l *nodeLifetimes) resync(name string) {
	sel := labels.Everything()
	if name != "" {
		sel = labels.SelectorFromSet(labels.Set{wellknown.ComputeClassLabel: name})
	}
	nodes, err := l.nodes.List(sel)
	if err != nil {
		return
	}
	for _, n := range nodes {
		l.set(n)
	}
}

// watchComputeClasses waits until the ComputeClass API is served, then
// watches the classes and records the lifetime of their nodes again
// whenever one changes.
func (f *Feed) watchComputeClasses(ctx context.Context, l *nodeLifetimes) {
	interval := apiPollInitial
	for {
		status, err := resourceServed(f.clients.Client.Discovery(), computeClassAPI.groupVersion, computeClassAPI.resource)
		if err == nil && status == state.APIServed {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
		interval = min(2*interval, apiPollMax)
	}
	informer := f.informers.multislice.Cloud().V1().ComputeClasses()
	changed := func(obj any) {
		if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if c, ok := obj.(*cloudv1.ComputeClass); ok {
			l.resync(c.Name)
		}
	}
	reg, err := informer.Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: changed, UpdateFunc: func(_, obj any) { changed(obj) }, DeleteFunc: changed,
	})
	if err != nil {
		klog.FromContext(ctx).Error(err, "Watching ComputeClasses")
		return
	}
	f.informers.multislice.Start(ctx.Done())
	if !toolscache.WaitForCacheSync(ctx.Done(), reg.HasSynced) {
		return
	}
	l.mu.Lock()
	l.classes = informer.Lister()
	l.mu.Unlock()
	l.resync("")
	klog.FromContext(ctx).Info("Watching ComputeClasses: node lifetimes follow their flex-start priorities", "api", computeClassAPI.groupVersion)
}
