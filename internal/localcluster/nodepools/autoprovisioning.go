package nodepools

import (
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// AutoProvisionedLabel marks the nodes the simulated node
// auto-provisioning (internal/localcluster/autoprovision) creates for
// ComputeClasses. Applying a node pool file never updates or deletes such
// a node: they carry no ManagedLabel.
const AutoProvisionedLabel = "localcluster.multislice-scheduler.io/auto-provisioned"

// Defaults of the autoProvisioning block.
const (
	defaultSpotDelay      = 5 * time.Second
	defaultOnDemandDelay  = 5 * time.Second
	defaultFlexStartDelay = 10 * time.Second
	// defaultFlexStartInterval is how often capacity for one more
	// flex-start node of a machine type appears in a zone.
	defaultFlexStartInterval = 5 * time.Second
	// defaultDrainTime is how long a recycled node stays cordoned, its
	// pods running, before it is removed.
	defaultDrainTime = 2 * time.Minute
	// defaultScaleDownUnneededTime is the cluster autoscaler's
	// scale-down-unneeded-time.
	defaultScaleDownUnneededTime = 10 * time.Minute
)

// AutoProvisioningSpec is the autoProvisioning block of a node pool file:
// a simulated GKE node auto-provisioning for ComputeClasses
// (cloud.google.com/v1), which creates node pools for the pods that select
// a class, trying the class's priorities in order against the capacity
// configured here.
type AutoProvisioningSpec struct {
	// Machines are the machine types it can create, each with its shape.
	Machines []AutoMachineSpec `json:"machines"`
	// Spot, FlexStart and OnDemand are the capacity of each kind of VM; a
	// kind that is left out has none, and its priorities never succeed.
	Spot      *CapacitySpec `json:"spot,omitempty"`
	FlexStart *CapacitySpec `json:"flexStart,omitempty"`
	OnDemand  *CapacitySpec `json:"onDemand,omitempty"`
	// DrainTime is how long a recycled flex-start node stays cordoned, its
	// pods running, once its replacement is Ready, before it is removed
	// (sooner if its end of life comes first). Default 2m.
	DrainTime string `json:"drainTime,omitempty"`
	// ScaleDownUnneededTime is how long a node runs no pod before it is
	// removed. Default 10m, as the cluster autoscaler.
	ScaleDownUnneededTime string `json:"scaleDownUnneededTime,omitempty"`
}

// AutoMachineSpec is a machine type node auto-provisioning can create.
type AutoMachineSpec struct {
	// Type is the node.kubernetes.io/instance-type label, e.g.
	// g2-standard-24; its family (what comes before the first dash) is
	// the cloud.google.com/machine-family label.
	Type string `json:"type"`
	// CPU, Memory and Pods are each node's capacity; the file's defaults,
	// then the built-in ones, when empty.
	CPU    string `json:"cpu,omitempty"`
	Memory string `json:"memory,omitempty"`
	Pods   string `json:"pods,omitempty"`
	// GPU gives each node GPUs (and GKE's GPU taint).
	GPU *GPU `json:"gpu,omitempty"`
	// Taints in kubectl syntax, besides the GPU taint.
	Taints []string `json:"taints,omitempty"`
}

// CapacitySpec is the capacity of one kind of VM.
type CapacitySpec struct {
	// Delay between deciding on a node and creating it, as a Go duration.
	// Default 5s for spot and on-demand, 10s for flex-start (its time in
	// the queue).
	Delay string `json:"delay,omitempty"`
	// Interval (flex-start only) is how often capacity for one more node
	// of a machine type appears in a zone: flex-start nodes come one by
	// one. Default 5s.
	Interval string `json:"interval,omitempty"`
	// Capacity is how many nodes of each machine type each zone holds at
	// once. Lowering a spot capacity while the cluster runs preempts the
	// spot nodes beyond it.
	Capacity []ZoneCapacitySpec `json:"capacity"`
}

// ZoneCapacitySpec is how many nodes of a machine type a zone holds.
type ZoneCapacitySpec struct {
	MachineType string `json:"machineType"`
	Zone        string `json:"zone"`
	// MaxNodes may be 0: none now (spot capacity taken back).
	MaxNodes int `json:"maxNodes"`
}

// AutoProvisioning is a validated autoProvisioning block.
type AutoProvisioning struct {
	Machines []AutoMachine
	// Spot, FlexStart and OnDemand are nil for a kind with no capacity.
	Spot, FlexStart, OnDemand *Capacity
	DrainTime                 time.Duration
	ScaleDownUnneededTime     time.Duration
}

// AutoMachine is a validated machine type. Its Template holds the labels
// (instance type, machine family, accelerator, OS), taints and capacity
// every node of the type has; Template.Name and Template.Nodes are unset.
type AutoMachine struct {
	Type     string
	Template ExpandedPool
}

// Capacity is a validated capacity of one kind of VM.
type Capacity struct {
	Delay time.Duration
	// Interval is zero but for flex-start.
	Interval time.Duration
	Zones    []ZoneCapacity
}

// ZoneCapacity is a validated zone capacity.
type ZoneCapacity struct {
	MachineType string
	Zone        string
	// Region is derived from the zone (us-central1-a → us-central1);
	// empty when it has no region part.
	Region   string
	MaxNodes int
}

// Machine returns the machine of a type, or nil.
func (a *AutoProvisioning) Machine(machineType string) *AutoMachine {
	for i := range a.Machines {
		if a.Machines[i].Type == machineType {
			return &a.Machines[i]
		}
	}
	return nil
}

// expand validates the block. Errors name the field under
// autoProvisioning.
func (s *AutoProvisioningSpec) expand(d Defaults) (*AutoProvisioning, error) {
	var errs []error
	fail := func(sub, format string, args ...any) {
		errs = append(errs, fmt.Errorf("autoProvisioning.%s: %s", sub, fmt.Sprintf(format, args...)))
	}
	duration := func(sub, value string, def time.Duration, allowZero bool) time.Duration {
		if value == "" {
			return def
		}
		v, err := time.ParseDuration(value)
		switch {
		case err != nil:
			fail(sub, "%q is not a duration (e.g. 5s, 10m)", value)
		case v < 0 || (v == 0 && !allowZero):
			fail(sub, "must be positive, got %s", value)
		}
		return v
	}
	out := &AutoProvisioning{
		DrainTime:             duration("drainTime", s.DrainTime, defaultDrainTime, false),
		ScaleDownUnneededTime: duration("scaleDownUnneededTime", s.ScaleDownUnneededTime, defaultScaleDownUnneededTime, false),
	}

	if len(s.Machines) == 0 {
		fail("machines", "at least one machine type is required")
	}
	machines := map[string]int{}
	for i, m := range s.Machines {
		field := fmt.Sprintf("machines[%d]", i)
		sub := func(name string) string { return field + "." + name }
		mfail := func(name, format string, args ...any) { fail(sub(name), format, args...) }
		switch {
		case m.Type == "":
			mfail("type", "is required (e.g. g2-standard-24)")
		case len(validation.IsValidLabelValue(m.Type)) > 0:
			mfail("type", "%q: %s", m.Type, validation.IsValidLabelValue(m.Type)[0])
		default:
			if prev, dup := machines[m.Type]; dup {
				mfail("type", "machine type %q is also machines[%d]", m.Type, prev)
			}
			machines[m.Type] = i
		}
		tmpl := ExpandedPool{Capacity: corev1.ResourceList{}, Labels: map[string]string{
			corev1.LabelInstanceTypeStable: m.Type,
			wellknown.MachineFamilyLabel:   computeclass.MachineFamily(m.Type),
			corev1.LabelOSStable:           "linux",
			corev1.LabelArchStable:         "amd64",
		}}
		quantity := func(name, value, fallback, def string, res corev1.ResourceName) {
			if q, ok := positiveQuantity(mfail, name, firstNonEmpty(value, fallback, def)); ok {
				tmpl.Capacity[res] = q
			}
		}
		quantity("cpu", m.CPU, d.CPU, defaultCPU, corev1.ResourceCPU)
		quantity("memory", m.Memory, d.Memory, defaultMemory, corev1.ResourceMemory)
		quantity("pods", m.Pods, d.Pods, defaultPods, corev1.ResourcePods)
		wholePods(mfail, "pods", tmpl.Capacity)
		var accelerator corev1.ResourceName
		if g := m.GPU; g != nil {
			if g.Model == "" {
				mfail("gpu.model", "is required (e.g. nvidia-l4)")
			} else {
				for _, msg := range validation.IsValidLabelValue(g.Model) {
					mfail("gpu.model", "%q: %s", g.Model, msg)
				}
			}
			if g.PerNode <= 0 {
				mfail("gpu.perNode", "must be positive, got %d", g.PerNode)
			}
			tmpl.Labels[wellknown.GPUAcceleratorLabel] = g.Model
			tmpl.Capacity[wellknown.ResourceGPU] = *resource.NewQuantity(g.PerNode, resource.DecimalSI)
			accelerator = wellknown.ResourceGPU
		}
		tmpl.Taints = parseTaints(mfail, "taints", m.Taints, accelerator, "every node of a GPU machine gets it")
		out.Machines = append(out.Machines, AutoMachine{Type: m.Type, Template: tmpl})
	}

	total := 0
	capacity := func(name string, c *CapacitySpec, def time.Duration, flex bool) *Capacity {
		if c == nil {
			return nil
		}
		out := &Capacity{Delay: duration(name+".delay", c.Delay, def, true)}
		if flex {
			out.Interval = duration(name+".interval", c.Interval, defaultFlexStartInterval, false)
		} else if c.Interval != "" {
			fail(name+".interval", "only flex-start capacity appears at an interval; spot and on-demand nodes are created together")
		}
		seen := map[[2]string]int{}
		for i, z := range c.Capacity {
			field := fmt.Sprintf("%s.capacity[%d]", name, i)
			if z.MachineType == "" {
				fail(field+".machineType", "is required")
			} else if _, ok := machines[z.MachineType]; !ok {
				fail(field+".machineType", "%q is not one of autoProvisioning.machines", z.MachineType)
			}
			switch {
			case z.Zone == "":
				fail(field+".zone", "is required (e.g. us-central1-a)")
			case len(validation.IsValidLabelValue(z.Zone)) > 0:
				fail(field+".zone", "%q: %s", z.Zone, validation.IsValidLabelValue(z.Zone)[0])
			default:
				key := [2]string{z.MachineType, z.Zone}
				if prev, dup := seen[key]; dup {
					fail(field+".zone", "%s in %s is also %s.capacity[%d]", z.MachineType, z.Zone, name, prev)
				}
				seen[key] = i
			}
			switch {
			case z.MaxNodes < 0:
				fail(field+".maxNodes", "must not be negative, got %d", z.MaxNodes)
			case z.MaxNodes > maxNodes:
				fail(field+".maxNodes", "must be at most %d, got %d", maxNodes, z.MaxNodes)
			default:
				total += z.MaxNodes
			}
			region, _ := regionOf(z.Zone)
			out.Zones = append(out.Zones, ZoneCapacity{MachineType: z.MachineType, Zone: z.Zone, Region: region, MaxNodes: z.MaxNodes})
		}
		return out
	}
	out.Spot = capacity("spot", s.Spot, defaultSpotDelay, false)
	out.FlexStart = capacity("flexStart", s.FlexStart, defaultFlexStartDelay, true)
	out.OnDemand = capacity("onDemand", s.OnDemand, defaultOnDemandDelay, false)
	if total > maxNodes {
		fail("machines", "the capacities add up to %d nodes, more than the local cluster runs (%d)", total, maxNodes)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}
