package topology

import (
	"slices"
	"testing"
)

func TestCompareNatural(t *testing.T) {
	in := []string{"node-10", "node-9", "node-8", "node-100", "node-1", "b", "a10", "a9", "a09", "node-", "node-01", "x"}
	want := []string{"a09", "a9", "a10", "b", "node-", "node-01", "node-1", "node-8", "node-9", "node-10", "node-100", "x"}
	got := slices.Clone(in)
	slices.SortFunc(got, CompareNatural)
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
	for _, a := range in {
		for _, b := range in {
			if c, d := CompareNatural(a, b), CompareNatural(b, a); c != -d || (c == 0) != (a == b) {
				t.Errorf("compare(%q, %q) = %d, compare(%q, %q) = %d: not an order", a, b, c, b, a, d)
			}
		}
	}
}

func FuzzCompareNatural(f *testing.F) {
	f.Add("node-10", "node-9", "node-010")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		ab, ba := CompareNatural(a, b), CompareNatural(b, a)
		if ab != -ba || (ab == 0) != (a == b) {
			t.Fatalf("compare(%q, %q) = %d, reverse %d", a, b, ab, ba)
		}
		// Transitive: a ≤ b ≤ c implies a ≤ c.
		if ab <= 0 && CompareNatural(b, c) <= 0 && CompareNatural(a, c) > 0 {
			t.Fatalf("%q ≤ %q ≤ %q but %q > %q", a, b, c, a, c)
		}
	})
}
