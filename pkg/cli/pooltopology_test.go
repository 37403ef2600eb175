package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// renderDomains writes a pool's domains on one line each, nested by
// indentation: "b0" then "  s0: b0-s0-h0 8/8 ok Pod ns/busy-0, …".
func renderDomains(ds []PoolDomain, indent string) []string {
	var out []string
	for _, d := range ds {
		line := indent + d.Level[strings.LastIndex(d.Level, "-")+1:] + " " + d.Value
		var hosts []string
		for _, h := range d.Hosts {
			s := fmt.Sprintf("%s %d/%d %s", h.Node, h.Used, h.Capacity, h.Health)
			for _, w := range h.Holders {
				s += " " + w.String()
			}
			hosts = append(hosts, s)
		}
		if len(hosts) > 0 {
			line += ": " + strings.Join(hosts, ", ")
		}
		out = append(out, line)
		out = append(out, renderDomains(d.Domains, indent+"  ")...)
	}
	return out
}

// A pool whose nodes carry a Topology's levels lists its blocks, their
// subblocks and their hosts, each host with what its pods use and whose
// they are; a pool that lacks a level, or a fleet with no Topology, lists
// none.
func TestPoolsArrangedByTopology(t *testing.T) {
	c := gpuCluster()
	c.Nodes = append(c.Nodes, builders.V5ePool("tpu-1").Build()...)
	// gpu-h100's host 10 moves to a subblock numbered 10: natural order
	// puts it after s2.
	for _, n := range c.Nodes {
		if n.Name == "b1-s3-h3" {
			n.Labels[subblock] = "s10"
		}
	}
	pools := Pools(&c)
	got := map[string][]string{}
	names := map[string]string{}
	for _, p := range pools {
		got[p.Name] = renderDomains(p.Domains, "")
		names[p.Name] = p.TopologyName
	}
	want := map[string][]string{
		"gpu-h100": {
			"block b0",
			"  subblock s0: b0-s0-h0 8/8 ok Pod ns/busy-0, b0-s0-h1 8/8 ok Pod ns/busy-1, b0-s0-h2 0/8 ok, b0-s0-h3 0/8 ok",
			"  subblock s1: b0-s1-h0 0/8 ok, b0-s1-h1 0/8 ok, b0-s1-h2 0/8 ok, b0-s1-h3 0/8 ok",
			"block b1",
			"  subblock s2: b1-s2-h0 0/8 ok, b1-s2-h1 0/8 ok, b1-s2-h2 0/8 ok, b1-s2-h3 0/8 ok",
			"  subblock s3: b1-s3-h0 0/8 ok, b1-s3-h1 0/8 ok, b1-s3-h2 0/8 ok",
			"  subblock s10: b1-s3-h3 0/8 ok",
		},
		"tpu-1": nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("domains (-want +got):\n%s", diff)
	}
	if names["gpu-h100"] != "gke-gpu" || names["tpu-1"] != "" {
		t.Errorf("topology names %v, want gpu-h100 arranged by gke-gpu, tpu-1 by none", names)
	}

	// A host without the subblock label: the pool is arranged by no
	// Topology (its first Topology by name that every node carries).
	c = gpuCluster()
	delete(c.Nodes[0].Labels, subblock)
	c.Topologies = append(c.Topologies, builders.Topology("a-blocks", block, hostname))
	for _, p := range Pools(&c) {
		if p.TopologyName != "a-blocks" || len(p.Domains) != 2 || len(p.Domains[0].Hosts) != 8 {
			t.Errorf("pool %s arranged by %q into %d domains; want a-blocks, 2 blocks of 8 hosts", p.Name, p.TopologyName, len(p.Domains))
		}
	}
	c.Topologies = []*multislicev1alpha1.Topology{builders.Topology("gke-gpu", block, subblock, hostname)}
	for _, p := range Pools(&c) {
		if p.TopologyName != "" || p.Domains != nil {
			t.Errorf("pool %s arranged by %q though a node lacks %s", p.Name, p.TopologyName, subblock)
		}
	}
}
