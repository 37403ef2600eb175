package timeline

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// Queued provisioning is told from events: the provisioner's on each
// ProvisioningRequest (accepted, waiting for capacity, creating nodes,
// provisioned, failed, capacity revoked or booking expired, nodes removed)
// and the scheduler's on the workload's owner (the request created, the
// workload placed once it is provisioned, retried, rejected, evicted when
// the capacity is revoked, ended at its maximum run duration).

// provisioningReasons are the reasons of the scheduler's events on a
// workload's owner that tell its way through a provisioning admission
// check.
var provisioningReasons = map[string]bool{
	"ProvisioningRequested":      true,
	"Provisioned":                true,
	"ProvisioningRetry":          true,
	"ProvisioningRejected":       true,
	"CapacityRevoked":            true,
	"MaximumRunDurationExceeded": true,
}

// provisioningEvent reports an event of queued provisioning, once, and
// says whether it was one.
func (t *Timeline) provisioningEvent(e *corev1.Event) bool {
	obj := e.InvolvedObject
	var subject, key string
	switch {
	case obj.Kind == "ProvisioningRequest":
		// One event per step: its later updates only count repeats.
		subject = "provreq " + obj.Name
		key = "event " + e.Namespace + "/" + e.Name
		if e.Name == "" {
			key = "event " + obj.Namespace + "/" + obj.Name + " " + e.Reason + " " + e.Message
		}
	case provisioningReasons[e.Reason] && (obj.Kind == "Job" || obj.Kind == "JobSet" || obj.Kind == "PodGroup"):
		subject = obj.Name
		if obj.Kind != "JobSet" {
			subject = strings.ToLower(obj.Kind) + " " + obj.Name
		}
		// The scheduler tells a request's outcome once when it happens
		// and again, worded as why the workload waits, when its pods are
		// looked at: one line per request and reason.
		key = obj.Kind + " " + obj.Namespace + "/" + obj.Name + " " + e.Reason + " " + requestNamed(e.Message)
	default:
		return false
	}
	if !t.told[key] {
		t.told[key] = true
		t.emit(subject, "%s", e.Message)
	}
	return true
}

// requestNamed is the ProvisioningRequest a message names ("ProvisioningRequest
// <name>"), or the whole message when it names none.
func requestNamed(msg string) string {
	_, rest, ok := strings.Cut(msg, "ProvisioningRequest ")
	if !ok {
		return msg
	}
	name, _, _ := strings.Cut(rest, " ")
	return strings.TrimRight(name, ":;,.")
}
