package cli

import (
	"fmt"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// NotFoundError says that nothing of the name asked about exists.
type NotFoundError struct {
	// Kinds are the kinds looked for.
	Kinds     []string
	Namespace string
	Name      string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no %s named %q in namespace %s", strings.Join(e.Kinds, ", "), e.Name, e.Namespace)
}

// kindAliases maps what users type to kinds, as kubectl accepts them.
var kindAliases = map[string]string{
	"jobset": KindJobSet, "jobsets": KindJobSet, "js": KindJobSet,
	"job": KindJob, "jobs": KindJob,
	"podgroup": KindPodGroup, "podgroups": KindPodGroup, "pg": KindPodGroup,
	"compositepodgroup": KindCompositePodGroup, "compositepodgroups": KindCompositePodGroup, "cpg": KindCompositePodGroup,
	"pod": KindPod, "pods": KindPod, "po": KindPod,
	"workload": KindWorkload, "workloads": KindWorkload, "wl": KindWorkload,
	"provisioningrequest": KindProvisioningRequest, "provisioningrequests": KindProvisioningRequest, "provreq": KindProvisioningRequest,
}

// ResolveOrder is the order in which a bare name is looked up.
var ResolveOrder = []string{KindJobSet, KindJob, KindPodGroup, KindPod, KindWorkload}

// ParseTarget reads "kind/name" (kind as kubectl spells it, with its
// group optional: jobset, jobsets.jobset.x-k8s.io, pg, wl, ...) or a bare
// name (kind "").
func ParseTarget(arg string) (kind, name string, err error) {
	k, n, ok := strings.Cut(arg, "/")
	if !ok {
		if arg == "" {
			return "", "", fmt.Errorf("no name given")
		}
		return "", arg, nil
	}
	if n == "" || strings.Contains(n, "/") {
		return "", "", fmt.Errorf("%q: want KIND/NAME or NAME", arg)
	}
	short, _, _ := strings.Cut(strings.ToLower(k), ".")
	kind, known := kindAliases[short]
	if !known {
		return "", "", fmt.Errorf("%q: unknown kind %q (want jobset, job, podgroup, compositepodgroup, pod, workload or provisioningrequest)", arg, k)
	}
	return kind, n, nil
}

// Resolve finds the workload that kind/name in namespace ns stands for:
// the workload itself, the workload a pod (or a Job of a JobSet) is part
// of, or the owner of a Workload object; with kind "", the first of
// ResolveOrder's kinds that has such an object. note says how a name led
// to another workload.
func Resolve(c *Cluster, ns, kind, name string) (ref WorkloadRef, note string, err error) {
	kinds := ResolveOrder
	if kind != "" {
		kinds = []string{kind}
	}
	for _, k := range kinds {
		if ref, note, ok := c.resolveKind(ns, k, name); ok {
			return ref, note, nil
		}
	}
	return WorkloadRef{}, "", &NotFoundError{Kinds: kinds, Namespace: ns, Name: name}
}

func (c *Cluster) resolveKind(ns, kind, name string) (WorkloadRef, string, bool) {
	ref := WorkloadRef{Kind: kind, Namespace: ns, Name: name}
	switch kind {
	case KindWorkload:
		wl := find(c.Workloads, ns, name)
		if wl == nil {
			return ref, "", false
		}
		owner, _, ok := ownerOf(wl)
		if !ok {
			return ref, "", false
		}
		return owner, fmt.Sprintf("Workload %s/%s is the Workload object of %s", ns, name, owner), true
	case KindPod:
		pod := find(c.Pods, ns, name)
		if pod == nil {
			return ref, "", false
		}
		if w := c.WorkloadOf(pod); w != ref {
			return w, fmt.Sprintf("pod %s/%s is part of %s", ns, name, w), true
		}
		return ref, "", true
	case KindJob:
		job := find(c.Jobs, ns, name)
		if job != nil {
			if js := job.Labels[wellknown.JobSetNameLabel]; js != "" {
				w := WorkloadRef{Kind: KindJobSet, Namespace: ns, Name: js}
				return w, fmt.Sprintf("Job %s/%s is a slice of %s", ns, name, w), true
			}
			return ref, "", true
		}
	case KindJobSet:
		if find(c.JobSets, ns, name) != nil {
			return ref, "", true
		}
	case KindPodGroup:
		if find(c.PodGroups, ns, name) != nil {
			return ref, "", true
		}
	case KindProvisioningRequest:
		if find(c.ProvisioningRequests, ns, name) != nil {
			return ref, "", true
		}
	case KindCompositePodGroup:
		if find(c.CompositePodGroups, ns, name) != nil {
			return ref, "", true
		}
	}
	// The object may be gone (or its API not served) while its pods or
	// its Workload object are still there.
	if c.workloadObject(ref) != nil || len(c.podsOf(ref)) > 0 {
		return ref, "", true
	}
	return ref, "", false
}
