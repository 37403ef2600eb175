package localcluster

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/provisioner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// ApplyNodePools makes the cluster's simulated nodes match pools: it
// creates missing nodes, updates changed ones and deletes the ones no pool
// has any more (their pods are then removed by the pod garbage collector).
func (c *Cluster) ApplyNodePools(ctx context.Context, pools []nodepools.ExpandedPool) (nodepools.Plan, error) {
	nodes := c.Client.CoreV1().Nodes()
	list, err := nodes.List(ctx, metav1.ListOptions{})
	if err != nil {
		return nodepools.Plan{}, err
	}
	existing := make([]*corev1.Node, 0, len(list.Items))
	for i := range list.Items {
		existing = append(existing, &list.Items[i])
	}
	plan := nodepools.Diff(nodepools.Nodes(pools), existing)
	for _, n := range plan.Create {
		if _, err := nodes.Create(ctx, n, metav1.CreateOptions{FieldManager: fieldManager}); err != nil {
			return plan, fmt.Errorf("create node %s: %w", n.Name, err)
		}
	}
	for _, n := range plan.Update {
		if _, err := nodes.Update(ctx, n, metav1.UpdateOptions{FieldManager: fieldManager}); err != nil {
			return plan, fmt.Errorf("update node %s: %w", n.Name, err)
		}
	}
	for _, n := range plan.UpdateStatus {
		cur, err := nodes.Get(ctx, n.Name, metav1.GetOptions{})
		if err != nil {
			return plan, err
		}
		cur.Status.Capacity = n.Status.Capacity
		cur.Status.Allocatable = n.Status.Allocatable
		if _, err := nodes.UpdateStatus(ctx, cur, metav1.UpdateOptions{FieldManager: fieldManager}); err != nil {
			return plan, fmt.Errorf("update capacity of node %s: %w", n.Name, err)
		}
	}
	for _, name := range plan.Delete {
		if err := nodes.Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return plan, fmt.Errorf("delete node %s: %w", name, err)
		}
	}
	return plan, nil
}

// SetNodePools makes the cluster's simulated nodes those of a node pool
// file's content, as an edit of the file a cluster watches does, and waits
// up to timeout until every node of its pools is Ready.
//
// The file's queuedProvisioning and autoProvisioning blocks start,
// reconfigure or stop the simulated queued provisioner and node
// auto-provisioning as they do at start-up.
func (c *Cluster) SetNodePools(ctx context.Context, data []byte, timeout time.Duration) (nodepools.Plan, error) {
	cfg, err := nodepools.ParseConfig(data)
	if err != nil {
		return nodepools.Plan{}, err
	}
	plan, err := c.ApplyNodePools(ctx, cfg.Pools)
	if err != nil {
		return plan, err
	}
	if err := c.applyQueuedProvisioning(cfg.QueuedProvisioning); err != nil {
		return plan, err
	}
	if err := c.applyAutoProvisioning(cfg.AutoProvisioning); err != nil {
		return plan, err
	}
	return plan, c.waitForNodesReady(ctx, cfg.Pools, timeout)
}

// waitForNodesReady waits until every node of pools is Ready and schedulable.
func (c *Cluster) waitForNodesReady(ctx context.Context, pools []nodepools.ExpandedPool, timeout time.Duration) error {
	want := map[string]bool{}
	for _, n := range nodepools.Nodes(pools) {
		want[n.Name] = true
	}
	var notReady []string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		if err := c.componentFailure(); err != nil {
			return false, err
		}
		list, err := c.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: nodepools.ManagedLabel + "=true"})
		if err != nil {
			return false, nil
		}
		notReady = notReady[:0]
		ready := map[string]bool{}
		for i := range list.Items {
			// Ready, and the node lifecycle controller has lifted the
			// not-ready taints that every new node starts with.
			if faults.NodeHealth(&list.Items[i]) == faults.Healthy {
				ready[list.Items[i].Name] = true
			}
		}
		for name := range want {
			if !ready[name] {
				notReady = append(notReady, name)
			}
		}
		return len(notReady) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("nodes not Ready (%d of %d, e.g. %v): %w", len(notReady), len(want), first(notReady, 3), err)
	}
	return nil
}

// watchNodePools re-applies the node pool file whenever its content
// changes, until ctx ends. An invalid file is reported and ignored: the
// cluster keeps its nodes until the file is fixed.
func (c *Cluster) watchNodePools(ctx context.Context, path string, initial []byte) {
	last := initial
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		data, err := os.ReadFile(path)
		if err != nil || bytes.Equal(data, last) {
			continue
		}
		last = data
		cfg, err := nodepools.ParseConfig(data)
		if err != nil {
			c.logf("node pool file %s is invalid, nodes unchanged:\n%v", path, err)
			continue
		}
		plan, err := c.ApplyNodePools(ctx, cfg.Pools)
		if err != nil {
			c.logf("applying %s: %v", path, err)
			continue
		}
		c.logf("node pools updated from %s: %d nodes created, %d updated, %d deleted",
			path, len(plan.Create), len(plan.Update)+len(plan.UpdateStatus), len(plan.Delete))
		if err := c.applyQueuedProvisioning(cfg.QueuedProvisioning); err != nil {
			c.logf("queued provisioning: %v", err)
		}
		if err := c.applyAutoProvisioning(cfg.AutoProvisioning); err != nil {
			c.logf("node auto-provisioning: %v", err)
		}
	}
}

// runningProvisioner is the simulated queued provisioner while it runs.
type runningProvisioner struct {
	ctrl   *provisioner.Controller
	cfg    *nodepools.QueuedProvisioning
	cancel context.CancelFunc
	done   chan struct{}
}

// applyQueuedProvisioning makes the simulated queued provisioner follow the
// node pool file's queuedProvisioning block: started when the block
// appears, given the new block when it changes, stopped when it goes.
// Stopping leaves the nodes it provisioned in place; a provisioner started
// again takes them back by their requests.
func (c *Cluster) applyQueuedProvisioning(cfg *nodepools.QueuedProvisioning) error {
	c.provMu.Lock()
	defer c.provMu.Unlock()
	running := c.provisioner
	switch {
	case cfg == nil && running == nil:
	case cfg == nil:
		c.provisioner = nil
		running.stop()
		c.logf("queued provisioning stopped: the node pool file has no queuedProvisioning block; the nodes it provisioned stay")
	case running != nil:
		if apiequality.Semantic.DeepEqual(running.cfg, cfg) {
			return nil
		}
		running.cfg = cfg
		running.ctrl.SetConfig(cfg)
		c.logf("queued provisioning reconfigured: %s", DescribeQueuedProvisioning(cfg))
	default:
		ctrl, err := provisioner.NewForConfig(c.AdminConfig, cfg, c.provisionerLog)
		if err != nil {
			return fmt.Errorf("queued provisioning: %w", err)
		}
		ctx, cancel := context.WithCancel(c.bg)
		r := &runningProvisioner{ctrl: ctrl, cfg: cfg, cancel: cancel, done: make(chan struct{})}
		go func() {
			defer close(r.done)
			if err := ctrl.Run(ctx); err != nil {
				c.logf("queued provisioning stopped: %v", err)
			}
		}()
		c.provisioner = r
		c.logf("queued provisioning (%s) started: %s", wellknown.QueuedProvisioningClass, DescribeQueuedProvisioning(cfg))
	}
	return nil
}

// QueuedProvisioning is the configuration the simulated queued provisioner
// runs with; nil when it does not run.
func (c *Cluster) QueuedProvisioning() *nodepools.QueuedProvisioning {
	c.provMu.Lock()
	defer c.provMu.Unlock()
	if c.provisioner == nil {
		return nil
	}
	return c.provisioner.cfg
}

// stopProvisioner stops the provisioner, if it runs, and waits for it.
func (c *Cluster) stopProvisioner() {
	c.provMu.Lock()
	running := c.provisioner
	c.provisioner = nil
	c.provMu.Unlock()
	if running != nil {
		running.stop()
	}
}

func (r *runningProvisioner) stop() {
	r.cancel()
	<-r.done
}

// provisionerLog prints what the provisioner does with the time of day, so
// that the lines read as a timeline.
func (c *Cluster) provisionerLog(format string, args ...any) {
	c.logf("%s %s", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// DescribeQueuedProvisioning renders a queuedProvisioning block in one line.
func DescribeQueuedProvisioning(cfg *nodepools.QueuedProvisioning) string {
	zones := make([]string, 0, len(cfg.Zones))
	for _, z := range cfg.Zones {
		nodes := "nodes"
		if z.MaxNodes == 1 {
			nodes = "node"
		}
		zones = append(zones, fmt.Sprintf("%s (%d %s)", z.Name, z.MaxNodes, nodes))
	}
	gpus := cfg.Machine.Capacity[wellknown.ResourceGPU]
	return fmt.Sprintf("%s × %s per node in %s; delay %s, booking %s",
		gpus.String(), cfg.Machine.Accelerator, strings.Join(zones, ", "), cfg.Delay, cfg.BookingTime)
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
