package faults

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Injector fails and recovers the simulated node pools of a cluster.
type Injector struct {
	Client kubernetes.Interface
	// Now is the clock for taint timestamps; time.Now when nil.
	Now func() time.Time
}

// PoolStatus is a pool and its health.
type PoolStatus struct {
	Name   string
	Nodes  int
	Health Health
}

// Pools lists the simulated pools and their health, sorted by name.
func (in *Injector) Pools(ctx context.Context) ([]PoolStatus, error) {
	byPool, err := in.nodesByPool(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]PoolStatus, 0, len(byPool))
	for name, nodes := range byPool {
		h, err := PoolHealth(nodes)
		if err != nil {
			return nil, err
		}
		out = append(out, PoolStatus{Name: name, Nodes: len(nodes), Health: h})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// FailPool taints every node of the pool. Failing a failed pool changes
// nothing.
func (in *Injector) FailPool(ctx context.Context, pool string) error {
	now := time.Now
	if in.Now != nil {
		now = in.Now
	}
	return in.updatePool(ctx, pool, func(n *corev1.Node) bool { return Fail(n, now()) })
}

// RecoverPool removes the failure taint from every node of the pool.
// Recovering a healthy pool changes nothing.
func (in *Injector) RecoverPool(ctx context.Context, pool string) error {
	return in.updatePool(ctx, pool, Recover)
}

// WaitForHealth waits until the pool reports the wanted health.
func (in *Injector) WaitForHealth(ctx context.Context, pool string, want Health, timeout time.Duration) error {
	var last Health
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		nodes, err := in.poolNodes(ctx, pool)
		if err != nil {
			return false, err
		}
		last, err = PoolHealth(nodes)
		if err != nil {
			return false, err
		}
		return last == want, nil
	})
	if err != nil {
		return fmt.Errorf("pool %s is %s, not %s: %w", pool, last, want, err)
	}
	return nil
}

// FailNode taints one node as FailPool taints a pool's: a host of a pool
// fails alone. Failing a failed node changes nothing.
func (in *Injector) FailNode(ctx context.Context, name string) error {
	now := time.Now
	if in.Now != nil {
		now = in.Now
	}
	return in.updateNode(ctx, name, func(n *corev1.Node) bool { return Fail(n, now()) })
}

// RecoverNode removes the failure taint from one node.
func (in *Injector) RecoverNode(ctx context.Context, name string) error {
	return in.updateNode(ctx, name, Recover)
}

func (in *Injector) updatePool(ctx context.Context, pool string, mutate func(*corev1.Node) bool) error {
	nodes, err := in.poolNodes(ctx, pool)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		if err := in.updateNode(ctx, n.Name, mutate); err != nil {
			return fmt.Errorf("pool %s: %w", pool, err)
		}
	}
	return nil
}

// updateNode applies mutate to node name, retrying on conflicts; it writes
// only when mutate reports a change.
func (in *Injector) updateNode(ctx context.Context, name string, mutate func(*corev1.Node) bool) error {
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := in.Client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if !mutate(cur) {
			return nil
		}
		_, err = in.Client.CoreV1().Nodes().Update(ctx, cur, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("node %s: %w", name, err)
	}
	return nil
}

func (in *Injector) poolNodes(ctx context.Context, pool string) ([]*corev1.Node, error) {
	byPool, err := in.nodesByPool(ctx)
	if err != nil {
		return nil, err
	}
	nodes, ok := byPool[pool]
	if !ok {
		names := make([]string, 0, len(byPool))
		for name := range byPool {
			names = append(names, name)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("no simulated node pool %q (pools: %s)", pool, strings.Join(names, ", "))
	}
	return nodes, nil
}

func (in *Injector) nodesByPool(ctx context.Context) (map[string][]*corev1.Node, error) {
	list, err := in.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: nodepools.ManagedLabel + "=true"})
	if err != nil {
		return nil, err
	}
	byPool := map[string][]*corev1.Node{}
	for i := range list.Items {
		n := &list.Items[i]
		if pool := n.Labels[wellknown.NodePoolLabel]; pool != "" {
			byPool[pool] = append(byPool[pool], n)
		}
	}
	return byPool, nil
}
