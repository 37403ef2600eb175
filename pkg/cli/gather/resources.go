package gather

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedinformers "sigs.k8s.io/scheduler-plugins/pkg/generated/informers/externalversions"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
)

// Need says what to read.
type Need struct {
	// Namespace limits the namespaced lists that need not be cluster-wide
	// (events, provisioning requests); "" reads every namespace.
	Namespace string
	Nodes     bool
	Pods      bool
	Events    bool
	Owners    bool // JobSets, Jobs, PodGroups
	// Groups alone: Kubernetes' PodGroups and CompositePodGroups, which
	// say whose a pod is (cli.Pools); Owners reads them too.
	Groups bool
	Queues bool // ClusterQueues, LocalQueues, Workloads
	Checks bool // ResourceFlavors, Topologies, AdmissionChecks, ProvisioningRequests
	// Topologies alone: how pools are arranged (cli.Pools).
	Topologies bool
	Classes    bool // ComputeClasses
}

// resource is one API resource of a cli.Cluster: how to list it once, how
// to watch it, and which field of the cluster its objects go to.
type resource struct {
	// name is its plural, as messages say it.
	name string
	// required: reading fails when it cannot be read (nodes, pods).
	// Another resource is optional: see optional.
	required bool
	// scoped resources are read in Need.Namespace only.
	scoped bool
	wanted func(Need) bool
	// list lists it in namespace ns ("": all) into out.
	list func(ctx context.Context, c *Clients, ns string, opts metav1.ListOptions, out *cli.Cluster) error
	// informer is its informer, from the factories of its scope.
	informer func(f *factories) cache.SharedIndexInformer
	// fromStore puts an informer's objects into out.
	fromStore func(objs []any, out *cli.Cluster)
}

// define builds a resource from its typed list call, its informer and the
// setter of its field: every read, once or from a store, goes through set,
// its objects in namespace and name order (the order the API lists them
// in, which a store does not keep).
func define[T any, PT interface {
	*T
	metav1.Object
}](name string, required, scoped bool, wanted func(Need) bool,
	list func(ctx context.Context, c *Clients, ns string, opts metav1.ListOptions) ([]T, error),
	informer func(f *factories) cache.SharedIndexInformer,
	set func(out *cli.Cluster, items []*T),
) resource {
	return resource{
		name: name, required: required, scoped: scoped, wanted: wanted, informer: informer,
		list: func(ctx context.Context, c *Clients, ns string, opts metav1.ListOptions, out *cli.Cluster) error {
			items, err := list(ctx, c, ns, opts)
			if err != nil {
				return err
			}
			set(out, ptrs(items))
			return nil
		},
		fromStore: func(objs []any, out *cli.Cluster) {
			items := make([]*T, 0, len(objs))
			for _, o := range objs {
				if t, ok := o.(*T); ok {
					items = append(items, t)
				}
			}
			slices.SortFunc(items, func(a, b *T) int {
				x, y := PT(a), PT(b)
				return cmp.Or(cmp.Compare(x.GetNamespace(), y.GetNamespace()), cmp.Compare(x.GetName(), y.GetName()))
			})
			set(out, items)
		},
	}
}

// resources are what a cli.Cluster holds, in the order they are read.
var resources = []resource{
	define("nodes", true, false, func(n Need) bool { return n.Nodes },
		func(ctx context.Context, c *Clients, _ string, o metav1.ListOptions) ([]corev1.Node, error) {
			l, err := c.Kube.CoreV1().Nodes().List(ctx, o)
			return itemsOf(l, err, func(l *corev1.NodeList) []corev1.Node { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer { return f.kube.Core().V1().Nodes().Informer() },
		func(out *cli.Cluster, items []*corev1.Node) { out.Nodes = items }),
	define("pods", true, false, func(n Need) bool { return n.Pods },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]corev1.Pod, error) {
			l, err := c.Kube.CoreV1().Pods(ns).List(ctx, o)
			return itemsOf(l, err, func(l *corev1.PodList) []corev1.Pod { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer { return f.kube.Core().V1().Pods().Informer() },
		func(out *cli.Cluster, items []*corev1.Pod) { out.Pods = items }),
	define("events", false, true, func(n Need) bool { return n.Events },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]corev1.Event, error) {
			l, err := c.Kube.CoreV1().Events(ns).List(ctx, o)
			return itemsOf(l, err, func(l *corev1.EventList) []corev1.Event { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer { return f.kubeScoped.Core().V1().Events().Informer() },
		func(out *cli.Cluster, items []*corev1.Event) { out.Events = items }),
	define("jobsets", false, false, func(n Need) bool { return n.Owners },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]jobsetv1alpha2.JobSet, error) {
			l, err := c.JobSets.JobsetV1alpha2().JobSets(ns).List(ctx, o)
			return itemsOf(l, err, func(l *jobsetv1alpha2.JobSetList) []jobsetv1alpha2.JobSet { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.jobSets.Jobset().V1alpha2().JobSets().Informer()
		},
		func(out *cli.Cluster, items []*jobsetv1alpha2.JobSet) { out.JobSets = items }),
	define("jobs", false, false, func(n Need) bool { return n.Owners },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]batchv1.Job, error) {
			l, err := c.Kube.BatchV1().Jobs(ns).List(ctx, o)
			return itemsOf(l, err, func(l *batchv1.JobList) []batchv1.Job { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer { return f.kube.Batch().V1().Jobs().Informer() },
		func(out *cli.Cluster, items []*batchv1.Job) { out.Jobs = items }),
	define("podgroups", false, false, func(n Need) bool { return n.Owners },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]schedv1alpha1.PodGroup, error) {
			l, err := c.PodGroups.SchedulingV1alpha1().PodGroups(ns).List(ctx, o)
			return itemsOf(l, err, func(l *schedv1alpha1.PodGroupList) []schedv1alpha1.PodGroup { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.podGroups.Scheduling().V1alpha1().PodGroups().Informer()
		},
		func(out *cli.Cluster, items []*schedv1alpha1.PodGroup) { out.PodGroups = items }),
	// Kubernetes' own PodGroups and CompositePodGroups, where served.
	define("podgroups.scheduling.k8s.io", false, false, func(n Need) bool { return n.Owners || n.Groups },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]schedv1beta1.PodGroup, error) {
			l, err := c.Kube.SchedulingV1beta1().PodGroups(ns).List(ctx, o)
			return itemsOf(l, err, func(l *schedv1beta1.PodGroupList) []schedv1beta1.PodGroup { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.kube.Scheduling().V1beta1().PodGroups().Informer()
		},
		func(out *cli.Cluster, items []*schedv1beta1.PodGroup) { out.InTreePodGroups = items }),
	define("compositepodgroups", false, false, func(n Need) bool { return n.Owners || n.Groups },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]schedv1alpha3.CompositePodGroup, error) {
			l, err := c.Kube.SchedulingV1alpha3().CompositePodGroups(ns).List(ctx, o)
			return itemsOf(l, err, func(l *schedv1alpha3.CompositePodGroupList) []schedv1alpha3.CompositePodGroup { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.kube.Scheduling().V1alpha3().CompositePodGroups().Informer()
		},
		func(out *cli.Cluster, items []*schedv1alpha3.CompositePodGroup) { out.CompositePodGroups = items }),
	define("clusterqueues", false, false, func(n Need) bool { return n.Queues },
		func(ctx context.Context, c *Clients, _ string, o metav1.ListOptions) ([]multislicev1alpha1.ClusterQueue, error) {
			l, err := c.Multislice.MultisliceV1alpha1().ClusterQueues().List(ctx, o)
			return itemsOf(l, err, func(l *multislicev1alpha1.ClusterQueueList) []multislicev1alpha1.ClusterQueue { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Multislice().V1alpha1().ClusterQueues().Informer()
		},
		func(out *cli.Cluster, items []*multislicev1alpha1.ClusterQueue) { out.ClusterQueues = items }),
	define("localqueues", false, false, func(n Need) bool { return n.Queues },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]multislicev1alpha1.LocalQueue, error) {
			l, err := c.Multislice.MultisliceV1alpha1().LocalQueues(ns).List(ctx, o)
			return itemsOf(l, err, func(l *multislicev1alpha1.LocalQueueList) []multislicev1alpha1.LocalQueue { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Multislice().V1alpha1().LocalQueues().Informer()
		},
		func(out *cli.Cluster, items []*multislicev1alpha1.LocalQueue) { out.LocalQueues = items }),
	define("workloads", false, false, func(n Need) bool { return n.Queues },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]multislicev1alpha1.Workload, error) {
			l, err := c.Multislice.MultisliceV1alpha1().Workloads(ns).List(ctx, o)
			return itemsOf(l, err, func(l *multislicev1alpha1.WorkloadList) []multislicev1alpha1.Workload { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Multislice().V1alpha1().Workloads().Informer()
		},
		func(out *cli.Cluster, items []*multislicev1alpha1.Workload) { out.Workloads = items }),
	define("resourceflavors", false, false, func(n Need) bool { return n.Checks },
		func(ctx context.Context, c *Clients, _ string, o metav1.ListOptions) ([]multislicev1alpha1.ResourceFlavor, error) {
			l, err := c.Multislice.MultisliceV1alpha1().ResourceFlavors().List(ctx, o)
			return itemsOf(l, err, func(l *multislicev1alpha1.ResourceFlavorList) []multislicev1alpha1.ResourceFlavor { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Multislice().V1alpha1().ResourceFlavors().Informer()
		},
		func(out *cli.Cluster, items []*multislicev1alpha1.ResourceFlavor) { out.ResourceFlavors = items }),
	define("topologies", false, false, func(n Need) bool { return n.Checks || n.Topologies },
		func(ctx context.Context, c *Clients, _ string, o metav1.ListOptions) ([]multislicev1alpha1.Topology, error) {
			l, err := c.Multislice.MultisliceV1alpha1().Topologies().List(ctx, o)
			return itemsOf(l, err, func(l *multislicev1alpha1.TopologyList) []multislicev1alpha1.Topology { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Multislice().V1alpha1().Topologies().Informer()
		},
		func(out *cli.Cluster, items []*multislicev1alpha1.Topology) { out.Topologies = items }),
	define("admissionchecks", false, false, func(n Need) bool { return n.Checks },
		func(ctx context.Context, c *Clients, _ string, o metav1.ListOptions) ([]multislicev1alpha1.AdmissionCheck, error) {
			l, err := c.Multislice.MultisliceV1alpha1().AdmissionChecks().List(ctx, o)
			return itemsOf(l, err, func(l *multislicev1alpha1.AdmissionCheckList) []multislicev1alpha1.AdmissionCheck { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Multislice().V1alpha1().AdmissionChecks().Informer()
		},
		func(out *cli.Cluster, items []*multislicev1alpha1.AdmissionCheck) { out.AdmissionChecks = items }),
	define("provisioningrequests", false, true, func(n Need) bool { return n.Checks },
		func(ctx context.Context, c *Clients, ns string, o metav1.ListOptions) ([]autoscalingv1.ProvisioningRequest, error) {
			l, err := c.Multislice.AutoscalingV1().ProvisioningRequests(ns).List(ctx, o)
			return itemsOf(l, err, func(l *autoscalingv1.ProvisioningRequestList) []autoscalingv1.ProvisioningRequest { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multisliceScoped.Autoscaling().V1().ProvisioningRequests().Informer()
		},
		func(out *cli.Cluster, items []*autoscalingv1.ProvisioningRequest) { out.ProvisioningRequests = items }),
	// ComputeClasses are GKE's API: where it is not served, flex-start
	// nodes end after 7 days and none is recycled (ComputeClassesServed
	// stays false).
	define("computeclasses", false, false, func(n Need) bool { return n.Classes },
		func(ctx context.Context, c *Clients, _ string, o metav1.ListOptions) ([]cloudv1.ComputeClass, error) {
			l, err := c.Multislice.CloudV1().ComputeClasses().List(ctx, o)
			return itemsOf(l, err, func(l *cloudv1.ComputeClassList) []cloudv1.ComputeClass { return l.Items })
		},
		func(f *factories) cache.SharedIndexInformer {
			return f.multislice.Cloud().V1().ComputeClasses().Informer()
		},
		func(out *cli.Cluster, items []*cloudv1.ComputeClass) {
			out.ComputeClasses, out.ComputeClassesServed = items, true
		}),
}

// itemsOf is a list call's items (nil on error).
func itemsOf[L any, T any](l *L, err error, items func(*L) []T) ([]T, error) {
	if err != nil {
		return nil, err
	}
	return items(l), nil
}

// factories are the informer factories of a watch: every namespace, and
// the namespace of scoped resources.
type factories struct {
	kube, kubeScoped             informers.SharedInformerFactory
	multislice, multisliceScoped multisliceinformers.SharedInformerFactory
	jobSets                      jobsetinformers.SharedInformerFactory
	podGroups                    schedinformers.SharedInformerFactory
}

// unreadable says what to do when resource r cannot be read (err from its
// list): nil to go on without it (it stays empty), else the error. A
// required resource must be read. An optional one whose API is not served
// (NotFound) is left out silently; one the user may not list is said on
// warn and left out.
func (r *resource) unreadable(err error, warn io.Writer) error {
	switch {
	case r.required:
		return fmt.Errorf("listing %s: %w", r.name, err)
	case apierrors.IsNotFound(err):
		return nil
	case apierrors.IsForbidden(err):
		fmt.Fprintf(warn, "warning: cannot list %s (%v); going on without them\n", r.name, apierrors.ReasonForError(err))
		return nil
	}
	return fmt.Errorf("listing %s: %w", r.name, err)
}

// namespaceOf is where r is read: Need.Namespace for scoped resources,
// else every namespace.
func (r *resource) namespaceOf(n Need) string {
	if r.scoped {
		return n.Namespace
	}
	return metav1.NamespaceAll
}

// List lists what n says into a cli.Cluster listed at now.
func List(ctx context.Context, c *Clients, n Need, now time.Time, warn io.Writer) (*cli.Cluster, error) {
	out := &cli.Cluster{Now: now}
	for i := range resources {
		r := &resources[i]
		if !r.wanted(n) {
			continue
		}
		if err := r.list(ctx, c, r.namespaceOf(n), metav1.ListOptions{}, out); err != nil {
			if err := r.unreadable(err, warn); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// ptrs points at each item of a list.
func ptrs[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

// Resources names the resources n reads (their plurals), in reading order.
func Resources(n Need) []string {
	var out []string
	for i := range resources {
		if resources[i].wanted(n) {
			out = append(out, resources[i].name)
		}
	}
	return out
}
