// Package plot draws the benchmark report's charts as hand-written SVG: a
// line chart of series over time (LineChart) and horizontal bars of ratios
// against a baseline (RatioChart). Text is not measured, only estimated
// from its length (textWidth), so labels are given generous room.
//
// Every chart has a white background, so that it reads on dark pages too,
// and marks what it draws with classes (series, bar, whisker, reference,
// tick, legend, plot-area), which the tests query.
package plot

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Colours of the Okabe–Ito palette, told apart with the common forms of
// colour blindness; series also differ by dash pattern.
var (
	palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}
	dashes  = []string{"", "8 4", "2 3", "10 3 2 3"}
)

const (
	fontFamily = `-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif`
	textColour = "#222222"
	mutedText  = "#555555"
	axisColour = "#444444"
	gridColour = "#e3e3e3"
)

// style is the stylesheet every chart embeds.
var style = strings.Join([]string{
	"text { font-family: " + fontFamily + "; fill: " + textColour + "; }",
	".title { font-size: 16px; font-weight: 600; }",
	".subtitle { font-size: 12px; fill: " + mutedText + "; }",
	".panel-title, .group { font-size: 13px; font-weight: 600; }",
	".tick, .legend-note, .value-note { font-size: 11px; fill: " + mutedText + "; }",
	".axis-label, .legend-name, .label, .value, .empty { font-size: 12px; }",
	".empty { fill: " + mutedText + "; font-style: italic; }",
	".axis { stroke: " + axisColour + "; stroke-width: 1; }",
	".grid { stroke: " + gridColour + "; stroke-width: 1; }",
}, "\n")

// canvas accumulates an SVG document.
type canvas struct{ b bytes.Buffer }

func newCanvas(width, height float64, title string) *canvas {
	c := &canvas{}
	fmt.Fprintf(&c.b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img">`+"\n",
		coord(width), coord(height), coord(width), coord(height))
	fmt.Fprintf(&c.b, "<title>%s</title>\n<style>\n%s\n</style>\n", esc(title), style)
	fmt.Fprintf(&c.b, `<rect class="background" x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", coord(width), coord(height))
	return c
}

func (c *canvas) raw(format string, args ...any) {
	fmt.Fprintf(&c.b, format, args...)
	c.b.WriteByte('\n')
}

// text writes a text element; anchor is start, middle or end.
func (c *canvas) text(x, y float64, class, anchor, s string) {
	c.raw(`<text class="%s" x="%s" y="%s" text-anchor="%s">%s</text>`, class, coord(x), coord(y), anchor, esc(s))
}

func (c *canvas) line(x1, y1, x2, y2 float64, class string) {
	c.raw(`<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s"/>`, class, coord(x1), coord(y1), coord(x2), coord(y2))
}

func (c *canvas) bytes() []byte {
	c.b.WriteString("</svg>\n")
	return c.b.Bytes()
}

// esc escapes text for element content and attribute values.
func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			// XML 1.0 allows no other control characters.
			if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == utf8.RuneError {
				b.WriteRune('\uFFFD')
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// coord prints a coordinate to a tenth of a pixel.
func coord(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// textWidth estimates the width of s set at size px: wide enough for most
// sans-serif faces, whose average glyph is narrower than 0.6 em.
func textWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * 0.6
}

// wrap breaks s into lines no wider than width at size px, at spaces.
func wrap(s string, size, width float64) []string {
	var lines []string
	var cur string
	for _, w := range strings.Fields(s) {
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if cur != "" && textWidth(next, size) > width {
			lines = append(lines, cur)
			next = w
		}
		cur = next
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// header writes the title and the wrapped subtitle from the top left and
// returns the height they take.
func (c *canvas) header(title, subtitle string, width float64) float64 {
	y := 26.0
	c.text(16, y, "title", "start", title)
	for _, l := range wrap(subtitle, 12, width-32) {
		y += 17
		c.text(16, y, "subtitle", "start", l)
	}
	return y + 14
}

// headerHeight is the height header will take.
func headerHeight(subtitle string, width float64) float64 {
	return 26 + 17*float64(len(wrap(subtitle, 12, width-32))) + 14
}
