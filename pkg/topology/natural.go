package topology

import (
	"cmp"
	"strings"
)

// CompareNatural orders label values as people read them: runs of digits
// by their number, the rest byte by byte, so that host-8 comes before
// host-10 and the rank order of a placement follows node numbering. Equal
// numbers written differently ("7", "07") are ordered by their text, so
// the order is total and only equal strings compare equal.
func CompareNatural(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			// Compare the runs as numbers: without leading zeros, the
			// longer is larger; of equal length, the first differing
			// digit decides.
			x, y := trimZeros(a[si:i]), trimZeros(b[sj:j])
			if len(x) != len(y) {
				return cmp.Compare(len(x), len(y))
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	if d := cmp.Compare(len(a)-i, len(b)-j); d != 0 {
		return d
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
