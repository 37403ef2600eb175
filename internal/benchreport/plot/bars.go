package plot

import (
	"math"
)

// Bar is one ratio of a RatioChart.
type Bar struct {
	// Group is the heading the bar is listed under; consecutive bars of
	// the same group share it.
	Group string
	Label string
	// Ratio is the compared figure over the baseline's; not positive
	// (or not a number) when it could not be computed: the row is listed
	// without a bar.
	Ratio float64
	// Min and Max are the spread of the ratio over the runs, drawn as
	// whiskers when Min < Max.
	Min, Max float64
}

func (b Bar) valid() bool  { return b.Ratio > 0 && !math.IsInf(b.Ratio, 0) }
func (b Bar) spread() bool { return b.Min > 0 && b.Max > b.Min && !math.IsInf(b.Max, 0) }

// RatioChart draws ratios against a baseline as horizontal bars from a
// line at 1 on a logarithmic axis, so that half and double are bars of the
// same length on either side.
type RatioChart struct {
	Title, Subtitle string
	// HigherIsBetter says which side of 1 is better: it sets the bars'
	// colours, which the legend names Better and Worse.
	HigherIsBetter bool
	Better, Worse  string
	Bars           []Bar
}

// Layout of a RatioChart, in pixels.
const (
	barLeft       = 16.0
	barPlotWidth  = 400.0
	barGap        = 16.0 // between the label column, the plot area and the values
	barLegend     = 30.0 // the legend row under the header
	barGroupRow   = 26.0
	barRow        = 24.0
	barThickness  = 14.0
	barAxisBelow  = 44.0
	barLabelInset = 14.0 // a bar's label under its group heading
	minLabelWidth = 140.0
	minValueWidth = 110.0
)

var barColours = map[string]string{"better": "#0072B2", "worse": "#D55E00", "even": "#888888"}

// SVG renders the chart.
func (c RatioChart) SVG() []byte {
	labelW, valueW := minLabelWidth, minValueWidth
	lo, hi := 1.0, 1.0
	spreads := false
	groupW := 0.0
	for _, b := range c.Bars {
		// A group's heading has a row of its own, across the chart: only
		// the bars' labels take the label column.
		groupW = max(groupW, textWidth(b.Group, 13))
		labelW = max(labelW, barLabelInset+textWidth(b.Label, 12))
		main, note := b.value()
		valueW = max(valueW, textWidth(main, 12)+textWidth(note, 11)+8)
		if b.valid() {
			lo, hi = math.Min(lo, b.Ratio), math.Max(hi, b.Ratio)
		}
		if b.spread() {
			lo, hi = math.Min(lo, b.Min), math.Max(hi, b.Max)
			spreads = true
		}
	}
	lo, hi = lo/1.12, hi*1.12
	if hi/lo < 1.5 { // a narrow domain: widened evenly about its middle
		mid := math.Sqrt(lo * hi)
		lo, hi = mid/math.Sqrt(1.5), mid*math.Sqrt(1.5)
	}
	plotLeft := barLeft + labelW + barGap
	width := max(plotLeft+barPlotWidth+barGap+valueW, barLeft+groupW, barLeft+textWidth(c.Title, 16)) + barLeft
	rows := 0.0
	for i, b := range c.Bars {
		if i == 0 || b.Group != c.Bars[i-1].Group {
			rows += barGroupRow
		}
		rows += barRow
	}
	head := headerHeight(c.Subtitle, width)
	height := head + barLegend + max(rows, 40) + barAxisBelow
	cv := newCanvas(width, height, c.Title)
	y := cv.header(c.Title, c.Subtitle, width)
	c.legend(cv, barLeft, y+8, spreads)
	top := y + barLegend
	bottom := top + max(rows, 40)
	xs := logarithmic{d0: lo, d1: hi, r0: plotLeft, r1: plotLeft + barPlotWidth}

	cv.raw(`<rect class="plot-area" x="%s" y="%s" width="%s" height="%s" fill="none"/>`,
		coord(plotLeft), coord(top), coord(barPlotWidth), coord(bottom-top))
	for _, v := range ratioTicks(lo, hi) {
		px := xs.at(v)
		cv.line(px, top, px, bottom, "grid")
		cv.text(px, bottom+16, "tick", "middle", number(v)+"×")
	}
	cv.line(plotLeft, bottom, plotLeft+barPlotWidth, bottom, "axis")
	cv.text(plotLeft+barPlotWidth/2, bottom+36, "axis-label", "middle", "ratio to the baseline (logarithmic scale)")
	if len(c.Bars) == 0 {
		cv.text(plotLeft+barPlotWidth/2, top+24, "empty", "middle", "No comparison.")
	}

	// The line at 1, which the bars start from: under the group
	// headings, which hide it where they cross it.
	one := xs.at(1)
	cv.raw(`<line class="reference" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="1.5"/>`,
		coord(one), coord(top-4), coord(one), coord(bottom), textColour)
	ry := top
	for i, b := range c.Bars {
		if i == 0 || b.Group != c.Bars[i-1].Group {
			// The heading crosses the plot area: its gridlines are
			// hidden behind it.
			cv.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="#ffffff"/>`,
				coord(barLeft-2), coord(ry+4), coord(textWidth(b.Group, 13)+4), coord(barGroupRow-6))
			cv.text(barLeft, ry+18, "group", "start", b.Group)
			ry += barGroupRow
		}
		mid := ry + barRow/2
		cv.raw(`<g class="bar" data-group="%s" data-label="%s">`, esc(b.Group), esc(b.Label))
		cv.text(barLeft+barLabelInset, mid+4, "label", "start", b.Label)
		if b.valid() {
			x := xs.at(b.Ratio)
			kind := c.kind(b.Ratio)
			cv.raw(`<rect class="ratio %s" x="%s" y="%s" width="%s" height="%s" fill="%s"/>`,
				kind, coord(math.Min(one, x)), coord(mid-barThickness/2), coord(math.Max(math.Abs(x-one), 1)), coord(barThickness), barColours[kind])
		}
		if b.spread() {
			x0, x1 := xs.at(b.Min), xs.at(b.Max)
			cv.raw(`<g class="whisker" stroke="%s" stroke-width="1.5">`, textColour)
			cv.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, coord(x0), coord(mid), coord(x1), coord(mid))
			for _, x := range []float64{x0, x1} {
				cv.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, coord(x), coord(mid-5), coord(x), coord(mid+5))
			}
			cv.raw(`</g>`)
		}
		main, note := b.value()
		cv.raw(`<text class="value" x="%s" y="%s" xml:space="preserve">%s<tspan class="value-note">%s</tspan></text>`,
			coord(plotLeft+barPlotWidth+barGap), coord(mid+4), esc(main), esc(note))
		cv.raw(`</g>`)
		ry += barRow
	}
	return cv.bytes()
}

// kind classes a ratio as better, worse or even against the baseline.
func (c RatioChart) kind(r float64) string {
	switch {
	case r == 1:
		return "even"
	case (r > 1) == c.HigherIsBetter:
		return "better"
	default:
		return "worse"
	}
}

// value is the text beside a bar: the ratio and, in a smaller note, its
// spread.
func (b Bar) value() (main, note string) {
	if !b.valid() {
		return "–", " not measured"
	}
	if b.spread() {
		return ratio(b.Ratio), " (" + ratio(b.Min) + "–" + ratio(b.Max) + ")"
	}
	return ratio(b.Ratio), ""
}

// legend names the colours, and the whiskers when any bar has them.
func (c RatioChart) legend(cv *canvas, x, y float64, spreads bool) {
	cv.raw(`<g class="legend">`)
	for _, e := range []struct{ kind, label string }{{"better", c.Better}, {"worse", c.Worse}} {
		cv.raw(`<rect x="%s" y="%s" width="14" height="10" fill="%s"/>`, coord(x), coord(y-9), barColours[e.kind])
		cv.text(x+20, y, "legend-name", "start", e.label)
		x += 20 + textWidth(e.label, 12) + 20
	}
	if spreads {
		cv.raw(`<g stroke="%s" stroke-width="1.5"><line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/></g>`,
			textColour, coord(x), coord(y-4), coord(x+20), coord(y-4),
			coord(x), coord(y-9), coord(x), coord(y+1), coord(x+20), coord(y-9), coord(x+20), coord(y+1))
		cv.text(x+26, y, "legend-name", "start", "lowest–highest of the runs")
	}
	cv.raw(`</g>`)
}
