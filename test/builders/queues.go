package builders

import (
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// TPUInUse sums google.com/tpu over a ClusterQueue status's flavors usage.
func TPUInUse(usage []multislicev1alpha1.FlavorUsage) int64 {
	var n int64
	for _, f := range usage {
		for _, r := range f.Resources {
			if r.Name == wellknown.ResourceTPU {
				n += r.Total.Value()
			}
		}
	}
	return n
}
