package cli

import (
	corev1 "k8s.io/api/core/v1"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/queuemodel"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
)

// PoolDomain is a domain of the Topology a pool's nodes are arranged by
// (a block, a subblock), as the fleet page draws it: nested, with the
// hosts of its last level.
type PoolDomain struct {
	// Level is the node label of the domain's level; Value its value.
	Level string `json:"level"`
	Value string `json:"value"`
	// Domains are those of the next level inside it, in natural order
	// (subblock 8 before 10); Hosts its nodes, at the last level above the
	// node itself.
	Domains []PoolDomain `json:"domains,omitempty"`
	Hosts   []PoolHost   `json:"hosts,omitempty"`
}

// PoolHost is one node of a pool arranged by a Topology: what its pods use
// of the pool's accelerator, its health and the workloads with pods on it.
type PoolHost struct {
	Node     string        `json:"node"`
	Used     int64         `json:"used,omitempty"`
	Capacity int64         `json:"capacity,omitempty"`
	Health   string        `json:"health"`
	Holders  []WorkloadRef `json:"holders,omitempty"`
}

// arrangeByTopology sets the pool's TopologyName and Domains: the first
// of topologies (sorted by name), whose levels above the node itself every node of the
// pool carries; none when no Topology does. Its nodes are arranged as
// placement arranges them (topology.NewTree): a pool of GKE's GPU hosts
// shows its blocks, their subblocks and their hosts.
func arrangeByTopology(c *Cluster, topologies []*multislicev1alpha1.Topology, p *Pool, nodes []*corev1.Node, podsOn map[string][]*corev1.Pod, classes map[string]*cloudv1.ComputeClass) {
	for _, t := range topologies {
		levels := levelsAboveNode(t)
		if len(levels) == 0 || len(nodes) == 0 {
			continue
		}
		labels := make(map[string]map[string]string, len(nodes))
		carried := true
		for _, n := range nodes {
			for _, key := range levels {
				if _, ok := n.Labels[key]; !ok {
					carried = false
				}
			}
			labels[n.Name] = n.Labels
		}
		if !carried {
			continue
		}
		byName := make(map[string]*corev1.Node, len(nodes))
		for _, n := range nodes {
			byName[n.Name] = n
		}
		tree := topology.NewTree(levels, labels)
		p.TopologyName = t.Name
		p.Domains = poolDomains(c, p, tree, tree.Roots, byName, podsOn, classes)
		return
	}
}

// levelsAboveNode are the Topology's level labels but a last
// kubernetes.io/hostname: a pool's hosts are its nodes.
func levelsAboveNode(t *multislicev1alpha1.Topology) []string {
	levels := queuemodel.TopologyLevels(t)
	if n := len(levels); n > 0 && levels[n-1] == corev1.LabelHostname {
		levels = levels[:n-1]
	}
	return levels
}

// poolDomains are the domains ds of tree, with their hosts: nodes and
// podsOn (the bound pods on each node) are the pool's.
func poolDomains(c *Cluster, p *Pool, tree *topology.Tree, ds []*topology.TreeDomain, nodes map[string]*corev1.Node,
	podsOn map[string][]*corev1.Pod, classes map[string]*cloudv1.ComputeClass) []PoolDomain {
	out := make([]PoolDomain, 0, len(ds))
	for _, d := range ds {
		pd := PoolDomain{Level: tree.Levels[d.Level], Value: d.Value}
		if len(d.Children) > 0 {
			pd.Domains = poolDomains(c, p, tree, d.Children, nodes, podsOn, classes)
		}
		for _, name := range d.Nodes {
			n := nodes[name]
			h := PoolHost{Node: name}
			h.Health, _ = nodeHealth(c, classes, n)
			if p.Resource != "" {
				q := n.Status.Allocatable[corev1.ResourceName(p.Resource)]
				h.Capacity = q.Value()
				h.Used = acceleratorUsed(podsOn[name], p.Resource)
			}
			for _, holder := range c.holders(podsOn[name]) {
				h.Holders = append(h.Holders, holder.Workload)
			}
			pd.Hosts = append(pd.Hosts, h)
		}
		out = append(out, pd)
	}
	return out
}
