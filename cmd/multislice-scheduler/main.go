// Command multislice-scheduler runs the multislice gang scheduler.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register" // JSON log format
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
)

func main() {
	os.Exit(cli.Run(app.NewCommand()))
}
