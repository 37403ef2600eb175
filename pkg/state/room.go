package state

import (
	"iter"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// reservedRoom is what the reservations keep on nodes: the nodes of the
// confined domains they reserved, and the room they planned on nodes and
// have not placed yet — room other pods must leave.
//
// Invariant: nodeReserved[n] is set, to the slice reserving it, for every
// node n of every domain a live reservation reserved, and for no other
// node; outstanding[n][k] is the sum, over the slots reservation k still
// has on n, of each slot's request times its count left, with no empty
// entry (a key or node whose room reached zero is removed). The
// reservation's slots and this index change together: commit, reserve,
// unreserve and drop. Guarded by State.mu.
type reservedRoom struct {
	nodeReserved map[string]sliceRef
	outstanding  map[string]map[workload.Key]workload.Resources
}

func newReservedRoom() reservedRoom {
	return reservedRoom{nodeReserved: map[string]sliceRef{}, outstanding: map[string]map[workload.Key]workload.Resources{}}
}

// reserveDomain reserves nodes, the nodes of one confined domain, for
// slice ref.
func (r *reservedRoom) reserveDomain(nodes []string, ref sliceRef) {
	for _, n := range nodes {
		r.nodeReserved[n] = ref
	}
}

// add plans n more pods of request req for key on node (n < 0: fewer).
func (r *reservedRoom) add(node string, key workload.Key, req workload.Resources, n int64) {
	m := r.outstanding[node]
	if m == nil {
		m = map[workload.Key]workload.Resources{}
		r.outstanding[node] = m
	}
	out := m[key]
	if out == nil {
		out = workload.Resources{}
		m[key] = out
	}
	empty := true
	for name, v := range req {
		out[name] += v * n
		if out[name] != 0 {
			empty = false
		}
	}
	if empty {
		for _, v := range out {
			if v != 0 {
				empty = false
				break
			}
		}
	}
	if empty {
		delete(m, key)
		if len(m) == 0 {
			delete(r.outstanding, node)
		}
	}
}

// giveBack gives a reserved pod's room back to its slice of res.
func (r *reservedRoom) giveBack(res *Reservation, uid types.UID) {
	rp, in := res.Reserved[uid]
	if !in {
		return
	}
	delete(res.Reserved, uid)
	sr := res.Slices[rp.Slice]
	if sr == nil || rp.Shape < 0 {
		return
	}
	for i := range sr.Slots {
		if sr.Slots[i].Node == rp.Node && sr.Slots[i].Shape == rp.Shape {
			sr.Slots[i].Count++
			r.add(rp.Node, res.Holder.Key, sr.Shapes[rp.Shape].Request, 1)
			return
		}
	}
}

// release forgets everything reservation res of key keeps: its domains'
// nodes and the room its slots still plan.
func (r *reservedRoom) release(key workload.Key, res *Reservation) {
	for n, ref := range r.nodeReserved {
		if ref.key == key {
			delete(r.nodeReserved, n)
		}
	}
	for _, sr := range res.Slices {
		for _, slot := range sr.Slots {
			if slot.Count > 0 {
				r.add(slot.Node, key, sr.Shapes[slot.Shape].Request, -int64(slot.Count))
			}
		}
	}
}

// plansOn reports whether key reserved node's domain or planned room on it.
func (r *reservedRoom) plansOn(node string, key workload.Key) bool {
	if ref, ok := r.nodeReserved[node]; ok && ref.key == key {
		return true
	}
	_, ok := r.outstanding[node][key]
	return ok
}

// othersOn sums the room reservations other than self planned on node (nil:
// none).
func (r *reservedRoom) othersOn(node string, self workload.Key) workload.Resources {
	var others workload.Resources
	for k, o := range r.outstanding[node] {
		if k == self {
			continue
		}
		if others == nil {
			others = workload.Resources{}
		}
		others.AddScaled(o, 1)
	}
	return others
}

// reservationIndex holds the reservations, at most one per workload, and
// the room they take on nodes.
type reservationIndex struct {
	byKey map[workload.Key]*Reservation
	room  reservedRoom
}

func newReservationIndex() reservationIndex {
	return reservationIndex{byKey: map[workload.Key]*Reservation{}, room: newReservedRoom()}
}

// of returns key's reservation (nil: none).
func (x *reservationIndex) of(key workload.Key) *Reservation { return x.byKey[key] }

// put records r as key's reservation; its room is taken by the caller,
// slot by slot.
func (x *reservationIndex) put(key workload.Key, r *Reservation) { x.byKey[key] = r }

// drop removes key's reservation r and gives back the room it took.
func (x *reservationIndex) drop(key workload.Key, r *Reservation) {
	delete(x.byKey, key)
	x.room.release(key, r)
}

// count is how many reservations stand.
func (x *reservationIndex) count() int { return len(x.byKey) }

// all returns every reservation by its workload's key, in no order.
func (x *reservationIndex) all() iter.Seq2[workload.Key, *Reservation] { return maps.All(x.byKey) }

// keys returns the keys of the workloads holding a reservation, sorted.
func (x *reservationIndex) keys() []workload.Key {
	return slices.SortedFunc(maps.Keys(x.byKey), compareKeys)
}
