// Package demo runs a scenario script against a local cluster: apply
// manifests, wait for JobSets, Jobs, ProvisioningRequests and node pools,
// change, fail and recover node pools.
package demo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

// Scenario is a demo.yaml file.
type Scenario struct {
	APIVersion  string           `json:"apiVersion"`
	Kind        string           `json:"kind"`
	Description string           `json:"description,omitempty"`
	Namespace   string           `json:"namespace,omitempty"`
	Timeout     *metav1.Duration `json:"timeout,omitempty"`
	Steps       []Step           `json:"steps"`

	// dir is where the scenario file is; apply and nodePools paths are
	// relative to it.
	dir string
}

// Step does exactly one thing.
type Step struct {
	// Apply server-side applies a manifest file (relative to the scenario).
	Apply string `json:"apply,omitempty"`
	// Sleep waits.
	Sleep *metav1.Duration `json:"sleep,omitempty"`
	// WaitFor waits for JobSets or a Job to reach a state, for a
	// ProvisioningRequest's condition, for a node pool, or for the nodes
	// of a ComputeClass.
	WaitFor *WaitFor `json:"waitFor,omitempty"`
	// NodePools makes the cluster's nodes those of a node pool file
	// (relative to the scenario), in place of the ones it was started
	// with, and waits until they are all Ready: a scenario that needs
	// other pools than the default ones starts with it.
	NodePools string `json:"nodePools,omitempty"`
	// FailPool fails a node pool; RecoverPool brings one back.
	FailPool    *PoolRef `json:"failPool,omitempty"`
	RecoverPool *PoolRef `json:"recoverPool,omitempty"`
	// Note is printed on the timeline before the step.
	Note string `json:"note,omitempty"`
}

// JobSet and Job states a step can wait for.
const (
	StateRunning   = "Running"   // every pod it runs at once is Running
	StateCompleted = "Completed" // it completed
	StateFinished  = "Finished"  // it completed or failed
	StateRestarted = "Restarted" // the JobSet was restarted at least once (JobSets only)
)

// Node pool states a step can wait for.
const (
	PoolReady   = "Ready"   // the pool has nodes, all of them Ready and healthy
	PoolRemoved = "Removed" // the pool has no nodes
)

// requestConditions are the ProvisioningRequest conditions a step can
// wait for to be True.
var requestConditions = []string{autoscalingv1.Accepted, autoscalingv1.Provisioned, autoscalingv1.Failed, autoscalingv1.BookingExpired, autoscalingv1.CapacityRevoked}

// WaitFor names exactly one object to wait for, and what to wait for.
type WaitFor struct {
	// JobSet ("*" for every JobSet of the namespace) reaching State.
	JobSet string `json:"jobset,omitempty"`
	// Job, a batch/v1 Job of the namespace, reaching State (Running,
	// Completed or Finished).
	Job   string `json:"job,omitempty"`
	State string `json:"state,omitempty"`
	// ProvisioningRequest of the namespace having Condition True.
	ProvisioningRequest string `json:"provisioningRequest,omitempty"`
	Condition           string `json:"condition,omitempty"`
	// Pool, a node pool (its gke-nodepool label), reaching PoolState
	// (Ready or Removed): a provisioned pool is there only while its
	// request holds capacity.
	Pool      string `json:"pool,omitempty"`
	PoolState string `json:"poolState,omitempty"`
	// ComputeClass, the nodes node auto-provisioning created for a class
	// (their cloud.google.com/compute-class label), reaching Nodes
	// (Ready, Recycled or Replaced).
	ComputeClass string `json:"computeClass,omitempty"`
	Nodes        string `json:"nodes,omitempty"`
}

// States of a class's nodes a step can wait for.
const (
	// NodesReady: the class has nodes, all of them Ready and healthy.
	NodesReady = "Ready"
	// NodesRecycled: a node of the class was cordoned because its
	// replacement was Ready (node recycling).
	NodesRecycled = "Recycled"
	// NodesReplaced: the class has nodes, and every one of them is a
	// replacement: the nodes first created for it are gone.
	NodesReplaced = "Replaced"
)

// PoolRef names a pool directly, or as the pool where a JobSet's slice runs.
// An empty RecoverPool recovers every pool the scenario failed.
type PoolRef struct {
	Pool string `json:"pool,omitempty"`
	// OfJobSet and Slice: the pool of the leader pod of the JobSet's
	// slice-th child Job (counting all replicated jobs in order).
	OfJobSet string `json:"ofJobSet,omitempty"`
	Slice    int    `json:"slice,omitempty"`
}

// Load reads and validates a scenario file.
func Load(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.dir = filepath.Dir(path)
	for i, st := range s.Steps {
		if st.Apply != "" {
			if _, err := os.Stat(s.Path(st.Apply)); err != nil {
				return nil, fmt.Errorf("%s: steps[%d].apply: %w", path, i, err)
			}
		}
		if st.NodePools != "" {
			data, err := os.ReadFile(s.Path(st.NodePools))
			if err == nil {
				_, err = nodepools.Parse(data)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: steps[%d].nodePools: %w", path, i, err)
			}
		}
	}
	return s, nil
}

// Path resolves a path of the scenario.
func (s *Scenario) Path(rel string) string {
	if filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Join(s.dir, rel)
}

// Parse decodes and validates a scenario.
func Parse(data []byte) (*Scenario, error) {
	jsonData, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, err
	}
	var s Scenario
	strict, err := kjson.UnmarshalStrict(jsonData, &s)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, errors.Join(strict...)
	}
	return &s, s.validate()
}

func (s *Scenario) validate() error {
	var errs []error
	if s.APIVersion != "localcluster.multislice-scheduler.io/v1alpha1" || s.Kind != "Demo" {
		errs = append(errs, fmt.Errorf("apiVersion/kind: must be localcluster.multislice-scheduler.io/v1alpha1 Demo"))
	}
	if s.Namespace == "" {
		s.Namespace = metav1.NamespaceDefault
	}
	if s.Timeout == nil {
		s.Timeout = &metav1.Duration{Duration: 10 * time.Minute}
	}
	if len(s.Steps) == 0 {
		errs = append(errs, errors.New("steps: at least one step is required"))
	}
	for i, st := range s.Steps {
		field := fmt.Sprintf("steps[%d]", i)
		n := 0
		for _, set := range []bool{st.Apply != "", st.Sleep != nil, st.WaitFor != nil, st.NodePools != "", st.FailPool != nil, st.RecoverPool != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			errs = append(errs, fmt.Errorf("%s: must have exactly one of apply, sleep, waitFor, nodePools, failPool, recoverPool (has %d)", field, n))
			continue
		}
		switch {
		case st.WaitFor != nil:
			errs = append(errs, st.WaitFor.validate(field+".waitFor")...)
		case st.FailPool != nil:
			if err := st.FailPool.validate(field+".failPool", false); err != nil {
				errs = append(errs, err)
			}
		case st.RecoverPool != nil:
			if err := st.RecoverPool.validate(field+".recoverPool", true); err != nil {
				errs = append(errs, err)
			}
		case st.Sleep != nil:
			if st.Sleep.Duration <= 0 {
				errs = append(errs, fmt.Errorf("%s.sleep: must be positive", field))
			}
		}
	}
	return errors.Join(errs...)
}

func (w *WaitFor) validate(field string) []error {
	n := 0
	for _, set := range []bool{w.JobSet != "", w.Job != "", w.ProvisioningRequest != "", w.Pool != "", w.ComputeClass != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return []error{fmt.Errorf("%s: must name exactly one of jobset (a name, or * for all), job, provisioningRequest, pool, computeClass (names %d)", field, n)}
	}
	var errs []error
	misplaced := func(name string, set bool) {
		if set {
			errs = append(errs, fmt.Errorf("%s.%s: does not go with what the step waits for", field, name))
		}
	}
	switch {
	case w.JobSet != "":
		switch w.State {
		case StateRunning, StateCompleted, StateFinished, StateRestarted:
		default:
			errs = append(errs, fmt.Errorf("%s.state: %q is not one of Running, Completed, Finished, Restarted", field, w.State))
		}
		if w.JobSet == "*" && w.State != StateCompleted && w.State != StateFinished {
			errs = append(errs, fmt.Errorf("%s: jobset * can only wait for Completed or Finished", field))
		}
		misplaced("condition", w.Condition != "")
		misplaced("poolState", w.PoolState != "")
	case w.Job != "":
		switch w.State {
		case StateRunning, StateCompleted, StateFinished:
		default:
			errs = append(errs, fmt.Errorf("%s.state: %q is not one of Running, Completed, Finished (for a job)", field, w.State))
		}
		misplaced("condition", w.Condition != "")
		misplaced("poolState", w.PoolState != "")
	case w.ProvisioningRequest != "":
		if !slices.Contains(requestConditions, w.Condition) {
			errs = append(errs, fmt.Errorf("%s.condition: %q is not one of %s", field, w.Condition, strings.Join(requestConditions, ", ")))
		}
		misplaced("state", w.State != "")
		misplaced("poolState", w.PoolState != "")
	case w.Pool != "":
		if w.PoolState != PoolReady && w.PoolState != PoolRemoved {
			errs = append(errs, fmt.Errorf("%s.poolState: %q is not one of Ready, Removed", field, w.PoolState))
		}
		misplaced("state", w.State != "")
		misplaced("condition", w.Condition != "")
	case w.ComputeClass != "":
		switch w.Nodes {
		case NodesReady, NodesRecycled, NodesReplaced:
		default:
			errs = append(errs, fmt.Errorf("%s.nodes: %q is not one of Ready, Recycled, Replaced", field, w.Nodes))
		}
		misplaced("state", w.State != "")
		misplaced("condition", w.Condition != "")
		misplaced("poolState", w.PoolState != "")
	}
	if w.ComputeClass == "" {
		misplaced("nodes", w.Nodes != "")
	}
	return errs
}

func (r *PoolRef) validate(field string, emptyOK bool) error {
	switch {
	case r.Pool != "" && r.OfJobSet != "":
		return fmt.Errorf("%s: set pool or ofJobSet, not both", field)
	case r.Pool == "" && r.OfJobSet == "" && !emptyOK:
		return fmt.Errorf("%s: set pool or ofJobSet", field)
	case r.Slice < 0:
		return fmt.Errorf("%s.slice: must not be negative", field)
	}
	return nil
}
