package multislicegang

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// holdPool binds a one-slice JobSet "other" of two pods to both nodes of
// pool, so that pool is held by another workload, and returns its pods.
func holdPool(f *fixture, pool string) []*corev1.Pod {
	other := unit.JobSet("other").ReplicatedJob("w", 1, 2).Obj()
	f.addJobSet(other)
	running := builders.MembersOn(other, poolNodes(pool)...)
	f.addPods(running...)
	return running
}

func TestPreFilter(t *testing.T) {
	// a is two slices of two pods; each slice fills a pool.
	js := unit.JobSet("a").ReplicatedJob("w", 2, 2).Obj()
	all := builders.Members(js)
	key := jsKey("a")
	// planned: the gang is complete and its first pod's PreFilter
	// reserved room for it.
	planned := func(f *fixture) {
		f.addGang(js)
		mustPreFilter(f, all[0])
	}
	// waiting: pool-1 is held by another JobSet, the gang is complete and
	// its first pod's plan failed; it returns the other JobSet's pods.
	waiting := func(f *fixture) []*corev1.Pod {
		held := holdPool(f, "pool-1")
		f.addGang(js)
		if _, st := f.preFilter(all[0]); st.Code() != fwk.Unschedulable {
			f.t.Fatalf("first PreFilter: %v, want Unschedulable", st)
		}
		return held
	}
	cases := map[string]struct {
		pools int
		// setup feeds the state, may run earlier cycles, and returns the pod.
		setup func(f *fixture) *corev1.Pod
		want  status
		// wantMsg is part of the status message (want.Message is then empty).
		wantMsg string
		// wantNodes are the nodes the pod is limited to, computed once the
		// cycle ran (nil: every node).
		wantNodes func(f *fixture) []string
		// wantPlan says whether this cycle planned (read the snapshot).
		wantPlan bool
		// check, when set, checks the state after the cycle.
		check func(t *testing.T, f *fixture)
	}{
		"plain pod": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod { return unit.Pod("plain").TPU("4").Obj() },
		},
		"incomplete gang": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(all[:3]...)
				return all[0]
			},
			want: status{fwk.UnschedulableAndUnresolvable, "waiting for 1 of 4 pods of JobSet ns/a to be created"},
		},
		"malformed labels": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				p := builders.Relabelled(all[0], wellknown.JobGlobalIndexLabel, "-1")
				f.addPods(p)
				return p
			},
			want: status{Code: fwk.UnschedulableAndUnresolvable}, wantMsg: "is not a non-negative integer",
		},
		"a gang that fits gets its slice's pool": {
			pools: 3,
			// Not the gang's head, which PreEnqueue alone lets through:
			// any member that reaches a cycle plans for its gang.
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				return all[2]
			},
			wantNodes: func(f *fixture) []string { return f.slotNodes(key, 1) },
			wantPlan:  true,
			check: func(t *testing.T, f *fixture) {
				pools := []string{f.slicePool(key, 0), f.slicePool(key, 1)}
				if pools[0] == "" || pools[0] == pools[1] {
					t.Errorf("slices reserved pools %q, want two distinct pools", pools)
				}
				if diff := cmp.Diff(poolNodes(pools[1]), f.slotNodes(key, 1)); diff != "" {
					t.Errorf("slice 1's planned nodes are not its pool's (-want +got):\n%s", diff)
				}
			},
		},
		"more domains needed than free": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod {
				holdPool(f, "pool-1")
				f.addGang(js)
				return all[0]
			},
			want:     status{Code: fwk.Unschedulable},
			wantMsg:  "waiting for 1 more domains matching gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4 (2 exist, 1 free)",
			wantPlan: true,
		},
		"more slices than domains exist": {
			pools: 1,
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				return all[0]
			},
			want:     status{Code: fwk.UnschedulableAndUnresolvable},
			wantMsg:  "2 slices need 2 domains matching gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4, only 1 exist",
			wantPlan: true,
		},
		"a second member of the same slice reuses the reservation": {
			pools: 3,
			setup: func(f *fixture) *corev1.Pod {
				planned(f)
				return all[1]
			},
			wantNodes: func(f *fixture) []string { return poolNodes(f.slicePool(key, 0)) },
		},
		"a member of another slice reuses the reservation": {
			pools: 3,
			setup: func(f *fixture) *corev1.Pod {
				planned(f)
				return all[3]
			},
			wantNodes: func(f *fixture) []string { return poolNodes(f.slicePool(key, 1)) },
		},
		"a reserved member is left the nodes with room": {
			pools: 3,
			setup: func(f *fixture) *corev1.Pod {
				planned(f)
				f.reserve(all[0], poolNodes(f.slicePool(key, 0))[0])
				return all[1]
			},
			wantNodes: func(f *fixture) []string { return poolNodes(f.slicePool(key, 0))[1:] },
		},
		"a member beyond its confined slice's slots may use any node of the pool": {
			pools: 3,
			setup: func(f *fixture) *corev1.Pod {
				f.addGang(js)
				for _, p := range all[:2] {
					f.reserve(p, nodeNames(mustPreFilter(f, p))[0])
				}
				extra := builders.Member(js, 0, 1).UID("extra").Obj()
				f.addPods(extra)
				return extra
			},
			wantNodes: func(f *fixture) []string { return poolNodes(f.slicePool(key, 0)) },
		},
		"a member beyond its unconfined slice's slots finds no room": {
			pools: 1,
			setup: func(f *fixture) *corev1.Pod {
				u := unit.JobSet("u").Unconfined().ReplicatedJob("w", 1, 2).Obj()
				for _, p := range f.addGang(u) {
					f.reserve(p, nodeNames(mustPreFilter(f, p))[0])
				}
				extra := builders.Member(u, 0, 1).UID("extra").Obj()
				f.addPods(extra)
				return extra
			},
			want: status{fwk.Unschedulable, "the reserved room for the pod's slice is used up"},
		},
		"a second member gets the cached failure": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod {
				waiting(f)
				return all[3]
			},
			want:    status{Code: fwk.Unschedulable},
			wantMsg: "waiting for 1 more domains",
		},
		"the waiting workload's head plans again": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod {
				waiting(f)
				return all[0]
			},
			want:     status{Code: fwk.Unschedulable},
			wantMsg:  "waiting for 1 more domains",
			wantPlan: true,
		},
		"a freed domain ends the cached failure": {
			pools: 2,
			setup: func(f *fixture) *corev1.Pod {
				f.deletePods(waiting(f)...)
				return all[3]
			},
			wantNodes: func(f *fixture) []string { return poolNodes(f.slicePool(key, 1)) },
			wantPlan:  true,
		},
		"an expired reservation is planned again": {
			pools: 3,
			setup: func(f *fixture) *corev1.Pod {
				planned(f)
				f.clock.Step(2 * permitTimeout)
				return all[1]
			},
			wantNodes: func(f *fixture) []string { return poolNodes(f.slicePool(key, 0)) },
			wantPlan:  true,
		},
		"a replacement member of a gang running whole joins its slice's pool": {
			pools: 3,
			setup: func(f *fixture) *corev1.Pod {
				f.addJobSet(js)
				f.addPods(builders.MembersOn(js, "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1")...)
				replacement := builders.Member(js, 1, 0).UID("replacement").Obj()
				f.addPods(replacement)
				return replacement
			},
			wantNodes: func(*fixture) []string { return poolNodes("pool-3") },
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(tc.pools)...)
			p := tc.setup(f)
			before := f.snapshots
			res, st := f.preFilter(p)
			got := statusOf(st)
			if tc.wantMsg != "" {
				if !strings.Contains(got.Message, tc.wantMsg) {
					t.Errorf("PreFilter message %q does not contain %q", got.Message, tc.wantMsg)
				}
				got.Message = ""
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("PreFilter status (-want +got):\n%s", diff)
			}
			var want []string
			if tc.wantNodes != nil {
				want = tc.wantNodes(f)
			}
			if diff := cmp.Diff(want, nodeNames(res)); diff != "" {
				t.Errorf("PreFilter nodes (-want +got):\n%s", diff)
			}
			if planned := f.snapshots > before; planned != tc.wantPlan {
				t.Errorf("PreFilter planned: %v, want %v", planned, tc.wantPlan)
			}
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

func mustPreFilter(f *fixture, p *corev1.Pod) *fwk.PreFilterResult {
	f.t.Helper()
	res, st := f.preFilter(p)
	if !st.IsSuccess() {
		f.t.Fatalf("PreFilter %s: %v", p.Name, st)
	}
	return res
}

func TestFilter(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj()
	all := builders.Members(js)
	cases := map[string]struct {
		pod func() *corev1.Pod
		// node is "reserved" for a node of a's reserved pool, "free" for
		// one of the other pool.
		node string
		want status
		// wantMsg is part of the status message (want.Message is then empty).
		wantMsg string
		// wantRetried says whether the pod is tried again when the
		// reservation ends.
		wantRetried bool
	}{
		"a plain pod on a reserved node": {
			pod: func() *corev1.Pod { return unit.Pod("plain").TPU("1").Obj() }, node: "reserved",
			want: status{Code: fwk.Unschedulable}, wantMsg: ", reserved for slice 0 of JobSet ns/a",
			wantRetried: true,
		},
		"a plain pod elsewhere": {
			pod: func() *corev1.Pod { return unit.Pod("plain").TPU("1").Obj() }, node: "free",
		},
		"the gang's own member on its reserved node": {
			pod: func() *corev1.Pod { return all[1] }, node: "reserved",
		},
		"a member of another gang on a reserved node": {
			pod: func() *corev1.Pod {
				return builders.Member(unit.JobSet("b").ReplicatedJob("w", 1, 1).Obj(), 0, 0).Obj()
			}, node: "reserved",
			want: status{Code: fwk.Unschedulable}, wantMsg: ", reserved for slice 0 of JobSet ns/a",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(2)...)
			f.addGang(js)
			mustPreFilter(f, all[0])
			reserved := f.slicePool(jsKey("a"), 0)
			free := "pool-1"
			if reserved == free {
				free = "pool-2"
			}
			nodeName := map[string]string{"reserved": poolNodes(reserved)[1], "free": poolNodes(free)[0]}[tc.node]
			p := tc.pod()
			f.addPods(p)
			f.preFilter(p)
			got := statusOf(f.filter(p, nodeName))
			if tc.wantMsg != "" {
				if !strings.Contains(got.Message, tc.wantMsg) {
					t.Errorf("Filter message %q does not contain %q", got.Message, tc.wantMsg)
				}
				got.Message = ""
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Filter (-want +got):\n%s", diff)
			}
			f.clock.Step(2 * permitTimeout)
			acts := f.st.Upkeep().Expire()
			retried := slices.ContainsFunc(acts.Activate, func(r state.PodRef) bool { return r.UID == p.UID })
			if retried != tc.wantRetried {
				t.Errorf("pod retried when the reservation ended: %v, want %v", retried, tc.wantRetried)
			}
		})
	}
}

// rejectedEverywhere is what the framework hands PostFilter when another
// plugin rejected the pod on every one of nodes.
func rejectedEverywhere(nodes []string) fwk.NodeToStatusReader {
	m := framework.NewDefaultNodeToStatus()
	for _, n := range nodes {
		m.Set(n, fwk.NewStatus(fwk.Unschedulable, "node(s) didn't match pod anti-affinity rules").WithPlugin("InterPodAffinity"))
	}
	return m
}

func TestPostFilter(t *testing.T) {
	js := unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj()
	all := builders.Members(js)
	key := jsKey("a")
	cases := map[string]struct {
		pools int
		// pod is the pod that failed its cycle (after PreFilter).
		pod func(f *fixture) *corev1.Pod
		// statuses are its nodes' statuses, given the pool first reserved.
		statuses func(pool string) fwk.NodeToStatusReader
		// cacheLags: the cycle's snapshot does not hold the reserved
		// pool's nodes yet (the scheduler's cache lags our informer).
		cacheLags bool
		// cacheRelabels: the cycle's snapshot shows the reserved pool's
		// second node relabelled into another pool, which our informer
		// has not seen (or has seen back already).
		cacheRelabels bool
		// wantMsg is in PostFilter's status message.
		wantMsg string
		// wantReleased says whether a's reservation was released.
		wantReleased bool
		// wantNext is what the next plan of a says: its status (message
		// part in wantNextMsg), and whether it avoids the first pool.
		wantNext    fwk.Code
		wantNextMsg string
	}{
		"a member rejected on every reserved node": {
			pools:        2,
			pod:          func(*fixture) *corev1.Pod { return all[0] },
			statuses:     func(pool string) fwk.NodeToStatusReader { return rejectedEverywhere(poolNodes(pool)) },
			wantReleased: true,
		},
		"a member rejected on every node of the only pool": {
			pools:        1,
			pod:          func(*fixture) *corev1.Pod { return all[0] },
			statuses:     func(pool string) fwk.NodeToStatusReader { return rejectedEverywhere(poolNodes(pool)) },
			wantReleased: true,
			wantNext:     fwk.Unschedulable,
			wantNextMsg:  "rejected the slice's pods: 2 node(s) InterPodAffinity: node(s) didn't match pod anti-affinity rules",
		},
		"a member with a reserved node not rejected": {
			pools: 2,
			pod:   func(*fixture) *corev1.Pod { return all[0] },
			statuses: func(pool string) fwk.NodeToStatusReader {
				m := rejectedEverywhere(poolNodes(pool)).(*framework.NodeToStatus)
				m.Set(poolNodes(pool)[1], nil)
				return m
			},
		},
		"a member whose reserved nodes the scheduler's cache lacks": {
			pools:     2,
			pod:       func(*fixture) *corev1.Pod { return all[0] },
			cacheLags: true,
			statuses: func(pool string) fwk.NodeToStatusReader {
				// What the framework reports for nodes outside its
				// snapshot when PreFilter narrowed the nodes to them.
				m := framework.NewDefaultNodeToStatus()
				m.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [MultisliceGang]"))
				return m
			},
			wantMsg: "waiting for the scheduler's cache to hold reserved node(s) ",
		},
		"a member whose reserved node the scheduler's cache shows relabelled": {
			pools:         2,
			pod:           func(*fixture) *corev1.Pod { return all[0] },
			cacheRelabels: true,
			statuses: func(pool string) fwk.NodeToStatusReader {
				m := framework.NewDefaultNodeToStatus()
				m.Set(poolNodes(pool)[0], fwk.NewStatus(fwk.Unschedulable, "Insufficient google.com/tpu").WithPlugin("NodeResourcesFit"))
				m.Set(poolNodes(pool)[1], fwk.NewStatus(fwk.Unschedulable, "node is in gke-nodepool=pool-9, not in gke-nodepool="+pool+", where its slice is reserved").WithPlugin("MultisliceGang"))
				return m
			},
			wantMsg: "waiting for the scheduler's cache and this scheduler's index to agree on the labels of reserved node(s) ",
		},
		"a plain pod": {
			pools: 2,
			pod: func(f *fixture) *corev1.Pod {
				p := unit.Pod("plain").TPU("4").Obj()
				f.addPods(p)
				f.preFilter(p)
				return p
			},
			statuses: func(pool string) fwk.NodeToStatusReader {
				return rejectedEverywhere(append(poolNodes("pool-1"), poolNodes("pool-2")...))
			},
		},
		"a member of another gang": {
			pools: 2,
			pod: func(f *fixture) *corev1.Pod {
				p := f.addGang(unit.JobSet("b").ReplicatedJob("w", 1, 2).Obj())[0]
				f.preFilter(p) // one pool is left: b waits
				return p
			},
			statuses: func(pool string) fwk.NodeToStatusReader {
				return rejectedEverywhere(append(poolNodes("pool-1"), poolNodes("pool-2")...))
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(tc.pools)...)
			f.addGang(js)
			mustPreFilter(f, all[0])
			first := f.slicePool(key, 0)
			if tc.cacheLags {
				for _, n := range poolNodes(first) {
					delete(f.nodes, n)
				}
			}
			relabelled := poolNodes(first)[1]
			if tc.cacheRelabels {
				n := f.nodes[relabelled].DeepCopy()
				n.Labels[wellknown.NodePoolLabel] = "pool-9"
				f.nodes[relabelled] = n
			}
			p := tc.pod(f)
			res, st := f.pl.PostFilter(context.Background(), f.cycles[p.UID], p, tc.statuses(first))
			if !strings.Contains(st.Message(), tc.wantMsg) {
				t.Errorf("PostFilter message %q, want it to contain %q", st.Message(), tc.wantMsg)
			}
			if tc.cacheLags {
				// The pod is tried again when a node it was planned on
				// reaches the cache, not for a node of another pool.
				other := "pool-1"
				if first == other {
					other = "pool-2"
				}
				for pool, want := range map[string]fwk.QueueingHint{first: fwk.Queue, other: fwk.QueueSkip} {
					node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: poolNodes(pool)[0]}}
					if got, err := f.pl.hintNodeChanged(klog.Background(), p, nil, node); err != nil || got != want {
						t.Errorf("hint for a node of %s = %v, %v; want %v", pool, got, err, want)
					}
				}
			}
			if tc.cacheRelabels {
				// Not remembered as rejected: tried again when the cache
				// sees the node as the state does.
				if !strings.HasSuffix(st.Message(), relabelled) {
					t.Errorf("PostFilter message %q does not name %s", st.Message(), relabelled)
				}
				node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: relabelled}}
				if got, err := f.pl.hintNodeChanged(klog.Background(), p, nil, node); err != nil || got != fwk.Queue {
					t.Errorf("hint for the relabelled node = %v, %v; want Queue", got, err)
				}
			}
			if res != nil {
				t.Errorf("PostFilter nominated %v", res)
			}
			if st.Code() != fwk.Unschedulable {
				t.Errorf("PostFilter status %v, want Unschedulable", st)
			}
			_, reserved := heldReservation(t, f, key)
			if reserved == tc.wantReleased {
				t.Fatalf("reservation kept: %v, want %v", reserved, !tc.wantReleased)
			}
			if !tc.wantReleased {
				if got := f.slicePool(key, 0); got != first {
					t.Errorf("reservation moved from %s to %s", first, got)
				}
				return
			}
			// The workload plans again through another member.
			_, next := f.preFilter(all[1])
			if next.Code() != tc.wantNext || !strings.Contains(next.Message(), tc.wantNextMsg) {
				t.Fatalf("next PreFilter: %v, want code %v with %q", next, tc.wantNext, tc.wantNextMsg)
			}
			if next.IsSuccess() {
				if got := f.slicePool(key, 0); got == first {
					t.Errorf("the next plan took the rejected pool %s again", got)
				}
			}
		})
	}
}

func TestRequestedOf(t *testing.T) {
	n := builders.V5ePool("pool-1").Node(0)
	ni := framework.NewNodeInfo(
		unit.Pod("a").TPU("4").NodeName(n.Name).Obj(),
		unit.Pod("b").NodeName(n.Name).Obj(),
	)
	ni.SetNode(n)
	want := workload.Resources{
		corev1.ResourceCPU:              0,
		corev1.ResourceMemory:           0,
		corev1.ResourceEphemeralStorage: 0,
		corev1.ResourcePods:             2000,
		wellknown.ResourceTPU:           4000,
	}
	if diff := cmp.Diff(want, nodeinfo.RequestedOf(ni)); diff != "" {
		t.Errorf("RequestedOf (-want +got):\n%s", diff)
	}
	wantFree := workload.Resources{
		corev1.ResourceCPU:    8000,
		corev1.ResourceMemory: 32 << 30 * 1000,
		corev1.ResourcePods:   108000,
		wellknown.ResourceTPU: 0,
	}
	if diff := cmp.Diff(wantFree, freeOf(ni)); diff != "" {
		t.Errorf("freeOf (-want +got):\n%s", diff)
	}
}
