package quota

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func TestAvailable(t *testing.T) {
	fr := FlavorResource{Flavor: "v5e", Resource: tpu}
	cases := []struct {
		name   string
		queues []*ClusterQueue
		usage  map[string]int64 // whole chips per queue
		want   int64            // for queue "a"
		ceil   int64
	}{
		{name: "alone: nominal less usage", queues: []*ClusterQueue{tpuQueue("a", "", 24, "v5e")},
			usage: map[string]int64{"a": 16}, want: 8, ceil: 24},
		{name: "alone and full", queues: []*ClusterQueue{tpuQueue("a", "", 24, "v5e")},
			usage: map[string]int64{"a": 24}, want: 0, ceil: 24},
		{name: "cohort lends what the other does not use",
			queues: []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 16, "v5e")},
			usage:  map[string]int64{"b": 4}, want: 20, ceil: 24},
		{name: "what the other borrowed is not available",
			queues: []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 16, "v5e")},
			usage:  map[string]int64{"b": 20}, want: 4, ceil: 24},
		{name: "borrowing limit caps",
			queues: []*ClusterQueue{queue("a").cohort("c").group([]corev1.ResourceName{tpu}, "v5e").quota("v5e", tpu, 8, 4, -1).build(), tpuQueue("b", "c", 16, "v5e")},
			want:   12, ceil: 12},
		{name: "lending limit keeps part of the lender's nominal",
			queues: []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), queue("b").cohort("c").group([]corev1.ResourceName{tpu}, "v5e").quota("v5e", tpu, 16, -1, 6).build()},
			want:   14, ceil: 14},
		{name: "the lender's guaranteed part stays its own",
			queues: []*ClusterQueue{queue("a").cohort("c").group([]corev1.ResourceName{tpu}, "v5e").quota("v5e", tpu, 16, -1, 6).build(), tpuQueue("b", "c", 8, "v5e")},
			usage:  map[string]int64{"b": 14}, want: 10, ceil: 24},
		{name: "a queue without quota of the flavor gets nothing",
			queues: []*ClusterQueue{tpuQueue("a", "c", 8, "v6e"), tpuQueue("b", "c", 16, "v5e")},
			want:   0, ceil: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := book([]string{"v5e", "v6e"}, tc.queues...)
			for q, chips := range tc.usage {
				b.Charge(key("wl-"+q), charge(q, "v5e", chips))
			}
			v := b.View()
			if got := v.Available(b.ClusterQueue("a"), fr); got != tc.want*1000 {
				t.Errorf("Available = %d, want %d", got/1000, tc.want)
			}
			if got := v.Ceiling(b.ClusterQueue("a"), fr); got != tc.ceil*1000 {
				t.Errorf("Ceiling = %d, want %d", got/1000, tc.ceil)
			}
		})
	}
}

func TestChargeAndRelease(t *testing.T) {
	b := book([]string{"v5e"}, tpuQueue("a", "", 24, "v5e"))
	fr := FlavorResource{Flavor: "v5e", Resource: tpu}
	b.Charge(key("x"), charge("a", "v5e", 8))
	b.Charge(key("y"), charge("a", "v5e", 8))
	b.Charge(key("x"), charge("a", "v5e", 16)) // a recharge replaces
	if got := b.View().Usage("a", fr); got != 24000 {
		t.Fatalf("usage = %d, want 24000", got)
	}
	if n := b.Admitted()["a"]; n != 2 {
		t.Fatalf("admitted = %d, want 2", n)
	}
	if c := b.Release(key("x")); c == nil || c.Usage[fr] != 16000 {
		t.Fatalf("released %+v", c)
	}
	if c := b.Release(key("x")); c != nil {
		t.Fatalf("second release returned %+v", c)
	}
	v := b.View()
	if got := v.Usage("a", fr); got != 8000 {
		t.Fatalf("usage = %d, want 8000", got)
	}
	// A view simulates without touching the book.
	v.Remove(b.ChargeOf(key("y")))
	if v.Usage("a", fr) != 0 || b.View().Usage("a", fr) != 8000 {
		t.Fatalf("view and book not independent")
	}
}

func TestResolve(t *testing.T) {
	sel, _ := labels.Parse("team=ml")
	selective := tpuQueue("selective", "", 8, "v5e")
	selective.Namespaces = sel
	missingFlavor := tpuQueue("broken", "", 8, "v9")
	b := book([]string{"v5e"}, tpuQueue("cq", "", 8, "v5e"), selective, missingFlavor)
	b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "lq", ClusterQueue: "cq"})
	b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "dangling", ClusterQueue: "nope"})
	b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "sel", ClusterQueue: "selective"})
	b.SetLocalQueue(&LocalQueue{Namespace: "ml", Name: "sel", ClusterQueue: "selective"})
	b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "broken", ClusterQueue: "broken"})
	b.SetNamespace("ml", map[string]string{"team": "ml"})
	b.SetNamespace("ns", nil)
	cases := []struct {
		ns, queue, want, reason string
	}{
		{ns: "ns", queue: "lq", want: "cq"},
		{ns: "ml", queue: "sel", want: "selective"},
		{ns: "ns", queue: "missing", reason: ReasonLocalQueueNotFound},
		{ns: "ns", queue: "dangling", reason: ReasonClusterQueueNotFound},
		{ns: "ns", queue: "sel", reason: ReasonNamespaceNotSelected},
		{ns: "ns", queue: "broken", reason: ReasonFlavorNotFound},
	}
	for _, tc := range cases {
		cq, p := b.Resolve(tc.ns, tc.queue)
		switch {
		case tc.reason == "" && (p != nil || cq.Name != tc.want):
			t.Errorf("%s/%s: got %v, %v; want %s", tc.ns, tc.queue, cq, p, tc.want)
		case tc.reason != "" && (p == nil || p.Reason != tc.reason || !p.Config):
			t.Errorf("%s/%s: problem %+v, want reason %s", tc.ns, tc.queue, p, tc.reason)
		case p != nil && tc.reason != ReasonFlavorNotFound && !strings.Contains(p.Message, tc.ns):
			t.Errorf("%s/%s: message %q does not name the namespace", tc.ns, tc.queue, p.Message)
		}
	}
}

func TestShare(t *testing.T) {
	a := tpuQueue("a", "c", 8, "v5e")
	heavy := tpuQueue("heavy", "c", 8, "v5e")
	heavy.FairWeight = 2000
	b := book([]string{"v5e"}, a, heavy, tpuQueue("lender", "c", 16, "v5e"))
	v := b.View()
	if s := v.Share(a, charge("a", "v5e", 8).Usage); s != 0 {
		t.Fatalf("share within nominal = %d, want 0", s)
	}
	// Borrowing 8 of the 32 lendable chips is a 250/1000 share; twice the
	// weight halves it.
	if s := v.Share(a, charge("a", "v5e", 16).Usage); s != 250 {
		t.Fatalf("share = %d, want 250", s)
	}
	if s := v.Share(heavy, charge("heavy", "v5e", 16).Usage); s != 125 {
		t.Fatalf("weighted share = %d, want 125", s)
	}
}

func TestFormatAmount(t *testing.T) {
	for _, tc := range []struct {
		r    corev1.ResourceName
		v    int64
		want string
	}{{tpu, 8000, "8"}, {corev1.ResourceCPU, 500, "500m"}, {corev1.ResourceMemory, 1024 * 1024 * 1000, "1Mi"}} {
		if got := FormatAmount(tc.r, tc.v); got != tc.want {
			t.Errorf("FormatAmount(%s, %d) = %s, want %s", tc.r, tc.v, got, tc.want)
		}
	}
}

// Setting a queue object reports a change only when its model differs:
// the informer delivers every status write of the object too.
func TestSetReportsChanges(t *testing.T) {
	sel, err := labels.Parse("team=a")
	if err != nil {
		t.Fatal(err)
	}
	withSelector := func(s labels.Selector) *ClusterQueue {
		cq := tpuQueue("a", "c", 8, "v5e")
		cq.Namespaces = s
		return cq
	}
	cases := map[string]struct {
		first, again func(b *Book) bool
		want         bool
	}{
		"ClusterQueue: the same model": {
			first: func(b *Book) bool { return b.SetClusterQueue(tpuQueue("a", "c", 8, "v5e")) },
			again: func(b *Book) bool { return b.SetClusterQueue(tpuQueue("a", "c", 8, "v5e")) },
		},
		"ClusterQueue: the same namespace selector, parsed again": {
			first: func(b *Book) bool { return b.SetClusterQueue(withSelector(sel)) },
			again: func(b *Book) bool {
				s, _ := labels.Parse("team=a")
				return b.SetClusterQueue(withSelector(s))
			},
		},
		"ClusterQueue: nominal quota changed": {
			first: func(b *Book) bool { return b.SetClusterQueue(tpuQueue("a", "c", 8, "v5e")) },
			again: func(b *Book) bool { return b.SetClusterQueue(tpuQueue("a", "c", 16, "v5e")) },
			want:  true,
		},
		"ClusterQueue: strategy changed": {
			first: func(b *Book) bool { return b.SetClusterQueue(tpuQueue("a", "c", 8, "v5e")) },
			again: func(b *Book) bool { return b.SetClusterQueue(queue("a").strategy(StrictFIFO).build()) },
			want:  true,
		},
		"ResourceFlavor: the same labels": {
			first: func(b *Book) bool { return b.SetFlavor(&Flavor{Name: "f", NodeLabels: map[string]string{"x": "1"}}) },
			again: func(b *Book) bool { return b.SetFlavor(&Flavor{Name: "f", NodeLabels: map[string]string{"x": "1"}}) },
		},
		"ResourceFlavor: a label changed": {
			first: func(b *Book) bool { return b.SetFlavor(&Flavor{Name: "f", NodeLabels: map[string]string{"x": "1"}}) },
			again: func(b *Book) bool { return b.SetFlavor(&Flavor{Name: "f", NodeLabels: map[string]string{"x": "2"}}) },
			want:  true,
		},
		"LocalQueue: the same ClusterQueue": {
			first: func(b *Book) bool {
				return b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "lq", ClusterQueue: "a"})
			},
			again: func(b *Book) bool {
				return b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "lq", ClusterQueue: "a"})
			},
		},
		"LocalQueue: pointed elsewhere": {
			first: func(b *Book) bool {
				return b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "lq", ClusterQueue: "a"})
			},
			again: func(b *Book) bool {
				return b.SetLocalQueue(&LocalQueue{Namespace: "ns", Name: "lq", ClusterQueue: "b"})
			},
			want: true,
		},
		"Namespace: the same labels": {
			first: func(b *Book) bool { return b.SetNamespace("ns", map[string]string{"team": "a"}) },
			again: func(b *Book) bool { return b.SetNamespace("ns", map[string]string{"team": "a"}) },
		},
		"Namespace: labels changed": {
			first: func(b *Book) bool { return b.SetNamespace("ns", map[string]string{"team": "a"}) },
			again: func(b *Book) bool { return b.SetNamespace("ns", map[string]string{"team": "b"}) },
			want:  true,
		},
		"Namespace: first seen without labels": {
			first: func(b *Book) bool { return b.SetNamespace("other", nil) },
			again: func(b *Book) bool { return b.SetNamespace("ns", nil) },
			want:  true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := NewBook()
			if !tc.first(b) {
				t.Fatalf("the first Set reported no change")
			}
			if got := tc.again(b); got != tc.want {
				t.Errorf("the second Set reported a change: %v, want %v", got, tc.want)
			}
		})
	}
}

// A view shares the book's usage without being changed by it: charges and
// releases after the view was taken, and other views' simulations, leave
// what it reads as it was.
func TestViewsAreIndependent(t *testing.T) {
	fr := FlavorResource{Flavor: "v5e", Resource: tpu}
	b := book([]string{"v5e"}, tpuQueue("a", "c", 24, "v5e"), tpuQueue("b", "c", 24, "v5e"))
	b.Charge(key("one"), charge("a", "v5e", 8))
	v := b.View()
	b.Charge(key("two"), charge("a", "v5e", 4))
	b.Release(key("one"))
	if got := v.Usage("a", fr); got != 8000 {
		t.Errorf("the view reads %d after the book changed, want 8000", got)
	}
	other := b.View()
	other.Add(charge("a", "v5e", 8))
	other.Remove(charge("b", "v5e", 8)) // nothing charged there: a no-op
	if got := b.View().Usage("a", fr); got != 4000 {
		t.Errorf("the book reads %d after a view's simulation, want 4000", got)
	}
	if got := v.Usage("a", fr); got != 8000 {
		t.Errorf("the first view reads %d after another view's simulation, want 8000", got)
	}
	v.Add(charge("a", "v5e", 2))
	v.Add(charge("b", "v5e", 2))
	if got, want := [2]int64{v.Usage("a", fr), v.Usage("b", fr)}, [2]int64{10000, 2000}; got != want {
		t.Errorf("the view's own simulation reads %v, want %v", got, want)
	}
	if got := other.Usage("a", fr); got != 12000 {
		t.Errorf("the other view reads %d, want 12000", got)
	}
}

// A view is read after the lock it was taken under is released (a plan runs
// outside the state's lock) while the book keeps changing: the book
// replaces its maps instead of writing into them, so the two never touch
// the same map. Run with -race to check it.
func TestViewReadWhileTheBookChanges(t *testing.T) {
	b := book([]string{"v5e"}, tpuQueue("a", "c", 24, "v5e"), tpuQueue("b", "c", 24, "v5e"))
	v := b.View()
	cq := b.ClusterQueue("a")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 2000 {
			name := fmt.Sprintf("extra-%d", i%7)
			b.SetFlavor(&Flavor{Name: name, NodeLabels: map[string]string{"i": fmt.Sprint(i)}})
			b.SetClusterQueue(tpuQueue(name, "c", int64(i%5+1), "v5e"))
			b.Charge(key(name), charge("b", "v5e", 1))
			b.DeleteClusterQueue(name)
			b.DeleteFlavor(name)
		}
	}()
	fr := FlavorResource{Flavor: "v5e", Resource: tpu}
	for {
		select {
		case <-done:
			return
		default:
		}
		if _, p := v.Assign(cq, []Need{tpus(0, 2, 4)}, nil); p != nil {
			t.Fatalf("Assign on the view taken before the changes: %v", p)
		}
		if got := v.Available(cq, fr); got != 48000 {
			t.Fatalf("the view's Available changed to %d under it", got)
		}
	}
}
