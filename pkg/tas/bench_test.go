package tas

import (
	"fmt"
	"slices"
	"testing"
)

// BenchmarkPlace places a 64-pod gang required in one subblock on fleets of
// 4 blocks × 16 subblocks × N hosts (about 1k, 5k and 15k nodes), each
// host taking 1 to 8 pods. Besides ns/op it reports ns/node: flat across
// sizes when the cost grows linearly with the nodes.
func BenchmarkPlace(b *testing.B) {
	for _, hosts := range []int{16, 78, 234} {
		fl := fleet(4, 16, hosts)
		names := make([]string, 0, len(fl.nodes))
		for n := range fl.nodes {
			names = append(names, n)
		}
		slices.Sort(names)
		for i, n := range names {
			fl.fits[n] = int32(1 + i*7%8)
		}
		tr, r := fl.tree(), required(64, subblock)
		b.Run(fmt.Sprintf("nodes=%d", len(names)), func(b *testing.B) {
			if _, f := Place(tr, fl.fits, r); f != nil {
				b.Fatal(f.Message)
			}
			b.ReportAllocs()
			for b.Loop() {
				Place(tr, fl.fits, r)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(names)), "ns/node")
		})
	}
}
