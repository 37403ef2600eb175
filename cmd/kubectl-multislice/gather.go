package main

import (
	"context"
	"fmt"
	"io"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	schedclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
)

// Clients are the API clients the commands read with.
type Clients struct {
	Kube kubernetes.Interface
	// Multislice serves multislice.dev, autoscaling.x-k8s.io
	// (ProvisioningRequests) and cloud.google.com (ComputeClasses).
	Multislice multisliceclient.Interface
	JobSets    jobsetclient.Interface
	PodGroups  schedclient.Interface
}

// NewClients builds the clients of cfg. Custom resources speak JSON only.
func NewClients(cfg *rest.Config) (*Clients, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = 50, 100
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	crd := rest.CopyConfig(cfg)
	crd.ContentType, crd.AcceptContentTypes = runtime.ContentTypeJSON, runtime.ContentTypeJSON
	c := &Clients{Kube: kube}
	if c.Multislice, err = multisliceclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if c.JobSets, err = jobsetclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if c.PodGroups, err = schedclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	return c, nil
}

// need says what a command lists.
type need struct {
	// namespace limits the namespaced lists that need not be
	// cluster-wide (events, workload objects, provisioning requests);
	// "" lists every namespace.
	namespace string
	nodes     bool
	pods      bool
	events    bool
	owners    bool // JobSets, Jobs, PodGroups
	queues    bool // ClusterQueues, LocalQueues, Workloads
	checks    bool // ResourceFlavors, AdmissionChecks, ProvisioningRequests
	classes   bool // ComputeClasses
}

// gather lists what n says into a cli.Cluster. An API that is not served
// (its list is NotFound) leaves its list empty; one the user may not list
// is said on warn and left empty.
func gather(ctx context.Context, c *Clients, n need, now time.Time, warn io.Writer) (*cli.Cluster, error) {
	out := &cli.Cluster{Now: now}
	all := metav1.NamespaceAll
	opts := metav1.ListOptions{}
	optional := func(what string, err error) error {
		switch {
		case err == nil, apierrors.IsNotFound(err):
			return nil
		case apierrors.IsForbidden(err):
			fmt.Fprintf(warn, "warning: cannot list %s (%v); going on without them\n", what, apierrors.ReasonForError(err))
			return nil
		}
		return fmt.Errorf("listing %s: %w", what, err)
	}
	if n.nodes {
		list, err := c.Kube.CoreV1().Nodes().List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("listing nodes: %w", err)
		}
		out.Nodes = ptrs(list.Items)
	}
	if n.pods {
		list, err := c.Kube.CoreV1().Pods(all).List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("listing pods: %w", err)
		}
		out.Pods = ptrs(list.Items)
	}
	if n.events {
		list, err := c.Kube.CoreV1().Events(n.namespace).List(ctx, opts)
		if err := optional("events", err); err != nil {
			return nil, err
		}
		if list != nil {
			out.Events = ptrs(list.Items)
		}
	}
	if n.owners {
		if list, err := c.JobSets.JobsetV1alpha2().JobSets(all).List(ctx, opts); err == nil {
			out.JobSets = ptrs(list.Items)
		} else if err := optional("jobsets", err); err != nil {
			return nil, err
		}
		if list, err := c.Kube.BatchV1().Jobs(all).List(ctx, opts); err == nil {
			out.Jobs = ptrs(list.Items)
		} else if err := optional("jobs", err); err != nil {
			return nil, err
		}
		if list, err := c.PodGroups.SchedulingV1alpha1().PodGroups(all).List(ctx, opts); err == nil {
			out.PodGroups = ptrs(list.Items)
		} else if err := optional("podgroups", err); err != nil {
			return nil, err
		}
	}
	if n.queues {
		api := c.Multislice.MultisliceV1alpha1()
		if list, err := api.ClusterQueues().List(ctx, opts); err == nil {
			out.ClusterQueues = ptrs(list.Items)
		} else if err := optional("clusterqueues", err); err != nil {
			return nil, err
		}
		if list, err := api.LocalQueues(all).List(ctx, opts); err == nil {
			out.LocalQueues = ptrs(list.Items)
		} else if err := optional("localqueues", err); err != nil {
			return nil, err
		}
		if list, err := api.Workloads(all).List(ctx, opts); err == nil {
			out.Workloads = ptrs(list.Items)
		} else if err := optional("workloads", err); err != nil {
			return nil, err
		}
	}
	if n.checks {
		api := c.Multislice.MultisliceV1alpha1()
		if list, err := api.ResourceFlavors().List(ctx, opts); err == nil {
			out.ResourceFlavors = ptrs(list.Items)
		} else if err := optional("resourceflavors", err); err != nil {
			return nil, err
		}
		if list, err := api.AdmissionChecks().List(ctx, opts); err == nil {
			out.AdmissionChecks = ptrs(list.Items)
		} else if err := optional("admissionchecks", err); err != nil {
			return nil, err
		}
		if list, err := c.Multislice.AutoscalingV1().ProvisioningRequests(n.namespace).List(ctx, opts); err == nil {
			out.ProvisioningRequests = ptrs(list.Items)
		} else if err := optional("provisioningrequests", err); err != nil {
			return nil, err
		}
	}
	if n.classes {
		list, err := c.Multislice.CloudV1().ComputeClasses().List(ctx, opts)
		switch {
		case err == nil:
			out.ComputeClasses, out.ComputeClassesServed = ptrs(list.Items), true
		case apierrors.IsNotFound(err):
			// GKE's API is not served: flex-start nodes end after 7 days,
			// none is recycled.
		default:
			if err := optional("computeclasses", err); err != nil {
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
