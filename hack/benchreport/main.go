// Command benchreport prints a markdown table of the scheduler_perf results
// in a -data-items-dir: benchreport _output/bench. Where the quota scenarios
// ran, a second table compares their variants: admission throughput,
// scheduling attempts per admitted workload and peak memory; where the
// hotswap scenarios ran, another compares preemption (hotswap.go); where the
// provisioning scenarios ran, another the cost of a provisioning admission
// check (provisioning.go).
package main

import (
	"fmt"
	"os"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: benchreport DATA_ITEMS_DIR")
		os.Exit(2)
	}
	rows, err := benchreport.Load(os.Args[1])
	if err == nil {
		err = benchreport.Markdown(os.Stdout, rows)
	}
	if err == nil {
		var quota []quotaRow
		if quota, err = loadQuota(os.Args[1]); err == nil && len(quota) > 0 {
			err = writeQuota(os.Stdout, quota)
		}
	}
	if err == nil {
		var hotswap []hotswapRow
		if hotswap, err = loadHotswap(os.Args[1]); err == nil && len(hotswap) > 0 {
			err = writeHotswap(os.Stdout, hotswap)
		}
	}
	if err == nil {
		var prov []provisioningRow
		if prov, err = loadProvisioning(os.Args[1]); err == nil && len(prov) > 0 {
			err = writeProvisioning(os.Stdout, prov)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
