// Package perf benchmarks multislice-scheduler with the upstream
// scheduler_perf harness: each scenario runs the same workload through the
// default kube-scheduler profile and through ours, in one run, against a
// real apiserver and etcd. `make bench` runs it and tabulates the results.
package perf

import (
	"fmt"
	"os"
	"testing"

	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	_ "k8s.io/component-base/logs/json/register"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func TestMain(m *testing.M) {
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	registry, err := app.Registry()
	if err != nil {
		b.Fatal(err)
	}
	perf.RunBenchmarkPerfScheduling(b, "performance-config.yaml", "multislice", registry, perf.WithPrepareFn(installWorkloadCRDs))
}

// installWorkloadCRDs serves the JobSet and PodGroup APIs in every
// workload's fresh apiserver, as a cluster with JobSet installed has them.
func installWorkloadCRDs(tCtx ktesting.TContext) error {
	client, err := apiextensionsclient.NewForConfig(tCtx.RESTConfig())
	if err != nil {
		return err
	}
	for _, crd := range builders.WorkloadCRDs() {
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(tCtx, crd, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create CRD %s: %w", crd.Name, err)
		}
	}
	return nil
}
