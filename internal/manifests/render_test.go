package manifests

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestRenderShippedManifests(t *testing.T) {
	cases := map[string]struct {
		image     string
		wantImage string
	}{
		"kustomization image": {image: "", wantImage: "multislice-scheduler:latest"},
		"overridden image":    {image: "registry.example/ms:v1", wantImage: "registry.example/ms:v1"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs, yamlOut, err := Render("../../manifests", tc.image)
			if err != nil {
				t.Fatal(err)
			}
			var deploy *unstructured.Unstructured
			for _, o := range objs {
				if o.GetKind() == "Deployment" {
					deploy = o
				}
			}
			if deploy == nil {
				t.Fatal("no Deployment rendered")
			}
			containers, _, err := unstructured.NestedSlice(deploy.Object, "spec", "template", "spec", "containers")
			if err != nil || len(containers) != 1 {
				t.Fatalf("containers: %v %v", containers, err)
			}
			if got := containers[0].(map[string]any)["image"]; got != tc.wantImage {
				t.Errorf("image = %v, want %s", got, tc.wantImage)
			}
			// The generated ConfigMap's hashed name is what the Deployment mounts.
			var cmName string
			for _, o := range objs {
				if o.GetKind() == "ConfigMap" {
					cmName = o.GetName()
				}
			}
			if !strings.HasPrefix(cmName, "multislice-scheduler-config-") || !strings.Contains(string(yamlOut), "name: "+cmName) {
				t.Errorf("config map %q not referenced by the Deployment", cmName)
			}
		})
	}
}

func TestRenderMissingDirFails(t *testing.T) {
	if _, _, err := Render("does-not-exist", ""); err == nil {
		t.Fatal("rendering a missing kustomization succeeded")
	}
}
