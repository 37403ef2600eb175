package computeclass

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// FieldError is what is wrong with one field of a class.
type FieldError struct {
	// Field is the field's path, e.g. spec.priorities[1].maxRunDurationSeconds.
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Validate reports what is wrong with a class, each error a *FieldError
// naming its field; nil when nothing is. Besides what the CRD's schema
// checks, it checks what the fields mean together: a flex-start priority
// is not spot, runs at most 7 days, and recycles its nodes before their
// end (leadTimeSeconds less than maxRunDurationSeconds); a machine type
// belongs to the priority's machine family; a GPU or TPU names its type.
// Fields this package does not model are not looked at.
func Validate(class *cloudv1.ComputeClass) error {
	var errs []error
	fail := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	labelValue := func(field, value string) bool {
		if msgs := validation.IsValidLabelValue(value); len(msgs) > 0 {
			fail(field, "%q: %s", value, strings.Join(msgs, "; "))
			return false
		}
		return true
	}

	switch {
	case class.Name == "":
		fail("metadata.name", "is required")
	case len(validation.IsValidLabelValue(class.Name)) > 0:
		fail("metadata.name", "%q cannot be the value of the node label %s that the class's nodes carry: %s",
			class.Name, wellknown.ComputeClassLabel, strings.Join(validation.IsValidLabelValue(class.Name), "; "))
	}
	spec := &class.Spec
	if len(spec.Priorities) == 0 {
		fail("spec.priorities", "at least one priority is required")
	}
	switch spec.WhenUnsatisfiable {
	case "", cloudv1.DoNotScaleUp, cloudv1.ScaleUpAnyway:
	default:
		fail("spec.whenUnsatisfiable", "%q is not one of %s, %s", spec.WhenUnsatisfiable, cloudv1.DoNotScaleUp, cloudv1.ScaleUpAnyway)
	}

	for i := range spec.Priorities {
		p := &spec.Priorities[i]
		field := fmt.Sprintf("spec.priorities[%d]", i)
		typeOK := p.MachineType == "" || labelValue(field+".machineType", p.MachineType)
		familyOK := p.MachineFamily == "" || labelValue(field+".machineFamily", p.MachineFamily)
		if p.MachineType != "" && p.MachineFamily != "" && typeOK && familyOK && MachineFamily(p.MachineType) != p.MachineFamily {
			fail(field+".machineType", "%s is of machine family %s, not of machineFamily %s", p.MachineType, MachineFamily(p.MachineType), p.MachineFamily)
		}
		if p.MinCores != nil && *p.MinCores < 0 {
			fail(field+".minCores", "must not be negative, got %d", *p.MinCores)
		}
		if p.GPU != nil {
			if p.GPU.Type == "" {
				fail(field+".gpu.type", "is required (e.g. nvidia-l4)")
			} else {
				labelValue(field+".gpu.type", p.GPU.Type)
			}
			if p.GPU.Count < 1 {
				fail(field+".gpu.count", "must be at least 1, got %d", p.GPU.Count)
			}
		}
		if p.TPU != nil {
			if p.GPU != nil {
				fail(field+".tpu", "a priority has gpu or tpu, not both")
			}
			if p.TPU.Type == "" {
				fail(field+".tpu.type", "is required (e.g. tpu-v5-lite-podslice)")
			} else {
				labelValue(field+".tpu.type", p.TPU.Type)
			}
			if p.TPU.Topology == "" {
				fail(field+".tpu.topology", "is required (e.g. 2x4)")
			} else {
				labelValue(field+".tpu.topology", p.TPU.Topology)
			}
			if p.TPU.Count < 1 {
				fail(field+".tpu.count", "must be at least 1, got %d", p.TPU.Count)
			}
		}
		validateRunTime(fail, field, p)
	}
	return errors.Join(errs...)
}

// validateRunTime checks a priority's maxRunDurationSeconds and flexStart.
func validateRunTime(fail func(field, format string, args ...any), field string, p *cloudv1.Priority) {
	flex := PriorityCapacity(p) == FlexStart
	maxSecs := int64(DefaultFlexStartMaxRunDuration.Seconds())
	if s := p.MaxRunDurationSeconds; s != nil {
		switch {
		case *s <= 0:
			fail(field+".maxRunDurationSeconds", "must be positive, got %d", *s)
		case flex && *s > maxSecs:
			fail(field+".maxRunDurationSeconds", "must be at most %d (7 days) for flex-start, got %d", maxSecs, *s)
		}
	}
	fs := p.FlexStart
	if fs == nil {
		return
	}
	if fs.Enabled && p.Spot != nil && *p.Spot {
		fail(field+".flexStart.enabled", "flex-start VMs are not Spot VMs: a priority has spot: true or flexStart, not both")
	}
	if fs.NodeRecycling == nil {
		return
	}
	if !fs.Enabled {
		fail(field+".flexStart.nodeRecycling", "recycles flex-start nodes only: it needs flexStart.enabled: true")
		return
	}
	lead := fs.NodeRecycling.LeadTimeSeconds
	leadField := field + ".flexStart.nodeRecycling.leadTimeSeconds"
	switch {
	case lead == nil:
		fail(leadField, "is required: how long before a node's end of life its replacement is requested")
	case *lead < 0:
		fail(leadField, "must not be negative, got %d", *lead)
	case p.MaxRunDurationSeconds == nil && *lead >= maxSecs:
		fail(leadField, "must be less than maxRunDurationSeconds (%d, the flex-start default), got %d", maxSecs, *lead)
	case p.MaxRunDurationSeconds != nil && *p.MaxRunDurationSeconds > 0 && *lead >= *p.MaxRunDurationSeconds:
		fail(leadField, "must be less than maxRunDurationSeconds (%d), got %d", *p.MaxRunDurationSeconds, *lead)
	}
}
