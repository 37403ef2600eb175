package workload

import (
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// provisioningAnnotations picks an owner's provreq.kueue.x-k8s.io/
// annotations (nil when it has none).
func provisioningAnnotations(annotations map[string]string) map[string]string {
	var out map[string]string
	for k, v := range annotations {
		if strings.HasPrefix(k, wellknown.ProvReqAnnotationPrefix) {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}
