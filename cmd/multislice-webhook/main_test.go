package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		wantCode int
		wantOut  string
	}{
		{[]string{"--version"}, 0, "multislice-scheduler"},
		{[]string{"--help"}, 0, "-scheduler-name string"},
		{[]string{"--scheduler-name="}, 2, "--scheduler-name must not be empty"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"--no-such-flag"}, 2, "flag provided but not defined"},
		// No kubeconfig and no pod service account: an error, not a hang.
		{[]string{"--kubeconfig=/nonexistent"}, 1, ""},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), tc.args, &stderr); code != tc.wantCode || !strings.Contains(stderr.String(), tc.wantOut) {
			t.Errorf("%v: exit %d, output %q; want %d and %q", tc.args, code, stderr.String(), tc.wantCode, tc.wantOut)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	o, _, err := parse(nil, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if o.scheduler != "multislice-scheduler" || o.address != ":9443" || o.kubeconfig != "" {
		t.Errorf("defaults %+v", o)
	}
}
