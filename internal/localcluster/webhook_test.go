package localcluster

import (
	"os"
	"path/filepath"
	"testing"
)

func TestProfileSchedulerName(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ config, want string }{
		{"profiles:\n  - schedulerName: tpu-scheduler\n  - schedulerName: other\n", "tpu-scheduler"},
		{"apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n", "multislice-scheduler"},
	} {
		path := filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(path, []byte(tc.config), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := profileSchedulerName(path)
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.config, got, err, tc.want)
		}
	}
	// The shipped configuration's, which the local cluster runs.
	if got, err := profileSchedulerName("../../manifests/scheduler/config.yaml"); err != nil || got != "multislice-scheduler" {
		t.Errorf("manifests/scheduler/config.yaml: %q, %v", got, err)
	}
	if _, err := profileSchedulerName(filepath.Join(dir, "missing.yaml")); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestWebhookURL(t *testing.T) {
	on := &Cluster{ports: ports{webhook: 4443}}
	if got := on.WebhookURL(); got != "https://127.0.0.1:4443" {
		t.Errorf("WebhookURL = %q", got)
	}
	off := &Cluster{opts: Options{NoWebhook: true}, ports: ports{webhook: 4443}}
	if got := off.WebhookURL(); got != "" {
		t.Errorf("WebhookURL without the webhook = %q", got)
	}
}
