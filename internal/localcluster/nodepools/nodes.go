package nodepools

import (
	"maps"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// ManagedLabel marks the nodes this package owns. Nodes without it are
	// never changed or deleted.
	ManagedLabel = "localcluster.multislice-scheduler.io/managed"
	// KWOKNodeAnnotation hands a node to KWOK, which keeps it Ready and runs
	// the pods bound to it.
	KWOKNodeAnnotation = "kwok.x-k8s.io/node"
	// appliedLabelsAnnotation and appliedTaintsAnnotation record which labels
	// and taints came from the pool file, so that removing one from the file
	// removes it from the node while labels and taints set by others (node
	// lifecycle, fault injection, kubectl) are kept.
	appliedLabelsAnnotation = "localcluster.multislice-scheduler.io/applied-labels"
	appliedTaintsAnnotation = "localcluster.multislice-scheduler.io/applied-taints"
)

// Nodes returns the desired Node objects of the pools.
func Nodes(pools []ExpandedPool) []*corev1.Node {
	var nodes []*corev1.Node
	for _, p := range pools {
		for i := range p.Nodes {
			n := p.BuildNode(p.NodeName(i))
			maps.Copy(n.Labels, p.TopologyLabels(i))
			n.Labels[ManagedLabel] = "true"
			n.Annotations[appliedLabelsAnnotation] = strings.Join(sortedKeys(n.Labels), ",")
			n.Annotations[appliedTaintsAnnotation] = strings.Join(taintKeys(n.Spec.Taints), ",")
			nodes = append(nodes, n)
		}
	}
	return nodes
}

// BuildNode returns a KWOK node of the pool named name: the pool's labels
// and its kubernetes.io/hostname, its taints, its capacity as capacity and
// allocatable, and the annotation that hands it to KWOK. It carries no
// ManagedLabel: Nodes adds it for the file's own nodes.
func (p ExpandedPool) BuildNode(name string) *corev1.Node {
	labels := maps.Clone(p.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[corev1.LabelHostname] = name
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Labels:      labels,
			Annotations: map[string]string{KWOKNodeAnnotation: "fake"},
		},
		Spec: corev1.NodeSpec{Taints: slices.Clone(p.Taints)},
		Status: corev1.NodeStatus{
			Capacity:    p.Capacity.DeepCopy(),
			Allocatable: p.Capacity.DeepCopy(),
		},
	}
}

// ownedByFile reports whether applying the node pool file may change or
// delete n: it carries ManagedLabel and was not created by the queued
// provisioner, whose nodes live as long as their ProvisioningRequest
// needs them whatever the file says.
func ownedByFile(n *corev1.Node) bool {
	if _, provisioned := n.Labels[ProvisionedLabel]; provisioned {
		return false
	}
	return n.Labels[ManagedLabel] == "true"
}

// Plan is what to do to turn the existing managed nodes into the desired ones.
type Plan struct {
	Create []*corev1.Node
	// Update holds nodes whose metadata or spec must change (an Update call).
	Update []*corev1.Node
	// UpdateStatus holds nodes whose capacity must change (an UpdateStatus call).
	UpdateStatus []*corev1.Node
	Delete       []string
}

// Empty reports whether the plan changes nothing.
func (p Plan) Empty() bool {
	return len(p.Create)+len(p.Update)+len(p.UpdateStatus)+len(p.Delete) == 0
}

// Diff plans the changes from existing to desired. Only existing nodes that
// carry ManagedLabel, and not ProvisionedLabel, are updated or deleted.
// Updates start from the existing object, so resourceVersion, conditions and
// foreign labels, annotations and taints survive.
func Diff(desired []*corev1.Node, existing []*corev1.Node) Plan {
	var plan Plan
	current := map[string]*corev1.Node{}
	for _, n := range existing {
		current[n.Name] = n
	}
	want := map[string]bool{}
	for _, d := range desired {
		want[d.Name] = true
		cur, ok := current[d.Name]
		if !ok {
			plan.Create = append(plan.Create, d.DeepCopy())
			continue
		}
		if !ownedByFile(cur) {
			// A node of the same name that we do not own: leave it alone.
			continue
		}
		if updated, changed := mergeSpec(cur, d); changed {
			plan.Update = append(plan.Update, updated)
		}
		if !apiequality.Semantic.DeepEqual(cur.Status.Capacity, d.Status.Capacity) ||
			!apiequality.Semantic.DeepEqual(cur.Status.Allocatable, d.Status.Allocatable) {
			n := cur.DeepCopy()
			n.Status.Capacity = d.Status.Capacity.DeepCopy()
			n.Status.Allocatable = d.Status.Allocatable.DeepCopy()
			plan.UpdateStatus = append(plan.UpdateStatus, n)
		}
	}
	for _, n := range existing {
		if ownedByFile(n) && !want[n.Name] {
			plan.Delete = append(plan.Delete, n.Name)
		}
	}
	sort.Strings(plan.Delete)
	return plan
}

// mergeSpec applies the desired labels, annotations and taints to a copy of
// cur, removing the ones the file applied before and no longer wants.
func mergeSpec(cur, desired *corev1.Node) (*corev1.Node, bool) {
	n := cur.DeepCopy()
	if n.Labels == nil {
		n.Labels = map[string]string{}
	}
	if n.Annotations == nil {
		n.Annotations = map[string]string{}
	}
	for _, k := range splitList(cur.Annotations[appliedLabelsAnnotation]) {
		if _, keep := desired.Labels[k]; !keep {
			delete(n.Labels, k)
		}
	}
	maps.Copy(n.Labels, desired.Labels)
	maps.Copy(n.Annotations, desired.Annotations)

	wantTaint := map[string]bool{}
	for _, t := range desired.Spec.Taints {
		wantTaint[taintKey(t)] = true
	}
	previouslyApplied := map[string]bool{}
	for _, k := range splitList(cur.Annotations[appliedTaintsAnnotation]) {
		previouslyApplied[k] = true
	}
	var taints []corev1.Taint
	for _, t := range n.Spec.Taints {
		k := taintKey(t)
		if wantTaint[k] || previouslyApplied[k] {
			continue // replaced by the desired taint below, or removed
		}
		taints = append(taints, t)
	}
	for _, t := range desired.Spec.Taints {
		if old := findTaint(cur.Spec.Taints, t); old != nil && old.Value == t.Value {
			// Keep the existing one, with its timeAdded.
			taints = append(taints, *old)
			continue
		}
		taints = append(taints, t)
	}
	n.Spec.Taints = taints

	changed := !apiequality.Semantic.DeepEqual(cur.Labels, n.Labels) ||
		!apiequality.Semantic.DeepEqual(cur.Annotations, n.Annotations) ||
		!sameTaints(cur.Spec.Taints, n.Spec.Taints)
	return n, changed
}

func findTaint(taints []corev1.Taint, t corev1.Taint) *corev1.Taint {
	for i := range taints {
		if taints[i].Key == t.Key && taints[i].Effect == t.Effect {
			return &taints[i]
		}
	}
	return nil
}

func sameTaints(a, b []corev1.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for _, t := range a {
		o := findTaint(b, t)
		if o == nil || o.Value != t.Value {
			return false
		}
	}
	return true
}

func taintKey(t corev1.Taint) string { return t.Key + ":" + string(t.Effect) }

func taintKeys(taints []corev1.Taint) []string {
	keys := make([]string, 0, len(taints))
	for _, t := range taints {
		keys = append(keys, taintKey(t))
	}
	sort.Strings(keys)
	return keys
}

func sortedKeys(m map[string]string) []string {
	keys := slices.Collect(maps.Keys(m))
	sort.Strings(keys)
	return keys
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
