package localcluster

import (
	"net"
	"slices"
	"strings"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
)

// The fleet page's role lets it read every resource it may read, and
// only read.
func TestFleetRules(t *testing.T) {
	everything := gather.Need{Nodes: true, Pods: true, Events: true, Owners: true, Queues: true, Checks: true, Classes: true}
	for _, r := range gather.Resources(everything) {
		// A name the gather spells with its group (podgroups.scheduling.k8s.io)
		// is that group's.
		resource, group, grouped := strings.Cut(r, ".")
		if !slices.ContainsFunc(fleetRules, func(rule rbacv1.PolicyRule) bool {
			return slices.Contains(rule.Resources, resource) && (!grouped || slices.Contains(rule.APIGroups, group))
		}) {
			t.Errorf("the fleet page's role does not cover %s", r)
		}
	}
	for _, rule := range fleetRules {
		if len(rule.Verbs) != 0 {
			t.Errorf("rule %v sets its own verbs; installFleetViewer gives get, list and watch", rule)
		}
	}
}

// The page keeps its preferred port when it is free, and takes any other
// when it is not.
func TestFleetPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	taken := l.Addr().(*net.TCPAddr).Port
	if got, err := fleetPort(taken); got != 0 || err != nil {
		t.Errorf("fleetPort(%d) while it is taken = %d, %v; want 0 (any)", taken, got, err)
	}
	p, err := freePorts(1, taken)
	if err != nil || p.fleet == 0 || p.fleet == taken {
		t.Errorf("freePorts with the fleet's port taken: fleet port %d (%v)", p.fleet, err)
	}
	_ = l.Close()
	if got, err := fleetPort(taken); got != taken || err != nil {
		t.Errorf("fleetPort(%d) once it is free = %d, %v", taken, got, err)
	}
	if p, err := freePorts(1, taken); err != nil || p.fleet != taken {
		t.Errorf("freePorts with the fleet's port free: %d (%v), want %d", p.fleet, err, taken)
	}
	if got, _ := fleetPort(0); got != 0 {
		t.Errorf("fleetPort(0) = %d", got)
	}
}
