package plot

import (
	"math"
	"strings"
)

// Point is one sample of a series.
type Point struct{ X, Y float64 }

// Series is one line of a panel.
type Series struct {
	// Name is the legend entry; series of the same name have the same
	// colour and dash in every panel.
	Name string
	// Note is a second, smaller legend line (which run it is, say).
	Note string
	// Points in order of X. A series without points is listed in the
	// legend as having no data and not drawn.
	Points []Point
}

// Panel is one plot of a LineChart, with axes of its own.
type Panel struct {
	Title  string
	Series []Series
}

// LineChart draws series over a shared kind of axes, one panel under
// another. Both axes start at zero: the data are counts over time.
type LineChart struct {
	Title, Subtitle string
	XLabel, YLabel  string
	Panels          []Panel
}

// Layout of a LineChart, in pixels.
const (
	lineLeft        = 72.0  // left edge to the plot area: y tick labels and the y label
	linePlotWidth   = 480.0 // the plot area
	lineLegendGap   = 28.0  // plot area to legend
	lineRight       = 16.0
	linePanelTitle  = 30.0  // panel top to its plot area
	linePlotHeight  = 200.0 // the plot area, at least
	lineAxisBelow   = 50.0  // plot area bottom to the panel's end: tick labels and the x label
	legendEntry     = 36.0  // a legend entry's height
	legendSwatch    = 28.0  // its line sample's length
	minLegendWidth  = 150.0 // the legend column, at least
	legendTextInset = legendSwatch + 8
)

// SVG renders the chart.
func (c LineChart) SVG() []byte {
	colours := seriesStyles(c.Panels)
	legendW := minLegendWidth
	for _, p := range c.Panels {
		for _, s := range p.Series {
			legendW = max(legendW, legendTextInset+textWidth(s.Name, 12), legendTextInset+textWidth(legendNote(s), 11))
		}
	}
	width := max(lineLeft+linePlotWidth+lineLegendGap+legendW, 16+textWidth(c.Title, 16)) + lineRight
	height := headerHeight(c.Subtitle, width)
	for _, p := range c.Panels {
		height += panelHeight(p)
	}
	if len(c.Panels) == 0 {
		height += 40
	}
	cv := newCanvas(width, height, c.Title)
	y := cv.header(c.Title, c.Subtitle, width)
	if len(c.Panels) == 0 {
		cv.text(16, y+20, "empty", "start", "No data.")
	}
	for _, p := range c.Panels {
		c.panel(cv, p, y, colours)
		y += panelHeight(p)
	}
	return cv.bytes()
}

// plotHeight is a panel's plot area height: room for its legend.
func plotHeight(p Panel) float64 {
	return max(linePlotHeight, legendEntry*float64(len(p.Series)))
}

func panelHeight(p Panel) float64 {
	return linePanelTitle + plotHeight(p) + lineAxisBelow
}

// seriesStyle is a series' colour and dash pattern.
type seriesStyle struct{ colour, dash string }

// seriesStyles gives each series name a style, in order of first
// appearance over all panels.
func seriesStyles(panels []Panel) map[string]seriesStyle {
	out := map[string]seriesStyle{}
	for _, p := range panels {
		for _, s := range p.Series {
			if _, ok := out[s.Name]; !ok {
				i := len(out)
				out[s.Name] = seriesStyle{colour: palette[i%len(palette)], dash: dashes[i%len(dashes)]}
			}
		}
	}
	return out
}

func legendNote(s Series) string {
	if len(drawable(s.Points)) == 0 {
		return strings.TrimSpace(s.Note + " (no data)")
	}
	return s.Note
}

// drawable keeps the points with finite coordinates.
func drawable(ps []Point) []Point {
	out := make([]Point, 0, len(ps))
	for _, p := range ps {
		if !math.IsNaN(p.X) && !math.IsInf(p.X, 0) && !math.IsNaN(p.Y) && !math.IsInf(p.Y, 0) {
			out = append(out, p)
		}
	}
	return out
}

// panel draws one panel whose top is at y.
func (c LineChart) panel(cv *canvas, p Panel, y float64, styles map[string]seriesStyle) {
	left, top := lineLeft, y+linePanelTitle
	w, h := linePlotWidth, plotHeight(p)
	cv.raw(`<g class="panel" data-title="%s">`, esc(p.Title))
	cv.text(16, y+18, "panel-title", "start", p.Title)

	maxX, maxY, hasData := 0.0, 0.0, false
	for _, s := range p.Series {
		for _, pt := range drawable(s.Points) {
			maxX, maxY, hasData = max(maxX, pt.X), max(maxY, pt.Y), true
		}
	}
	xt, yt := zeroTicks(maxX, 6), zeroTicks(maxY, 5)
	xs := linear{d0: 0, d1: xt[len(xt)-1], r0: left, r1: left + w}
	ys := linear{d0: 0, d1: yt[len(yt)-1], r0: top + h, r1: top}

	cv.raw(`<rect class="plot-area" x="%s" y="%s" width="%s" height="%s" fill="none"/>`, coord(left), coord(top), coord(w), coord(h))
	for _, v := range yt {
		py := ys.at(v)
		cv.line(left, py, left+w, py, "grid")
		cv.text(left-6, py+4, "tick", "end", number(v))
	}
	for _, v := range xt {
		px := xs.at(v)
		cv.line(px, top, px, top+h, "grid")
		cv.text(px, top+h+16, "tick", "middle", number(v))
	}
	cv.line(left, top+h, left+w, top+h, "axis")
	cv.line(left, top, left, top+h, "axis")
	cv.text(left+w/2, top+h+38, "axis-label", "middle", c.XLabel)
	cv.raw(`<text class="axis-label" x="%s" y="%s" text-anchor="middle" transform="rotate(-90 %s %s)">%s</text>`,
		coord(20), coord(top+h/2), coord(20), coord(top+h/2), esc(c.YLabel))
	if !hasData {
		cv.text(left+w/2, top+h/2, "empty", "middle", "No data.")
	}

	for _, s := range p.Series {
		pts := drawable(s.Points)
		if len(pts) == 0 {
			continue
		}
		st := styles[s.Name]
		cv.raw(`<g class="series" data-name="%s">`, esc(s.Name))
		if len(pts) > 1 {
			var b strings.Builder
			for i, pt := range pts {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(coord(xs.at(pt.X)) + "," + coord(ys.at(pt.Y)))
			}
			dash := ""
			if st.dash != "" {
				dash = ` stroke-dasharray="` + st.dash + `"`
			}
			cv.raw(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"%s/>`, b.String(), st.colour, dash)
		}
		// The last point is marked: where the series ends (for the
		// benchmarks, when the last pod was bound), and a series of
		// one point is seen at all.
		last := pts[len(pts)-1]
		cv.raw(`<circle class="end" cx="%s" cy="%s" r="3.5" fill="%s"/>`, coord(xs.at(last.X)), coord(ys.at(last.Y)), st.colour)
		cv.raw(`</g>`)
	}

	lx := left + w + lineLegendGap
	cv.raw(`<g class="legend">`)
	for i, s := range p.Series {
		st := styles[s.Name]
		ly := top + 10 + float64(i)*legendEntry
		dash := ""
		if st.dash != "" {
			dash = ` stroke-dasharray="` + st.dash + `"`
		}
		cv.raw(`<line class="swatch" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2.5"%s/>`,
			coord(lx), coord(ly), coord(lx+legendSwatch), coord(ly), st.colour, dash)
		cv.text(lx+legendTextInset, ly+4, "legend-name", "start", s.Name)
		if note := legendNote(s); note != "" {
			cv.text(lx+legendTextInset, ly+19, "legend-note", "start", note)
		}
	}
	cv.raw(`</g>`)
	cv.raw(`</g>`)
}
