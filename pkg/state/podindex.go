package state

import (
	"iter"
	"maps"

	"k8s.io/apimachinery/pkg/types"
)

// podIndex holds the state's record of every pod it knows, by UID and by
// the node it is on (bound or assumed). A record is replaced, never
// changed, once indexed: put the new one after dropping the old.
type podIndex struct {
	byUID  map[types.UID]*Pod
	onNode map[string]map[types.UID]*Pod
}

func newPodIndex() podIndex {
	return podIndex{byUID: map[types.UID]*Pod{}, onNode: map[string]map[types.UID]*Pod{}}
}

// get returns the record of the pod uid (nil: none).
func (x *podIndex) get(uid types.UID) *Pod { return x.byUID[uid] }

// put indexes p, replacing any record of its UID.
func (x *podIndex) put(p *Pod) {
	x.byUID[p.UID] = p
	if p.Node == "" {
		return
	}
	on := x.onNode[p.Node]
	if on == nil {
		on = map[types.UID]*Pod{}
		x.onNode[p.Node] = on
	}
	on[p.UID] = p
}

// drop removes the record of p's UID, and p from its node.
func (x *podIndex) drop(p *Pod) {
	delete(x.byUID, p.UID)
	if p.Node == "" {
		return
	}
	if on := x.onNode[p.Node]; on != nil {
		delete(on, p.UID)
		if len(on) == 0 {
			delete(x.onNode, p.Node)
		}
	}
}

// on returns the pods on node, in no order.
func (x *podIndex) on(node string) iter.Seq[*Pod] { return maps.Values(x.onNode[node]) }

// onByUID returns the pods on node by UID (read-only).
func (x *podIndex) onByUID(node string) map[types.UID]*Pod { return x.onNode[node] }

// all returns every pod, in no order.
func (x *podIndex) all() iter.Seq[*Pod] { return maps.Values(x.byUID) }
