package queueapi_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/resource"

	v1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// category is the kubectl category of every multislice.dev kind.
const category = "multislice"

// The names users type resolve as kubectl resolves them (cli-runtime's
// builder, the code of `kubectl get`: discovery, short names, categories)
// on an apiserver serving what the local cluster serves, Kubernetes' own
// scheduling.k8s.io Workload and PodGroup included (GenericWorkload gate).
// `workloads` is Kubernetes' Workload there, built-in groups coming first;
// our Workload is `wl`, `mswl` or `workloads.multislice.dev`, the queue
// objects take Kueue's short names, and the category lists every one of
// our objects. No other resource the cluster serves takes any of our names.
func TestNames(t *testing.T) {
	cp := harness.StartControlPlane(t, harness.InTreeWorkloads())
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	cp.InstallProvisioningCRDs(t)
	cp.InstallComputeClassCRD(t)
	ns := cp.CreateNamespace(t, "names")

	ours := createOneOfEach(t, versioned.NewForConfigOrDie(cp.Config), ns)

	cacheDir := t.TempDir()
	flags := genericclioptions.NewConfigFlags(false)
	flags.KubeConfig, flags.CacheDir, flags.Namespace = &cp.KubeconfigPath, &cacheDir, &ns

	for _, tc := range []struct {
		typed string
		// want are the kind/name of what `kubectl get <typed>` lists.
		want []string
	}{
		{"wl", []string{"Workload/train"}},
		{"mswl", []string{"Workload/train"}},
		{"workloads.multislice.dev", []string{"Workload/train"}},
		{"queue", []string{"LocalQueue/team-a"}},
		{"queues", []string{"LocalQueue/team-a"}},
		{"lq", []string{"LocalQueue/team-a"}},
		{"localqueues", []string{"LocalQueue/team-a"}},
		{"cq", []string{"ClusterQueue/names-cq"}},
		{"clusterqueues", []string{"ClusterQueue/names-cq"}},
		{"flavor", []string{"ResourceFlavor/names-flavor"}},
		{"flavors", []string{"ResourceFlavor/names-flavor"}},
		{"rf", []string{"ResourceFlavor/names-flavor"}},
		{"topo", []string{"Topology/names-topology"}},
		{"topologies", []string{"Topology/names-topology"}},
		{"admissionchecks", []string{"AdmissionCheck/names-check"}},
		{"provisioningrequestconfigs", []string{"ProvisioningRequestConfig/names-config"}},
		{category, ours},
	} {
		t.Run(tc.typed, func(t *testing.T) {
			got, groups := kubectlGet(t, flags, tc.typed)
			if !slices.Equal(groups, []string{v1alpha1.GroupName}) {
				t.Errorf("kubectl get %s lists objects of groups %v, want %s only", tc.typed, groups, v1alpha1.GroupName)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("kubectl get %s lists %v, want %v", tc.typed, got, tc.want)
			}
		})
	}

	// What a Kueue user types first: Kubernetes' own Workload, served
	// here, takes it. The docs say so, and what to type instead.
	t.Run("workloads", func(t *testing.T) {
		mapper, err := flags.ToRESTMapper()
		if err != nil {
			t.Fatal(err)
		}
		gvr, err := mapper.ResourceFor(schema.GroupVersionResource{Resource: "workloads"})
		if err != nil || gvr.Group != "scheduling.k8s.io" {
			t.Errorf("workloads maps to %v (%v); the docs say it is scheduling.k8s.io's Workload", gvr, err)
		}
	})

	t.Run("no other resource takes our names", func(t *testing.T) {
		checkNamesUnique(t, cp)
	})
}

// createOneOfEach creates one object of every multislice.dev kind and
// returns their kind/name, sorted.
func createOneOfEach(t *testing.T, cs versioned.Interface, ns string) []string {
	t.Helper()
	ctx, mv := t.Context(), cs.MultisliceV1alpha1()
	check := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(mv.ResourceFlavors().Create(ctx, &v1alpha1.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: "names-flavor"}}, metav1.CreateOptions{}))
	check(mv.ClusterQueues().Create(ctx, &v1alpha1.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: "names-cq"}}, metav1.CreateOptions{}))
	check(mv.LocalQueues(ns).Create(ctx, &v1alpha1.LocalQueue{ObjectMeta: metav1.ObjectMeta{Name: "team-a"},
		Spec: v1alpha1.LocalQueueSpec{ClusterQueue: "names-cq"}}, metav1.CreateOptions{}))
	check(mv.Workloads(ns).Create(ctx, &v1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Name: "train"},
		Spec: v1alpha1.WorkloadSpec{QueueName: "team-a", PodSets: []v1alpha1.PodSet{{Name: "main", Count: 1}}}}, metav1.CreateOptions{}))
	check(mv.AdmissionChecks().Create(ctx, &v1alpha1.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: "names-check"},
		Spec: v1alpha1.AdmissionCheckSpec{ControllerName: v1alpha1.ProvisioningRequestControllerName}}, metav1.CreateOptions{}))
	check(mv.ProvisioningRequestConfigs().Create(ctx, &v1alpha1.ProvisioningRequestConfig{ObjectMeta: metav1.ObjectMeta{Name: "names-config"},
		Spec: v1alpha1.ProvisioningRequestConfigSpec{ProvisioningClassName: "queued-provisioning.gke.io"}}, metav1.CreateOptions{}))
	check(mv.Topologies().Create(ctx, &v1alpha1.Topology{ObjectMeta: metav1.ObjectMeta{Name: "names-topology"},
		Spec: v1alpha1.TopologySpec{Levels: []v1alpha1.TopologyLevel{{NodeLabel: "kubernetes.io/hostname"}}}}, metav1.CreateOptions{}))
	return []string{
		"AdmissionCheck/names-check", "ClusterQueue/names-cq", "LocalQueue/team-a",
		"ProvisioningRequestConfig/names-config", "ResourceFlavor/names-flavor", "Topology/names-topology", "Workload/train",
	}
}

// kubectlGet resolves typed as `kubectl get <typed>` does in the flags'
// namespace and lists what it finds: kind/name sorted, and the API groups
// of the objects.
func kubectlGet(t *testing.T, flags *genericclioptions.ConfigFlags, typed string) (found, groups []string) {
	t.Helper()
	r := resource.NewBuilder(flags).Unstructured().NamespaceParam(*flags.Namespace).DefaultNamespace().
		ResourceTypeOrNameArgs(true, typed).Latest().Flatten().Do()
	infos, err := r.Infos()
	if err != nil {
		t.Fatalf("kubectl get %s: %v", typed, err)
	}
	group := sets.New[string]()
	for _, info := range infos {
		gvk := info.Object.GetObjectKind().GroupVersionKind()
		group.Insert(gvk.Group)
		found = append(found, gvk.Kind+"/"+info.Name)
	}
	slices.Sort(found)
	return found, sets.List(group)
}

// checkNamesUnique reads discovery as kubectl does and checks that no
// resource outside multislice.dev has a plural, singular or short name
// one of ours has, nor our category.
func checkNamesUnique(t *testing.T, cp *harness.ControlPlane) {
	t.Helper()
	_, lists, err := cp.Client.Discovery().ServerGroupsAndResources()
	if err != nil {
		t.Fatal(err)
	}
	ourNames := sets.New[string]()
	type owned struct{ group, resource string }
	others := map[string][]owned{}
	for _, list := range lists {
		group := strings.Split(list.GroupVersion, "/")[0]
		if !strings.Contains(list.GroupVersion, "/") {
			group = ""
		}
		for _, r := range list.APIResources {
			if strings.Contains(r.Name, "/") {
				continue // a subresource
			}
			names := append([]string{r.Name, r.SingularName}, r.ShortNames...)
			if group == v1alpha1.GroupName {
				ourNames.Insert(names...)
				if !slices.Contains(r.Categories, category) {
					t.Errorf("%s.%s is not in category %s: %v", r.Name, group, category, r.Categories)
				}
				continue
			}
			if slices.Contains(r.Categories, category) {
				t.Errorf("%s.%s is in our category %s", r.Name, group, category)
			}
			for _, n := range names {
				others[n] = append(others[n], owned{group, r.Name})
			}
		}
	}
	for _, n := range sets.List(ourNames) {
		if n == "workloads" || n == "workload" {
			continue // Kubernetes' own Workload: see above
		}
		if o := others[n]; len(o) > 0 {
			t.Errorf("%q names multislice.dev's resource and %s", n, fmt.Sprint(o))
		}
	}
}
