// Package faultinfra_test checks the harness's fault tooling on a real
// kube-apiserver and etcd: the FaultProxy that fails, drops, delays and
// holds one client's requests, and scheduler replicas run as processes of
// the shipped binary for leader-election failover.
package faultinfra_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
