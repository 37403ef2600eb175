package quota

import "testing"

func TestAdmitsNode(t *testing.T) {
	node := map[string]string{"cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice", "cloud.google.com/gke-spot": "true", "example.com/empty": ""}
	cases := []struct {
		name   string
		flavor map[string]string
		want   bool
	}{
		{"a flavor with no node labels admits every node", nil, true},
		{"every label carried", map[string]string{"cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice"}, true},
		{"a value differs", map[string]string{"cloud.google.com/gke-tpu-accelerator": "tpu-v5-lite-podslice"}, false},
		{"a label missing", map[string]string{"cloud.google.com/gke-nodepool": "pool-1"}, false},
		{"an empty value admits the nodes without the label", map[string]string{"example.com/x": ""}, true},
		{"and those that carry it empty", map[string]string{"example.com/empty": ""}, true},
		{"but not those with a value", map[string]string{"cloud.google.com/gke-spot": ""}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := AdmitsNode(tc.flavor, node); got != tc.want {
				t.Errorf("AdmitsNode(%v) = %v, want %v", tc.flavor, got, tc.want)
			}
			if got := (&Flavor{NodeLabels: tc.flavor}).Matches(node); got != tc.want {
				t.Errorf("Flavor.Matches = %v, want %v (the same rule)", got, tc.want)
			}
		})
	}
}
