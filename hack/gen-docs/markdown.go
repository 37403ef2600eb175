package main

import (
	"strings"
	"unicode"
)

// cell renders text written for Go doc comments (lines wrapped anywhere,
// blank lines between paragraphs, "- " list items) as one markdown table
// cell: lines of a paragraph joined, paragraphs and list items broken with
// <br>, and what a table cell or HTML would take for its own escaped.
func cell(text string) string {
	var paras []string
	for _, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		var b strings.Builder
		for i, line := range strings.Split(para, "\n") {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			switch {
			case i == 0:
			case isListItem(line):
				b.WriteString("<br>")
			default:
				b.WriteString(" ")
			}
			b.WriteString(escape(line))
		}
		if b.Len() > 0 {
			paras = append(paras, b.String())
		}
	}
	return strings.Join(paras, "<br><br>")
}

// isListItem reports whether a line starts an item of a list.
func isListItem(line string) bool {
	if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") {
		return true
	}
	digits := len(line) - len(strings.TrimLeft(line, "0123456789"))
	return digits > 0 && digits < len(line)-1 && (line[digits] == '.' || line[digits] == ')') && line[digits+1] == ' '
}

// escape makes text safe in a table cell: a pipe would end the cell (also
// within a code span, where GitHub's tables still split on it), and
// outside code spans angle brackets would open HTML tags ("<namespace>"
// would vanish). Inside code spans entities are not decoded, so brackets
// stay as they are there.
func escape(text string) string {
	var b strings.Builder
	inCode := false
	for _, r := range text {
		switch {
		case r == '`':
			inCode = !inCode
			b.WriteRune(r)
		case r == '|':
			b.WriteString(`\|`)
		case r == '<' && !inCode:
			b.WriteString("&lt;")
		case r == '>' && !inCode:
			b.WriteString("&gt;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// code renders s as a code span, escaped for a table cell, with a fence
// long enough for the backticks s holds.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + strings.ReplaceAll(s, "|", `\|`) + pad + fence
}

// anchor is the anchor GitHub gives a heading of text: lower case, spaces
// as hyphens, punctuation dropped.
func anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
