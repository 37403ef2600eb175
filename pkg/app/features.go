package app

import (
	"fmt"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/features"
)

// DefaultFeatureGates are the kube-scheduler feature gates whose default
// this scheduler changes. --feature-gates still sets any of them either
// way; the scheduler_perf scenarios run our profile with the same values
// (test/perf checks that they do).
var DefaultFeatureGates = map[featuregate.Feature]bool{
	// NominatedNodeNameForExpectation (beta, on upstream) makes the binding
	// cycle write status.nominatedNodeName to every pod about to wait in
	// Permit, before it waits. Every gang member but the last waits there
	// for the rest of its gang, so the gate adds one API write (and one
	// watch event for every informer) per gang pod, on the path of each
	// member's binding: measured on scheduler_perf's 64 × 4-slice case,
	// 4.6 s with it off against 8.4 s with it on, attempt p99 455 ms
	// against 996 ms. The gang's nodes are already held by its reservation
	// in our state, and a pod in Permit is not unschedulable, so the
	// cluster autoscaler does not provision for it either way. Turn it on
	// when another scheduler places pods on the same nodes and should see
	// where waiting gang members are about to bind.
	features.NominatedNodeNameForExpectation: false,
	// GenericWorkload (beta, off upstream) runs Kubernetes' own workload
	// scheduling cycle for pods in a PodGroup (spec.schedulingGroup). This
	// scheduler gangs those pods itself (one exclusive domain per gang,
	// quota, whole-workload preemption) and disables the in-tree gang
	// plugins in its profile; the apiserver serves the PodGroup API whatever
	// this process's gate says. SetFeatureGates refuses it on.
	features.GenericWorkload: false,
}

// SetFeatureGates applies DefaultFeatureGates, then the --feature-gates
// that opts parsed from the command line, which override them.
func SetFeatureGates(opts *options.Options) error {
	defaults := make(map[string]bool, len(DefaultFeatureGates))
	for f, on := range DefaultFeatureGates {
		defaults[string(f)] = on
	}
	if err := utilfeature.DefaultMutableFeatureGate.SetFromMap(defaults); err != nil {
		return err
	}
	if err := opts.ComponentGlobalsRegistry.Set(); err != nil {
		return err
	}
	if utilfeature.DefaultFeatureGate.Enabled(features.GenericWorkload) {
		return fmt.Errorf("--feature-gates: %s=true is not supported: multislice-scheduler places the gangs of Kubernetes PodGroups itself; "+
			"leave the gate off for this scheduler (the apiserver and the default scheduler may have it on)", features.GenericWorkload)
	}
	return nil
}
