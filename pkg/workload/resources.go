package workload

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"
)

// Resources is an amount of each resource in milli-units (1 CPU = 1000,
// 1 google.com/tpu chip = 1000, 1 byte of memory = 1000).
type Resources map[corev1.ResourceName]int64

// PodRequests is what one pod of spec asks for, as the scheduler counts it
// (init containers, sidecars and overhead included), plus one pod slot.
func PodRequests(spec *corev1.PodSpec) Resources {
	list := resourcehelper.PodRequests(&corev1.Pod{Spec: *spec}, resourcehelper.PodResourcesOptions{})
	out := Resources{corev1.ResourcePods: 1000}
	for name, q := range list {
		if v := q.MilliValue(); v > 0 {
			out[name] = v
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

// AddScaled adds n times o to r.
func (r Resources) AddScaled(o Resources, n int64) {
	for name, v := range o {
		r[name] += v * n
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

func formatMilli(name corev1.ResourceName, v int64) string {
	if name == corev1.ResourceCPU && v%1000 != 0 {
		return fmt.Sprintf("%dm", v)
	}
	if v%1000 == 0 {
		return fmt.Sprintf("%d", v/1000)
	}
	return fmt.Sprintf("%.3f", float64(v)/1000)
}
