package fleet

import (
	"fmt"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
)

// holderColours are the first colours given to workloads: mid-tones well
// apart from each other, none of them the red and amber the page marks
// failed and recycling pools with, nor the grey of free ones.
var holderColours = []string{
	"#4e79a7", // blue
	"#59a14f", // green
	"#b07aa1", // purple
	"#76b7b2", // teal
	"#9c755f", // brown
	"#d37295", // rose
	"#a0cbe8", // light blue
	"#8cd17d", // light green
	"#b6992d", // olive
	"#d4a6c8", // lavender
	"#499894", // dark teal
	"#d7b5a6", // sand
}

// colourOfSlot is the colour of slot i: holderColours, then hues a golden
// angle apart, which stay far from the last ones given.
func colourOfSlot(i int) string {
	if i < len(holderColours) {
		return holderColours[i]
	}
	hue := (float64(i-len(holderColours))*137.508 + 200)
	for hue >= 360 {
		hue -= 360
	}
	return fmt.Sprintf("hsl(%.0f, 45%%, 55%%)", hue)
}

// palette gives each workload one colour and keeps it: two workloads shown
// at once never share a colour, and a workload's colour does not change
// while it stays in view.
type palette struct {
	slots map[cli.WorkloadRef]int
}

// assign gives each of refs a colour: the one it had, else the first slot
// no other of refs has, in the order of refs. Workloads not in refs lose
// theirs, which others may take from then on.
func (p *palette) assign(refs []cli.WorkloadRef) map[cli.WorkloadRef]string {
	keep := map[cli.WorkloadRef]int{}
	taken := map[int]bool{}
	for _, r := range refs {
		if slot, ok := p.slots[r]; ok {
			keep[r] = slot
			taken[slot] = true
		}
	}
	next := 0
	for _, r := range refs {
		if _, ok := keep[r]; ok {
			continue
		}
		for taken[next] {
			next++
		}
		keep[r] = next
		taken[next] = true
	}
	p.slots = keep
	out := make(map[cli.WorkloadRef]string, len(keep))
	for r, slot := range keep {
		out[r] = colourOfSlot(slot)
	}
	return out
}
