package webhook

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// The resources the webhook reads (PolicyRules grants exactly these).
var (
	localQueuesResource     = schema.GroupVersionResource{Group: "multislice.dev", Version: "v1alpha1", Resource: "localqueues"}
	namespacesResource      = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	podGroupsResource       = schema.GroupVersionResource{Group: "scheduling.x-k8s.io", Version: "v1alpha1", Resource: "podgroups"}
	inTreePodGroupsResource = schema.GroupVersionResource{Group: "scheduling.k8s.io", Version: "v1beta1", Resource: "podgroups"}
)

// APILookup answers Lookup from the API, reading only objects' metadata.
// LocalQueues and namespaces come from informers; one the informer has
// not seen yet (created a moment before the object that names it, as a
// manifest of both does) is read from the apiserver, so that it is never
// missed. A PodGroup is read when a member is created: from the
// apiserver's watch cache, and again from storage if the cache has not
// seen it yet.
type APILookup struct {
	client     metadata.Interface
	factory    metadatainformer.SharedInformerFactory
	queues     cache.GenericLister
	namespaces cache.GenericLister
	synced     []cache.InformerSynced
}

// NewAPILookup reads through client. Start its informers with Start.
func NewAPILookup(client metadata.Interface, resync time.Duration) *APILookup {
	f := metadatainformer.NewSharedInformerFactory(client, resync)
	queues, namespaces := f.ForResource(localQueuesResource), f.ForResource(namespacesResource)
	return &APILookup{
		client: client, factory: f,
		queues: queues.Lister(), namespaces: namespaces.Lister(),
		synced: []cache.InformerSynced{queues.Informer().HasSynced, namespaces.Informer().HasSynced},
	}
}

// Start starts the informers; they stop with ctx.
func (l *APILookup) Start(ctx context.Context) { l.factory.Start(ctx.Done()) }

// Synced reports whether the informers have listed everything once: the
// webhook is ready.
func (l *APILookup) Synced() bool {
	for _, s := range l.synced {
		if !s() {
			return false
		}
	}
	return true
}

// meta reads an object's metadata: from lister when it has it, else from
// the apiserver. found is false when neither has it; a resource the API
// does not serve has no objects.
func (l *APILookup) meta(ctx context.Context, lister getter, gvr schema.GroupVersionResource, namespace, name string) (*metav1.ObjectMeta, bool, error) {
	if lister != nil {
		obj, err := lister.Get(name)
		if err == nil {
			if m, ok := obj.(*metav1.PartialObjectMetadata); ok {
				return &m.ObjectMeta, true, nil
			}
		} else if !apierrors.IsNotFound(err) {
			return nil, false, err
		}
	}
	var ri metadata.ResourceInterface = l.client.Resource(gvr)
	if namespace != "" {
		ri = l.client.Resource(gvr).Namespace(namespace)
	}
	m, err := ri.Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return nil, false, nil
	case err != nil:
		return nil, false, err
	}
	return &m.ObjectMeta, true, nil
}

// LocalQueue implements Lookup.
func (l *APILookup) LocalQueue(ctx context.Context, namespace, name string) (bool, error) {
	_, found, err := l.meta(ctx, l.queues.ByNamespace(namespace), localQueuesResource, namespace, name)
	return found, err
}

// NamespaceOptedIn implements Lookup.
func (l *APILookup) NamespaceOptedIn(ctx context.Context, namespace string) (bool, error) {
	m, found, err := l.meta(ctx, l.namespaces, namespacesResource, "", namespace)
	if err != nil || !found {
		return false, err
	}
	return m.Labels[wellknown.DefaultSchedulerNamespaceLabel] == "true", nil
}

// PodGroupQueue implements Lookup.
func (l *APILookup) PodGroupQueue(ctx context.Context, g GroupRef) (string, bool, error) {
	gvr := podGroupsResource
	if g.InTree {
		gvr = inTreePodGroupsResource
	}
	ri := l.client.Resource(gvr).Namespace(g.Namespace)
	m, err := ri.Get(ctx, g.Name, metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		m, err = ri.Get(ctx, g.Name, metav1.GetOptions{})
	}
	switch {
	case apierrors.IsNotFound(err):
		return "", false, nil
	case err != nil:
		return "", false, err
	}
	return wellknown.QueueName(m.Labels, m.Annotations), true, nil
}

// getter reads an object of one namespace (or of the cluster) from an
// informer's cache.
type getter interface {
	Get(name string) (runtime.Object, error)
}
