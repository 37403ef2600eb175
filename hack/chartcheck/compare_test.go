package main

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

var sides = Sides{Want: "manifests", Got: "chart"}

// objects decodes a multi-document YAML literal.
func objects(t *testing.T, docs ...string) []*unstructured.Unstructured {
	t.Helper()
	objs, err := Decode([]byte(strings.Join(docs, "\n---\n")))
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// generated is the ConfigMap kustomize's configMapGenerator makes of a
// config.yaml file: its name ends in kustomize's own hash of it.
func generated(t *testing.T, configYAML string) *unstructured.Unstructured {
	t.Helper()
	fs := filesys.MakeFsInMemory()
	kustomization := "configMapGenerator:\n- name: sched-config\n  namespace: sys\n  files:\n  - config.yaml\n"
	if err := fs.WriteFile("/k/kustomization.yaml", []byte(kustomization)); err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/k/config.yaml", []byte(configYAML)); err != nil {
		t.Fatal(err)
	}
	resMap, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(fs, "/k")
	if err != nil {
		t.Fatal(err)
	}
	y, err := resMap.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	objs := objects(t, string(y))
	if len(objs) != 1 || !strings.HasPrefix(objs[0].GetName(), "sched-config-") {
		t.Fatalf("kustomize generated %v", objs)
	}
	return objs[0]
}

// mounting is a Deployment mounting the ConfigMap cm.
func mounting(t *testing.T, cm string, labels string) *unstructured.Unstructured {
	t.Helper()
	return objects(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: sched, namespace: sys`+labels+`}
spec:
  template:
    spec:
      volumes:
      - name: config
        configMap: {name: `+cm+`}`)[0]
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: sched
  namespace: sys
  labels: {app.kubernetes.io/name: sched}
spec:
  replicas: 2
  selector:
    matchLabels: {app.kubernetes.io/name: sched}
  template:
    metadata:
      labels: {app.kubernetes.io/name: sched}
    spec:
      containers:
      - name: scheduler
        args: [--config=/etc/config.yaml]`

const serviceAccount = `apiVersion: v1
kind: ServiceAccount
metadata: {name: sched, namespace: sys}`

func TestCompare(t *testing.T) {
	// The same configuration, as a file with comments and as Helm's toYaml
	// would write it: equal documents, different texts and hashes.
	commented := generated(t, "# Leader election on.\nleaderElection:\n  leaderElect: true\nprofiles:\n  - schedulerName: a\n    plugins: {}\n")
	helmStyle := generated(t, "leaderElection:\n  leaderElect: true\nprofiles:\n- plugins: {}\n  schedulerName: a\n")
	renamed := generated(t, "leaderElection:\n  leaderElect: true\nprofiles:\n- plugins: {}\n  schedulerName: b\n")
	wrongHash := helmStyle.DeepCopy()
	wrongHash.SetName("sched-config-hhhhhhhhhh")

	cases := map[string]struct {
		want, got []*unstructured.Unstructured
		subset    bool
		diffs     []string
	}{
		"identical renders agree": {
			want: objects(t, deployment, serviceAccount),
			got:  objects(t, serviceAccount, deployment),
		},
		"Helm's labels are ignored, on the object and its pod template": {
			want: objects(t, deployment, serviceAccount),
			got: objects(t,
				strings.NewReplacer(
					"labels: {app.kubernetes.io/name: sched}\nspec:\n  replicas",
					"labels: {app.kubernetes.io/name: sched, helm.sh/chart: c-0.1.0, app.kubernetes.io/managed-by: Helm}\nspec:\n  replicas",
					"      labels: {app.kubernetes.io/name: sched}",
					"      labels: {app.kubernetes.io/name: sched, app.kubernetes.io/instance: r, app.kubernetes.io/version: v1}",
				).Replace(deployment),
				`apiVersion: v1
kind: ServiceAccount
metadata: {name: sched, namespace: sys, labels: {app.kubernetes.io/instance: r}}`),
		},
		"another label is a difference": {
			want: objects(t, serviceAccount),
			got: objects(t, `apiVersion: v1
kind: ServiceAccount
metadata: {name: sched, namespace: sys, labels: {app.kubernetes.io/name: sched, helm.sh/chart: c}}`),
			diffs: []string{`ServiceAccount sys/sched: metadata.labels: chart has {"app.kubernetes.io/name":"sched"}, manifests has no such field`},
		},
		"Helm's labels in a selector are a difference": {
			want: objects(t, deployment),
			got: objects(t, strings.Replace(deployment,
				"matchLabels: {app.kubernetes.io/name: sched}",
				"matchLabels: {app.kubernetes.io/name: sched, app.kubernetes.io/instance: r}", 1)),
			diffs: []string{`Deployment sys/sched: spec.selector.matchLabels["app.kubernetes.io/instance"]: chart has "r", manifests has no such field`},
		},
		"a differing field is reported by its path": {
			want:  objects(t, deployment),
			got:   objects(t, strings.Replace(deployment, "replicas: 2", "replicas: 3", 1)),
			diffs: []string{`Deployment sys/sched: spec.replicas: manifests 2, chart 3`},
		},
		"a value of another type is a difference": {
			want:  objects(t, deployment),
			got:   objects(t, strings.Replace(deployment, "replicas: 2", `replicas: "2"`, 1)),
			diffs: []string{`Deployment sys/sched: spec.replicas: manifests 2, chart "2"`},
		},
		"a list of another length, and the items that differ": {
			want: objects(t, deployment),
			got:  objects(t, strings.Replace(deployment, "args: [--config=/etc/config.yaml]", "args: [--config=/etc/other.yaml, --v=2]", 1)),
			diffs: []string{
				`Deployment sys/sched: spec.template.spec.containers[0].args: 1 items in manifests, 2 in chart`,
				`Deployment sys/sched: spec.template.spec.containers[0].args[0]: manifests "--config=/etc/config.yaml", chart "--config=/etc/other.yaml"`,
			},
		},
		"a missing object and an extra one": {
			want: objects(t, deployment, serviceAccount),
			got: objects(t, deployment, `apiVersion: v1
kind: Service
metadata: {name: sched, namespace: sys}`),
			diffs: []string{
				`Service sys/sched: in chart, not in manifests`,
				`ServiceAccount sys/sched: in manifests, not in chart`,
			},
		},
		"objects of the same name in other namespaces are other objects": {
			want: objects(t, serviceAccount),
			got:  objects(t, strings.Replace(serviceAccount, "namespace: sys", "namespace: other", 1)),
			diffs: []string{
				`ServiceAccount other/sched: in chart, not in manifests`,
				`ServiceAccount sys/sched: in manifests, not in chart`,
			},
		},
		"content-hashed ConfigMaps of equal documents agree, and so do their references": {
			want: []*unstructured.Unstructured{commented, mounting(t, commented.GetName(), "")},
			got:  []*unstructured.Unstructured{helmStyle, mounting(t, helmStyle.GetName(), ", labels: {helm.sh/chart: c}")},
		},
		"a configuration that differs is reported inside the document": {
			want: []*unstructured.Unstructured{commented, mounting(t, commented.GetName(), "")},
			got:  []*unstructured.Unstructured{renamed, mounting(t, renamed.GetName(), "")},
			diffs: []string{
				`ConfigMap sys/sched-config-<content-hash>: data["config.yaml"].profiles[0].schedulerName: manifests "a", chart "b"`,
			},
		},
		"a hash suffix that is not the content's hash is not ignored": {
			want: []*unstructured.Unstructured{commented, mounting(t, commented.GetName(), "")},
			got:  []*unstructured.Unstructured{wrongHash, mounting(t, wrongHash.GetName(), "")},
			diffs: []string{
				`ConfigMap sys/sched-config-<content-hash>: in manifests, not in chart`,
				`ConfigMap sys/sched-config-hhhhhhhhhh: in chart, not in manifests`,
				`Deployment sys/sched: spec.template.spec.volumes[0].configMap.name: manifests "sched-config-<content-hash>", chart "sched-config-hhhhhhhhhh"`,
			},
		},
		"subset: only what the expectation says is checked": {
			want: objects(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: sched, namespace: sys}
spec: {replicas: 2}`),
			got:    objects(t, deployment, serviceAccount),
			subset: true,
		},
		"subset: an expected field that differs or is missing": {
			want: objects(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: sched, namespace: sys}
spec: {replicas: 3, paused: true}`),
			got:    objects(t, deployment),
			subset: true,
			diffs: []string{
				`Deployment sys/sched: spec.paused: manifests has true, chart has no such field`,
				`Deployment sys/sched: spec.replicas: manifests 3, chart 2`,
			},
		},
		"subset: an expected object that is missing": {
			want:   objects(t, serviceAccount),
			got:    objects(t, deployment),
			subset: true,
			diffs:  []string{`ServiceAccount sys/sched: in manifests, not in chart`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			diffs, err := Compare(tc.want, tc.got, sides, tc.subset)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range diffs {
				got = append(got, d.String())
			}
			if !slices.Equal(got, tc.diffs) {
				t.Errorf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.diffs, "\n"))
			}
		})
	}
}

func TestCompareRejectsAnObjectTwice(t *testing.T) {
	if _, err := Compare(objects(t, serviceAccount, serviceAccount), objects(t, serviceAccount), sides, false); err == nil {
		t.Fatal("a render with an object twice compared")
	}
}

func TestDecodeSkipsEmptyDocuments(t *testing.T) {
	// Helm's output: a comment before each document, empty documents for
	// templates that render nothing.
	objs, err := Decode([]byte("---\n# Source: c/templates/a.yaml\n" + serviceAccount + "\n---\n# Source: c/templates/off.yaml\n---\n" + deployment + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.GetKind())
	}
	if !slices.Equal(kinds, []string{"ServiceAccount", "Deployment"}) {
		t.Errorf("decoded %v", kinds)
	}
	// The decoded objects are what sigs.k8s.io/yaml reads.
	var want map[string]any
	if err := yaml.Unmarshal([]byte(deployment), &want); err != nil {
		t.Fatal(err)
	}
	if d, _ := Compare([]*unstructured.Unstructured{{Object: want}}, objs[1:], sides, false); len(d) != 0 {
		t.Errorf("decoded Deployment differs: %v", d)
	}
}
