package topology

import (
	"cmp"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const (
	poolKey = "cloud.google.com/gke-nodepool"
	zoneKey = "topology.kubernetes.io/zone"
)

// nodeB builds a Ready, schedulable node.
type nodeB struct{ n *corev1.Node }

func node(name string) *nodeB {
	return &nodeB{n: &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{}},
		Status: corev1.NodeStatus{
			Allocatable: corev1.ResourceList{
				corev1.ResourceCPU:  resource.MustParse("8"),
				corev1.ResourcePods: resource.MustParse("110"),
			},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
		},
	}}
}

func (b *nodeB) label(k, v string) *nodeB {
	b.n.Labels[k] = v
	return b
}

func (b *nodeB) in(pool string) *nodeB { return b.label(poolKey, pool) }

func (b *nodeB) ready(s corev1.ConditionStatus) *nodeB {
	b.n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: s}}
	return b
}

func (b *nodeB) notReady() *nodeB { return b.ready(corev1.ConditionFalse) }

func (b *nodeB) cordoned() *nodeB {
	b.n.Spec.Unschedulable = true
	return b
}

func (b *nodeB) conditions(cs ...corev1.NodeCondition) *nodeB {
	b.n.Status.Conditions = cs
	return b
}

func (b *nodeB) obj() *corev1.Node { return b.n }

// ref is a DomainRef of the pool key.
func ref(value string) DomainRef { return DomainRef{Key: poolKey, Value: value} }

// build indexes nodes after tracking keys.
func build(keys []string, nodes ...*nodeB) *Index {
	ix := New()
	for _, k := range keys {
		ix.Track(k)
	}
	for _, n := range nodes {
		ix.Upsert(n.obj())
	}
	return ix
}

// sorted orders a change's domains: their order across keys is not defined.
func sorted(ch Change) Change {
	slices.SortFunc(ch.Domains, func(a, b DomainRef) int {
		return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value))
	})
	return ch
}

// layout is every tracked key's domains and their nodes.
func layout(ix *Index, keys ...string) map[DomainRef][]string {
	out := map[DomainRef][]string{}
	for _, k := range keys {
		for _, v := range ix.Values(k) {
			d := DomainRef{Key: k, Value: v}
			out[d] = ix.NodesOf(d)
		}
	}
	return out
}

func TestUpsert(t *testing.T) {
	tracked := []string{poolKey, zoneKey}
	cases := []struct {
		name       string
		existing   []*nodeB
		upsert     *nodeB
		wantChange Change
		wantLayout map[DomainRef][]string
	}{
		{
			name:       "new node joins its domain",
			existing:   []*nodeB{node("n1").in("a")},
			upsert:     node("n2").in("a"),
			wantChange: Change{Domains: []DomainRef{ref("a")}},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1", "n2"}},
		},
		{
			name:       "new node in several tracked keys",
			upsert:     node("n1").in("a").label(zoneKey, "z1"),
			wantChange: Change{Domains: []DomainRef{ref("a"), {zoneKey, "z1"}}},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}, {zoneKey, "z1"}: {"n1"}},
		},
		{
			name:       "new NotReady node is not a failure",
			upsert:     node("n1").in("a").notReady(),
			wantChange: Change{Domains: []DomainRef{ref("a")}},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "new node without tracked labels changes no domain",
			upsert:     node("n1").label("other", "x"),
			wantChange: Change{},
			wantLayout: map[DomainRef][]string{},
		},
		{
			name:       "label change moves the node and reports both domains",
			existing:   []*nodeB{node("n1").in("a"), node("n2").in("a")},
			upsert:     node("n1").in("b"),
			wantChange: Change{Domains: []DomainRef{ref("a"), ref("b")}, Moved: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n2"}, ref("b"): {"n1"}},
		},
		{
			name:       "moving the last node away removes the old domain",
			existing:   []*nodeB{node("n1").in("a"), node("n2").in("b")},
			upsert:     node("n1").in("b"),
			wantChange: Change{Domains: []DomainRef{ref("a"), ref("b")}, Moved: true},
			wantLayout: map[DomainRef][]string{ref("b"): {"n1", "n2"}},
		},
		{
			name:       "label removed",
			existing:   []*nodeB{node("n1").in("a")},
			upsert:     node("n1"),
			wantChange: Change{Domains: []DomainRef{ref("a")}, Moved: true},
			wantLayout: map[DomainRef][]string{},
		},
		{
			name:       "label added",
			existing:   []*nodeB{node("n1")},
			upsert:     node("n1").in("a"),
			wantChange: Change{Domains: []DomainRef{ref("a")}, Moved: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "unchanged node reports nothing",
			existing:   []*nodeB{node("n1").in("a")},
			upsert:     node("n1").in("a").label("other", "x"),
			wantChange: Change{},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "going NotReady fails the node",
			existing:   []*nodeB{node("n1").in("a"), node("n2").in("a")},
			upsert:     node("n1").in("a").notReady(),
			wantChange: Change{Domains: []DomainRef{ref("a")}, Failed: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1", "n2"}},
		},
		{
			name:       "readiness unknown fails the node",
			existing:   []*nodeB{node("n1").in("a")},
			upsert:     node("n1").in("a").ready(corev1.ConditionUnknown),
			wantChange: Change{Domains: []DomainRef{ref("a")}, Failed: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "cordoning fails the node",
			existing:   []*nodeB{node("n1").in("a")},
			upsert:     node("n1").in("a").cordoned(),
			wantChange: Change{Domains: []DomainRef{ref("a")}, Failed: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "a node that stays NotReady does not fail again",
			existing:   []*nodeB{node("n1").in("a").notReady()},
			upsert:     node("n1").in("a").notReady().label("other", "x"),
			wantChange: Change{},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "recovery is reported, not as a failure",
			existing:   []*nodeB{node("n1").in("a").notReady()},
			upsert:     node("n1").in("a"),
			wantChange: Change{Domains: []DomainRef{ref("a")}},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
		{
			name:       "failing while moving reports both domains",
			existing:   []*nodeB{node("n1").in("a")},
			upsert:     node("n1").in("b").cordoned(),
			wantChange: Change{Domains: []DomainRef{ref("a"), ref("b")}, Failed: true, Moved: true},
			wantLayout: map[DomainRef][]string{ref("b"): {"n1"}},
		},
		{
			name:       "failure outside every tracked domain still fails",
			existing:   []*nodeB{node("n1")},
			upsert:     node("n1").notReady(),
			wantChange: Change{Failed: true},
			wantLayout: map[DomainRef][]string{},
		},
		{
			name:       "untracked label changes report nothing",
			existing:   []*nodeB{node("n1").in("a").label("other", "x")},
			upsert:     node("n1").in("a").label("other", "y"),
			wantChange: Change{},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ix := build(tracked, tc.existing...)
			ix.AllNodes() // listed before: a new node must drop the memo
			got := sorted(ix.Upsert(tc.upsert.obj()))
			if diff := gocmp.Diff(tc.wantChange, got); diff != "" {
				t.Errorf("change (-want +got):\n%s", diff)
			}
			if diff := gocmp.Diff(tc.wantLayout, layout(ix, tracked...)); diff != "" {
				t.Errorf("domains (-want +got):\n%s", diff)
			}
			if !slices.Contains(ix.AllNodes(), tc.upsert.n.Name) || len(ix.AllNodes()) != ix.Len() {
				t.Errorf("AllNodes = %v after the upsert, want every node (%d) with %s", ix.AllNodes(), ix.Len(), tc.upsert.n.Name)
			}
			n := ix.Node(tc.upsert.n.Name)
			if n == nil || n.Obj != tc.upsert.n || n.Usable != Usable(tc.upsert.n) {
				t.Errorf("Node(%s) = %+v, want the upserted object", tc.upsert.n.Name, n)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	cases := []struct {
		name       string
		existing   []*nodeB
		delete     string
		wantChange Change
		wantLayout map[DomainRef][]string
		wantNodes  []string
	}{
		{
			name:       "node leaves its domain",
			existing:   []*nodeB{node("n1").in("a"), node("n2").in("a")},
			delete:     "n1",
			wantChange: Change{Domains: []DomainRef{ref("a")}, Failed: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n2"}},
			wantNodes:  []string{"n2"},
		},
		{
			name:       "deleting the last node removes the domain",
			existing:   []*nodeB{node("n1").in("a"), node("n2").in("b")},
			delete:     "n1",
			wantChange: Change{Domains: []DomainRef{ref("a")}, Failed: true},
			wantLayout: map[DomainRef][]string{ref("b"): {"n2"}},
			wantNodes:  []string{"n2"},
		},
		{
			name:       "node outside tracked domains",
			existing:   []*nodeB{node("n1"), node("n2").in("a")},
			delete:     "n1",
			wantChange: Change{Failed: true},
			wantLayout: map[DomainRef][]string{ref("a"): {"n2"}},
			wantNodes:  []string{"n2"},
		},
		{
			name:       "unknown node changes nothing",
			existing:   []*nodeB{node("n1").in("a")},
			delete:     "n9",
			wantChange: Change{},
			wantLayout: map[DomainRef][]string{ref("a"): {"n1"}},
			wantNodes:  []string{"n1"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ix := build([]string{poolKey}, tc.existing...)
			ix.AllNodes() // listed before: the delete must drop the memo
			got := sorted(ix.Delete(tc.delete))
			if diff := gocmp.Diff(tc.wantChange, got); diff != "" {
				t.Errorf("change (-want +got):\n%s", diff)
			}
			if diff := gocmp.Diff(tc.wantLayout, layout(ix, poolKey)); diff != "" {
				t.Errorf("domains (-want +got):\n%s", diff)
			}
			if diff := gocmp.Diff(tc.wantNodes, ix.AllNodes()); diff != "" {
				t.Errorf("AllNodes (-want +got):\n%s", diff)
			}
			if ix.Node(tc.delete) != nil {
				t.Errorf("Node(%s) still there", tc.delete)
			}
			if ix.Len() != len(tc.wantNodes) {
				t.Errorf("Len = %d, want %d", ix.Len(), len(tc.wantNodes))
			}
		})
	}
}

func TestTrack(t *testing.T) {
	nodes := []*nodeB{
		node("n3").in("b").label(zoneKey, "z1"),
		node("n1").in("a").label(zoneKey, "z1"),
		node("n2").in("a"),
		node("n4"),
	}
	cases := []struct {
		name       string
		track      []string
		wantLayout map[DomainRef][]string
		// wantAfterUpsert is the layout once n0 joins pool a, zone z1.
		wantAfterUpsert map[DomainRef][]string
	}{
		{
			name:  "after nodes exist, indexes them sorted",
			track: []string{poolKey},
			wantLayout: map[DomainRef][]string{
				ref("a"): {"n1", "n2"},
				ref("b"): {"n3"},
			},
			wantAfterUpsert: map[DomainRef][]string{
				ref("a"): {"n0", "n1", "n2"},
				ref("b"): {"n3"},
			},
		},
		{
			name:  "several keys",
			track: []string{poolKey, zoneKey},
			wantLayout: map[DomainRef][]string{
				ref("a"):        {"n1", "n2"},
				ref("b"):        {"n3"},
				{zoneKey, "z1"}: {"n1", "n3"},
			},
			wantAfterUpsert: map[DomainRef][]string{
				ref("a"):        {"n0", "n1", "n2"},
				ref("b"):        {"n3"},
				{zoneKey, "z1"}: {"n0", "n1", "n3"},
			},
		},
		{
			name:  "tracking twice keeps the index",
			track: []string{poolKey, poolKey},
			wantLayout: map[DomainRef][]string{
				ref("a"): {"n1", "n2"},
				ref("b"): {"n3"},
			},
			wantAfterUpsert: map[DomainRef][]string{
				ref("a"): {"n0", "n1", "n2"},
				ref("b"): {"n3"},
			},
		},
		{
			name:            "empty key is ignored",
			track:           []string{""},
			wantLayout:      map[DomainRef][]string{},
			wantAfterUpsert: map[DomainRef][]string{},
		},
		{
			name:            "key no node has",
			track:           []string{"nobody"},
			wantLayout:      map[DomainRef][]string{},
			wantAfterUpsert: map[DomainRef][]string{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ix := build(nil, nodes...)
			for _, k := range tc.track {
				ix.Track(k)
			}
			keys := slices.Compact(slices.Clone(tc.track))
			if diff := gocmp.Diff(tc.wantLayout, layout(ix, keys...)); diff != "" {
				t.Errorf("domains (-want +got):\n%s", diff)
			}
			// Tracked keys follow later updates.
			ix.Upsert(node("n0").in("a").label(zoneKey, "z1").obj())
			if diff := gocmp.Diff(tc.wantAfterUpsert, layout(ix, keys...)); diff != "" {
				t.Errorf("domains after an upsert (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValuesAndNodesOfUntracked(t *testing.T) {
	ix := build([]string{poolKey}, node("n1").in("a").label(zoneKey, "z1"))
	if got := ix.Values(zoneKey); len(got) != 0 {
		t.Errorf("Values(untracked) = %v, want none", got)
	}
	if got := ix.NodesOf(DomainRef{zoneKey, "z1"}); got != nil {
		t.Errorf("NodesOf(untracked) = %v, want nil", got)
	}
	if got := ix.NodesOf(ref("zz")); got != nil {
		t.Errorf("NodesOf(unknown value) = %v, want nil", got)
	}
	ix = build([]string{poolKey}, node("n1").in("c"), node("n2").in("a"), node("n3").in("b"))
	if diff := gocmp.Diff([]string{"a", "b", "c"}, ix.Values(poolKey)); diff != "" {
		t.Errorf("Values (-want +got):\n%s", diff)
	}
}

// Values, read before and after each change, follows domains that appear
// and go (its list is kept between changes).
func TestValuesFollowChanges(t *testing.T) {
	ix := build([]string{poolKey}, node("n1").in("b"), node("n2").in("c"))
	steps := []struct {
		name   string
		change func()
		want   []string
	}{
		{"as built", func() {}, []string{"b", "c"}},
		{"a node in a new domain", func() { ix.Upsert(node("n3").in("a").obj()) }, []string{"a", "b", "c"}},
		{"a node joins a known domain", func() { ix.Upsert(node("n4").in("a").obj()) }, []string{"a", "b", "c"}},
		{"the last node of c moves to d", func() { ix.Upsert(node("n2").in("d").obj()) }, []string{"a", "b", "d"}},
		{"the last node of b loses its label", func() { ix.Upsert(node("n1").obj()) }, []string{"a", "d"}},
		{"the last node of d is deleted", func() { ix.Delete("n2") }, []string{"a"}},
		{"one of two nodes of a is deleted", func() { ix.Delete("n3") }, []string{"a"}},
	}
	for _, st := range steps {
		st.change()
		if diff := gocmp.Diff(st.want, ix.Values(poolKey)); diff != "" {
			t.Errorf("%s: Values (-want +got):\n%s", st.name, diff)
		}
	}
	// A key tracked after being asked for untracked lists its domains.
	if got := ix.Values(zoneKey); len(got) != 0 {
		t.Fatalf("Values(untracked) = %v", got)
	}
	ix.Upsert(node("n5").in("a").label(zoneKey, "z1").obj())
	ix.Track(zoneKey)
	if diff := gocmp.Diff([]string{"z1"}, ix.Values(zoneKey)); diff != "" {
		t.Errorf("Values after Track (-want +got):\n%s", diff)
	}
}

// Slices handed out by NodesOf keep their contents while the index changes.
func TestNodesOfIsCopyOnWrite(t *testing.T) {
	ix := build([]string{poolKey}, node("n1").in("a"), node("n3").in("a"), node("n5").in("a"))
	held := ix.NodesOf(ref("a"))
	snapshot := slices.Clone(held)
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"insert in the middle", func() { ix.Upsert(node("n2").in("a").obj()) }, []string{"n1", "n2", "n3", "n5"}},
		{"insert at the end", func() { ix.Upsert(node("n6").in("a").obj()) }, []string{"n1", "n2", "n3", "n5", "n6"}},
		{"insert at the start", func() { ix.Upsert(node("n0").in("a").obj()) }, []string{"n0", "n1", "n2", "n3", "n5", "n6"}},
		{"move away", func() { ix.Upsert(node("n3").in("b").obj()) }, []string{"n0", "n1", "n2", "n5", "n6"}},
		{"delete", func() { ix.Delete("n1") }, []string{"n0", "n2", "n5", "n6"}},
	}
	for _, s := range steps {
		s.do()
		if diff := gocmp.Diff(s.want, ix.NodesOf(ref("a"))); diff != "" {
			t.Errorf("%s: NodesOf (-want +got):\n%s", s.name, diff)
		}
		if diff := gocmp.Diff(snapshot, held); diff != "" {
			t.Errorf("%s: an earlier NodesOf result changed (-before +after):\n%s", s.name, diff)
		}
	}
}

func TestDomainOf(t *testing.T) {
	ix := build([]string{poolKey}, node("n1").in("a").label(zoneKey, "z1"))
	cases := []struct {
		name, node, key string
		want            string
		wantOK          bool
	}{
		{"tracked key", "n1", poolKey, "a", true},
		{"untracked key is read from labels", "n1", zoneKey, "z1", true},
		{"missing label", "n1", "other", "", false},
		{"unknown node", "n9", poolKey, "", false},
		{"empty key", "n1", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ix.DomainOf(tc.node, tc.key)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("DomainOf(%q, %q) = %q, %v; want %q, %v", tc.node, tc.key, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestNodeView(t *testing.T) {
	ix := build(nil, node("n1").in("a"))
	n := ix.Node("n1")
	want := workload.Resources{corev1.ResourceCPU: 8000, corev1.ResourcePods: 110000}
	if diff := gocmp.Diff(want, n.Allocatable); diff != "" {
		t.Errorf("Allocatable (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(map[string]string{poolKey: "a"}, n.Labels()); diff != "" {
		t.Errorf("Labels (-want +got):\n%s", diff)
	}
	if !n.Usable {
		t.Error("Ready node not usable")
	}
}

func TestUsable(t *testing.T) {
	cases := []struct {
		name string
		node *nodeB
		want bool
	}{
		{"ready", node("n"), true},
		{"not ready", node("n").notReady(), false},
		{"readiness unknown", node("n").ready(corev1.ConditionUnknown), false},
		{"no conditions", node("n").conditions(), false},
		{"only other conditions", node("n").conditions(corev1.NodeCondition{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse}), false},
		{"ready among others", node("n").conditions(
			corev1.NodeCondition{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse},
			corev1.NodeCondition{Type: corev1.NodeReady, Status: corev1.ConditionTrue}), true},
		{"cordoned", node("n").cordoned(), false},
		{"cordoned and not ready", node("n").cordoned().notReady(), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Usable(tc.node.obj()); got != tc.want {
				t.Errorf("Usable = %v, want %v", got, tc.want)
			}
		})
	}
}
