package queueapi_test

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

// The objects TestProvisioningAPI's Invalid subtest expects the apiserver
// to reject, built as YAML the way users write them.

// admissionCheck is the YAML of an AdmissionCheck with the given spec.
func admissionCheck(spec string) string {
	return "apiVersion: multislice.dev/v1alpha1\nkind: AdmissionCheck\nmetadata:\n  name: NAME\nspec:\n" + indent(spec)
}

func provisioningRequestConfig(spec string) string {
	return "apiVersion: multislice.dev/v1alpha1\nkind: ProvisioningRequestConfig\nmetadata:\n  name: NAME\nspec:\n" + indent(spec)
}

func provisioningRequest(spec string) string {
	return "apiVersion: autoscaling.x-k8s.io/v1\nkind: ProvisioningRequest\nmetadata:\n  name: NAME\nspec:\n" + indent(spec)
}

// podSets is the YAML of n pod sets of one pod each.
func podSets(n int) string {
	s := "podSets:"
	for range n {
		s += "\n- podTemplateRef:\n    name: ppt-train\n  count: 1"
	}
	return s
}

// params is the YAML of a parameters map of n entries whose values are
// size characters long.
func params(n, size int) string {
	s := "parameters:"
	for i := range n {
		s += fmt.Sprintf("\n  p%03d: %q", i, strings.Repeat("x", size))
	}
	return s
}

// managed is the YAML of a managedResources list of n resources.
func managed(n int) string {
	s := "managedResources:"
	for i := range n {
		s += fmt.Sprintf("\n- example.com/r%03d", i)
	}
	return s
}

const (
	validCheck   = "controllerName: kueue.x-k8s.io/provisioning-request"
	validConfig  = "provisioningClassName: queued-provisioning.gke.io"
	validRequest = validConfig + "\n" + "podSets:\n- podTemplateRef:\n    name: ppt-train\n  count: 4"
)

// provisioningCase is an object the apiserver must reject, or an update of
// it (update modifies the created object; status updates go through the
// status subresource), with the substrings the error must contain.
type provisioningCase struct {
	name   string
	obj    string
	update func(*unstructured.Unstructured)
	status bool
	want   []string
}

var provisioningInvalidCases = []provisioningCase{{
	name: "AdmissionCheck without controllerName",
	obj:  admissionCheck("retryDelayMinutes: 5"),
	want: []string{"spec.controllerName", "Required value"},
}, {
	name: "AdmissionCheck empty controllerName",
	obj:  admissionCheck(`controllerName: ""`),
	want: []string{"spec.controllerName", "should be at least 1 chars long"},
}, {
	name: "AdmissionCheck controllerName changed",
	obj:  admissionCheck(validCheck),
	update: func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "example.com/other", "spec", "controllerName")
	},
	want: []string{"spec.controllerName", "controllerName is immutable"},
}, {
	name: "AdmissionCheck without spec",
	obj:  "apiVersion: multislice.dev/v1alpha1\nkind: AdmissionCheck\nmetadata:\n  name: NAME\n",
	want: []string{"spec", "Required value"},
}, {
	name: "AdmissionCheck parameters without name",
	obj:  admissionCheck(validCheck + "\nparameters:\n  apiGroup: kueue.x-k8s.io\n  kind: ProvisioningRequestConfig"),
	want: []string{"spec.parameters.name", "Required value"},
}, {
	// A group, not a group/version: Kueue's schema rejects it as well.
	name: "AdmissionCheck parameters apiGroup with a version",
	obj:  admissionCheck(validCheck + "\nparameters:\n  apiGroup: kueue.x-k8s.io/v1beta1\n  kind: ProvisioningRequestConfig\n  name: dws-config"),
	want: []string{"spec.parameters.apiGroup", "should match"},
}, {
	name: "AdmissionCheck parameters kind not a kind",
	obj:  admissionCheck(validCheck + "\nparameters:\n  apiGroup: multislice.dev\n  kind: Provisioning Request Config\n  name: dws-config"),
	want: []string{"spec.parameters.kind", "should match"},
}, {
	name: "AdmissionCheck negative retryDelayMinutes",
	obj:  admissionCheck(validCheck + "\nretryDelayMinutes: -1"),
	want: []string{"spec.retryDelayMinutes", "should be greater than or equal to 0"},
}, {
	name: "ProvisioningRequestConfig without provisioningClassName",
	obj:  provisioningRequestConfig("managedResources: [nvidia.com/gpu]"),
	want: []string{"spec.provisioningClassName", "Required value"},
}, {
	name: "ProvisioningRequestConfig without spec",
	obj:  "apiVersion: multislice.dev/v1alpha1\nkind: ProvisioningRequestConfig\nmetadata:\n  name: NAME\n",
	want: []string{"spec", "Required value"},
}, {
	name: "ProvisioningRequestConfig class not a DNS subdomain",
	obj:  provisioningRequestConfig("provisioningClassName: Queued_Provisioning"),
	want: []string{"spec.provisioningClassName", "should match"},
}, {
	name: "ProvisioningRequestConfig class too long",
	obj:  provisioningRequestConfig("provisioningClassName: " + strings.Repeat("a.", 127)),
	want: []string{"spec.provisioningClassName", "Too long"},
}, {
	name: "ProvisioningRequestConfig negative backoffLimitCount",
	obj:  provisioningRequestConfig(validConfig + "\nretryStrategy:\n  backoffLimitCount: -1"),
	want: []string{"spec.retryStrategy.backoffLimitCount", "should be greater than or equal to 0"},
}, {
	name: "ProvisioningRequestConfig negative backoffBaseSeconds",
	obj:  provisioningRequestConfig(validConfig + "\nretryStrategy:\n  backoffBaseSeconds: -60"),
	want: []string{"spec.retryStrategy.backoffBaseSeconds", "should be greater than or equal to 0"},
}, {
	name: "ProvisioningRequestConfig negative backoffMaxSeconds",
	obj:  provisioningRequestConfig(validConfig + "\nretryStrategy:\n  backoffMaxSeconds: -1"),
	want: []string{"spec.retryStrategy.backoffMaxSeconds", "should be greater than or equal to 0"},
}, {
	name: "ProvisioningRequestConfig managed resource twice",
	obj:  provisioningRequestConfig(validConfig + "\nmanagedResources: [nvidia.com/gpu, nvidia.com/gpu]"),
	want: []string{"spec.managedResources[1]", "Duplicate value"},
}, {
	name: "ProvisioningRequestConfig 101 managed resources",
	obj:  provisioningRequestConfig(validConfig + "\n" + managed(101)),
	want: []string{"spec.managedResources", "Too many"},
}, {
	name: "ProvisioningRequestConfig 101 parameters",
	obj:  provisioningRequestConfig(validConfig + "\n" + params(101, 1)),
	want: []string{"spec.parameters", "Too many"},
}, {
	name: "ProvisioningRequestConfig parameter of 256 characters",
	obj:  provisioningRequestConfig(validConfig + "\n" + params(1, 256)),
	want: []string{"spec.parameters.p000", "Too long"},
}, {
	name: "ProvisioningRequestConfig unknown podSetMergePolicy",
	obj:  provisioningRequestConfig(validConfig + "\npodSetMergePolicy: Identical"),
	want: []string{"spec.podSetMergePolicy", `Unsupported value: "Identical"`},
}, {
	name: "ProvisioningRequestConfig podSetUpdates key not a label key",
	obj:  provisioningRequestConfig(validConfig + "\npodSetUpdates:\n  nodeSelector:\n  - key: not a key\n    valueFromProvisioningClassDetail: zone"),
	want: []string{"spec.podSetUpdates.nodeSelector[0].key", "should match"},
}, {
	name: "ProvisioningRequestConfig podSetUpdates without value",
	obj:  provisioningRequestConfig(validConfig + "\npodSetUpdates:\n  nodeSelector:\n  - key: example.com/zone"),
	want: []string{"spec.podSetUpdates.nodeSelector[0].valueFromProvisioningClassDetail", "Required value"},
}, {
	name: "ProvisioningRequest without provisioningClassName",
	obj:  provisioningRequest(podSets(1)),
	want: []string{"spec.provisioningClassName", "Required value"},
}, {
	name: "ProvisioningRequest without podSets",
	obj:  provisioningRequest(validConfig),
	want: []string{"spec.podSets", "Required value"},
}, {
	name: "ProvisioningRequest without spec",
	obj:  "apiVersion: autoscaling.x-k8s.io/v1\nkind: ProvisioningRequest\nmetadata:\n  name: NAME\n",
	want: []string{"spec", "Required value"},
}, {
	name: "ProvisioningRequest empty podSets",
	obj:  provisioningRequest(validConfig + "\npodSets: []"),
	want: []string{"spec.podSets", "should have at least 1 items"},
}, {
	name: "ProvisioningRequest 33 podSets",
	obj:  provisioningRequest(validConfig + "\n" + podSets(33)),
	want: []string{"spec.podSets", "Too many: 33: must have at most 32 items"},
}, {
	name: "ProvisioningRequest count 0",
	obj:  provisioningRequest(validConfig + "\npodSets:\n- podTemplateRef:\n    name: ppt-train\n  count: 0"),
	want: []string{"spec.podSets[0].count", "should be greater than or equal to 1"},
}, {
	name: "ProvisioningRequest without count",
	obj:  provisioningRequest(validConfig + "\npodSets:\n- podTemplateRef:\n    name: ppt-train"),
	want: []string{"spec.podSets[0].count", "Required value"},
}, {
	name: "ProvisioningRequest without podTemplateRef",
	obj:  provisioningRequest(validConfig + "\npodSets:\n- count: 1"),
	want: []string{"spec.podSets[0].podTemplateRef", "Required value"},
}, {
	name: "ProvisioningRequest podTemplateRef without name",
	obj:  provisioningRequest(validConfig + "\npodSets:\n- podTemplateRef: {}\n  count: 1"),
	want: []string{"spec.podSets[0].podTemplateRef.name", "Required value"},
}, {
	name: "ProvisioningRequest podTemplateRef name not a DNS subdomain",
	obj:  provisioningRequest(validConfig + "\npodSets:\n- podTemplateRef:\n    name: PPT_Train\n  count: 1"),
	want: []string{"spec.podSets[0].podTemplateRef.name", "should match"},
}, {
	name: "ProvisioningRequest class not a DNS subdomain",
	obj:  provisioningRequest("provisioningClassName: Queued_Provisioning\n" + podSets(1)),
	want: []string{"spec.provisioningClassName", "should match"},
}, {
	name: "ProvisioningRequest 101 parameters",
	obj:  provisioningRequest(validRequest + "\n" + params(101, 1)),
	want: []string{"spec.parameters", "Too many"},
}, {
	name: "ProvisioningRequest parameter of 256 characters",
	obj:  provisioningRequest(validRequest + "\n" + params(1, 256)),
	want: []string{"spec.parameters.p000", "Too long"},
}, {
	name: "ProvisioningRequest provisioningClassName changed",
	obj:  provisioningRequest(validRequest),
	update: func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, autoscalingv1.ProvisioningClassCheckCapacity, "spec", "provisioningClassName")
	},
	want: []string{"spec.provisioningClassName", "Value is immutable"},
}, {
	name: "ProvisioningRequest podSets changed",
	obj:  provisioningRequest(validRequest),
	update: func(u *unstructured.Unstructured) {
		sets, _, _ := unstructured.NestedSlice(u.Object, "spec", "podSets")
		sets[0].(map[string]any)["count"] = int64(8)
		_ = unstructured.SetNestedSlice(u.Object, sets, "spec", "podSets")
	},
	want: []string{"spec.podSets", "Value is immutable"},
}, {
	name: "ProvisioningRequest parameters changed",
	obj:  provisioningRequest(validRequest + "\nparameters:\n  maxRunDurationSeconds: \"600\""),
	update: func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, "1200", "spec", "parameters", "maxRunDurationSeconds")
	},
	want: []string{"spec.parameters", "Value is immutable"},
}, {
	name:   "ProvisioningRequest 65 provisioningClassDetails",
	obj:    provisioningRequest(validRequest),
	status: true,
	update: func(u *unstructured.Unstructured) {
		details := map[string]any{}
		for i := range 65 {
			details[fmt.Sprintf("d%02d", i)] = "v"
		}
		_ = unstructured.SetNestedMap(u.Object, details, "status", "provisioningClassDetails")
	},
	want: []string{"status.provisioningClassDetails", "Too many"},
}, {
	name:   "ProvisioningRequest provisioningClassDetail too long",
	obj:    provisioningRequest(validRequest),
	status: true,
	update: func(u *unstructured.Unstructured) {
		_ = unstructured.SetNestedField(u.Object, strings.Repeat("d", 32769), "status", "provisioningClassDetails", "zone")
	},
	want: []string{"status.provisioningClassDetails.zone", "Too long"},
}}

// resourceClient is the dynamic client of obj's resource, in the test
// namespace for namespaced kinds (whose namespace it sets on obj).
func (e *env) resourceClient(t testing.TB, obj *unstructured.Unstructured) dynamic.ResourceInterface {
	t.Helper()
	if obj.GetAPIVersion() == autoscalingv1.SchemeGroupVersion.String() && obj.GetKind() == "ProvisioningRequest" {
		obj.SetNamespace(e.ns)
		return e.dyn.Resource(autoscalingv1.SchemeGroupVersion.WithResource("provisioningrequests")).Namespace(e.ns)
	}
	if kinds[obj.GetKind()].namespaced {
		obj.SetNamespace(e.ns)
	}
	return e.client(t, obj)
}

// testProvisioningInvalid checks that the apiserver rejects each invalid
// object or update, naming the offending field.
func (e *env) testProvisioningInvalid(t *testing.T) {
	for i, tc := range provisioningInvalidCases {
		t.Run(tc.name, func(t *testing.T) {
			obj := oneObject(t, tc.obj)
			obj.SetName(fmt.Sprintf("invalid-%d", i))
			refuse(t, e.resourceClient(t, obj), obj, tc.update, tc.status, tc.obj, tc.want)
		})
	}
}
