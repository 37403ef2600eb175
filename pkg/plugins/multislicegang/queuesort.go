package multislicegang

import (
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// sortKey orders the queue: higher priority first, then older workloads
// (a plain pod is a workload of one, dated by when it was queued), keeping a
// workload's pods together, then a stable name order.
type sortKey struct {
	priority int32
	since    time.Time
	group    string
	pod      string
}

// sortKeys memoises each pod's key the first time it is compared, so the
// order of two queued pods never changes while they are queued; the keys
// are in memory, never looked up from the API.
type sortKeys struct {
	state *state.State
	keys  sync.Map // types.UID -> sortKey
}

func newSortKeys(st *state.State) *sortKeys { return &sortKeys{state: st} }

// Less implements fwk.QueueSortPlugin.
func (pl *Plugin) Less(a, b fwk.QueuedEntityInfo) bool {
	ka, kb := pl.sort.keyOf(a), pl.sort.keyOf(b)
	switch {
	case ka.priority != kb.priority:
		return ka.priority > kb.priority
	case !ka.since.Equal(kb.since):
		return ka.since.Before(kb.since)
	case ka.group != kb.group:
		return ka.group < kb.group
	}
	return ka.pod < kb.pod
}

type podGetter interface{ GetPod() *corev1.Pod }

func (k *sortKeys) keyOf(e fwk.QueuedEntityInfo) sortKey {
	pg, ok := e.(podGetter)
	if !ok || pg.GetPod() == nil {
		return sortKey{priority: e.GetPriority(), since: e.GetTimestamp(), group: string(e.Type())}
	}
	pod := pg.GetPod()
	if v, ok := k.keys.Load(pod.UID); ok {
		return v.(sortKey)
	}
	key := sortKey{priority: e.GetPriority(), since: e.GetTimestamp(), group: "pod/" + pod.Namespace + "/" + pod.Name, pod: string(pod.UID)}
	var m workload.Member
	isMember := false
	if p, known := k.state.Pod(pod.UID); known {
		m, isMember = p.Member, p.Gang && p.MemberErr == nil
	} else if mm, ok, err := workload.MemberOf(pod); ok && err == nil {
		m, isMember = mm, true
	}
	if isMember {
		if created, ok := k.state.Created(m.Key); ok {
			key.since = created
			key.group = m.Key.String()
			key.pod = fmt.Sprintf("%08d/%s", m.Slice, pod.Name)
		}
	}
	actual, _ := k.keys.LoadOrStore(pod.UID, key)
	return actual.(sortKey)
}

// forget drops a pod's key once it leaves the queue for good.
func (k *sortKeys) forget(pod *corev1.Pod) { k.keys.Delete(pod.UID) }
