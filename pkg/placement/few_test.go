package placement_test

import (
	"slices"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
)

func TestFew(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 5} {
		var f placement.Few[int]
		var want []int
		for i := range n {
			f.Add(i)
			placement.AddNew(&f, i) // already there: not added again
			want = append(want, i)
		}
		if got := slices.Collect(f.All()); f.Len() != n || !slices.Equal(got, want) {
			t.Errorf("%d added: Len() = %d, All() = %v, want %v", n, f.Len(), got, want)
		}
		for i, v := range want {
			if f.At(i) != v {
				t.Errorf("%d added: At(%d) = %d, want %d", n, i, f.At(i), v)
			}
		}
		g := placement.FewOf(want...)
		if got := slices.Collect(g.All()); !slices.Equal(got, want) {
			t.Errorf("FewOf(%v).All() = %v", want, got)
		}
	}
}
