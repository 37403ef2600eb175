package plot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// node is an element of a parsed SVG document.
type node struct {
	name     string
	attr     map[string]string
	children []*node
	text     string // character data, of this element and its descendants
}

// parse decodes doc, failing the test unless it is well-formed XML whose
// root is an svg element.
func parse(t *testing.T, doc []byte) *node {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = true
	var root *node
	var stack []*node
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, doc)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attr: map[string]string{}}
			for _, a := range tok.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			if len(stack) == 0 {
				if root != nil {
					t.Fatal("more than one root element")
				}
				root = n
			} else {
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, n := range stack {
				n.text += string(tok)
			}
		}
	}
	if root == nil || root.name != "svg" {
		t.Fatalf("root is not an svg element:\n%s", doc)
	}
	for _, a := range []string{"width", "height", "viewBox"} {
		if root.attr[a] == "" {
			t.Errorf("svg element lacks %s", a)
		}
	}
	return root
}

// hasClass reports whether n's class attribute lists class.
func (n *node) hasClass(class string) bool {
	return strings.Contains(" "+n.attr["class"]+" ", " "+class+" ")
}

// all returns n's descendants (n excluded) that match, in document order.
func (n *node) all(match func(*node) bool) []*node {
	var out []*node
	for _, c := range n.children {
		if match(c) {
			out = append(out, c)
		}
		out = append(out, c.all(match)...)
	}
	return out
}

func (n *node) class(class string) []*node {
	return n.all(func(c *node) bool { return c.hasClass(class) })
}

func (n *node) elements(name string) []*node {
	return n.all(func(c *node) bool { return c.name == name })
}

// texts returns the text of n's descendants of a class.
func (n *node) texts(class string) []string {
	var out []string
	for _, c := range n.class(class) {
		out = append(out, c.text)
	}
	return out
}

func (n *node) num(t *testing.T, attr string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr[attr], 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.name, attr, n.attr[attr], err)
	}
	return v
}

// box is a rectangle's x, y, width and height.
type box struct{ x, y, w, h float64 }

func (n *node) box(t *testing.T) box {
	t.Helper()
	return box{n.num(t, "x"), n.num(t, "y"), n.num(t, "width"), n.num(t, "height")}
}

// near: coordinates are printed to a tenth of a pixel.
func near(a, b float64) bool { return math.Abs(a-b) <= 0.15 }

func TestEscapedTextStaysWellFormed(t *testing.T) {
	title := `a <b> & "c" 'd' ` + "\x01"
	doc := LineChart{Title: title, Panels: []Panel{{Title: "<&>", Series: []Series{{Name: "x&y", Points: []Point{{1, 1}}}}}}}.SVG()
	root := parse(t, doc)
	if got := root.elements("title")[0].text; got != `a <b> & "c" 'd' `+"\uFFFD" {
		t.Errorf("title = %q", got)
	}
	doc = RatioChart{Title: title, Bars: []Bar{{Group: "<g>", Label: "&", Ratio: 2}}}.SVG()
	parse(t, doc)
}

func TestWrap(t *testing.T) {
	lines := wrap("one two three four five six", 10, textWidth("one two three", 10))
	want := []string{"one two three", "four five six"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("wrap = %q, want %q", lines, want)
	}
	if got := wrap("", 12, 100); len(got) != 0 {
		t.Errorf("wrap of nothing = %q", got)
	}
}
