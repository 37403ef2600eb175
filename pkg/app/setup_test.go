package app

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicegang"
)

// profile is a profile named name that enables plugins in multiPoint,
// with MultisliceGang's raw arguments args ("": none set).
func profile(name, args string, plugins ...string) schedulerconfig.KubeSchedulerProfile {
	p := schedulerconfig.KubeSchedulerProfile{SchedulerName: name, Plugins: &schedulerconfig.Plugins{}}
	for _, pl := range plugins {
		p.Plugins.MultiPoint.Enabled = append(p.Plugins.MultiPoint.Enabled, schedulerconfig.Plugin{Name: pl})
	}
	if args != "" {
		p.PluginConfig = []schedulerconfig.PluginConfig{{Name: multislicegang.Name, Args: &runtime.Unknown{Raw: []byte(args)}}}
	}
	return p
}

// The runtime is built before any plugin: its settings are read from the
// first profile that enables MultisliceGang.
func TestSettingsComeFromTheFirstProfileThatEnablesTheGang(t *testing.T) {
	gang := []string{multislicegang.Name, multislicegang.GateName}
	for _, tc := range []struct {
		name      string
		profiles  []schedulerconfig.KubeSchedulerProfile
		wantOwner string
		wantKey   string
		wantHold  time.Duration
		wantErr   string
	}{{
		name:      "no profile enables it: defaults, told by the first profile",
		profiles:  []schedulerconfig.KubeSchedulerProfile{profile("default-scheduler", `{"defaultDomainKey": "ignored"}`)},
		wantOwner: "default-scheduler", wantKey: "", wantHold: 5 * time.Minute,
	}, {
		name: "the enabling profile's arguments",
		profiles: []schedulerconfig.KubeSchedulerProfile{
			profile("default-scheduler", ""),
			profile("multislice-scheduler", `{"defaultDomainKey": "example.com/rack", "restartHoldSeconds": 30}`, gang...),
		},
		wantOwner: "multislice-scheduler", wantKey: "example.com/rack", wantHold: 30 * time.Second,
	}, {
		name:     "invalid arguments name the profile",
		profiles: []schedulerconfig.KubeSchedulerProfile{profile("multislice-scheduler", `{"restartHoldSeconds": -1}`, gang...)},
		wantErr:  "profiles[0].pluginConfig[name=MultisliceGang]",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			set, owner, err := Settings(tc.profiles)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if owner != tc.wantOwner || set.DefaultDomainKey != tc.wantKey || set.RestartHold != tc.wantHold {
				t.Errorf("Settings = %+v from %q, want domain key %q, restart hold %v from %q", set, owner, tc.wantKey, tc.wantHold, tc.wantOwner)
			}
		})
	}
}
