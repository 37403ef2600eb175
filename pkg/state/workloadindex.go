package state

import (
	"iter"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// workloadIndex holds the workloads the state knows: those observed from
// their objects and those only their pods name so far.
type workloadIndex struct {
	byKey map[workload.Key]*Workload
	// children maps the child PodGroups of gang CompositePodGroups to the
	// composite's slice they are (workload.Workload.Children), for the
	// composites whose model the state holds.
	children map[workload.Key]sliceRef
}

func newWorkloadIndex() workloadIndex {
	return workloadIndex{byKey: map[workload.Key]*Workload{}, children: map[workload.Key]sliceRef{}}
}

// of returns key's workload (nil: none is known).
func (x *workloadIndex) of(key workload.Key) *Workload { return x.byKey[key] }

// ensure returns key's workload, recording an empty one first if none is
// known.
func (x *workloadIndex) ensure(key workload.Key) *Workload {
	w := x.byKey[key]
	if w == nil {
		w = &Workload{key: key, members: map[types.UID]*Pod{}}
		x.byKey[key] = w
	}
	return w
}

// drop forgets key's workload.
func (x *workloadIndex) drop(key workload.Key) { delete(x.byKey, key) }

// all returns every workload, in no order.
func (x *workloadIndex) all() iter.Seq[*Workload] { return maps.Values(x.byKey) }

// byKeys returns every workload by its key, in no order.
func (x *workloadIndex) byKeys() iter.Seq2[workload.Key, *Workload] { return maps.All(x.byKey) }

// keys returns every workload's key, sorted.
func (x *workloadIndex) keys() []workload.Key {
	return slices.SortedFunc(maps.Keys(x.byKey), compareKeys)
}
