// Package manifests renders the project's kustomizations, the same way
// `kubectl apply -k` does, for `make manifests` and for the tests that apply
// the rendered objects to a real apiserver.
package manifests

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// Render builds the kustomization in dir, optionally overriding the
// scheduler image, and returns the objects and their multi-document YAML.
func Render(dir, image string) ([]*unstructured.Unstructured, []byte, error) {
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	resMap, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		return nil, nil, fmt.Errorf("kustomize %s: %w", dir, err)
	}
	var objs []*unstructured.Unstructured
	for _, res := range resMap.Resources() {
		// Round-trip through YAML: the resource's own map holds Go types
		// (int) that unstructured helpers reject.
		y, err := res.AsYAML()
		if err != nil {
			return nil, nil, err
		}
		j, err := yaml.YAMLToJSON(y)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", res.CurId(), err)
		}
		obj := &unstructured.Unstructured{}
		if err := obj.UnmarshalJSON(j); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", res.CurId(), err)
		}
		if image != "" && obj.GetKind() == "Deployment" {
			if err := setImage(obj, image); err != nil {
				return nil, nil, err
			}
		}
		objs = append(objs, obj)
	}
	var out []byte
	for _, obj := range objs {
		data, err := yaml.Marshal(obj.Object)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, "---\n"...)
		out = append(out, data...)
	}
	return objs, out, nil
}

func setImage(deploy *unstructured.Unstructured, image string) error {
	containers, found, err := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "containers")
	if err != nil || !found {
		return fmt.Errorf("deployment %s has no containers: %v", deploy.GetName(), err)
	}
	for i := range containers {
		c, ok := containers[i].(map[string]any)
		if ok && c["name"] == "scheduler" {
			c["image"] = image
		}
	}
	return unstructured.SetNestedSlice(deploy.Object, containers, "spec", "template", "spec", "containers")
}
