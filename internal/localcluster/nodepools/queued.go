package nodepools

import (
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// ProvisionedLabel marks the nodes the simulated queued provisioner
// (internal/localcluster/provisioner) creates; its value is the UID of the
// ProvisioningRequest they were created for. Applying a node pool file
// never updates or deletes such a node, even if it also carried
// ManagedLabel: its life is the request's.
const ProvisionedLabel = "localcluster.multislice-scheduler.io/provisioning-request-uid"

// Defaults of the queuedProvisioning block.
const (
	// defaultQueuedProvisioningDelay is how long a request waits before it
	// is provisioned, so that a demo shows Accepted before Provisioned.
	defaultQueuedProvisioningDelay = 5 * time.Second
	// defaultBookingTime is the cluster autoscaler's booking window: nodes
	// no pod has taken 10 minutes after Provisioned are removed.
	defaultBookingTime = 10 * time.Minute
)

// QueuedProvisioningSpec is the queuedProvisioning block of a node pool
// file: a simulated provider of the queued-provisioning.gke.io class,
// which creates a whole node pool for each ProvisioningRequest once the
// capacity of one zone allows.
type QueuedProvisioningSpec struct {
	// Delay between accepting a request and provisioning it, as a Go
	// duration (5s). Default 5s.
	Delay string `json:"delay,omitempty"`
	// BookingTime is how long provisioned nodes wait for a pod of the
	// request before they are removed (BookingExpired). Default 10m.
	BookingTime string `json:"bookingTime,omitempty"`
	// Machine is the shape of every node created.
	Machine MachineSpec `json:"machine"`
	// Zones the provisioner creates nodes in, each with its own capacity.
	// A request's nodes are all in one zone.
	Zones []ZoneSpec `json:"zones"`
}

// MachineSpec is the shape of a provisioned node.
type MachineSpec struct {
	// Type is the node.kubernetes.io/instance-type label, e.g. g2-standard-48.
	Type string `json:"type,omitempty"`
	// Accelerator is the gke-accelerator label, e.g. nvidia-l4.
	Accelerator string `json:"accelerator"`
	// GPUsPerNode is each node's nvidia.com/gpu capacity.
	GPUsPerNode int64 `json:"gpusPerNode"`
	// CPU, Memory and Pods are each node's capacity; the file's defaults,
	// then the built-in ones, when empty.
	CPU    string `json:"cpu,omitempty"`
	Memory string `json:"memory,omitempty"`
	Pods   string `json:"pods,omitempty"`
	// Taints in kubectl syntax, besides GKE's GPU taint
	// nvidia.com/gpu=present:NoSchedule, which every node gets.
	Taints []string `json:"taints,omitempty"`
}

// ZoneSpec is a zone's capacity for provisioned nodes.
type ZoneSpec struct {
	Name string `json:"name"`
	// MaxNodes is how many provisioned nodes the zone holds at once.
	MaxNodes int `json:"maxNodes"`
}

// QueuedProvisioning is a validated queuedProvisioning block.
type QueuedProvisioning struct {
	Delay       time.Duration
	BookingTime time.Duration
	Machine     Machine
	Zones       []Zone
}

// Machine is a validated node shape.
type Machine struct {
	// Type is the instance-type label value; empty for none.
	Type        string
	Accelerator string
	// Capacity holds cpu, memory, pods and nvidia.com/gpu; a node's
	// allocatable is the same.
	Capacity corev1.ResourceList
	// Taints are the configured taints followed by the GPU taint.
	Taints []corev1.Taint
}

// Zone is a validated zone.
type Zone struct {
	Name string
	// Region is derived from the name (us-central1-a → us-central1); empty
	// when the name has no region part.
	Region   string
	MaxNodes int
}

// expand validates the block. Errors name the field under
// queuedProvisioning.
func (s *QueuedProvisioningSpec) expand(d Defaults) (*QueuedProvisioning, error) {
	var errs []error
	fail := func(sub, format string, args ...any) {
		errs = append(errs, fmt.Errorf("queuedProvisioning.%s: %s", sub, fmt.Sprintf(format, args...)))
	}
	out := &QueuedProvisioning{}
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
	out.Delay = duration("delay", s.Delay, defaultQueuedProvisioningDelay, true)
	out.BookingTime = duration("bookingTime", s.BookingTime, defaultBookingTime, false)

	m := s.Machine
	out.Machine.Capacity = corev1.ResourceList{}
	quantity := func(sub, value, fallback, def string, res corev1.ResourceName) {
		if q, ok := positiveQuantity(fail, sub, firstNonEmpty(value, fallback, def)); ok {
			out.Machine.Capacity[res] = q
		}
	}
	quantity("machine.cpu", m.CPU, d.CPU, defaultCPU, corev1.ResourceCPU)
	quantity("machine.memory", m.Memory, d.Memory, defaultMemory, corev1.ResourceMemory)
	quantity("machine.pods", m.Pods, d.Pods, defaultPods, corev1.ResourcePods)
	wholePods(fail, "machine.pods", out.Machine.Capacity)
	if m.GPUsPerNode <= 0 {
		fail("machine.gpusPerNode", "must be positive, got %d (queued provisioning creates GPU nodes)", m.GPUsPerNode)
	} else {
		out.Machine.Capacity[wellknown.ResourceGPU] = *resource.NewQuantity(m.GPUsPerNode, resource.DecimalSI)
	}
	if m.Accelerator == "" {
		fail("machine.accelerator", "is required (e.g. nvidia-l4)")
	} else {
		for _, msg := range validation.IsValidLabelValue(m.Accelerator) {
			fail("machine.accelerator", "%q: %s", m.Accelerator, msg)
		}
	}
	out.Machine.Accelerator = m.Accelerator
	for _, msg := range validation.IsValidLabelValue(m.Type) {
		fail("machine.type", "%q: %s", m.Type, msg)
	}
	out.Machine.Type = m.Type
	out.Machine.Taints = parseTaints(fail, "machine.taints", m.Taints, wellknown.ResourceGPU, "every provisioned node gets it")

	if len(s.Zones) == 0 {
		fail("zones", "at least one zone is required")
	}
	seen := map[string]int{}
	for i, z := range s.Zones {
		field := fmt.Sprintf("zones[%d]", i)
		switch {
		case z.Name == "":
			fail(field+".name", "is required (e.g. us-central1-a)")
		case len(validation.IsValidLabelValue(z.Name)) > 0:
			fail(field+".name", "%q: %s", z.Name, validation.IsValidLabelValue(z.Name)[0])
		default:
			if prev, dup := seen[z.Name]; dup {
				fail(field+".name", "zone %q is also listed as zones[%d]", z.Name, prev)
			}
			seen[z.Name] = i
		}
		if z.MaxNodes <= 0 {
			fail(field+".maxNodes", "must be positive, got %d", z.MaxNodes)
		}
		region, _ := regionOf(z.Name)
		out.Zones = append(out.Zones, Zone{Name: z.Name, Region: region, MaxNodes: z.MaxNodes})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}
