package cli

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/queuemodel"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/tas"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Modes of a pod set's topology request, as `why` names them: Kueue's
// three, and "sliced" for slices alone (each slice in one domain of its
// level, the pod set anywhere).
const (
	ModeRequired      = "required"
	ModePreferred     = "preferred"
	ModeUnconstrained = "unconstrained"
	ModeSliced        = "sliced"
)

// TopologyExplanation is how one pod set that asks for a topology (Kueue's
// podset-*-topology annotations on its pod template) stands in the tree of
// levels the scheduler places it in.
type TopologyExplanation struct {
	PodSet string `json:"podSet"`
	Pods   int32  `json:"pods"`
	// PerPod is what each of its pods asks for.
	PerPod string `json:"perPod,omitempty"`
	// Mode is required, preferred, unconstrained or sliced; Level the
	// level one domain of which keeps the pod set (required, preferred);
	// SliceLevel and SliceSize keep each slice of SliceSize pods in one
	// domain of SliceLevel.
	Mode       string `json:"mode"`
	Level      string `json:"level,omitempty"`
	SliceLevel string `json:"sliceLevel,omitempty"`
	SliceSize  int32  `json:"sliceSize,omitempty"`
	// Trees are the trees of levels it is placed in: that of the flavor
	// it is charged to once admitted; while it waits in a queue, those of
	// the flavors it could be charged to, in the order the scheduler tries
	// them; for a workload of no queue, the levels its request names.
	Trees []TopologyTree `json:"trees,omitempty"`
}

// TopologyTree is one tree of levels and how the pod set stands in it.
type TopologyTree struct {
	// Flavor is the ResourceFlavor whose Topology this is, Topology its
	// name; both are empty for a workload of no queue, placed by the
	// levels its request names, above kubernetes.io/hostname.
	Flavor   string `json:"flavor,omitempty"`
	Topology string `json:"topology,omitempty"`
	// Levels are the tree's node labels, highest first.
	Levels []string `json:"levels,omitempty"`
	// Problem says why the pod set cannot be placed in it at all (a
	// Topology that does not exist, a level it lacks).
	Problem string `json:"problem,omitempty"`
	// At is the level the pod set's domains are counted at: its level,
	// or its slice level when unconstrained or sliced (tas.Failure's
	// level).
	At string `json:"at,omitempty"`
	// Placed are the domains of At its bound pods are on.
	Placed []TopologyDomainPods `json:"placed,omitempty"`
	// Now is what the scheduler sees while the pod set waits with none of
	// its pods bound.
	Now *TopologyPicture `json:"now,omitempty"`
}

// TopologyDomainPods is a domain (its path, e.g. b0/s1) and how many of
// the pod set's pods are on it.
type TopologyDomainPods struct {
	Domain string `json:"domain"`
	Pods   int    `json:"pods"`
}

// TopologyPicture is the domains of the tree's level At as the scheduler's
// placement counts them now: each node's free room (allocatable less what
// its bound pods request) in pods of the pod set's shape, summed up the
// tree in whole slices (tas.Takes), and what tas.Place decides with them.
type TopologyPicture struct {
	Domains int `json:"domains"`
	// Largest is the most of its pods one domain takes now; Fitting how
	// many domains take all of them; Total what all of them take together.
	Largest int32 `json:"largest"`
	Fitting int   `json:"fitting"`
	Total   int32 `json:"total"`
	// FitsIn are the domains the scheduler's placement would choose now;
	// Message is what it says when the pod set does not fit.
	FitsIn  []string `json:"fitsIn,omitempty"`
	Message string   `json:"message,omitempty"`
}

// explainTopology explains the workload's pod sets that ask for a
// topology; waiting says the workload waits to be placed. It places them
// as the scheduler does (pkg/admission's placePodSet): the same tree
// (topology.NewTree over the flavor's nodes), the same request
// (tas.PodSetRequest), each node's fit in pods (tas.AsksIn) and the same
// placement (tas.Place, tas.Takes), from what the API shows: room the
// scheduler has reserved for workloads whose pods are not bound yet is not
// seen.
func (c *Cluster) explainTopology(wl *multislicev1alpha1.Workload, model *workload.Workload, pods []*corev1.Pod, waiting bool) []TopologyExplanation {
	if model == nil {
		return nil
	}
	all := make([]int, len(model.Slices))
	for i := range all {
		all[i] = i
	}
	podSets := model.TopologyPodSets(all)
	if len(podSets) == 0 {
		return nil
	}
	nodes := map[string]*corev1.Node{}
	for _, n := range c.Nodes {
		nodes[n.Name] = n
	}
	var free map[string]workload.Resources
	out := make([]TopologyExplanation, 0, len(podSets))
	for _, ps := range podSets {
		first := &model.Slices[ps.Slices[0]]
		r := ps.Request
		te := TopologyExplanation{PodSet: ps.Name, Pods: ps.Pods, PerPod: first.Request.String(), Mode: modeOf(r),
			Level: r.Level, SliceLevel: r.SliceLevel, SliceSize: r.SliceSize}
		var on []*corev1.Node // the nodes of its bound pods
		for _, p := range pods {
			if m, ok := c.memberOf(p); ok && slices.Contains(ps.Slices, m.Slice) && bound(p) {
				on = append(on, nodes[p.Spec.NodeName])
			}
		}
		for _, t := range c.topologyTrees(wl, ps, first) {
			if t.Problem == "" {
				if err := r.CheckLevels(t.Levels); err != nil {
					t.Problem = err.Error()
				}
			}
			if t.Problem != "" {
				te.Trees = append(te.Trees, t.TopologyTree)
				continue
			}
			tree := topology.NewTree(t.Levels, c.nodeLabels(t.selector))
			req := tas.PodSetRequest(r, tree, ps.Pods)
			lvl := req.AskedLevel()
			t.At, t.Placed = t.Levels[lvl], placedIn(on, t.Levels[:lvl+1])
			if waiting && len(on) == 0 && ps.Pods > 0 {
				if free == nil {
					free = c.freeRoom()
				}
				t.Now = picture(ps, first, tree, req, nodes, free)
			}
			te.Trees = append(te.Trees, t.TopologyTree)
		}
		out = append(out, te)
	}
	return out
}

// modeOf names a request's mode.
func modeOf(r *workload.TopologyRequest) string {
	switch {
	case r.Mode == workload.TopologyRequired:
		return ModeRequired
	case r.Mode == workload.TopologyPreferred:
		return ModePreferred
	case r.SliceLevel != "":
		return ModeSliced
	}
	return ModeUnconstrained
}

// topologyTree is a TopologyTree with the node labels of its flavor.
type topologyTree struct {
	TopologyTree
	selector map[string]string
}

// topologyTrees are the trees the pod set is placed in (see
// TopologyExplanation.Trees), each with its levels or what is wrong with
// it, as the scheduler reads them (pkg/admission's topologyLevels): the
// first flavor, by name, of those it is charged to that names a Topology;
// while it waits in a queue, every flavor of its ClusterQueue that could
// be charged for its pods and names one.
func (c *Cluster) topologyTrees(wl *multislicev1alpha1.Workload, ps workload.PodSet, first *workload.Slice) []topologyTree {
	if wl == nil {
		return []topologyTree{{TopologyTree: TopologyTree{Levels: tas.QueuelessLevels(ps.Request)}}}
	}
	names, admitted := chargedFlavors(wl, first.Name), true
	if names == nil {
		names, admitted = c.queueFlavors(wl, first.Request), false
	}
	var out []topologyTree
	var without []string
	for _, name := range names {
		rf := find(c.ResourceFlavors, "", name)
		if rf == nil {
			out = append(out, topologyTree{TopologyTree: TopologyTree{Flavor: name, Problem: fmt.Sprintf("ResourceFlavor %s does not exist", name)}})
			continue
		}
		if rf.Spec.TopologyName == "" {
			without = append(without, name)
			continue
		}
		f := queuemodel.Flavor(rf, find(c.Topologies, "", rf.Spec.TopologyName))
		t := topologyTree{TopologyTree: TopologyTree{Flavor: name, Topology: f.Topology, Levels: f.TopologyLevels}, selector: f.NodeLabels}
		if f.TopologyLevels == nil {
			t.Problem = fmt.Sprintf("ResourceFlavor %s names Topology %q, which does not exist: create it, or fix spec.topologyName", name, f.Topology)
		}
		out = append(out, t)
		if admitted {
			break
		}
	}
	if len(out) == 0 {
		problem := "its ClusterQueue has no flavor for its pods yet"
		if len(without) > 0 {
			problem = fmt.Sprintf("it asks for a topology, but ResourceFlavor %s it can be charged to names none: give the flavor spec.topologyName, or queue it where one does",
				strings.Join(without, ", "))
		}
		out = append(out, topologyTree{TopologyTree: TopologyTree{Problem: problem}})
	}
	return out
}

// chargedFlavors are the flavors the slice named slice is charged to, by
// name (nil: its workload holds no quota).
func chargedFlavors(wl *multislicev1alpha1.Workload, slice string) []string {
	if wl.Status.Admission == nil {
		return nil
	}
	for _, a := range wl.Status.Admission.PodSetAssignments {
		if a.Name == slice {
			return slices.Compact(slices.Sorted(maps.Values(a.Flavors)))
		}
	}
	return nil
}

// queueFlavors are the flavors of the workload's ClusterQueue that could
// be charged for pods asking request: those of the resource groups that
// cover what it asks, in the queue's order.
func (c *Cluster) queueFlavors(wl *multislicev1alpha1.Workload, request workload.Resources) []string {
	lq := find(c.LocalQueues, wl.Namespace, wl.Spec.QueueName)
	if lq == nil {
		return nil
	}
	cq := find(c.ClusterQueues, "", lq.Spec.ClusterQueue)
	if cq == nil {
		return nil
	}
	m, err := queuemodel.ClusterQueue(cq)
	if err != nil {
		return nil
	}
	var out []string
	for _, g := range m.Groups {
		for r, v := range request {
			if v > 0 && r != corev1.ResourcePods && g.Covers(r) {
				for _, f := range g.Flavors {
					if !slices.Contains(out, f) {
						out = append(out, f)
					}
				}
				break
			}
		}
	}
	return out
}

// nodeLabels are the labels of the nodes that carry every label of
// selector (quota.AdmitsNode, the flavors' rule), by node name.
func (c *Cluster) nodeLabels(selector map[string]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, n := range c.Nodes {
		if quota.AdmitsNode(selector, n.Labels) {
			out[n.Name] = n.Labels
		}
	}
	return out
}

// freeRoom is each node's allocatable less what the live pods bound to it
// request (workload.PodRequests, as the scheduler counts a pod).
func (c *Cluster) freeRoom() map[string]workload.Resources {
	out := map[string]workload.Resources{}
	for _, n := range c.Nodes {
		out[n.Name] = workload.FromList(n.Status.Allocatable)
	}
	for _, p := range c.Pods {
		if bound(p) && out[p.Spec.NodeName] != nil {
			out[p.Spec.NodeName] = out[p.Spec.NodeName].Sub(workload.PodRequests(&p.Spec))
		}
	}
	return out
}

// picture counts the domains of the pod set's level in tree and places
// the pod set there, as the scheduler would now: each node (of nodes, by
// name) taking new pods (topology.Usable) that its pods' node selector and
// required affinity accept takes tas.AsksIn of its free room.
func picture(ps workload.PodSet, first *workload.Slice, tree *topology.Tree, req tas.Request,
	nodes map[string]*corev1.Node, free map[string]workload.Resources) *TopologyPicture {
	var affinity nodeaffinity.RequiredNodeAffinity
	if first.Template != nil {
		affinity = nodeaffinity.GetRequiredNodeAffinity(&corev1.Pod{Spec: *first.Template})
	}
	fit := tas.Fit{}
	asks := first.Request.Asks() // counted in every node's room
	for _, leaf := range tree.Domains(len(tree.Levels) - 1) {
		for _, name := range leaf.Nodes {
			n := nodes[name]
			if !topology.Usable(n) {
				continue
			}
			if first.Template != nil {
				if ok, err := affinity.Match(n); err != nil || !ok {
					continue
				}
			}
			if k := tas.AsksIn(free[name], asks, req.Pods); k > 0 {
				fit[name] = k
			}
		}
	}
	lvl := req.AskedLevel()
	takes := tas.Takes(tree, fit, req, lvl)
	p := &TopologyPicture{Domains: len(takes)}
	var total int64
	for _, n := range takes {
		p.Largest = max(p.Largest, n)
		if n >= req.Pods {
			p.Fitting++
		}
		total += int64(n)
	}
	p.Total = int32(min(total, math.MaxInt32))
	placed, f := tas.Place(tree, fit, req)
	if f != nil {
		p.Message = fmt.Sprintf("pod set %s: %s", ps.Name, tas.InResources(f.Message, first.Request))
		return p
	}
	for _, d := range placed.Domains {
		p.FitsIn = append(p.FitsIn, d.ID())
	}
	return p
}

// placedIn counts the pods on nodes (nil: a node not listed) by their
// domain of the last of levels, named by its path; a node lacking a level's
// label counts as outside the tree.
func placedIn(nodes []*corev1.Node, levels []string) []TopologyDomainPods {
	if len(nodes) == 0 {
		return nil
	}
	count := map[string]int{}
	for _, n := range nodes {
		id := "(outside the topology)"
		if n != nil {
			path := make([]string, 0, len(levels))
			for _, key := range levels {
				v, ok := n.Labels[key]
				if !ok {
					path = nil
					break
				}
				path = append(path, v)
			}
			if path != nil {
				id = strings.Join(path, "/")
			}
		}
		count[id]++
	}
	out := make([]TopologyDomainPods, 0, len(count))
	for id, n := range count {
		out = append(out, TopologyDomainPods{Domain: id, Pods: n})
	}
	slices.SortFunc(out, func(a, b TopologyDomainPods) int { return cmp.Compare(a.Domain, b.Domain) })
	return out
}
