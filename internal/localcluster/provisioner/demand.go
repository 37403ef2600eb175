package provisioner

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Demand is what a request needs: nodes of the configured machine for each
// pod set, all in one of Zones.
type Demand struct {
	PodSets []PodSetDemand
	// Nodes is the total over the pod sets. Pod sets do not share nodes:
	// their node selectors may differ.
	Nodes int
	// Zones are the configured zones the request may use, in configuration
	// order: all of them unless a node selector names a zone or region.
	Zones []string
	// MaxRunDuration is parameters.maxRunDurationSeconds; zero when absent.
	MaxRunDuration time.Duration
}

// PodSetDemand is the nodes of one pod set.
type PodSetDemand struct {
	Template string
	Pods     int
	// PodsPerNode is how many of its pods one node runs, by their requests.
	PodsPerNode int
	Nodes       int
	// Pool is the gke-nodepool label of its nodes: what the template's node
	// selector asks for, or the name derived from the request.
	Pool string
	// Labels are the other labels its node selector asks for, to be copied
	// onto the nodes so that the pods qualify.
	Labels map[string]string
}

// Problem is why a request cannot be provisioned. Wait problems may go away
// (a PodTemplate not created yet); the others are final and fail the
// request.
type Problem struct {
	Reason  string
	Message string
	Wait    bool
}

func (p *Problem) Error() string { return p.Reason + ": " + p.Message }

func invalid(format string, args ...any) *Problem {
	return &Problem{Reason: ReasonInvalidRequest, Message: fmt.Sprintf(format, args...)}
}

func unsatisfiable(format string, args ...any) *Problem {
	return &Problem{Reason: ReasonNotSatisfiable, Message: fmt.Sprintf(format, args...)}
}

// TemplateLookup returns the PodTemplate of the request's namespace with
// that name, or false.
type TemplateLookup func(name string) (*corev1.PodTemplate, bool)

// ComputeDemand works out the nodes a request needs on the configured
// machine, or why it cannot have any. defaultPool is the gke-nodepool label
// of pod sets whose node selector names none.
func ComputeDemand(req *autoscalingv1.ProvisioningRequest, templates TemplateLookup, cfg *Config, defaultPool string) (Demand, *Problem) {
	var d Demand
	var p *Problem
	if d.MaxRunDuration, p = MaxRunDuration(req); p != nil {
		return Demand{}, p
	}
	if len(req.Spec.PodSets) == 0 {
		return Demand{}, invalid("spec.podSets: at least one pod set is required")
	}
	var missing []string
	zones := zoneNames(cfg.Zones)
	for i, ps := range req.Spec.PodSets {
		field := fmt.Sprintf("spec.podSets[%d]", i)
		if ps.Count < 1 {
			return Demand{}, invalid("%s.count: must be at least 1, got %d", field, ps.Count)
		}
		name := ps.PodTemplateRef.Name
		if name == "" {
			return Demand{}, invalid("%s.podTemplateRef.name: is required", field)
		}
		tmpl, ok := templates(name)
		if !ok {
			missing = append(missing, name)
			continue
		}
		desc := fmt.Sprintf("pod set %d (PodTemplate %s)", i, name)
		perNode, p := podsPerNode(workload.PodRequestList(&tmpl.Template.Spec), cfg.Machine.Capacity, desc)
		if p != nil {
			return Demand{}, p
		}
		pool, labels, allowed, p := placement(tmpl.Template.Spec.NodeSelector, cfg, desc)
		if p != nil {
			return Demand{}, p
		}
		if pool == "" {
			pool = defaultPool
		}
		zones = intersect(zones, allowed)
		pods := int(ps.Count)
		nodes := (pods + perNode - 1) / perNode
		d.PodSets = append(d.PodSets, PodSetDemand{Template: name, Pods: pods, PodsPerNode: perNode, Nodes: nodes, Pool: pool, Labels: labels})
		d.Nodes += nodes
	}
	if len(missing) > 0 {
		return Demand{}, &Problem{Reason: ReasonPodTemplateNotFound, Wait: true,
			Message: fmt.Sprintf("waiting for PodTemplate %s in namespace %s", strings.Join(missing, ", "), req.Namespace)}
	}
	if len(zones) == 0 {
		return Demand{}, unsatisfiable("the node selectors of the pod sets allow no single zone of %s", strings.Join(zoneNames(cfg.Zones), ", "))
	}
	d.Zones = zones
	return d, nil
}

// MaxRunDuration reads parameters.maxRunDurationSeconds: how long the
// nodes may live once provisioned; zero when the parameter is absent.
func MaxRunDuration(req *autoscalingv1.ProvisioningRequest) (time.Duration, *Problem) {
	v, ok := req.Spec.Parameters[wellknown.MaxRunDurationSecondsParameter]
	if !ok {
		return 0, nil
	}
	secs, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || secs <= 0 || secs > int64(math.MaxInt64/time.Second) {
		return 0, invalid("parameters.%s: %q is not a positive number of seconds", wellknown.MaxRunDurationSecondsParameter, v)
	}
	return time.Duration(secs) * time.Second, nil
}

// podsPerNode is how many pods with these requests one node of the given
// allocatable runs: the tightest resource decides, and every pod takes one
// of the node's pods.
func podsPerNode(requests, allocatable corev1.ResourceList, desc string) (int, *Problem) {
	fits := int64(-1)
	if pods, ok := allocatable[corev1.ResourcePods]; ok {
		fits = pods.Value()
	}
	for _, name := range slices.Sorted(maps.Keys(requests)) {
		want := requests[name]
		if want.Sign() <= 0 {
			continue
		}
		have, ok := allocatable[name]
		if !ok {
			return 0, unsatisfiable("%s requests %s %s, which the provisioned machine does not have", desc, name, want.String())
		}
		n := have.MilliValue() / want.MilliValue()
		if n == 0 {
			return 0, unsatisfiable("%s requests %s %s, more than a provisioned node's %s", desc, name, want.String(), have.String())
		}
		if fits < 0 || n < fits {
			fits = n
		}
	}
	if fits <= 0 {
		return 0, unsatisfiable("%s: a provisioned node runs no pods", desc)
	}
	return int(fits), nil
}

// placement reads a template's node selector: the pool it asks for, the
// labels to copy onto the nodes, and the configured zones it allows. Labels
// a provisioned node gets anyway (accelerator, machine type, OS) must agree
// with what the provisioner creates.
func placement(selector map[string]string, cfg *Config, desc string) (pool string, labels map[string]string, zones []string, p *Problem) {
	fixed := fixedLabels(cfg)
	zones = zoneNames(cfg.Zones)
	labels = map[string]string{}
	for _, key := range slices.Sorted(maps.Keys(selector)) {
		value := selector[key]
		switch key {
		case wellknown.NodePoolLabel:
			pool = value
		case wellknown.ZoneLabel:
			zones = filterZones(cfg.Zones, func(z nodepools.Zone) bool { return z.Name == value })
			if len(zones) == 0 {
				return "", nil, nil, unsatisfiable("%s selects zone %s; the provisioner's zones are %s", desc, value, strings.Join(zoneNames(cfg.Zones), ", "))
			}
		case corev1.LabelTopologyRegion:
			zones = filterZones(cfg.Zones, func(z nodepools.Zone) bool { return z.Region == value })
			if len(zones) == 0 {
				return "", nil, nil, unsatisfiable("%s selects region %s; the provisioner's zones are %s", desc, value, strings.Join(zoneNames(cfg.Zones), ", "))
			}
		case corev1.LabelHostname, nodepools.ProvisionedLabel, nodepools.ManagedLabel:
			return "", nil, nil, unsatisfiable("%s selects %s=%s, which no new node can have", desc, key, value)
		default:
			if want, ok := fixed[key]; ok {
				if want != value {
					return "", nil, nil, unsatisfiable("%s selects %s=%s, but provisioned nodes have %s=%s", desc, key, value, key, want)
				}
				continue
			}
			labels[key] = value
		}
	}
	return pool, labels, zones, nil
}

// fixedLabels are the labels every provisioned node has, whatever its
// request.
func fixedLabels(cfg *Config) map[string]string {
	l := map[string]string{
		wellknown.GPUAcceleratorLabel: cfg.Machine.Accelerator,
		corev1.LabelOSStable:          "linux",
		corev1.LabelArchStable:        "amd64",
	}
	if cfg.Machine.Type != "" {
		l[corev1.LabelInstanceTypeStable] = cfg.Machine.Type
	}
	return l
}

func zoneNames(zones []nodepools.Zone) []string {
	out := make([]string, 0, len(zones))
	for _, z := range zones {
		out = append(out, z.Name)
	}
	return out
}

func filterZones(zones []nodepools.Zone, keep func(nodepools.Zone) bool) []string {
	var out []string
	for _, z := range zones {
		if keep(z) {
			out = append(out, z.Name)
		}
	}
	return out
}

// intersect keeps the elements of a that b has, in a's order.
func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}
