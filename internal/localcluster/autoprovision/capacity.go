package autoprovision

import (
	"fmt"
	"sort"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
)

// capKey is a kind of capacity of a machine type in a zone.
type capKey struct {
	kind          computeclass.Capacity
	machine, zone string
}

// Usage counts, per kind, machine type and zone, the nodes there are
// (not being deleted) and those queued or about to be created.
type Usage struct {
	Nodes  map[capKey]int
	Queued map[capKey]int
}

// NewUsage returns an empty count.
func NewUsage() Usage { return Usage{Nodes: map[capKey]int{}, Queued: map[capKey]int{}} }

// Free is how many more nodes of kind the zone capacity z holds, queued
// ones counted as there.
func (u Usage) Free(kind computeclass.Capacity, z nodepools.ZoneCapacity) int {
	k := capKey{kind, z.MachineType, z.Zone}
	return z.MaxNodes - u.Nodes[k] - u.Queued[k]
}

// ChooseZone picks the zone of an option for n nodes of one node pool.
// Spot and on-demand need a zone with room for all n now: the first in
// configuration order. Flex-start nodes are queued until capacity
// appears: any zone that can hold n at all will do, the one with the most
// room first. Otherwise why says, zone by zone, what there is.
func ChooseZone(o Option, n int, u Usage) (zone nodepools.ZoneCapacity, ok bool, why string) {
	var have []string
	for _, z := range o.Zones {
		have = append(have, fmt.Sprintf("%s has %d of %d free", z.Zone, max(u.Free(o.Kind, z), 0), z.MaxNodes))
	}
	if o.Kind != computeclass.FlexStart {
		for _, z := range o.Zones {
			if u.Free(o.Kind, z) >= n {
				return z, true, ""
			}
		}
		return nodepools.ZoneCapacity{}, false, fmt.Sprintf("no %s capacity for %s of %s in one zone (%s)", o.Kind, plural(n, "node"), o.Machine.Type, strings.Join(have, ", "))
	}
	var fit []nodepools.ZoneCapacity
	for _, z := range o.Zones {
		if z.MaxNodes >= n {
			fit = append(fit, z)
		}
	}
	if len(fit) == 0 {
		return nodepools.ZoneCapacity{}, false, fmt.Sprintf("no zone ever holds %s of flex-start %s (%s)", plural(n, "node"), o.Machine.Type, strings.Join(have, ", "))
	}
	sort.SliceStable(fit, func(i, j int) bool { return u.Free(o.Kind, fit[i]) > u.Free(o.Kind, fit[j]) })
	return fit[0], true, ""
}

// zoneCapacity is the configured capacity of a kind of a machine type in
// a zone; ok is false when none is configured (it holds no node).
func zoneCapacity(cfg *Config, kind computeclass.Capacity, machine, zone string) (nodepools.ZoneCapacity, bool) {
	c := capacityOf(cfg, kind)
	if c == nil {
		return nodepools.ZoneCapacity{}, false
	}
	for _, z := range c.Zones {
		if z.MachineType == machine && z.Zone == zone {
			return z, true
		}
	}
	return nodepools.ZoneCapacity{}, false
}
