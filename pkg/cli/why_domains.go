package cli

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// DomainExplanation is how the domains of one node label stand for a
// workload whose slices are confined to them.
type DomainExplanation struct {
	// Key is the node label (e.g. cloud.google.com/gke-nodepool).
	Key string `json:"key"`
	// Slices counts the workload's slices confined to one domain each.
	Slices int `json:"slices"`
	// Domains counts the key's domains in the cluster; Matching those
	// whose nodes a slice's node selector and affinity accept and that
	// could hold the slice when empty; Free the matching ones that are
	// healthy and hold no pod.
	Domains  int `json:"domains"`
	Matching int `json:"matching"`
	Free     int `json:"free"`
	// FreeDomains names them.
	FreeDomains []string `json:"freeDomains,omitempty"`
	// Own are the domains its own pods are on.
	Own []string `json:"own,omitempty"`
	// Unhealthy are the matching domains that are not ok.
	Unhealthy []DomainState `json:"unhealthy,omitempty"`
	// Held are the matching domains other workloads hold.
	Held []DomainHold `json:"held,omitempty"`
}

// DomainState is a domain's health.
type DomainState struct {
	Domain   string   `json:"domain"`
	Health   string   `json:"health"`
	Problems []string `json:"problems,omitempty"`
}

// DomainHold is a domain other workloads hold.
type DomainHold struct {
	Domain  string   `json:"domain"`
	Holders []Holder `json:"holders"`
}

// explainDomains sizes up the domains of each key the slices are confined
// by, in the order the keys first appear.
func (c *Cluster) explainDomains(own workload.Holder, slicesOf []workload.Slice) []DomainExplanation {
	var keys []string
	for _, s := range slicesOf {
		if s.DomainKey != "" && !slices.Contains(keys, s.DomainKey) {
			keys = append(keys, s.DomainKey)
		}
	}
	var out []DomainExplanation
	for _, key := range keys {
		doms, nodesOf := domains(c, key)
		d := DomainExplanation{Key: key, Domains: len(doms)}
		var confined []workload.Slice
		for _, s := range slicesOf {
			if s.DomainKey == key {
				confined = append(confined, s)
			}
		}
		d.Slices = len(confined)
		for _, dom := range doms {
			mine, others := false, []Holder(nil)
			for _, h := range dom.Holders {
				id := h.id()
				if id.Key == own.Key && id.UID == "" {
					// Pods that do not say which object they were
					// created for count as the current one's, as the
					// scheduler counts them.
					id.UID = own.UID
				}
				if id.Blocks(&own) {
					others = append(others, h)
				} else {
					mine = true
				}
			}
			if mine {
				d.Own = append(d.Own, dom.Name)
			}
			if !slices.ContainsFunc(confined, func(s workload.Slice) bool { return sliceFits(s, nodesOf[dom.Name]) }) {
				continue
			}
			d.Matching++
			switch {
			case dom.Health != HealthOK:
				d.Unhealthy = append(d.Unhealthy, DomainState{Domain: dom.Name, Health: dom.Health, Problems: dom.Problems})
			case dom.Free():
				d.Free++
				d.FreeDomains = append(d.FreeDomains, dom.Name)
			}
			if len(others) > 0 {
				d.Held = append(d.Held, DomainHold{Domain: dom.Name, Holders: others})
			}
		}
		out = append(out, d)
	}
	return out
}

// sliceFits reports whether a slice could be placed on these nodes were
// they empty: nodes its node selector and required node affinity accept
// have room for all its pods' requests. A slice of unknown shape fits.
func sliceFits(s workload.Slice, nodes []*corev1.Node) bool {
	if s.Template == nil {
		return true
	}
	aff := nodeaffinity.GetRequiredNodeAffinity(&corev1.Pod{Spec: *s.Template})
	room := 0
	for _, n := range nodes {
		if ok, err := aff.Match(n); err != nil || !ok {
			continue
		}
		room += podsFit(s.Request, n, s.Pods)
		if room >= s.Pods {
			return true
		}
	}
	return room >= s.Pods && s.Pods > 0
}

// podsFit is how many pods of request an empty node holds (at most
// limit).
func podsFit(request workload.Resources, n *corev1.Node, limit int) int {
	fit := int64(limit)
	for r, v := range request {
		if v <= 0 || r == corev1.ResourcePods {
			continue
		}
		q, ok := n.Status.Allocatable[r]
		if !ok {
			return 0
		}
		fit = min(fit, q.MilliValue()/v)
	}
	return int(fit)
}
