package placement

import "iter"

// Few is a short list carried by value: its first two elements in place,
// any more in a slice. A node's facts are copied once for every node of a
// Filter pass, and a domain rarely has more than one holder (two while an
// object is deleted and created again under its name) nor a node more
// than one held domain, so copying them this way allocates nothing in the
// common case. The zero value is empty.
type Few[T any] struct {
	n    int
	head [2]T
	tail []T
}

// FewOf is a Few of vs.
func FewOf[T any](vs ...T) Few[T] {
	var f Few[T]
	for _, v := range vs {
		f.Add(v)
	}
	return f
}

// Add appends v.
func (f *Few[T]) Add(v T) {
	if f.n < len(f.head) {
		f.head[f.n] = v
	} else {
		f.tail = append(f.tail, v)
	}
	f.n++
}

// Len is the number of elements.
func (f *Few[T]) Len() int { return f.n }

// At is the i-th element.
func (f *Few[T]) At(i int) T {
	if i < len(f.head) {
		return f.head[i]
	}
	return f.tail[i-len(f.head)]
}

// All yields the elements in order.
func (f *Few[T]) All() iter.Seq[T] {
	return func(yield func(T) bool) {
		for i := range f.n {
			if !yield(f.At(i)) {
				return
			}
		}
	}
}

// AddNew appends v unless f holds it already.
func AddNew[T comparable](f *Few[T], v T) {
	for i := range f.n {
		if f.At(i) == v {
			return
		}
	}
	f.Add(v)
}
