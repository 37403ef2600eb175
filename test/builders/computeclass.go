package builders

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
)

// ComputeClassBuilder builds a GKE ComputeClass (cloud.google.com/v1).
type ComputeClassBuilder struct{ cc *cloudv1.ComputeClass }

// ComputeClass starts a class with node pool auto-creation and no
// priorities.
func ComputeClass(name string) *ComputeClassBuilder {
	return &ComputeClassBuilder{cc: &cloudv1.ComputeClass{
		TypeMeta:   metav1.TypeMeta{APIVersion: cloudv1.SchemeGroupVersion.String(), Kind: "ComputeClass"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       cloudv1.ComputeClassSpec{NodePoolAutoCreation: &cloudv1.NodePoolAutoCreation{Enabled: true}},
	}}
}

// Priority appends a priority as it is.
func (b *ComputeClassBuilder) Priority(p cloudv1.Priority) *ComputeClassBuilder {
	b.cc.Spec.Priorities = append(b.cc.Spec.Priorities, p)
	return b
}

// Spot appends a priority of Spot VMs of machineType.
func (b *ComputeClassBuilder) Spot(machineType string) *ComputeClassBuilder {
	return b.Priority(cloudv1.Priority{MachineType: machineType, Spot: ptr.To(true)})
}

// OnDemand appends a priority of on-demand VMs of machineType.
func (b *ComputeClassBuilder) OnDemand(machineType string) *ComputeClassBuilder {
	return b.Priority(cloudv1.Priority{MachineType: machineType})
}

// FlexStart appends a priority of flex-start VMs of machineType that run
// maxRunSeconds (the 7-day default when 0) and, when leadSeconds is not
// negative, are recycled leadSeconds before their end.
func (b *ComputeClassBuilder) FlexStart(machineType string, maxRunSeconds, leadSeconds int64) *ComputeClassBuilder {
	p := cloudv1.Priority{MachineType: machineType, FlexStart: &cloudv1.FlexStart{Enabled: true}}
	if maxRunSeconds != 0 {
		p.MaxRunDurationSeconds = ptr.To(maxRunSeconds)
	}
	if leadSeconds >= 0 {
		p.FlexStart.NodeRecycling = &cloudv1.NodeRecycling{LeadTimeSeconds: ptr.To(leadSeconds)}
	}
	return b.Priority(p)
}

// NoAutoCreation turns node pool auto-creation off.
func (b *ComputeClassBuilder) NoAutoCreation() *ComputeClassBuilder {
	b.cc.Spec.NodePoolAutoCreation = &cloudv1.NodePoolAutoCreation{Enabled: false}
	return b
}

// Obj returns the class.
func (b *ComputeClassBuilder) Obj() *cloudv1.ComputeClass { return b.cc.DeepCopy() }
