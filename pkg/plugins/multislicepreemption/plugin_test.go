package multislicepreemption

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// unit builds the tests' objects: in its namespace, pods of its scheduler.
var unit = builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}

func jsKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: unit.Namespace, Name: name}
}

// jobSet is a JobSet of one Job of pods pods, each asking for a whole
// node of a pool, exclusive per node pool.
func jobSet(name string, pods int32) *jobsetv1alpha2.JobSet {
	return unit.JobSet(name).ReplicatedJob("w", 1, pods).Obj()
}

// ---- fixture ----

// The tests on cluster are end to end, on the real engine: they check
// what the engine decides behind the Manager interface — which victims a
// plain pod may evict (TestEligible), that gang members are handled and
// evict nothing here (TestPostFilterGangMember) — which a fake manager
// would only echo. The glue itself is tested on the fake (glue_test.go).

// cluster is a state of pools pool-1 and pool-2 (two nodes each) where
// JobSet "a" (two pods) has pool "reserved" reserved and JobSet "b" runs
// one pod on a node of pool "free".
type cluster struct {
	st              *state.State
	nodes           map[string]*corev1.Node
	reserved, free  string
	aMember, bPod   *corev1.Pod
	waitingBMember  *corev1.Pod
	malformedMember *corev1.Pod
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	st := state.New(state.Options{Clock: testingclock.NewFakeClock(builders.Epoch)})
	st.AddScheduler(unit.Scheduler)
	st.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	c := &cluster{st: st, nodes: map[string]*corev1.Node{}}
	for _, n := range builders.V5ePools(2) {
		c.nodes[n.Name] = n
		st.Feed().UpsertNode(n)
	}
	for _, js := range []*jobsetv1alpha2.JobSet{jobSet("a", 2), jobSet("b", 2)} {
		w, err := workload.FromJobSet(js, "")
		if err != nil {
			t.Fatalf("FromJobSet: %v", err)
		}
		st.Feed().UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: unit.Namespace, Name: js.Name, UID: js.UID})
	}
	a, b := jobSet("a", 2), jobSet("b", 2)
	// b runs one pod in pool-2 (its second is pending): a gets pool-1.
	c.reserved, c.free = "pool-1", "pool-2"
	c.bPod = builders.Member(b, 0, 0).Running("pool-2-node-0").Obj()
	c.waitingBMember = builders.Member(b, 0, 1).Obj()
	c.aMember = builders.Member(a, 0, 0).Obj()
	c.malformedMember = builders.Member(b, 0, 1).Label(wellknown.JobGlobalIndexLabel, "x").UID("malformed").Obj()
	st.Feed().UpsertPod(c.bPod)
	st.Feed().UpsertPod(c.waitingBMember)
	st.Feed().UpsertPod(c.malformedMember)
	st.Feed().UpsertPod(c.aMember)
	st.Feed().UpsertPod(builders.Member(a, 0, 1).Obj())
	requested := func(node string) (workload.Resources, bool) {
		if node == c.bPod.Spec.NodeName {
			return workload.PodRequests(&c.bPod.Spec), true
		}
		return workload.Resources{}, true
	}
	key := jsKey("a")
	r, fail := admission.Plan(st.Snapshot(key, requested))
	if fail != nil {
		t.Fatalf("plan a: %v", fail)
	}
	if err := st.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute}).Refused; err != nil {
		t.Fatalf("commit a: %v", err)
	}
	if got := r.Slices[0].Domain; got != c.reserved {
		t.Fatalf("a reserved %s, want %s", got, c.reserved)
	}
	return c
}

func (c *cluster) nodeInfo(name string) fwk.NodeInfo {
	ni := framework.NewNodeInfo()
	ni.SetNode(c.nodes[name])
	return ni
}

func victim(t *testing.T, pods ...*corev1.Pod) preemption.Victim {
	t.Helper()
	var infos []fwk.PodInfo
	for _, p := range pods {
		pi, err := framework.NewPodInfo(p)
		if err != nil {
			t.Fatal(err)
		}
		infos = append(infos, pi)
	}
	v, err := preemption.NewVictim(infos, 0, fwk.PodKeyType)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// ---- tests ----

func TestEligible(t *testing.T) {
	plainOn := func(name, node string) *corev1.Pod { return unit.Pod(name).Running(node).Obj() }
	cases := map[string]struct {
		node    func(c *cluster) string
		victims func(c *cluster) []*corev1.Pod
		// preemptor is a plain pod unless set.
		preemptor func(c *cluster) *corev1.Pod
		want      bool
	}{
		"a plain victim outside reserved domains": {
			node:    func(c *cluster) string { return c.free + "-node-1" },
			victims: func(c *cluster) []*corev1.Pod { return []*corev1.Pod{plainOn("v", c.free+"-node-1")} },
			want:    true,
		},
		"a gang member": {
			node:    func(c *cluster) string { return c.bPod.Spec.NodeName },
			victims: func(c *cluster) []*corev1.Pod { return []*corev1.Pod{c.bPod} },
		},
		"a malformed gang member": {
			node:    func(c *cluster) string { return c.free + "-node-1" },
			victims: func(c *cluster) []*corev1.Pod { return []*corev1.Pod{c.malformedMember} },
		},
		"a plain pod grouped with a gang member": {
			node: func(c *cluster) string { return c.bPod.Spec.NodeName },
			victims: func(c *cluster) []*corev1.Pod {
				return []*corev1.Pod{plainOn("v", c.bPod.Spec.NodeName), c.bPod}
			},
		},
		"a plain victim on a node reserved for another workload": {
			node:    func(c *cluster) string { return c.reserved + "-node-0" },
			victims: func(c *cluster) []*corev1.Pod { return []*corev1.Pod{plainOn("v", c.reserved+"-node-0")} },
		},
		"a plain victim on a node reserved for the preemptor's slice": {
			node:      func(c *cluster) string { return c.reserved + "-node-0" },
			victims:   func(c *cluster) []*corev1.Pod { return []*corev1.Pod{plainOn("v", c.reserved+"-node-0")} },
			preemptor: func(c *cluster) *corev1.Pod { return c.aMember },
			want:      true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := newCluster(t)
			pl := &Plugin{m: newEngine(c.st, nil)}
			preemptor := unit.Pod("preemptor").Obj()
			if tc.preemptor != nil {
				preemptor = tc.preemptor(c)
			}
			got := pl.eligible(c.nodeInfo(tc.node(c)), victim(t, tc.victims(c)...), preemptor)
			if got != tc.want {
				t.Errorf("eligible: %v, want %v", got, tc.want)
			}
		})
	}
}

// Gang members never preempt pod by pod: PostFilter answers for them
// without reaching DefaultPreemption (nil here), and members that are not
// a waiting head whose plan failed evict nothing.
func TestPostFilterGangMember(t *testing.T) {
	cases := map[string]func(c *cluster) *corev1.Pod{
		"a member of a reserved gang":    func(c *cluster) *corev1.Pod { return c.aMember },
		"a member of a waiting gang":     func(c *cluster) *corev1.Pod { return c.waitingBMember },
		"a malformed member":             func(c *cluster) *corev1.Pod { return c.malformedMember },
		"a member of an unobserved gang": func(*cluster) *corev1.Pod { return builders.Member(jobSet("z", 1), 0, 0).Obj() },
	}
	for name, preemptor := range cases {
		t.Run(name, func(t *testing.T) {
			c := newCluster(t)
			var evicted atomic.Int32
			pl := &Plugin{m: newEngine(c.st, &evicted), nodes: nodeinfo.Snapshot{NodeInfo: c.nodeInfo}}
			m := framework.NewDefaultNodeToStatus()
			for n := range c.nodes {
				m.Set(n, fwk.NewStatus(fwk.Unschedulable, "Insufficient google.com/tpu").WithPlugin("NodeResourcesFit"))
			}
			res, st := pl.PostFilter(context.Background(), framework.NewCycleState(), preemptor(c), m)
			if res != nil {
				t.Errorf("PostFilter nominated %v", res)
			}
			if st.Code() != fwk.Unschedulable || evicted.Load() > 0 {
				t.Errorf("PostFilter = %v after %d evictions, want Unschedulable and none", st, evicted.Load())
			}
			if r := c.st.Cycle(c.aMember, func(string) (workload.Resources, bool) { return nil, false }).Reservation; r == nil || r.Holder.Key != jsKey("a") {
				t.Error("a's reservation was released")
			}
		})
	}
}

func TestDecodeArgs(t *testing.T) {
	defaults := &schedconfig.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}
	raw := func(s string) runtime.Object {
		return &runtime.Unknown{Raw: []byte(s), ContentType: runtime.ContentTypeJSON}
	}
	cases := map[string]struct {
		obj     runtime.Object
		wantErr string
	}{
		"no args":                 {obj: nil},
		"no raw bytes":            {obj: &runtime.Unknown{}},
		"an empty object":         {obj: raw("{}")},
		"an empty object, spaced": {obj: raw(" {\n} \n")},
		"null":                    {obj: raw("null")},
		"a field":                 {obj: raw(`{"minCandidateNodesPercentage":5}`), wantErr: `MultislicePreemption takes no args, got {"minCandidateNodesPercentage":5}`},
		"not an object":           {obj: raw("[]"), wantErr: "MultislicePreemption takes no args, got []"},
		"not JSON":                {obj: raw("{"), wantErr: "MultislicePreemption takes no args, got {"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := decodeArgs(tc.obj)
			checkDecoded(t, got, err, defaults, tc.wantErr)
		})
	}
}

// The args reach the factory as the scheduler's own configuration decoder
// leaves them.
func TestDecodeArgsFromConfiguration(t *testing.T) {
	defaults := &schedconfig.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}
	yamlDoc := func(args string) string {
		return "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: s\n  pluginConfig:\n  - name: MultislicePreemption\n    args:" + args + "\n"
	}
	cases := map[string]struct {
		doc     string
		wantErr string
	}{
		"YAML, empty args": {doc: yamlDoc(" {}")},
		"JSON, spaced empty args": {
			doc: `{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
				"profiles": [{"schedulerName": "s", "pluginConfig": [{"name": "MultislicePreemption", "args": { }}]}]}`,
		},
		"DefaultPreemption's args": {
			doc:     yamlDoc("\n      apiVersion: kubescheduler.config.k8s.io/v1\n      kind: DefaultPreemptionArgs\n      minCandidateNodesPercentage: 5"),
			wantErr: "MultislicePreemption takes no args",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj, _, err := scheme.Codecs.UniversalDecoder().Decode([]byte(tc.doc), nil, nil)
			if err != nil {
				t.Fatalf("decoding the configuration: %v", err)
			}
			cfg := obj.(*schedconfig.KubeSchedulerConfiguration)
			var args runtime.Object
			found := false
			for _, pc := range cfg.Profiles[0].PluginConfig {
				if pc.Name == Name {
					args, found = pc.Args, true
				}
			}
			if !found {
				t.Fatalf("no %s plugin config in %v", Name, cfg.Profiles[0].PluginConfig)
			}
			got, err := decodeArgs(args)
			checkDecoded(t, got, err, defaults, tc.wantErr)
		})
	}
}

func checkDecoded(t *testing.T, got *schedconfig.DefaultPreemptionArgs, err error, want *schedconfig.DefaultPreemptionArgs, wantErr string) {
	t.Helper()
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("decodeArgs error %v, want one containing %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("decodeArgs: %v", err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decodeArgs (-want +got):\n%s", diff)
	}
}

// newEngine is the manager of st, its events recorded and dropped; it
// counts the pods it evicts in evicted (nil: not counted).
func newEngine(st *state.State, evicted *atomic.Int32) *admission.Engine {
	notify := controllers.NewEventSink(events.NewFakeRecorder(100), clock.RealClock{})
	return admission.NewEngine(st, fakeEffects{evicted: evicted}, notify, "MultisliceGang")
}

// fakeEffects leads and carries out nothing but counting evictions.
type fakeEffects struct{ evicted *atomic.Int32 }

func (fakeEffects) Leading() bool                                                                   { return true }
func (fakeEffects) Act(context.Context, state.Actions)                                              {}
func (fakeEffects) AllowWaiting(types.UID, string)                                                  {}
func (fakeEffects) RecordAdmission(context.Context, workload.Key, uint64, func(state.PermitResult)) {}
func (fakeEffects) PokeProvisioning()                                                               {}
func (fakeEffects) Held(*corev1.Pod, string, string, bool)                                          {}
func (fakeEffects) HeldAll([]state.PodRef, string, string, bool)                                    {}
func (fakeEffects) HeldWaiting(*corev1.Pod, string, string)                                         {}
func (fakeEffects) Released(*corev1.Pod)                                                            {}
func (f fakeEffects) Evict(_ context.Context, pods []state.PodRef, _, _ string) {
	if f.evicted != nil {
		f.evicted.Add(int32(len(pods)))
	}
}
