// Command render-manifests prints the rendered install manifest:
//
//	go run ./hack/render-manifests [-image REGISTRY/multislice-scheduler:TAG] manifests
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/multislice-scheduler/multislice-scheduler/internal/manifests"
)

func main() {
	image := flag.String("image", "", "scheduler image to deploy (default: as in the kustomization)")
	flag.Parse()
	dir := "manifests"
	if flag.NArg() > 0 {
		dir = flag.Arg(0)
	}
	_, out, err := manifests.Render(dir, *image)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_, _ = os.Stdout.Write(out)
}
