package localcluster

import (
	"bytes"
	_ "embed"
	"fmt"
	"text/template"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
)

// RunTimeAnnotation on a pod owned by a Job sets how long it runs before
// KWOK completes it, as a Go duration ("90s") or an RFC 3339 time. It
// overrides Options.PodRunTime.
const RunTimeAnnotation = "localcluster.multislice-scheduler.io/run-time"

//go:embed kwok-config.yaml.tmpl
var kwokConfigTemplate string

// renderKWOKConfig returns KWOK's configuration: which nodes it manages and
// the stages that move nodes and pods through their lives. A zero runTime
// lets pods run until they are deleted unless they carry RunTimeAnnotation.
func renderKWOKConfig(runTime time.Duration) ([]byte, error) {
	if runTime < 0 {
		return nil, fmt.Errorf("pod run time must not be negative, got %s", runTime)
	}
	tmpl, err := template.New("kwok").Delims("[[", "]]").Option("missingkey=error").Parse(kwokConfigTemplate)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = tmpl.Execute(&buf, map[string]any{
		"FailureTaint":         faults.PoolFailureTaint,
		"RunTimeAnnotation":    RunTimeAnnotation,
		"DefaultRunTimeMillis": runTime.Milliseconds(),
	})
	return buf.Bytes(), err
}
