package app

import (
	"context"

	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
)

// Scheduler is what our runtime is built from: one scheduler's client,
// configuration, informer factory and event recorders (one per profile),
// its profiles, and whether it runs leader election.
type Scheduler struct {
	Client         kubernetes.Interface
	KubeConfig     *rest.Config
	Informers      informers.SharedInformerFactory
	Recorder       func(profile string) events.EventRecorder
	Profiles       []schedulerconfig.KubeSchedulerProfile
	LeaderElection bool
}

// NewRuntime builds our runtime (state, informers, controllers) for s,
// from the settings of its profiles, its events recorded as the profile
// the settings came from: Setup builds it so, and the scheduler_perf
// benchmarks, whose harness builds the scheduler itself, through this
// same function. With leader election on, its writers wait until Lead.
func NewRuntime(ctx context.Context, s Scheduler) (*feed.Runtime, error) {
	set, owner, err := Settings(s.Profiles)
	if err != nil {
		return nil, err
	}
	cluster := feed.Cluster{Client: s.Client, KubeConfig: s.KubeConfig, Informers: s.Informers, Recorder: s.Recorder(owner)}
	crd := jsonConfig(s.KubeConfig)
	if cluster.Multislice, err = multisliceclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if cluster.JobSets, err = jobsetclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if cluster.PodGroups, err = spclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	return feed.New(ctx, feed.Config{Cluster: cluster, Settings: set, AwaitLeadership: s.LeaderElection})
}

// jsonConfig is cfg speaking JSON: custom resources speak nothing else,
// and the scheduler's own config asks for protobuf (reads would fall back
// to JSON, writes would not).
func jsonConfig(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.ContentType = apiruntime.ContentTypeJSON
	cfg.AcceptContentTypes = apiruntime.ContentTypeJSON
	return cfg
}
