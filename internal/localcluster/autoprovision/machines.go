package autoprovision

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Option is a way to provision nodes for a group: one priority of its
// class on a configured machine type, in the zones whose capacity of that
// kind the group may use.
type Option struct {
	Priority int
	Kind     computeclass.Capacity
	Machine  *nodepools.AutoMachine
	// PerNode is how many of the group's pods a node runs.
	PerNode int
	// Zones are the capacities of the kind and machine type in the zones
	// the group's node selector allows, in configuration order.
	Zones []nodepools.ZoneCapacity
}

// Nodes is how many nodes of the option the group needs.
func (o Option) Nodes(g *Group) int { return (g.Size + o.PerNode - 1) / o.PerNode }

// DescribePriority renders a priority for people: its index, kind and
// machine ("priority 1 (flex-start g2-standard-24)").
func DescribePriority(i int, p *cloudv1.Priority) string {
	var what []string
	switch {
	case p.MachineType != "":
		what = append(what, p.MachineType)
	case p.MachineFamily != "":
		what = append(what, p.MachineFamily+" family")
	}
	if p.GPU != nil {
		what = append(what, fmt.Sprintf("%d × %s", p.GPU.Count, p.GPU.Type))
	}
	if p.TPU != nil {
		what = append(what, p.TPU.Type+" "+p.TPU.Topology)
	}
	return fmt.Sprintf("priority %d (%s %s)", i, computeclass.PriorityCapacity(p), strings.Join(what, ", "))
}

// OptionsFor are the ways to provision for a group, in the order of its
// class's priorities, and why each other priority cannot serve it (one
// line each).
func OptionsFor(class *cloudv1.ComputeClass, g *Group, cfg *Config) ([]Option, []string) {
	var out []Option
	var why []string
	for i := range class.Spec.Priorities {
		p := &class.Spec.Priorities[i]
		o, reason := option(i, p, g, cfg)
		if reason != "" {
			why = append(why, DescribePriority(i, p)+": "+reason)
			continue
		}
		out = append(out, o)
	}
	return out, why
}

func option(i int, p *cloudv1.Priority, g *Group, cfg *Config) (Option, string) {
	kind := computeclass.PriorityCapacity(p)
	if want := g.Selector[wellknown.SpotLabel]; want == "true" && kind != computeclass.Spot {
		return Option{}, "the pods select spot nodes"
	}
	if want := g.Selector[wellknown.FlexStartLabel]; want == "true" && kind != computeclass.FlexStart {
		return Option{}, "the pods select flex-start nodes"
	}
	if p.TPU != nil {
		return Option{}, "TPU priorities are not simulated"
	}
	capacity := capacityOf(cfg, kind)
	if capacity == nil {
		return Option{}, fmt.Sprintf("no %s capacity is configured", kind)
	}
	var reasons []string
	for m := range cfg.Machines {
		machine := &cfg.Machines[m]
		if reason := machineMismatch(p, g, machine); reason != "" {
			if p.MachineType == "" || p.MachineType == machine.Type {
				reasons = append(reasons, reason)
			}
			continue
		}
		perNode, reason := podsPerNode(g.Requests, machine.Template.Capacity)
		if reason != "" {
			reasons = append(reasons, fmt.Sprintf("a pod of %s %s", g.Ref, reason+" of "+machine.Type))
			continue
		}
		var zones []nodepools.ZoneCapacity
		for _, z := range capacity.Zones {
			if z.MachineType == machine.Type && zoneAllowed(g.Selector, z) {
				zones = append(zones, z)
			}
		}
		if len(zones) == 0 {
			reasons = append(reasons, fmt.Sprintf("no %s capacity of %s is configured in a zone the pods allow", kind, machine.Type))
			continue
		}
		return Option{Priority: i, Kind: kind, Machine: machine, PerNode: perNode, Zones: zones}, ""
	}
	if len(reasons) == 0 {
		if p.MachineType != "" {
			return Option{}, fmt.Sprintf("machine type %s is not among autoProvisioning.machines", p.MachineType)
		}
		return Option{}, "no machine of autoProvisioning.machines fits it"
	}
	return Option{}, strings.Join(reasons, "; ")
}

// machineMismatch says why a machine cannot serve a priority for a group;
// "" when it can.
func machineMismatch(p *cloudv1.Priority, g *Group, m *nodepools.AutoMachine) string {
	labels := m.Template.Labels
	switch {
	case p.MachineType != "" && p.MachineType != m.Type:
		return fmt.Sprintf("the priority asks for %s", p.MachineType)
	case p.MachineFamily != "" && computeclass.MachineFamily(m.Type) != p.MachineFamily:
		return fmt.Sprintf("%s is not of machine family %s", m.Type, p.MachineFamily)
	}
	if p.GPU != nil {
		gpus := m.Template.Capacity[wellknown.ResourceGPU]
		if labels[wellknown.GPUAcceleratorLabel] != p.GPU.Type || gpus.Value() != int64(p.GPU.Count) {
			return fmt.Sprintf("%s has not %d × %s per node", m.Type, p.GPU.Count, p.GPU.Type)
		}
	}
	if p.MinCores != nil {
		cpu := m.Template.Capacity[corev1.ResourceCPU]
		if cpu.Value() < int64(*p.MinCores) {
			return fmt.Sprintf("%s has fewer than %d cores", m.Type, *p.MinCores)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(g.Selector)) {
		want, have := g.Selector[key], ""
		switch key {
		case corev1.LabelInstanceTypeStable, wellknown.MachineFamilyLabel, wellknown.GPUAcceleratorLabel, corev1.LabelOSStable, corev1.LabelArchStable:
			have = labels[key]
		default:
			continue
		}
		if want != have {
			return fmt.Sprintf("the pods select %s=%s; %s has %q", key, want, m.Type, have)
		}
	}
	return ""
}

// zoneAllowed reports whether a node selector allows a zone.
func zoneAllowed(selector map[string]string, z nodepools.ZoneCapacity) bool {
	if zone, ok := selector[wellknown.ZoneLabel]; ok && zone != z.Zone {
		return false
	}
	if region, ok := selector[corev1.LabelTopologyRegion]; ok && region != z.Region {
		return false
	}
	return true
}

// podsPerNode is how many pods with these requests one node of the given
// allocatable runs: the tightest resource decides, and every pod takes one
// of the node's pods. The reason says why none fits.
func podsPerNode(requests, allocatable corev1.ResourceList) (int, string) {
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
			return 0, fmt.Sprintf("requests %s %s, which is not a resource", name, want.String())
		}
		n := have.MilliValue() / want.MilliValue()
		if n == 0 {
			return 0, fmt.Sprintf("requests %s %s, more than the %s", name, want.String(), have.String())
		}
		if fits < 0 || n < fits {
			fits = n
		}
	}
	if fits <= 0 {
		return 0, "fits no pod on a node"
	}
	return int(fits), ""
}

// priorityOf reads a node's PriorityAnnotation; -1 when absent.
func priorityOf(n *corev1.Node) int {
	i, err := strconv.Atoi(n.Annotations[PriorityAnnotation])
	if err != nil {
		return -1
	}
	return i
}
