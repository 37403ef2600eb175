package workload

import (
	"cmp"
	"fmt"
	"slices"

	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// SourceCompositePodGroup is a Kubernetes CompositePodGroup
// (scheduling.k8s.io/v1alpha3, feature gate CompositePodGroup) with the
// gang policy: its child PodGroups (spec.parentCompositePodGroupName) are
// the slices of one workload, admitted all together or not at all, the
// way a JobSet's Jobs are. Its pods name only their own PodGroup; the
// state maps them to the composite through Workload.Children.
const SourceCompositePodGroup Source = "CompositePodGroup.scheduling.k8s.io"

// FromCompositePodGroup derives the workload of a CompositePodGroup from
// it and its child PodGroups (those naming it as their parent, in any
// order).
//
// A gang composite is a multislice workload: one slice per child, in name
// order, each read as a child PodGroup is on its own (minCount pods; its
// topology constraint a required shared domain, our domain-key annotation
// a whole domain, neither a whole domain of the composite's domain-key
// annotation, else of defaultDomainKey); the
// composite's own topology constraint (or our atomic-topology annotation)
// puts every slice under one value of its key. All the children the API
// holds are admitted together; while fewer than minGroupCount exist, the
// missing ones are slices no pod can join, so the gang waits for them
// rather than starting part of itself.
//
// A basic composite is no gang (nil, nil): its children are workloads of
// their own (FromInTreePodGroup). Nested composites and a gang composite
// with a basic child are refused: half-honouring them would start part of
// a gang.
func FromCompositePodGroup(cpg *schedv1alpha3.CompositePodGroup, children []*schedv1beta1.PodGroup, defaultDomainKey string) (*Workload, error) {
	obj := fmt.Sprintf("%s %s/%s", SourceCompositePodGroup, cpg.Namespace, cpg.Name)
	policy := cpg.Spec.SchedulingPolicy
	switch {
	case policy.Basic != nil && policy.Gang != nil:
		return nil, &InvalidError{obj, "spec.schedulingPolicy", "sets both basic and gang; exactly one is allowed"}
	case policy.Basic != nil:
		return nil, nil
	case policy.Gang == nil:
		return nil, &InvalidError{obj, "spec.schedulingPolicy", "sets neither basic nor gang; exactly one is required"}
	}
	if name := cpg.Spec.ParentCompositePodGroupName; name != nil {
		return nil, &InvalidError{obj, "spec.parentCompositePodGroupName", fmt.Sprintf(
			"names CompositePodGroup %q; multislice-scheduler admits one level of composition (a CompositePodGroup of PodGroups)", *name)}
	}
	minGroups := policy.Gang.MinGroupCount
	if minGroups <= 0 {
		return nil, &InvalidError{obj, "spec.schedulingPolicy.gang.minGroupCount", fmt.Sprintf("must be positive, got %d", minGroups)}
	}
	if minGroups > maxSlices {
		return nil, &InvalidError{obj, "spec.schedulingPolicy.gang.minGroupCount", fmt.Sprintf("%d is more groups than one workload may have", minGroups)}
	}
	atomicKey, err := compositeAtomicKey(obj, cpg)
	if err != nil {
		return nil, err
	}
	// Our domain-key annotation on the composite gives each of its groups
	// a whole domain of that key (as JobSet's exclusive-topology gives
	// each Job one), unless the group says otherwise.
	if key, ok := cpg.Annotations[wellknown.PodGroupDomainKeyAnnotation]; ok {
		if err := validDomainKey(obj, "metadata.annotations["+wellknown.PodGroupDomainKeyAnnotation+"]", key); err != nil {
			return nil, err
		}
		defaultDomainKey = key
	}
	children = slices.SortedFunc(slices.Values(children), func(a, b *schedv1beta1.PodGroup) int { return cmp.Compare(a.Name, b.Name) })
	if len(children) > maxSlices {
		return nil, &InvalidError{obj, "spec.schedulingPolicy.gang.minGroupCount", fmt.Sprintf("has %d child PodGroups, more than one workload may have", len(children))}
	}
	w := groupWorkload(Key{Source: SourceCompositePodGroup, Namespace: cpg.Namespace, Name: cpg.Name}, &cpg.ObjectMeta, 0, "", atomicKey, nil)
	w.Slices = w.Slices[:0]
	w.Children = map[Key]int{}
	pods := 0
	for i, pg := range children {
		childObj := fmt.Sprintf("%s %s/%s", SourceInTreePodGroup, pg.Namespace, pg.Name)
		s, gang, err := inTreeSlice(childObj, pg, defaultDomainKey)
		if err != nil {
			return nil, &InvalidError{obj, "child PodGroup " + pg.Name, err.Error()}
		}
		if !gang {
			return nil, &InvalidError{obj, "spec.schedulingPolicy.gang", fmt.Sprintf(
				"child PodGroup %s has the basic policy; the groups of a gang CompositePodGroup are gangs", pg.Name)}
		}
		if pods += s.Pods; pods > maxPods {
			return nil, &InvalidError{obj, "spec.schedulingPolicy.gang", fmt.Sprintf("its child PodGroups ask for more than %d pods", maxPods)}
		}
		// One queue admits the whole gang: the composite's, else the one
		// its groups name (the webhook reads a pod's own group's).
		switch q := wellknown.QueueName(pg.Labels, pg.Annotations); {
		case q == "" || q == w.QueueName:
		case w.QueueName == "":
			w.QueueName = q
		default:
			return nil, &InvalidError{obj, "child PodGroup " + pg.Name, fmt.Sprintf(
				"names LocalQueue %q, another group or the composite %q; one queue admits the whole gang", q, w.QueueName)}
		}
		s.Index = i
		w.Slices = append(w.Slices, s)
		w.Children[Key{Source: SourceInTreePodGroup, Namespace: pg.Namespace, Name: pg.Name}] = i
	}
	for i := len(children); i < int(minGroups); i++ {
		// No PodGroup can be named this way: no pod joins the slice, and
		// the gang is not complete until a real child takes its place.
		w.Slices = append(w.Slices, Slice{Index: i, Name: fmt.Sprintf("(group %d of %d, not created yet)", i+1, minGroups), Pods: 1, DomainKey: defaultDomainKey})
	}
	return w, nil
}

// compositeAtomicKey is the node label every slice of a composite lands
// under one value of: its topology constraint, or our atomic-topology
// annotation; both may be set only if they agree.
func compositeAtomicKey(obj string, cpg *schedv1alpha3.CompositePodGroup) (string, error) {
	annotated, err := AtomicTopologyKey(obj, cpg.Annotations)
	if err != nil {
		return "", err
	}
	c := cpg.Spec.SchedulingConstraints
	if c == nil || len(c.Topology) == 0 {
		return annotated, nil
	}
	const field = "spec.schedulingConstraints.topology"
	switch key := c.Topology[0].Key; {
	case len(c.Topology) > 1:
		return "", &InvalidError{obj, field, fmt.Sprintf("has %d constraints; at most one is allowed", len(c.Topology))}
	case key == "":
		return "", &InvalidError{obj, field + "[0].key", "empty node label key"}
	case validDomainKey(obj, field+"[0].key", key) != nil:
		return "", validDomainKey(obj, field+"[0].key", key)
	case annotated != "" && annotated != key:
		return "", &InvalidError{obj, field + "[0].key", fmt.Sprintf("%q disagrees with the annotation's %q; set one of them", key, annotated)}
	default:
		return key, nil
	}
}

// CompositeParent is the CompositePodGroup a Kubernetes PodGroup names as
// its parent, if any.
func CompositeParent(pg *schedv1beta1.PodGroup) (Key, bool) {
	if p := pg.Spec.ParentCompositePodGroupName; p != nil && *p != "" {
		return Key{Source: SourceCompositePodGroup, Namespace: pg.Namespace, Name: *p}, true
	}
	return Key{}, false
}
