package localcluster

import (
	"context"
	"fmt"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/autoprovision"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// runningAutoProvisioning is the simulated node auto-provisioning while it
// runs.
type runningAutoProvisioning struct {
	ctrl   *autoprovision.Controller
	cfg    *nodepools.AutoProvisioning
	cancel context.CancelFunc
	done   chan struct{}
}

// applyAutoProvisioning makes the simulated node auto-provisioning follow
// the node pool file's autoProvisioning block: started when the block
// appears, given the new block when it changes (a spot capacity lowered
// preempts spot nodes), stopped when it goes. Stopping leaves its nodes in
// place; started again, it takes their node pools back.
func (c *Cluster) applyAutoProvisioning(cfg *nodepools.AutoProvisioning) error {
	c.autoMu.Lock()
	defer c.autoMu.Unlock()
	running := c.autoProvisioning
	switch {
	case cfg == nil && running == nil:
	case cfg == nil:
		c.autoProvisioning = nil
		running.stop()
		c.logf("node auto-provisioning stopped: the node pool file has no autoProvisioning block; the nodes it created stay")
	case running != nil:
		if apiequality.Semantic.DeepEqual(running.cfg, cfg) {
			return nil
		}
		running.cfg = cfg
		running.ctrl.SetConfig(cfg)
		c.logf("node auto-provisioning reconfigured: %s", DescribeAutoProvisioning(cfg))
	default:
		ctrl, err := autoprovision.NewForConfig(c.AdminConfig, cfg, c.provisionerLog)
		if err != nil {
			return fmt.Errorf("node auto-provisioning: %w", err)
		}
		ctx, cancel := context.WithCancel(c.bg)
		r := &runningAutoProvisioning{ctrl: ctrl, cfg: cfg, cancel: cancel, done: make(chan struct{})}
		go func() {
			defer close(r.done)
			if err := ctrl.Run(ctx); err != nil {
				c.logf("node auto-provisioning stopped: %v", err)
			}
		}()
		c.autoProvisioning = r
		c.logf("node auto-provisioning for ComputeClasses (%s) started: %s", wellknown.ComputeClassLabel, DescribeAutoProvisioning(cfg))
	}
	return nil
}

// AutoProvisioning is the configuration the simulated node
// auto-provisioning runs with; nil when it does not run.
func (c *Cluster) AutoProvisioning() *nodepools.AutoProvisioning {
	c.autoMu.Lock()
	defer c.autoMu.Unlock()
	if c.autoProvisioning == nil {
		return nil
	}
	return c.autoProvisioning.cfg
}

// stopAutoProvisioning stops the node auto-provisioning, if it runs, and
// waits for it.
func (c *Cluster) stopAutoProvisioning() {
	c.autoMu.Lock()
	running := c.autoProvisioning
	c.autoProvisioning = nil
	c.autoMu.Unlock()
	if running != nil {
		running.stop()
	}
}

func (r *runningAutoProvisioning) stop() {
	r.cancel()
	<-r.done
}

// DescribeAutoProvisioning renders an autoProvisioning block in one line.
func DescribeAutoProvisioning(cfg *nodepools.AutoProvisioning) string {
	var kinds []string
	for _, k := range []struct {
		kind computeclass.Capacity
		c    *nodepools.Capacity
	}{{computeclass.Spot, cfg.Spot}, {computeclass.FlexStart, cfg.FlexStart}, {computeclass.OnDemand, cfg.OnDemand}} {
		if k.c == nil {
			continue
		}
		var zones []string
		for _, z := range k.c.Zones {
			zones = append(zones, fmt.Sprintf("%d × %s in %s", z.MaxNodes, z.MachineType, z.Zone))
		}
		timing := "delay " + k.c.Delay.String()
		if k.kind == computeclass.FlexStart {
			timing += ", one node per " + k.c.Interval.String()
		}
		kinds = append(kinds, fmt.Sprintf("%s %s (%s)", k.kind, strings.Join(zones, ", "), timing))
	}
	if len(kinds) == 0 {
		kinds = append(kinds, "no capacity")
	}
	return fmt.Sprintf("%s; drain %s, scale-down after %s unused", strings.Join(kinds, "; "), cfg.DrainTime, cfg.ScaleDownUnneededTime)
}
