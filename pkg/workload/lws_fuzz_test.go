package workload

import (
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// FuzzLWSMember reads LeaderWorkerSet groups from pods carrying any
// values of the set's labels and annotations: nothing panics; a member is
// named <set>-<group> with a non-negative group; a bad label or size is an
// *InvalidError naming it; a leader's model has a size in range; a
// topology its annotations ask is its group's, which a worker asking the
// same stands in.
func FuzzLWSMember(f *testing.F) {
	f.Add("serve", "0", "0", "4", "cloud.google.com/gke-nodepool", true, "", "")
	f.Add("serve", "x", "1", "4", "cloud.google.com/gke-nodepool", true, "", "")
	f.Add("", "1", "0", "-1", "", false, "", "")
	f.Add("serve", "0", "1", "4", "", false, wellknown.RequiredTopologyAnnotation, "cloud.google.com/gce-topology-subblock")
	f.Add("serve", "0", "0", "6", "", false, wellknown.SliceSizeAnnotation, "4")
	f.Add("serve", "0", "0", "4", "cloud.google.com/gke-nodepool", true, wellknown.PreferredTopologyAnnotation, "x/y")
	f.Fuzz(func(t *testing.T, set, group, worker, size, topology string, exclusive bool, kueueKey, kueueValue string) {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p",
			Labels:      map[string]string{wellknown.LWSNameLabel: set, wellknown.LWSGroupIndexLabel: group, wellknown.LWSWorkerIndexLabel: worker},
			Annotations: map[string]string{wellknown.LWSSizeAnnotation: size}}}
		if exclusive {
			p.Annotations[wellknown.LWSExclusiveTopologyAnnotation] = topology
		}
		if kueueKey != "" && kueueKey != wellknown.LWSSizeAnnotation && kueueKey != wellknown.LWSExclusiveTopologyAnnotation {
			p.Annotations[kueueKey] = kueueValue
		}
		m, ok, err := LWSMember(p)
		if want := exclusive || AsksForTopology(p.Annotations); ok != want {
			t.Fatalf("member %v for exclusive %v, annotations %v", ok, exclusive, p.Annotations)
		}
		var inv *InvalidError
		if err != nil && !errors.As(err, &inv) {
			t.Fatalf("error %v is not an *InvalidError", err)
		}
		if ok && err == nil && !strings.HasPrefix(m.Key.Name, set+"-") {
			t.Fatalf("group %q of set %q", m.Key.Name, set)
		}
		if ok && err == nil && m.Leader {
			w, err := FromLWSLeader(p)
			if err != nil && !errors.As(err, &inv) {
				t.Fatalf("error %v is not an *InvalidError", err)
			}
			if err == nil && (w.Slices[0].Pods < 1 || w.Slices[0].Pods > maxPods) {
				t.Fatalf("size %d from %q", w.Slices[0].Pods, size)
			}
			if err == nil && w.Slices[0].Topology != nil && w.Slices[0].DomainKey != "" {
				t.Fatalf("slice both confined to %q and asking for %v", w.Slices[0].DomainKey, w.Slices[0].Topology)
			}
			if err == nil {
				// The leader's own request is its group's: a worker
				// carrying the same annotations stands in it.
				worker := p.DeepCopy()
				worker.Labels[wellknown.LWSWorkerIndexLabel] = "1"
				wm, ok, err := LWSMember(worker)
				if !ok || err != nil {
					t.Fatalf("a worker like its leader: member %v, %v", ok, err)
				}
				if st, why := StandingIn(wm, w); st != Current {
					t.Fatalf("a worker like its leader stands %v: %s", st, why)
				}
			}
		}
	})
}
