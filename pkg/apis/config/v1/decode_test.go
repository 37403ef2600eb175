package v1

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
)

func TestDecodeArgs(t *testing.T) {
	cases := map[string]struct {
		raw     string
		nilArgs bool
		want    *config.MultisliceGangArgs
		wantErr string
	}{
		"no args: defaults": {
			nilArgs: true,
			want:    &config.MultisliceGangArgs{PermitTimeout: 300 * time.Second, FollowerTimeout: 300 * time.Second, QuotaStarvationTimeout: 600 * time.Second, QuotaReconcileInterval: 30 * time.Second, RestartHold: 300 * time.Second, QueuedStartDepth: 16},
		},
		"empty object: defaults": {
			raw:  `{}`,
			want: &config.MultisliceGangArgs{PermitTimeout: 300 * time.Second, FollowerTimeout: 300 * time.Second, QuotaStarvationTimeout: 600 * time.Second, QuotaReconcileInterval: 30 * time.Second, RestartHold: 300 * time.Second, QueuedStartDepth: 16},
		},
		"all fields": {
			raw: `{"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"MultisliceGangArgs","permitTimeoutSeconds":30,"followerTimeoutSeconds":60,"defaultDomainKey":"cloud.google.com/gke-nodepool","defaultLocalQueue":"default-queue","quotaStarvationTimeoutSeconds":120,"quotaReconcileSeconds":5,"restartHoldSeconds":0,"queuedStartDepth":0}`,
			want: &config.MultisliceGangArgs{PermitTimeout: 30 * time.Second, FollowerTimeout: 60 * time.Second, DefaultDomainKey: "cloud.google.com/gke-nodepool",
				DefaultLocalQueue: "default-queue", QuotaStarvationTimeout: 120 * time.Second, QuotaReconcileInterval: 5 * time.Second, RestartHold: 0, QueuedStartDepth: 0},
		},
		"unknown field": {
			raw:     `{"permitTimeoutSecond":30}`,
			wantErr: `unknown field "permitTimeoutSecond"`,
		},
		"duplicate field": {
			raw:     `{"permitTimeoutSeconds":30,"permitTimeoutSeconds":40}`,
			wantErr: `duplicate field "permitTimeoutSeconds"`,
		},
		"wrong type": {
			raw:     `{"permitTimeoutSeconds":"soon"}`,
			wantErr: "permitTimeoutSeconds",
		},
		"zero timeout": {
			raw:     `{"permitTimeoutSeconds":0}`,
			wantErr: "MultisliceGangArgs.permitTimeoutSeconds: Invalid value: 0",
		},
		"too long follower timeout": {
			raw:     `{"followerTimeoutSeconds":100000}`,
			wantErr: "MultisliceGangArgs.followerTimeoutSeconds",
		},
		"bad domain key": {
			raw:     `{"defaultDomainKey":"not a label/"}`,
			wantErr: "MultisliceGangArgs.defaultDomainKey",
		},
		"zero starvation timeout": {
			raw:     `{"quotaStarvationTimeoutSeconds":0}`,
			wantErr: "MultisliceGangArgs.quotaStarvationTimeoutSeconds",
		},
		"reconcile interval out of range": {
			raw:     `{"quotaReconcileSeconds":7200}`,
			wantErr: "MultisliceGangArgs.quotaReconcileSeconds: Invalid value: 7200",
		},
		"negative restart hold": {
			raw:     `{"restartHoldSeconds":-1}`,
			wantErr: "MultisliceGangArgs.restartHoldSeconds: Invalid value: -1",
		},
		"negative start depth": {
			raw:     `{"queuedStartDepth":-1}`,
			wantErr: "MultisliceGangArgs.queuedStartDepth: Invalid value: -1",
		},
		"start depth out of range": {
			raw:     `{"queuedStartDepth":100001}`,
			wantErr: "MultisliceGangArgs.queuedStartDepth: Invalid value: 100001",
		},
		"bad default queue": {
			raw:     `{"defaultLocalQueue":"Not_A_Name"}`,
			wantErr: "MultisliceGangArgs.defaultLocalQueue",
		},
		"wrong kind": {
			raw:     `{"kind":"CoschedulingArgs"}`,
			wantErr: "kind: Invalid value",
		},
		"wrong apiVersion": {
			raw:     `{"apiVersion":"v2"}`,
			wantErr: "apiVersion: Invalid value",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var obj runtime.Object
			if !tc.nilArgs {
				obj = &runtime.Unknown{Raw: []byte(tc.raw), ContentType: runtime.ContentTypeJSON}
			}
			got, err := DecodeArgs(obj)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}
