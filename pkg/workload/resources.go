package workload

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Resources is an amount of each resource in milli-units (1 CPU = 1000,
// 1 google.com/tpu chip = 1000, 1 byte of memory = 1000).
type Resources map[corev1.ResourceName]int64

// PodRequests is what one pod of spec asks for, as the scheduler counts it
// (init containers, sidecars and overhead included), plus one pod slot. A
// resource a container only limits counts its limit as its request, as the
// apiserver defaults it on the pod: templates (a JobSet's, the seeds' TPU
// pods that set only `limits: google.com/tpu`) are not defaulted. An
// amount too large to count in milli-units counts as math.MaxInt64: such a
// pod fits nowhere, rather than asking for nothing.
func PodRequests(spec *corev1.PodSpec) Resources {
	out, _ := podRequests(spec)
	return out
}

// maxMilli is the largest amount Resources holds, as a quantity.
var maxMilli = resource.NewMilliQuantity(math.MaxInt64, resource.DecimalSI)

// podRequests is PodRequests, and the first resource by name asked for in
// an amount too large to count ("" for none).
func podRequests(spec *corev1.PodSpec) (out Resources, tooLarge corev1.ResourceName) {
	out = Resources{corev1.ResourcePods: 1000}
	for name, q := range PodRequestList(spec) {
		// A pod takes one pod slot, whatever its containers say.
		if name == corev1.ResourcePods || q.Sign() <= 0 {
			continue
		}
		if q.Cmp(*maxMilli) > 0 {
			out[name] = math.MaxInt64
			if tooLarge == "" || name < tooLarge {
				tooLarge = name
			}
			continue
		}
		out[name] = q.MilliValue()
	}
	return out, tooLarge
}

// templateRequests is PodRequests of the pod template at field of obj (a
// JobSet or Job), where an amount too large to count is an *InvalidError.
func templateRequests(obj, field string, spec *corev1.PodSpec) (Resources, error) {
	out, tooLarge := podRequests(spec)
	if tooLarge != "" {
		q := PodRequestList(spec)[tooLarge]
		return nil, &InvalidError{obj, field, fmt.Sprintf("its pods ask for %s of %s each, more than can be counted (at most %s)",
			q.String(), tooLarge, maxMilli.String())}
	}
	return out, nil
}

// PodRequestList is PodRequests as quantities, without the pod slot.
func PodRequestList(spec *corev1.PodSpec) corev1.ResourceList {
	return resourcehelper.PodRequests(&corev1.Pod{Spec: *withDefaultRequests(spec)}, resourcehelper.PodResourcesOptions{})
}

// withDefaultRequests returns spec, or a copy whose containers request what
// they only limit.
func withDefaultRequests(spec *corev1.PodSpec) *corev1.PodSpec {
	needs := func(cs []corev1.Container) bool {
		for _, c := range cs {
			for name := range c.Resources.Limits {
				if _, ok := c.Resources.Requests[name]; !ok {
					return true
				}
			}
		}
		return false
	}
	if !needs(spec.Containers) && !needs(spec.InitContainers) {
		return spec
	}
	out := spec.DeepCopy()
	for _, cs := range [][]corev1.Container{out.Containers, out.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			for name, q := range r.Limits {
				if _, ok := r.Requests[name]; !ok {
					if r.Requests == nil {
						r.Requests = corev1.ResourceList{}
					}
					r.Requests[name] = q
				}
			}
		}
	}
	return out
}

// FromList converts a ResourceList (e.g. a node's allocatable).
func FromList(list corev1.ResourceList) Resources {
	out := make(Resources, len(list))
	for name, q := range list {
		out[name] = q.MilliValue()
	}
	return out
}

// Count is how many pods of request fit in r; -1 when request asks for nothing.
func (r Resources) Count(request Resources) int64 {
	n := int64(-1)
	for name, want := range request {
		if want <= 0 {
			continue
		}
		c := r[name] / want
		if c < 0 {
			c = 0
		}
		if n < 0 || c < n {
			n = c
		}
	}
	return n
}

// Asks lists a request's positive amounts: counting how many such
// requests fit in many rooms (a topology placement reads every node of a
// fleet) looks each amount up by name rather than ranging over the
// request's map for every room.
type Asks []Ask

// Ask is an amount of one resource a request asks for.
type Ask struct {
	Name   corev1.ResourceName
	Amount int64
}

// Asks lists r's positive amounts, sorted by name.
func (r Resources) Asks() Asks {
	var out Asks
	for _, name := range slices.Sorted(maps.Keys(r)) {
		if r[name] > 0 {
			out = append(out, Ask{Name: name, Amount: r[name]})
		}
	}
	return out
}

// Count is room.Count of the request a lists: how many times it fits in
// room, -1 when it asks for nothing.
func (a Asks) Count(room Resources) int64 {
	n := int64(-1)
	for _, ask := range a {
		c := max(room[ask.Name]/ask.Amount, 0)
		if n < 0 || c < n {
			n = c
		}
	}
	return n
}

// AddScaled adds n times o to r.
func (r Resources) AddScaled(o Resources, n int64) {
	for name, v := range o {
		r[name] += v * n
	}
}

// SubWithin subtracts o from r in place, for the resources r names (as
// Sub does, without a new map).
func (r Resources) SubWithin(o Resources) {
	for name := range r {
		r[name] -= o[name]
	}
}

// Sub returns r - o.
func (r Resources) Sub(o Resources) Resources {
	out := make(Resources, len(r))
	for name, v := range r {
		out[name] = v - o[name]
	}
	return out
}

// String renders the non-pod resources in a stable order, e.g. "cpu=1, google.com/tpu=4".
func (r Resources) String() string {
	names := make([]string, 0, len(r))
	for name := range r {
		if name != corev1.ResourcePods {
			names = append(names, string(name))
		}
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s=%s", n, formatMilli(corev1.ResourceName(n), r[corev1.ResourceName(n)])))
	}
	return strings.Join(parts, ", ")
}

// FormatAmount renders v milli-units of resource name as String does, e.g.
// "4" for 4000 of nvidia.com/gpu, "500m" for 500 of cpu.
func FormatAmount(name corev1.ResourceName, v int64) string { return formatMilli(name, v) }

func formatMilli(name corev1.ResourceName, v int64) string {
	if name == corev1.ResourceCPU && v%1000 != 0 {
		return fmt.Sprintf("%dm", v)
	}
	if v%1000 == 0 {
		return fmt.Sprintf("%d", v/1000)
	}
	return fmt.Sprintf("%.3f", float64(v)/1000)
}
