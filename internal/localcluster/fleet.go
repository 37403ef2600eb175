package localcluster

import (
	"context"
	"fmt"
	"net"
	"strconv"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The fleet page (cmd/multislice-fleet) runs as its own user, which may
// read what the page shows and nothing else: the page only reads.
const (
	fleetComponent = "multislice-fleet"
	fleetUser      = "multislice-fleet"
	fleetRole      = "multislice-fleet-viewer"
)

// fleetRules are what the page reads (pkg/cli/gather's resources).
var fleetRules = []rbacv1.PolicyRule{
	{APIGroups: []string{""}, Resources: []string{"nodes", "pods", "events"}},
	{APIGroups: []string{"batch"}, Resources: []string{"jobs"}},
	{APIGroups: []string{"jobset.x-k8s.io"}, Resources: []string{"jobsets"}},
	{APIGroups: []string{"scheduling.x-k8s.io"}, Resources: []string{"podgroups"}},
	{APIGroups: []string{"scheduling.k8s.io"}, Resources: []string{"podgroups", "compositepodgroups"}},
	{APIGroups: []string{"multislice.dev"}, Resources: []string{"clusterqueues", "localqueues", "workloads", "resourceflavors", "admissionchecks", "topologies"}},
	{APIGroups: []string{"cloud.google.com"}, Resources: []string{"computeclasses"}},
	{APIGroups: []string{"autoscaling.x-k8s.io"}, Resources: []string{"provisioningrequests"}},
}

// installFleetViewer lets the page's user get, list and watch what it
// reads.
func (c *Cluster) installFleetViewer(ctx context.Context) error {
	rules := make([]rbacv1.PolicyRule, len(fleetRules))
	for i, r := range fleetRules {
		r.Verbs = []string{"get", "list", "watch"}
		rules[i] = r
	}
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: fleetRole}, Rules: rules}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: fleetRole},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: fleetRole},
		Subjects:   []rbacv1.Subject{{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: fleetUser}},
	}
	if _, err := c.Client.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{FieldManager: fieldManager}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("ClusterRole %s: %w", fleetRole, err)
	}
	if _, err := c.Client.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{FieldManager: fieldManager}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("ClusterRoleBinding %s: %w", fleetRole, err)
	}
	return nil
}

// fleetArgs are the page's flags.
func fleetArgs(kubeconfig string, port int) []string {
	return []string{"--kubeconfig=" + kubeconfig, "--address=127.0.0.1:" + strconv.Itoa(port)}
}

// FleetURL is the fleet page's address.
func (c *Cluster) FleetURL() string { return loopbackURL("http", c.ports.fleet) + "/" }

// fleetPort is the preferred port if it is free on loopback, else 0 (any
// free port): a page that stays at one address across runs, when it can.
func fleetPort(preferred int) (int, error) {
	if preferred <= 0 {
		return 0, nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(preferred)))
	if err != nil {
		return 0, nil
	}
	return preferred, l.Close()
}
