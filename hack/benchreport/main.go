// Command benchreport prints a markdown table of the scheduler_perf results
// in a -data-items-dir: benchreport _output/bench
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
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
