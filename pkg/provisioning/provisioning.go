// Package provisioning is the model of provisioning admission checks: a
// ClusterQueue's check that makes a workload's capacity exist (a cluster
// autoscaler ProvisioningRequest) before the workload is placed. It decides
// names, parameters, pod sets, backoff and what a request's conditions
// mean, and imports no client or framework types beyond the API structs.
package provisioning

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Check is one AdmissionCheck of the provisioning controller, resolved
// with its ProvisioningRequestConfig.
type Check struct {
	Name string
	// Class is the ProvisioningRequest's provisioningClassName.
	Class string
	// Parameters are the config's; the workload's own
	// provreq.kueue.x-k8s.io/ annotations override them.
	Parameters map[string]string
	// ManagedResources, when set, limit the request to the slices that
	// ask for at least one of them.
	ManagedResources []corev1.ResourceName
	Retry            Retry
	// NodeSelector are the node labels a provisioned workload is placed
	// under, each valued from the request's status.provisioningClassDetails
	// (the config's podSetUpdates): they pin it to the capacity provisioned
	// for it.
	NodeSelector []NodeSelectorFromDetail
	// Problem is set when the check cannot be used (its config is missing
	// or invalid, or another controller owns it): workloads of queues that
	// list it wait, with this message.
	Problem string
}

// NodeSelectorFromDetail is a node label whose value a provisioned request
// reports under Detail.
type NodeSelectorFromDetail struct {
	Key, Detail string
}

// Selector is where a provisioned workload may go: node label key → the
// values a node may carry (one of them). Nil: anywhere.
type Selector map[string][]string

// String is the selector as people read it: "key=value" or
// "key in (a, b)", keys in order, "; "-separated.
func (s Selector) String() string {
	parts := make([]string, 0, len(s))
	for _, k := range slices.Sorted(maps.Keys(s)) {
		if vs := s[k]; len(vs) == 1 {
			parts = append(parts, k+"="+vs[0])
		} else {
			parts = append(parts, k+" in ("+strings.Join(vs, ", ")+")")
		}
	}
	return strings.Join(parts, "; ")
}

// Matches reports whether a node of labels satisfies the selector.
func (s Selector) Matches(labels map[string]string) bool {
	for k, vs := range s {
		v, ok := labels[k]
		if !ok || !slices.Contains(vs, v) {
			return false
		}
	}
	return true
}

// NodePoolDetail is the detail a provisioning class reports the node pool
// (or pools, comma-separated) of the capacity under.
const NodePoolDetail = "nodePool"

// NodeSelector is where a provisioned request's capacity is, from its
// status.provisioningClassDetails, or the first detail it lacks:
//   - with the config's podSetUpdates, the labels they name, valued from
//     the details (Kueue's way);
//   - without, the node pools the request reports under nodePool (GKE's
//     queued provisioning reports the pool it created): a workload that
//     consumes a request runs on the capacity provisioned for it, not on
//     another node its selectors also allow;
//   - nil when the request reports neither: the workload goes wherever its
//     own selectors allow.
func NodeSelector(c *Check, details map[string]autoscalingv1.Detail) (Selector, string) {
	if len(c.NodeSelector) == 0 {
		var pools []string
		for _, p := range strings.Split(string(details[NodePoolDetail]), ",") {
			if p = strings.TrimSpace(p); p != "" && !slices.Contains(pools, p) {
				pools = append(pools, p)
			}
		}
		if len(pools) == 0 {
			return nil, ""
		}
		return Selector{wellknown.NodePoolLabel: pools}, ""
	}
	out := make(Selector, len(c.NodeSelector))
	for _, e := range c.NodeSelector {
		v, ok := details[e.Detail]
		if !ok {
			return nil, e.Detail
		}
		out[e.Key] = []string{string(v)}
	}
	return out, ""
}

// Retry is how a failed request is tried again.
type Retry struct {
	// Limit is how many times a failed request is retried before the
	// workload is rejected.
	Limit     int32
	Base, Max time.Duration
}

// DefaultRetry is Kueue's default retry strategy.
var DefaultRetry = Retry{
	Limit: multislicev1alpha1.DefaultBackoffLimitCount,
	Base:  time.Duration(multislicev1alpha1.DefaultBackoffBaseSeconds) * time.Second,
	Max:   time.Duration(multislicev1alpha1.DefaultBackoffMaxSeconds) * time.Second,
}

// Backoff is how long to wait before attempt+1 after attempt failed
// (attempts count from 1): base·2^(attempt-1), at most Max, never
// negative; at most 63 doublings whatever the attempt.
func (r Retry) Backoff(attempt int32) time.Duration {
	d := max(r.Base, 0)
	for i := int32(1); i < attempt && d > 0 && d < r.Max; i++ {
		if d > r.Max/2 {
			d = r.Max
		} else {
			d *= 2
		}
	}
	return max(0, min(d, r.Max))
}

// PodAnnotations are the annotations by which a pod consumes request, of
// class: the autoscaler lets only pods that carry them use its capacity.
func PodAnnotations(request, class string) map[string]string {
	return map[string]string{
		wellknown.ConsumeProvisioningRequestAnnotation: request,
		wellknown.ProvisioningClassNameAnnotation:      class,
	}
}

// RequestName is the name of a workload's request for one check and
// attempt: <workload>-<check>-<attempt>, shortened with a hash when it
// would not be a valid object name.
func RequestName(workloadName, check string, attempt int32) string {
	return shorten(fmt.Sprintf("%s-%s-%d", workloadName, check, attempt), 253)
}

// PodTemplateName names the PodTemplate of one pod set of a request.
func PodTemplateName(request, podSet string) string {
	return shorten("ppt-"+request+"-"+podSet, 253)
}

func shorten(name string, limit int) string {
	name = strings.ToLower(name)
	if len(name) <= limit {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	suffix := hex.EncodeToString(sum[:])[:10]
	return strings.TrimRight(name[:limit-11], "-.") + "-" + suffix
}

// Parameters merges the check's parameters with the workload's
// provreq.kueue.x-k8s.io/<key> annotations, which win.
func Parameters(c *Check, annotations map[string]string) map[string]autoscalingv1.Parameter {
	out := map[string]autoscalingv1.Parameter{}
	for k, v := range c.Parameters {
		out[k] = autoscalingv1.Parameter(v)
	}
	for k, v := range annotations {
		if key, ok := strings.CutPrefix(k, wellknown.ProvReqAnnotationPrefix); ok && key != "" {
			out[key] = autoscalingv1.Parameter(v)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// MaxRunDuration reads the maxRunDurationSeconds parameter (0: none).
func MaxRunDuration(params map[string]autoscalingv1.Parameter) (time.Duration, error) {
	v, ok := params[wellknown.MaxRunDurationSecondsParameter]
	if !ok {
		return 0, nil
	}
	var n int64
	if _, err := fmt.Sscanf(string(v), "%d", &n); err != nil || n <= 0 || fmt.Sprint(n) != string(v) {
		return 0, fmt.Errorf("%s: %q is not a positive number of seconds", wellknown.MaxRunDurationSecondsParameter, v)
	}
	if limit := int64(math.MaxInt64 / time.Second); n > limit {
		return 0, fmt.Errorf("%s: %q is more seconds than a duration holds (%d)", wellknown.MaxRunDurationSecondsParameter, v, limit)
	}
	return time.Duration(n) * time.Second, nil
}

// PodSet is one pod set of a request: a template and how many pods.
type PodSet struct {
	// Name identifies the pod set within the request (the slice index).
	Name     string
	Count    int32
	Template *corev1.PodSpec
	// Shares names the earlier pod set whose template equals this one's
	// (empty: none does): one PodTemplate serves both, as the slices of
	// one replicated Job share their pod template.
	Shares string
}

// TemplateName is the PodTemplate the pod set refers to, in a request
// named request.
func (ps *PodSet) TemplateName(request string) string {
	if ps.Shares != "" {
		return PodTemplateName(request, ps.Shares)
	}
	return PodTemplateName(request, ps.Name)
}

// PodSets are the request's pod sets for the given slices of a workload:
// one per slice, in slice order, skipping slices that request none of the
// check's managed resources (when it names any).
func PodSets(c *Check, w *workload.Workload, slicesToPlace []int) []PodSet {
	var out []PodSet
	var own []int // the pod sets with a template of their own
	for _, i := range slicesToPlace {
		s := &w.Slices[i]
		if s.Template == nil || s.Pods <= 0 || !manages(c, s.Request) {
			continue
		}
		ps := PodSet{Name: fmt.Sprint(s.Index), Count: int32(s.Pods), Template: s.Template}
		for _, j := range own {
			if o := out[j].Template; o == s.Template || apiequality.Semantic.DeepEqual(o, s.Template) {
				ps.Shares = out[j].Name
				break
			}
		}
		if ps.Shares == "" {
			own = append(own, len(out))
		}
		out = append(out, ps)
	}
	return out
}

func manages(c *Check, r workload.Resources) bool {
	if len(c.ManagedResources) == 0 {
		return true
	}
	for _, name := range c.ManagedResources {
		if r[name] > 0 {
			return true
		}
	}
	return false
}

// Outcome is what a request's conditions say.
type Outcome int

const (
	// Pending: not provisioned yet (Accepted or nothing).
	Pending Outcome = iota
	// Provisioned: the capacity exists; the workload may be placed.
	Provisioned
	// Failed: the provisioner gave up on this request.
	Failed
	// BookingExpired: the capacity was not used in time and is released.
	BookingExpired
	// CapacityRevoked: the provisioned capacity is being taken back.
	CapacityRevoked
)

func (o Outcome) String() string {
	return [...]string{"Pending", "Provisioned", "Failed", "BookingExpired", "CapacityRevoked"}[o]
}

// Read says what a request's conditions mean, with the message of the
// deciding condition. Revocation and failure outrank provisioning: a
// request may carry Provisioned=True and later CapacityRevoked=True.
func Read(conds []metav1.Condition) (Outcome, string) {
	for _, c := range []struct {
		typ string
		out Outcome
	}{
		{autoscalingv1.CapacityRevoked, CapacityRevoked},
		{autoscalingv1.Failed, Failed},
		{autoscalingv1.BookingExpired, BookingExpired},
		{autoscalingv1.Provisioned, Provisioned},
	} {
		if cond := apimeta.FindStatusCondition(conds, c.typ); cond != nil && cond.Status == metav1.ConditionTrue {
			return c.out, cond.Message
		}
	}
	if cond := apimeta.FindStatusCondition(conds, autoscalingv1.Accepted); cond != nil && cond.Status == metav1.ConditionTrue {
		return Pending, "accepted by the provisioner"
	}
	return Pending, NotAccepted
}

// NotAccepted is what Read says of a request no provisioner has accepted
// yet: what every request says first.
const NotAccepted = "not yet accepted by a provisioner"

// Resolve makes the model of an AdmissionCheck from the object and the
// ProvisioningRequestConfig its parameters name (nil when that is missing).
// A check of another controller is not ours to run: nil, false.
func Resolve(ac *multislicev1alpha1.AdmissionCheck, cfg *multislicev1alpha1.ProvisioningRequestConfig) (*Check, bool) {
	if ac.Spec.ControllerName != multislicev1alpha1.ProvisioningRequestControllerName {
		return nil, false
	}
	c := &Check{Name: ac.Name, Retry: DefaultRetry}
	ref := ac.Spec.Parameters
	switch {
	case ref == nil:
		c.Problem = fmt.Sprintf("AdmissionCheck %s names no ProvisioningRequestConfig in spec.parameters", ac.Name)
		return c, true
	case ref.Kind != "ProvisioningRequestConfig":
		c.Problem = fmt.Sprintf("AdmissionCheck %s: spec.parameters.kind %q is not ProvisioningRequestConfig", ac.Name, ref.Kind)
		return c, true
	case cfg == nil:
		c.Problem = fmt.Sprintf("ProvisioningRequestConfig %s, named by AdmissionCheck %s, not found", ref.Name, ac.Name)
		return c, true
	}
	if p := configProblem(&cfg.Spec); p != "" {
		c.Problem = fmt.Sprintf("ProvisioningRequestConfig %s, named by AdmissionCheck %s: %s", ref.Name, ac.Name, p)
		return c, true
	}
	c.Class = cfg.Spec.ProvisioningClassName
	if len(cfg.Spec.Parameters) > 0 {
		c.Parameters = make(map[string]string, len(cfg.Spec.Parameters))
		for k, v := range cfg.Spec.Parameters {
			c.Parameters[k] = string(v)
		}
	}
	c.ManagedResources = slices.Clone(cfg.Spec.ManagedResources)
	if u := cfg.Spec.PodSetUpdates; u != nil {
		for _, e := range u.NodeSelector {
			c.NodeSelector = append(c.NodeSelector, NodeSelectorFromDetail{Key: e.Key, Detail: e.ValueFromProvisioningClassDetail})
		}
	}
	if rs := cfg.Spec.RetryStrategy; rs != nil {
		if rs.BackoffLimitCount != nil {
			c.Retry.Limit = *rs.BackoffLimitCount
		}
		if rs.BackoffBaseSeconds != nil {
			c.Retry.Base = time.Duration(*rs.BackoffBaseSeconds) * time.Second
		}
		if rs.BackoffMaxSeconds != nil {
			c.Retry.Max = time.Duration(*rs.BackoffMaxSeconds) * time.Second
		}
	}
	return c, true
}

// configProblem is what makes a config unusable, naming the field ("" for
// nothing). Its CRD validates all of it; a config that was not validated
// (an older CRD, a client that bypassed it) must still not make requests
// the apiserver rejects, back off for negative times or steer pods with
// a node selector no node can carry.
func configProblem(spec *multislicev1alpha1.ProvisioningRequestConfigSpec) string {
	if errs := validation.IsDNS1123Subdomain(spec.ProvisioningClassName); len(errs) > 0 {
		return fmt.Sprintf("spec.provisioningClassName: %q: %s", spec.ProvisioningClassName, errs[0])
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Parameters)) {
		v := spec.Parameters[k]
		if len(v) > maxParameterLength {
			return fmt.Sprintf("spec.parameters[%s]: longer than %d characters", k, maxParameterLength)
		}
		if k == wellknown.MaxRunDurationSecondsParameter {
			if _, err := MaxRunDuration(map[string]autoscalingv1.Parameter{k: autoscalingv1.Parameter(v)}); err != nil {
				return fmt.Sprintf("spec.parameters[%s]: %s", k, strings.TrimPrefix(err.Error(), k+": "))
			}
		}
	}
	if rs := spec.RetryStrategy; rs != nil {
		for _, f := range []struct {
			name string
			v    *int32
		}{{"backoffLimitCount", rs.BackoffLimitCount}, {"backoffBaseSeconds", rs.BackoffBaseSeconds}, {"backoffMaxSeconds", rs.BackoffMaxSeconds}} {
			if f.v != nil && *f.v < 0 {
				return fmt.Sprintf("spec.retryStrategy.%s: must not be negative, got %d", f.name, *f.v)
			}
		}
	}
	if u := spec.PodSetUpdates; u != nil {
		for i, e := range u.NodeSelector {
			field := fmt.Sprintf("spec.podSetUpdates.nodeSelector[%d]", i)
			if errs := validation.IsQualifiedName(e.Key); len(errs) > 0 {
				return fmt.Sprintf("%s.key: %q is not a node label key: %s", field, e.Key, errs[0])
			}
			if e.ValueFromProvisioningClassDetail == "" {
				return field + ".valueFromProvisioningClassDetail: is required"
			}
		}
	}
	return ""
}

// maxParameterLength is the most characters a ProvisioningRequest's
// parameter may have.
const maxParameterLength = 255
