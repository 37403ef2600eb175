package topology

// compareNatural orders label values as people read them: runs of digits
// by their number, the rest byte by byte, so that host-8 comes before
// host-10 and the rank order of a placement follows node numbering. Equal
// numbers written differently ("7", "07") are ordered by their text, so
// the order is total and only equal strings compare equal.
func compareNatural(a, b string) int {
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
				return cmpInt(len(x), len(y))
			}
			if x != y {
				if x < y {
					return -1
				}
				return 1
			}
			continue
		}
		if a[i] != b[j] {
			return cmpInt(int(a[i]), int(b[j]))
		}
		i++
		j++
	}
	if d := cmpInt(len(a)-i, len(b)-j); d != 0 {
		return d
	}
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
