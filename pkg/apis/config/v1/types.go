// Package v1 is the versioned form of the plugin arguments, as written in
// a KubeSchedulerConfiguration's pluginConfig:
//
//	pluginConfig:
//	- name: MultisliceGang
//	  args:
//	    apiVersion: kubescheduler.config.k8s.io/v1
//	    kind: MultisliceGangArgs
//	    permitTimeoutSeconds: 300
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the group and version the args are written in; the same
// as KubeSchedulerConfiguration's, like every plugin's args.
var GroupVersion = schema.GroupVersion{Group: "kubescheduler.config.k8s.io", Version: "v1"}

// MultisliceGangArgs configures the MultisliceGang plugin.
type MultisliceGangArgs struct {
	metav1.TypeMeta `json:",inline"`

	// PermitTimeoutSeconds bounds how long a workload's reserved domains are
	// held, and its pods wait in Permit, before every required pod is
	// reserved. Default 300.
	PermitTimeoutSeconds *int64 `json:"permitTimeoutSeconds,omitempty"`
	// FollowerTimeoutSeconds bounds how long, after a staged workload's
	// leaders are bound, the rest of each slice's capacity stays reserved
	// for its followers. Default 300.
	FollowerTimeoutSeconds *int64 `json:"followerTimeoutSeconds,omitempty"`
	// DefaultDomainKey is the node label that confines gangs naming no
	// exclusive topology themselves. Default "" (unconfined).
	DefaultDomainKey *string `json:"defaultDomainKey,omitempty"`
	// DefaultLocalQueue admits workloads that name no LocalQueue
	// (kueue.x-k8s.io/queue-name) through the LocalQueue of this name in
	// their namespace. Default "": such workloads are not quota-managed.
	DefaultLocalQueue *string `json:"defaultLocalQueue,omitempty"`
	// QuotaStarvationTimeoutSeconds is how long the head of a
	// BestEffortFIFO ClusterQueue may wait for quota while smaller
	// workloads behind it are admitted; after that they wait for it.
	// Default 600.
	QuotaStarvationTimeoutSeconds *int64 `json:"quotaStarvationTimeoutSeconds,omitempty"`
	// QuotaReconcileSeconds is how often the leader compares every
	// ClusterQueue's usage with what the API shows (pods on nodes), and
	// reports (metric multislice_quota_drift_total, a QuotaDrift event)
	// and corrects any difference. Default 30.
	QuotaReconcileSeconds *int64 `json:"quotaReconcileSeconds,omitempty"`
	// RestartHoldSeconds is how long a running workload's quota and the
	// nodes of its healthy domains stay kept for it while its owner
	// restarts it (a JobSet recreating its Jobs), so that no waiting
	// workload takes them in the gap. 0 keeps nothing. Default 300.
	RestartHoldSeconds *int64 `json:"restartHoldSeconds,omitempty"`
	// QueuedStartDepth is how many workloads of each ClusterQueue, taken
	// in queue order (priority, then creation), the scheduler starts ahead
	// of their admission: a queued Job or JobSet created suspended is
	// started (its pods created, to wait gated for quota and placement)
	// only while it ranks among the first QueuedStartDepth of its
	// ClusterQueue's workloads not yet admitted, as Kueue keeps queued
	// objects suspended until it admits them. It bounds the pods that wait
	// in kube-scheduler's queue, and how far a BestEffortFIFO queue looks
	// past a head that does not fit. 0 starts every queued object at once.
	// Default 16: enough to keep a queue supplied between the window's
	// rounds; a deeper window lets more small workloads pass a large head,
	// which then waits longer (docs/performance.md measures both).
	QueuedStartDepth *int32 `json:"queuedStartDepth,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *MultisliceGangArgs) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	out := *in
	if in.PermitTimeoutSeconds != nil {
		v := *in.PermitTimeoutSeconds
		out.PermitTimeoutSeconds = &v
	}
	if in.FollowerTimeoutSeconds != nil {
		v := *in.FollowerTimeoutSeconds
		out.FollowerTimeoutSeconds = &v
	}
	if in.DefaultDomainKey != nil {
		v := *in.DefaultDomainKey
		out.DefaultDomainKey = &v
	}
	if in.DefaultLocalQueue != nil {
		v := *in.DefaultLocalQueue
		out.DefaultLocalQueue = &v
	}
	if in.QuotaStarvationTimeoutSeconds != nil {
		v := *in.QuotaStarvationTimeoutSeconds
		out.QuotaStarvationTimeoutSeconds = &v
	}
	if in.QuotaReconcileSeconds != nil {
		v := *in.QuotaReconcileSeconds
		out.QuotaReconcileSeconds = &v
	}
	if in.RestartHoldSeconds != nil {
		v := *in.RestartHoldSeconds
		out.RestartHoldSeconds = &v
	}
	if in.QueuedStartDepth != nil {
		v := *in.QueuedStartDepth
		out.QueuedStartDepth = &v
	}
	return &out
}

// Defaults.
const (
	DefaultPermitTimeoutSeconds   int64 = 300
	DefaultFollowerTimeoutSeconds int64 = 300
	DefaultQuotaStarvationSeconds int64 = 600
	DefaultQuotaReconcileSeconds  int64 = 30
	DefaultRestartHoldSeconds     int64 = 300
	DefaultQueuedStartDepth       int32 = 16
)

// SetDefaults fills unset fields.
func SetDefaults(args *MultisliceGangArgs) {
	if args.PermitTimeoutSeconds == nil {
		v := DefaultPermitTimeoutSeconds
		args.PermitTimeoutSeconds = &v
	}
	if args.FollowerTimeoutSeconds == nil {
		v := DefaultFollowerTimeoutSeconds
		args.FollowerTimeoutSeconds = &v
	}
	if args.DefaultDomainKey == nil {
		v := ""
		args.DefaultDomainKey = &v
	}
	if args.DefaultLocalQueue == nil {
		v := ""
		args.DefaultLocalQueue = &v
	}
	if args.QuotaStarvationTimeoutSeconds == nil {
		v := DefaultQuotaStarvationSeconds
		args.QuotaStarvationTimeoutSeconds = &v
	}
	if args.QuotaReconcileSeconds == nil {
		v := DefaultQuotaReconcileSeconds
		args.QuotaReconcileSeconds = &v
	}
	if args.RestartHoldSeconds == nil {
		v := DefaultRestartHoldSeconds
		args.RestartHoldSeconds = &v
	}
	if args.QueuedStartDepth == nil {
		v := DefaultQueuedStartDepth
		args.QueuedStartDepth = &v
	}
}
