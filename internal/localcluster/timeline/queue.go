package timeline

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// workloadState is what was last reported of a Workload object.
type workloadState struct {
	// waiting is the reason of the QuotaReserved=False condition last
	// reported ("" when none was).
	waiting  string
	reserved bool
	finished bool
}

// Workload reports a quota-managed workload's way through its queue, from
// the Workload object the scheduler keeps: why it waits (the reason of its
// QuotaReserved condition, once per reason), when its quota is reserved and
// where its pod sets go, losing the reservation, and finishing. The generic
// "Pending" reason, which a workload has until its queue first decides on
// it, is not reported.
func (t *Timeline) Workload(wl *multislicev1alpha1.Workload) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := wl.Namespace + "/" + wl.Name
	s := t.workloads[key]
	if s == nil {
		s = &workloadState{}
		t.workloads[key] = s
	}
	subject := workloadSubject(wl)
	conds := wl.Status.Conditions
	if c := apimeta.FindStatusCondition(conds, multislicev1alpha1.WorkloadFinished); c != nil && c.Status == metav1.ConditionTrue {
		if !s.finished {
			s.finished, s.reserved = true, false
			t.emit(subject, "workload finished (%s): its quota is released", c.Reason)
		}
		return
	}
	s.finished = false
	reserved := apimeta.FindStatusCondition(conds, multislicev1alpha1.WorkloadQuotaReserved)
	switch {
	case reserved == nil:
	case reserved.Status == metav1.ConditionTrue && wl.Status.Admission != nil:
		if !s.reserved {
			s.reserved, s.waiting = true, ""
			if checks := describeChecks(wl.Status.AdmissionChecks); checks != "" {
				// Admitted only once its checks pass: the quota is held
				// for it meanwhile.
				t.emit(subject, "quota reserved in ClusterQueue %s: %s; %s", wl.Status.Admission.ClusterQueue, describeAdmission(wl.Status.Admission, ownerName(wl)), checks)
			} else {
				t.emit(subject, "admitted by ClusterQueue %s: %s", wl.Status.Admission.ClusterQueue, describeAdmission(wl.Status.Admission, ownerName(wl)))
			}
		}
	case reserved.Status == metav1.ConditionFalse:
		if s.reserved {
			s.reserved, s.waiting = false, ""
			t.emit(subject, "lost its quota reservation")
		}
		if reserved.Reason == multislicev1alpha1.ReasonPending || reserved.Reason == s.waiting {
			return
		}
		s.waiting = reserved.Reason
		t.emit(subject, "waits in LocalQueue %s: %s: %s", wl.Spec.QueueName, reserved.Reason, reserved.Message)
	}
}

// WorkloadDeleted forgets a Workload object.
func (t *Timeline) WorkloadDeleted(wl *multislicev1alpha1.Workload) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.workloads, wl.Namespace+"/"+wl.Name)
}

// workloadSubject names a Workload by its owner (the JobSet whose lines it
// joins), or by itself when it has none.
func workloadSubject(wl *multislicev1alpha1.Workload) string {
	for _, o := range wl.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			if o.Kind == "JobSet" {
				return o.Name
			}
			return strings.ToLower(o.Kind) + " " + o.Name
		}
	}
	return "workload " + wl.Name
}

func ownerName(wl *multislicev1alpha1.Workload) string {
	for _, o := range wl.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			return o.Name
		}
	}
	return ""
}

// describeAdmission lists each pod set's domain and the quota charged per
// flavor: "slice-0 on tpu-v5e-2x4-3, slice-1 on tpu-v5e-2x4-4; 16
// google.com/tpu of flavor vlp-24". Pod sets named after the owner (a
// JobSet's Jobs, <jobset>-<replicated job>-<index>) lose that prefix.
func describeAdmission(a *multislicev1alpha1.Admission, owner string) string {
	var sets []string
	usage := map[string]map[corev1.ResourceName]*resource.Quantity{} // flavor → resource → total
	for _, ps := range a.PodSetAssignments {
		if ps.Domain != "" {
			name := ps.Name
			if owner != "" {
				if short, ok := strings.CutPrefix(name, owner+"-"); ok && short != "" {
					name = short
				}
			}
			sets = append(sets, name+" on "+ps.Domain)
		}
		for res, flavor := range ps.Flavors {
			if usage[flavor] == nil {
				usage[flavor] = map[corev1.ResourceName]*resource.Quantity{}
			}
			if q, ok := ps.ResourceUsage[res]; ok {
				if usage[flavor][res] == nil {
					usage[flavor][res] = &resource.Quantity{}
				}
				usage[flavor][res].Add(q)
			}
		}
	}
	var charged []string
	for _, flavor := range slices.Sorted(maps.Keys(usage)) {
		var rs []string
		for _, res := range slices.Sorted(maps.Keys(usage[flavor])) {
			rs = append(rs, usage[flavor][res].String()+" "+string(res))
		}
		if len(rs) > 0 {
			charged = append(charged, strings.Join(rs, ", ")+" of flavor "+flavor)
		}
	}
	out := strings.Join(sets, ", ")
	if len(charged) > 0 {
		if out != "" {
			out += "; "
		}
		out += strings.Join(charged, ", ")
	}
	if out == "" {
		return fmt.Sprintf("%d pod sets", len(a.PodSetAssignments))
	}
	return out
}

// describeChecks: "admission check dws-prov Pending", for the admission
// checks a workload must pass; "" for none.
func describeChecks(checks []multislicev1alpha1.AdmissionCheckState) string {
	var parts []string
	for _, c := range checks {
		parts = append(parts, c.Name+" "+c.State)
	}
	if len(parts) == 0 {
		return ""
	}
	if len(parts) == 1 {
		return "admission check " + parts[0]
	}
	return "admission checks " + strings.Join(parts, ", ")
}

// ClusterQueue reports changes of a ClusterQueue's admitted and pending
// workload counts and quota usage.
func (t *Timeline) ClusterQueue(cq *multislicev1alpha1.ClusterQueue) {
	t.mu.Lock()
	defer t.mu.Unlock()
	line := describeClusterQueue(cq)
	if t.queues[cq.Name] == line {
		return
	}
	t.queues[cq.Name] = line
	t.emit("clusterqueue "+cq.Name, "%s", line)
}

// ClusterQueueDeleted forgets a ClusterQueue.
func (t *Timeline) ClusterQueueDeleted(cq *multislicev1alpha1.ClusterQueue) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.queues, cq.Name)
}

// describeClusterQueue: "1 admitted, 2 pending; google.com/tpu of flavor
// vlp-24: 24 of 24 in use".
func describeClusterQueue(cq *multislicev1alpha1.ClusterQueue) string {
	nominal := map[string]map[corev1.ResourceName]string{}
	for _, rg := range cq.Spec.ResourceGroups {
		for _, f := range rg.Flavors {
			for _, r := range f.Resources {
				if nominal[f.Name] == nil {
					nominal[f.Name] = map[corev1.ResourceName]string{}
				}
				nominal[f.Name][r.Name] = r.NominalQuota.String()
			}
		}
	}
	used := map[string]map[corev1.ResourceName]string{}
	for _, fu := range cq.Status.FlavorsUsage {
		for _, r := range fu.Resources {
			if used[fu.Name] == nil {
				used[fu.Name] = map[corev1.ResourceName]string{}
			}
			used[fu.Name][r.Name] = r.Total.String()
		}
	}
	var quotas []string
	for _, flavor := range slices.Sorted(maps.Keys(nominal)) {
		for _, res := range slices.Sorted(maps.Keys(nominal[flavor])) {
			inUse := used[flavor][res]
			if inUse == "" {
				inUse = "0"
			}
			quotas = append(quotas, fmt.Sprintf("%s of flavor %s: %s of %s in use", res, flavor, inUse, nominal[flavor][res]))
		}
	}
	line := fmt.Sprintf("%d admitted, %d pending", cq.Status.AdmittedWorkloads, cq.Status.PendingWorkloads)
	if len(quotas) > 0 {
		line += "; " + strings.Join(quotas, ", ")
	}
	return line
}
