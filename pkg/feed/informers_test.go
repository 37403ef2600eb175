package feed

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/client-go/informers"
	k8sfake "k8s.io/client-go/kubernetes/fake"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetfake "sigs.k8s.io/jobset/client-go/clientset/versioned/fake"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"
	spfake "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/fake"
	spinformers "sigs.k8s.io/scheduler-plugins/pkg/generated/informers/externalversions"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multislicefake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// madeFactories counts the informer factories the runtime makes, by
// group, and keeps the last one of each.
type madeFactories struct {
	mu         sync.Mutex
	count      map[string]int
	multislice multisliceinformers.SharedInformerFactory
}

func (m *madeFactories) made(group string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.count[group]++
}

func (m *madeFactories) counts() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]int{}
	for g, n := range m.count {
		out[g] = n
	}
	return out
}

// countFactories makes the runtime's factory constructors count into the
// returned record until the test ends.
func countFactories(t *testing.T) *madeFactories {
	m := &madeFactories{count: map[string]int{}}
	ms, js, pg := newMultisliceInformers, newJobSetInformers, newPodGroupInformers
	t.Cleanup(func() { newMultisliceInformers, newJobSetInformers, newPodGroupInformers = ms, js, pg })
	newMultisliceInformers = func(c multisliceclient.Interface, resync time.Duration) multisliceinformers.SharedInformerFactory {
		m.made("multislice")
		f := ms(c, resync)
		m.mu.Lock()
		m.multislice = f
		m.mu.Unlock()
		return f
	}
	newJobSetInformers = func(c jobsetclient.Interface, resync time.Duration) jobsetinformers.SharedInformerFactory {
		m.made("jobset")
		return js(c, resync)
	}
	newPodGroupInformers = func(c spclient.Interface, resync time.Duration) spinformers.SharedInformerFactory {
		m.made("scheduler-plugins")
		return pg(c, resync)
	}
	return m
}

// withoutWatchList makes informers list, then watch, until the test ends:
// scheduler-plugins' fake clientset cannot stream a watch's initial list.
func withoutWatchList(t *testing.T) {
	prev := clientfeatures.FeatureGates()
	clientfeatures.ReplaceFeatureGates(noWatchList{prev})
	t.Cleanup(func() { clientfeatures.ReplaceFeatureGates(prev) })
}

type noWatchList struct{ clientfeatures.Gates }

func (g noWatchList) Enabled(f clientfeatures.Feature) bool {
	return f != clientfeatures.WatchListClient && g.Gates.Enabled(f)
}

// startedTypes lists the informers a factory started, by object type.
func startedTypes(waitForCacheSync func(<-chan struct{}) map[reflect.Type]bool) map[reflect.Type]bool {
	stop := make(chan struct{})
	close(stop)
	return waitForCacheSync(stop)
}

// Every API the runtime reads (all served here) is listed and watched
// through one informer factory per API group, made once: the queue feed,
// the check feed, the ComputeClass watch and the consumed-request feed all
// share the multislice.dev clientset's factory, which the controllers read
// too (MultisliceInformers, as pkg/app gives it to the provisioning
// controller and the status writer). Kubernetes' PodGroups and
// CompositePodGroups come from one factory of the feed's, never the
// scheduler's own: the scheduler waits for every informer of its factory
// to sync before it schedules anything, so one it may not list would stop
// every pod. Each API counts as served only once the state saw the
// objects that were there before.
func TestOneInformerFactoryPerAPIGroup(t *testing.T) {
	withoutWatchList(t)
	made := countFactories(t)
	kube := k8sfake.NewClientset()
	kube.Resources = []*metav1.APIResourceList{
		{GroupVersion: multislicev1alpha1.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{{Name: "clusterqueues"}}},
		{GroupVersion: jobsetv1alpha2.GroupVersion.String(), APIResources: []metav1.APIResource{{Name: "jobsets"}}},
		{GroupVersion: schedv1alpha1.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{{Name: "podgroups"}}},
		{GroupVersion: schedv1beta1.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{{Name: "podgroups"}}},
		{GroupVersion: schedv1alpha3.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{{Name: "compositepodgroups"}}},
		{GroupVersion: autoscalingv1.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{{Name: "provisioningrequests"}}},
		{GroupVersion: cloudv1.SchemeGroupVersion.String(), APIResources: []metav1.APIResource{{Name: "computeclasses"}}},
	}
	group := builders.PodGroup("ns", "early", 2).Obj()
	kubeInformers := informers.NewSharedInformerFactory(kube, 0)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	st := state.New(state.Options{})
	f := New(Config{
		Clients: Clients{
			Client:     kube,
			Informers:  kubeInformers,
			Multislice: multislicefake.NewClientset(),
			JobSets:    jobsetfake.NewClientset(),
			PodGroups:  spfake.NewClientset(group),
		},
		State: st,
		Act:   func(context.Context, state.Actions) {},
	})
	f.hooks.ProvisioningServed = func(ctx context.Context) {
		// As pkg/app starts the provisioning controller: on the feed's
		// factory, asking for an informer the feed has already.
		f.MultisliceInformers().Autoscaling().V1().ProvisioningRequests().Informer()
		f.MultisliceInformers().Start(ctx.Done())
	}
	if err := f.Start(ctx); err != nil {
		t.Fatal(err)
	}
	sources := []workload.Source{state.QueueAPI, workload.SourceJobSet, workload.SourcePodGroup, workload.SourceInTreePodGroup, workload.SourceCompositePodGroup, workload.SourceProvisioningRequest}
	want := map[string]int{"multislice": 1, "jobset": 1, "scheduler-plugins": 1}
	wantTypes := []any{&multislicev1alpha1.ResourceFlavor{}, &multislicev1alpha1.ClusterQueue{}, &multislicev1alpha1.LocalQueue{},
		&multislicev1alpha1.Workload{}, &multislicev1alpha1.AdmissionCheck{}, &multislicev1alpha1.ProvisioningRequestConfig{},
		&cloudv1.ComputeClass{}, &autoscalingv1.ProvisioningRequest{}}
	err := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		for g, n := range made.counts() {
			if n > want[g] {
				t.Fatalf("the runtime made %d informer factories of %s, want %d", n, g, want[g])
			}
		}
		for _, src := range sources {
			if st.Reports().API(src) != state.APIServed {
				return false, nil
			}
		}
		made.mu.Lock()
		f := made.multislice
		made.mu.Unlock()
		if f == nil {
			return false, nil
		}
		started := startedTypes(f.WaitForCacheSync)
		for _, obj := range wantTypes {
			if !started[reflect.TypeOf(obj)] {
				return false, nil
			}
		}
		return true, nil
	})
	if err != nil {
		t.Fatalf("not every API was found served and watched: %v (factories made %v)", err, made.counts())
	}
	if got := made.counts(); !reflect.DeepEqual(got, want) {
		t.Errorf("informer factories made = %v, want %v", got, want)
	}
	ours := startedTypes(f.informers.kubeWorkloads.WaitForCacheSync)
	for _, obj := range []any{&schedv1beta1.PodGroup{}, &schedv1alpha3.CompositePodGroup{}} {
		if startedTypes(kubeInformers.WaitForCacheSync)[reflect.TypeOf(obj)] || !ours[reflect.TypeOf(obj)] {
			t.Errorf("%T is watched through the scheduler's own informer factory, or not through the feed's", obj)
		}
	}
	if _, known := st.Created(workload.Key{Source: workload.SourcePodGroup, Namespace: "ns", Name: "early"}); !known {
		t.Errorf("the PodGroup API counted as served before the state saw the PodGroup created before it")
	}
}
