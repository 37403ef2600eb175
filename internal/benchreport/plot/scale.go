package plot

import (
	"math"
	"strconv"
)

// linear maps the domain [d0, d1] onto the range [r0, r1].
type linear struct{ d0, d1, r0, r1 float64 }

func (s linear) at(v float64) float64 {
	if s.d1 == s.d0 {
		return s.r0
	}
	return s.r0 + (v-s.d0)/(s.d1-s.d0)*(s.r1-s.r0)
}

// logarithmic maps the positive domain [d0, d1] onto [r0, r1] so that equal
// ratios take equal room: 0.5 is as far below 1 as 2 is above it.
type logarithmic struct{ d0, d1, r0, r1 float64 }

func (s logarithmic) at(v float64) float64 {
	l0, l1 := math.Log(s.d0), math.Log(s.d1)
	if l1 == l0 {
		return s.r0
	}
	return s.r0 + (math.Log(v)-l0)/(l1-l0)*(s.r1-s.r0)
}

// niceStep is the step of 1, 2 or 5 times a power of ten that divides span
// into at most about n intervals.
func niceStep(span float64, n int) float64 {
	if span <= 0 || n <= 0 || math.IsInf(span, 0) || math.IsNaN(span) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// zeroTicks returns ticks from 0 to the first multiple of a nice step at or
// above max (at least one step), about n intervals: an axis of counts or
// seconds that starts at zero.
func zeroTicks(max float64, n int) []float64 {
	if !(max > 0) || math.IsInf(max, 0) {
		max = 1
	}
	step := niceStep(max, n)
	top := math.Ceil(max/step*(1-1e-9)) * step
	var ticks []float64
	for i := 0; ; i++ {
		v := float64(i) * step
		if v > top*(1+1e-9) {
			break
		}
		ticks = append(ticks, roundTo(v, step))
	}
	return ticks
}

// ratioTicks returns tick values within [lo, hi] for a logarithmic axis of
// ratios. Where the domain spans a factor of 4 or more, they are the
// densest of 1, 1.5, 2, 3, 5 and 7; 1, 2 and 5; or 1 times powers of ten
// that gives at most 9 ticks; else evenly spaced nice values, so that a
// narrow domain around 1 still gets ticks.
func ratioTicks(lo, hi float64) []float64 {
	var ticks []float64
	if hi/lo >= 4 {
		for _, mults := range [][]float64{{1, 1.5, 2, 3, 5, 7}, {1, 2, 5}, {1}} {
			ticks = ticks[:0]
			for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
				for _, m := range mults {
					v := m * math.Pow(10, e)
					if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
						ticks = append(ticks, roundTo(v, v/100))
					}
				}
			}
			if len(ticks) <= 9 {
				break
			}
		}
		return ticks
	}
	step := niceStep(hi-lo, 6)
	for v := math.Ceil(lo/step*(1-1e-9)) * step; v <= hi*(1+1e-9); v += step {
		ticks = append(ticks, roundTo(v, step))
	}
	return ticks
}

// roundTo rounds v to the decimals a step needs, removing the error that
// summing steps accumulates (0.30000000000000004).
func roundTo(v, step float64) float64 {
	d := decimals(step)
	p := math.Pow(10, float64(d))
	return math.Round(v*p) / p
}

// decimals is how many decimals print a multiple of step exactly.
func decimals(step float64) int {
	if step <= 0 || step >= 1 {
		return 0
	}
	return int(math.Ceil(-math.Log10(step) - 1e-9))
}

// number prints a tick or value without needless decimals.
func number(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ratio prints a ratio with two decimals, as the report's tables do.
func ratio(v float64) string {
	return strconv.FormatFloat(v, 'f', 2, 64) + "×"
}
