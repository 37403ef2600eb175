// Command kubectl-multislice is the kubectl plugin of multislice-scheduler:
// with the binary on PATH, `kubectl multislice pools|queues|pending|why`
// shows node pools and their holders, queue usage, the pending workloads
// in the scheduler's order and why one workload waits, from what the API
// shows. The logic is in pkg/cli; this is only its command line.
package main

import (
	"fmt"
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
)

func main() {
	os.Exit(run(os.Args[1:], genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}, nil))
}

// run runs the command with args and returns its exit code: 0 when it
// did what was asked, 1 on any error (an object not found, the API
// unreachable, a bad flag), said on ErrOut as kubectl says it.
func run(args []string, streams genericiooptions.IOStreams, clients func() (*gather.Clients, error)) int {
	cmd := NewCommand(streams, clients)
	cmd.SetArgs(args)
	if err := cmd.Execute(); err != nil {
		fmt.Fprintf(streams.ErrOut, "error: %v\n", err)
		return 1
	}
	return 0
}
