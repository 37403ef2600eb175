package v1

import (
	"bytes"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/json"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config/validation"
)

// Kind of the args object.
const Kind = "MultisliceGangArgs"

// DecodeArgs turns the pluginConfig args the scheduler hands a plugin into
// validated internal args. Out-of-tree args arrive as raw JSON; decoding is
// strict (unknown and duplicate fields are errors), apiVersion/kind are
// optional but checked when given, unset fields are defaulted. Errors name
// the offending field.
func DecodeArgs(obj runtime.Object) (*config.MultisliceGangArgs, error) {
	var raw []byte
	switch a := obj.(type) {
	case nil:
	case *runtime.Unknown:
		raw = a.Raw
	default:
		return nil, fmt.Errorf("%s: want raw args, got %T", Kind, obj)
	}
	var v MultisliceGangArgs
	if len(bytes.TrimSpace(raw)) > 0 {
		strictErrs, err := json.UnmarshalStrict(raw, &v, json.DisallowUnknownFields, json.DisallowDuplicateFields)
		if err != nil {
			return nil, fmt.Errorf("decoding %s: %w", Kind, err)
		}
		if len(strictErrs) > 0 {
			return nil, fmt.Errorf("decoding %s: %v", Kind, strictErrs[0])
		}
	}
	if v.APIVersion != "" && v.APIVersion != GroupVersion.String() {
		return nil, field.Invalid(field.NewPath("apiVersion"), v.APIVersion, "must be "+GroupVersion.String())
	}
	if v.Kind != "" && v.Kind != Kind {
		return nil, field.Invalid(field.NewPath("kind"), v.Kind, "must be "+Kind)
	}
	SetDefaults(&v)
	args := Convert(&v)
	if errs := validation.ValidateMultisliceGangArgs(field.NewPath(Kind), args); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	return args, nil
}

// Convert maps defaulted versioned args to internal args.
func Convert(v *MultisliceGangArgs) *config.MultisliceGangArgs {
	return &config.MultisliceGangArgs{
		PermitTimeout:          time.Duration(*v.PermitTimeoutSeconds) * time.Second,
		FollowerTimeout:        time.Duration(*v.FollowerTimeoutSeconds) * time.Second,
		DefaultDomainKey:       *v.DefaultDomainKey,
		DefaultLocalQueue:      *v.DefaultLocalQueue,
		QuotaStarvationTimeout: time.Duration(*v.QuotaStarvationTimeoutSeconds) * time.Second,
		QuotaReconcileInterval: time.Duration(*v.QuotaReconcileSeconds) * time.Second,
		RestartHold:            time.Duration(*v.RestartHoldSeconds) * time.Second,
		QueuedStartDepth:       int(*v.QueuedStartDepth),
	}
}
