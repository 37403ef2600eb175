// Package validation checks plugin arguments. Field paths use the versioned
// (user-facing) field names, so errors point at what the user wrote.
package validation

import (
	"time"

	metavalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
)

// maxTimeout keeps timeouts meaningful: a reservation held longer than a
// day is a stuck reservation, not a configuration.
const maxTimeout = 24 * time.Hour

// maxQueuedStartDepth bounds the start window where it stops meaning
// anything: a window that deep holds nothing back.
const maxQueuedStartDepth = 100000

// ValidateMultisliceGangArgs validates defaulted args.
func ValidateMultisliceGangArgs(path *field.Path, args *config.MultisliceGangArgs) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, timeout(path.Child("permitTimeoutSeconds"), args.PermitTimeout)...)
	errs = append(errs, timeout(path.Child("followerTimeoutSeconds"), args.FollowerTimeout)...)
	errs = append(errs, timeout(path.Child("quotaStarvationTimeoutSeconds"), args.QuotaStarvationTimeout)...)
	if d := args.QuotaReconcileInterval; d < time.Second || d > time.Hour {
		errs = append(errs, field.Invalid(path.Child("quotaReconcileSeconds"), int64(d/time.Second), "must be between 1 and 3600 seconds"))
	}
	if d := args.RestartHold; d < 0 || d > maxTimeout {
		errs = append(errs, field.Invalid(path.Child("restartHoldSeconds"), int64(d/time.Second), "must be between 0 and 86400 seconds"))
	}
	if n := args.QueuedStartDepth; n < 0 || n > maxQueuedStartDepth {
		errs = append(errs, field.Invalid(path.Child("queuedStartDepth"), n, "must be between 0 (no window: every queued object starts at once) and 100000"))
	}
	if q := args.DefaultLocalQueue; q != "" {
		for _, msg := range metavalidation.IsDNS1123Subdomain(q) {
			errs = append(errs, field.Invalid(path.Child("defaultLocalQueue"), q, msg))
		}
	}
	if k := args.DefaultDomainKey; k != "" {
		for _, msg := range metavalidation.IsQualifiedName(k) {
			errs = append(errs, field.Invalid(path.Child("defaultDomainKey"), k, msg))
		}
	}
	return errs
}

func timeout(path *field.Path, d time.Duration) field.ErrorList {
	if d <= 0 || d > maxTimeout {
		return field.ErrorList{field.Invalid(path, int64(d/time.Second), "must be between 1 and 86400 seconds")}
	}
	return nil
}
