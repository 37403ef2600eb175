// Package version holds the build identity of the multislice-scheduler binary.
//
// The values are stamped at link time by the Makefile (-ldflags -X ...) from
// `git describe`; unstamped builds (plain `go build`, tests) report "devel".
package version

import (
	"fmt"
	"runtime"
)

var (
	// gitVersion is the semantic version of this build, from `git describe --tags --dirty`.
	gitVersion = "devel"
	// gitCommit is the full commit hash the binary was built from.
	gitCommit = "unknown"
	// buildDate is the UTC build time in RFC 3339 form.
	buildDate = "unknown"
)

// Info describes a build.
type Info struct {
	GitVersion string `json:"gitVersion"`
	GitCommit  string `json:"gitCommit"`
	BuildDate  string `json:"buildDate"`
	GoVersion  string `json:"goVersion"`
	Platform   string `json:"platform"`
	// KubernetesVersion is the version of the Kubernetes scheduler framework linked in.
	KubernetesVersion string `json:"kubernetesVersion"`
}

// KubernetesVersion is the k8s.io/kubernetes release this scheduler is built on.
// Keep in step with go.mod; TestKubernetesVersionMatchesGoMod guards it.
const KubernetesVersion = "v1.37.1"

// Get returns the build information of the running binary.
func Get() Info {
	return Info{
		GitVersion:        gitVersion,
		GitCommit:         gitCommit,
		BuildDate:         buildDate,
		GoVersion:         runtime.Version(),
		Platform:          fmt.Sprintf("%s/%s", runtime.GOOS, runtime.GOARCH),
		KubernetesVersion: KubernetesVersion,
	}
}

// String renders the one-line form printed by --version.
func (i Info) String() string {
	return fmt.Sprintf("multislice-scheduler %s (commit %s, built %s, %s %s, kubernetes %s)",
		i.GitVersion, i.GitCommit, i.BuildDate, i.GoVersion, i.Platform, i.KubernetesVersion)
}
