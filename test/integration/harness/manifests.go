package harness

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
)

// CreateFromFile creates every object of a multi-document YAML file (path
// relative to the repository root) as written, the way `kubectl create -f`
// would, and returns them as stored.
func (cp *ControlPlane) CreateFromFile(t testing.TB, rel string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(RepoPath(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(cp.Client.Discovery()))
	client := dynamic.NewForConfigOrDie(cp.Config)
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []*unstructured.Unstructured
	for {
		obj := &unstructured.Unstructured{}
		if err := decoder.Decode(&obj.Object); err != nil {
			if errors.Is(err, io.EOF) {
				return out
			}
			t.Fatalf("%s: %v", rel, err)
		}
		if len(obj.Object) == 0 {
			continue
		}
		gvk := obj.GroupVersionKind()
		m, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			t.Fatalf("%s: %s: %v", rel, gvk, err)
		}
		if m.Scope.Name() == meta.RESTScopeNameNamespace && obj.GetNamespace() == "" {
			// As kubectl does without --namespace.
			obj.SetNamespace(metav1.NamespaceDefault)
		}
		created, err := client.Resource(m.Resource).Namespace(obj.GetNamespace()).Create(t.Context(), obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("%s: create %s %s: %v", rel, gvk.Kind, obj.GetName(), err)
		}
		out = append(out, created)
	}
}

// ApplyObjects server-side applies objects, as `kubectl apply
// --server-side` would; with dryRun the apiserver runs every admission and
// validation step but persists nothing.
func (cp *ControlPlane) ApplyObjects(t testing.TB, objs []*unstructured.Unstructured, dryRun bool) {
	t.Helper()
	dyn := dynamic.NewForConfigOrDie(cp.Config)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(cp.Client.Discovery()))
	opts := metav1.ApplyOptions{FieldManager: "multislice-tests", Force: true}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	for _, obj := range objs {
		gvk := obj.GroupVersionKind()
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			t.Fatalf("%s %s: %v", gvk.Kind, obj.GetName(), err)
		}
		var ri dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
		if ns := obj.GetNamespace(); ns != "" {
			ri = dyn.Resource(mapping.Resource).Namespace(ns)
		}
		if _, err := ri.Apply(t.Context(), obj.GetName(), obj, opts); err != nil {
			t.Errorf("apply %s %s/%s (dryRun=%v): %v", gvk.Kind, obj.GetNamespace(), obj.GetName(), dryRun, err)
		}
	}
}
