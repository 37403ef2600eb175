package plot

import (
	"fmt"
	"testing"
)

func TestZeroTicks(t *testing.T) {
	cases := []struct {
		max  float64
		n    int
		want []float64
	}{
		{max: 100, n: 5, want: []float64{0, 20, 40, 60, 80, 100}},
		{max: 97, n: 5, want: []float64{0, 20, 40, 60, 80, 100}},
		{max: 101, n: 5, want: []float64{0, 50, 100, 150}},
		{max: 2, n: 6, want: []float64{0, 0.5, 1, 1.5, 2}},
		{max: 0.3, n: 3, want: []float64{0, 0.1, 0.2, 0.3}},
		{max: 0, n: 5, want: []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{max: 4096, n: 5, want: []float64{0, 1000, 2000, 3000, 4000, 5000}},
	}
	for _, c := range cases {
		if got := zeroTicks(c.max, c.n); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("zeroTicks(%v, %d) = %v, want %v", c.max, c.n, got, c.want)
		}
	}
}

func TestRatioTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		want   []float64
	}{
		{lo: 0.4, hi: 2.5, want: []float64{0.5, 0.7, 1, 1.5, 2}},
		{lo: 0.21, hi: 1.75, want: []float64{0.3, 0.5, 0.7, 1, 1.5}},
		{lo: 0.05, hi: 9, want: []float64{0.05, 0.1, 0.2, 0.5, 1, 2, 5}},
		{lo: 0.7, hi: 2.2, want: []float64{1, 1.5, 2}},
		{lo: 0.1, hi: 12, want: []float64{0.1, 0.2, 0.5, 1, 2, 5, 10}},
		{lo: 0.8, hi: 1.3, want: []float64{0.8, 0.9, 1, 1.1, 1.2, 1.3}},
		{lo: 0.84, hi: 1.89, want: []float64{1, 1.2, 1.4, 1.6, 1.8}},
		{lo: 0.001, hi: 1000, want: []float64{0.001, 0.01, 0.1, 1, 10, 100, 1000}},
	}
	for _, c := range cases {
		if got := ratioTicks(c.lo, c.hi); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("ratioTicks(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}

func TestScales(t *testing.T) {
	l := linear{d0: 0, d1: 10, r0: 100, r1: 300}
	if got := l.at(2.5); got != 150 {
		t.Errorf("linear at 2.5 = %v, want 150", got)
	}
	// An inverted range, as a y axis has.
	if got := (linear{d0: 0, d1: 100, r0: 200, r1: 0}).at(25); got != 150 {
		t.Errorf("inverted linear at 25 = %v, want 150", got)
	}
	g := logarithmic{d0: 0.25, d1: 4, r0: 0, r1: 400}
	for v, want := range map[float64]float64{0.25: 0, 0.5: 100, 1: 200, 2: 300, 4: 400} {
		if got := g.at(v); !near(got, want) {
			t.Errorf("logarithmic at %v = %v, want %v", v, got, want)
		}
	}
}
