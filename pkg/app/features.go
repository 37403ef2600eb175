package app

import (
	"fmt"
	"os"
	"slices"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/features"
	"sigs.k8s.io/yaml"
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
// that opts parsed from the command line, which override them. A
// configuration in which no profile enables a plugin of ours (kube-scheduler's
// own, as the local cluster's default scheduler runs) keeps upstream's
// defaults and every gate: the binary is then exactly kube-scheduler.
func SetFeatureGates(opts *options.Options) error {
	ours, err := configEnablesOurPlugins(opts.ConfigFile)
	if err != nil {
		return err
	}
	if !ours {
		return opts.ComponentGlobalsRegistry.Set()
	}
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

// configEnablesOurPlugins reads just enough of the configuration file
// (--config; none: kube-scheduler's default profile) to tell whether any
// profile enables a plugin of ours at any extension point. It runs before
// the feature gates are set, which the configuration's defaulting reads,
// so it decodes only the names and leaves validation to the scheduler's
// own loading of the file.
func configEnablesOurPlugins(file string) (bool, error) {
	if file == "" {
		return false, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return false, fmt.Errorf("--config: %w", err)
	}
	var cfg struct {
		Profiles []struct {
			Plugins map[string]struct {
				Enabled []struct {
					Name string `json:"name"`
				} `json:"enabled"`
			} `json:"plugins"`
		} `json:"profiles"`
	}
	// A file this does not read is reported by the scheduler's own
	// loading, which names what is wrong; here it only means "not ours".
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return false, nil
	}
	names := PluginNames()
	for _, p := range cfg.Profiles {
		for _, set := range p.Plugins {
			for _, pl := range set.Enabled {
				if slices.Contains(names, pl.Name) {
					return true, nil
				}
			}
		}
	}
	return false, nil
}
