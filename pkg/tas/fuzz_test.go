package tas

import (
	"slices"
	"strings"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
)

// FuzzPlace places random requests on random small fleets and checks the
// outcome against what must hold (check) and against an independent count
// of each domain's room: a request fails exactly when it is invalid or no
// allowed domain (or, when spreading is allowed, the whole tree) has room;
// the domain chosen at a level is the tightest that fits, the level chosen
// the lowest allowed that fits, and a spread uses the fewest top-level
// domains.
func FuzzPlace(f *testing.F) {
	// shape: bits 0-1 blocks-1, 2-3 subblocks-1, 4-5 hosts-1, 6-7 levels
	// (block/subblock/host, block/subblock, block/hostname, block).
	f.Add(uint8(0x3f), []byte{4, 3, 2, 1, 0, 8}, uint16(0), int16(8), uint8(1), int8(1), int8(1), int8(2))
	f.Add(uint8(0x3f), []byte{9, 1, 250, 7}, uint16(0x0101), int16(16), uint8(2), int8(2), int8(4), int8(2))
	f.Add(uint8(0x2a), []byte{5, 0, 3}, uint16(0), int16(12), uint8(3), int8(0), int8(3), int8(1))
	f.Add(uint8(0x55), []byte{2}, uint16(0xffff), int16(6), uint8(2), int8(0), int8(2), int8(1))
	f.Add(uint8(0x95), []byte{8, 8, 1}, uint16(0), int16(9), uint8(1), int8(0), int8(3), int8(1))
	f.Add(uint8(0xff), []byte{3, 6}, uint16(3), int16(4), uint8(3), int8(0), int8(1), int8(0))
	f.Add(uint8(0x00), []byte{}, uint16(0), int16(0), uint8(0), int8(-1), int8(0), int8(-1))
	f.Fuzz(func(t *testing.T, shape uint8, fits []byte, drop uint16, pods int16, mode uint8, level, sliceSize, sliceLevel int8) {
		fl := fleet(1+int(shape&3), 1+int(shape>>2&3), 1+int(shape>>4&3))
		switch shape >> 6 {
		case 1:
			fl.levelsOf(blockKey, subblockKey)
		case 2:
			fl.levelsOf(blockKey, hostnameKey)
		case 3:
			fl.levelsOf(blockKey)
		}
		names := make([]string, 0, len(fl.nodes))
		for n := range fl.nodes {
			names = append(names, n)
		}
		slices.Sort(names)
		for i, n := range names {
			if len(fits) > 0 {
				fl.fits[n] = int32(int8(fits[i%len(fits)])) % 10
			}
			if i < 16 && drop&(1<<i) != 0 {
				delete(fl.nodes[n], fl.levels[i%len(fl.levels)])
			}
		}
		tr := fl.tree()
		levels := len(tr.Levels)
		r := Request{
			Pods:       int32(pods) % 200,
			Mode:       Mode(mode % 4),
			Level:      int(level) % (levels + 1),
			SliceSize:  int32(sliceSize) % 9,
			SliceLevel: int(sliceLevel) % (levels + 1),
		}
		p, fail := Place(tr, fl.fits, r)

		valid := r.Mode >= Required && r.Mode <= Unconstrained && r.Pods >= 1 && r.SliceSize >= 1 &&
			r.Pods%r.SliceSize == 0 && r.SliceLevel >= 0 && r.SliceLevel < levels &&
			(r.Mode == Unconstrained || r.Level >= 0 && r.Level < levels && r.SliceLevel >= r.Level)
		if !valid {
			if fail == nil || !strings.HasPrefix(fail.Message, "invalid request: ") {
				t.Fatalf("invalid %+v: got %+v, %+v", r, p, fail)
			}
			return
		}
		if fail != nil && strings.HasPrefix(fail.Message, "invalid request") {
			t.Fatalf("valid %+v rejected: %s", r, fail.Message)
		}

		need := int64(r.Pods / r.SliceSize)
		room := func(d *topology.TreeDomain) int64 { return slicesIn(d, fl.fits, r.SliceSize, r.SliceLevel) }
		// tightest is the least room of a domain of lvl that takes need
		// (-1: none), and the most room of any.
		tightest := func(lvl int) (least, most int64) {
			least = -1
			for _, d := range tr.Domains(lvl) {
				n := room(d)
				most = max(most, n)
				if n >= need && (least < 0 || n < least) {
					least = n
				}
			}
			return least, most
		}

		if r.Mode == Required {
			least, most := tightest(r.Level)
			switch {
			case least < 0 && fail == nil:
				t.Fatalf("%+v placed though no domain has room: %+v", r, outcomeOf(p, nil))
			case least < 0:
				if fail.Largest != int32(most)*r.SliceSize || fail.Tried != len(tr.Domains(r.Level)) || fail.Needed != r.Pods {
					t.Fatalf("%+v: failure %+v, want largest %d tried %d", r, fail, most*int64(r.SliceSize), len(tr.Domains(r.Level)))
				}
				return
			case fail != nil:
				t.Fatalf("%+v failed though a domain has room %d: %s", r, least, fail.Message)
			case room(p.Domains[0]) != least:
				t.Fatalf("%+v chose %s with room %d, the tightest has %d", r, p.Domains[0].ID(), room(p.Domains[0]), least)
			}
			check(t, tr, fl.fits, r, p)
			return
		}

		from := r.Level
		if r.Mode == Unconstrained {
			from = r.SliceLevel
		}
		wantLevel, least := -1, int64(-1)
		for lvl := from; lvl >= 0 && wantLevel < 0; lvl-- {
			if l, _ := tightest(lvl); l >= 0 {
				wantLevel, least = lvl, l
			}
		}
		var roots []int64
		var total int64
		for _, d := range tr.Roots {
			roots = append(roots, room(d))
			total += room(d)
		}
		switch {
		case wantLevel < 0 && total < need:
			if fail == nil {
				t.Fatalf("%+v placed though the tree takes %d slices: %+v", r, total, outcomeOf(p, nil))
			}
			if fail.Largest != int32(total)*r.SliceSize || fail.Tried != len(tr.Roots) || fail.Level != from {
				t.Fatalf("%+v: failure %+v, want largest %d tried %d level %d", r, fail, total*int64(r.SliceSize), len(tr.Roots), from)
			}
			return
		case fail != nil:
			t.Fatalf("%+v failed though it fits: %s", r, fail.Message)
		case p.Level != wantLevel:
			t.Fatalf("%+v placed at level %d, want %d", r, p.Level, wantLevel)
		case wantLevel >= 0 && room(p.Domains[0]) != least:
			t.Fatalf("%+v chose %s with room %d, the tightest has %d", r, p.Domains[0].ID(), room(p.Domains[0]), least)
		case wantLevel < 0:
			slices.Sort(roots)
			slices.Reverse(roots)
			k, sum := 0, int64(0)
			for sum < need {
				sum += roots[k]
				k++
			}
			if len(p.Domains) != k {
				t.Fatalf("%+v spread over %d top-level domains, %d would do", r, len(p.Domains), k)
			}
		}
		check(t, tr, fl.fits, r, p)
	})
}
