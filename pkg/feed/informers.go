package feed

import (
	"k8s.io/client-go/informers"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	spinformers "sigs.k8s.io/scheduler-plugins/pkg/generated/informers/externalversions"

	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
)

// The constructors of the runtime's own informer factories: a test counts
// the factories New makes.
var (
	newMultisliceInformers = multisliceinformers.NewSharedInformerFactory
	newJobSetInformers     = jobsetinformers.NewSharedInformerFactory
	newPodGroupInformers   = spinformers.NewSharedInformerFactory
)

// factories are the runtime's informer factories, made once in New: the
// informers of each API group come from one factory, so each kind is
// listed and watched once per replica, whoever reads it.
//
//   - The scheduler's own (Cluster.Informers): pods, nodes, namespaces,
//     Jobs and Kubernetes' PodGroups (scheduling.k8s.io).
//   - multislice: the groups of our generated clientset, multislice.dev
//     (queues, Workload objects, checks), cloud.google.com
//     (ComputeClasses) and autoscaling.x-k8s.io (ProvisioningRequests).
//   - jobsets: jobset.x-k8s.io.
//   - podGroups: scheduler-plugins' scheduling.x-k8s.io.
//
// Informers are asked for lazily, once discovery finds their API served
// (a CRD may be installed after the scheduler starts), and their factory
// is started again then (the scheduler starts its own factory once every
// profile is built; informers asked of it later start here): a factory's
// Start starts only the informers not yet running, so each informer runs
// once, on the context of the first Start that found it. Whoever asks for
// an informer adds its handlers before it calls Start, and waits on its
// handlers' registrations (not on the informer alone) to know the state
// saw every object listed: another caller's Start may run the informer
// before the handlers are added.
type factories struct {
	kube informers.SharedInformerFactory
	// kubeWorkloads holds Kubernetes' own workload APIs (PodGroups,
	// CompositePodGroups), discovered like CRDs. It is not the scheduler's
	// factory: the scheduler waits for every informer of its own factory
	// to sync before it schedules anything, and an API the scheduler may
	// not list (a ClusterRole older than the API) must leave its pods
	// waiting, not every pod.
	kubeWorkloads informers.SharedInformerFactory
	multislice    multisliceinformers.SharedInformerFactory
	jobsets       jobsetinformers.SharedInformerFactory
	podGroups     spinformers.SharedInformerFactory
}

// newFactories makes the factories of c's clients; none starts until
// asked for an informer.
func newFactories(c Clients) factories {
	return factories{
		kube:          c.Informers,
		kubeWorkloads: informers.NewSharedInformerFactory(c.Client, 0),
		multislice:    newMultisliceInformers(c.Multislice, 0),
		jobsets:       newJobSetInformers(c.JobSets, 0),
		podGroups:     newPodGroupInformers(c.PodGroups, 0),
	}
}
