package webhook

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// metaObject is an object's metadata as the metadata API serves it.
func metaObject(gvr schema.GroupVersionResource, kind, namespace, name string, labels, annotations map[string]string) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: gvr.GroupVersion().String(), Kind: kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels, Annotations: annotations},
	}
}

// fakeMetadata is a metadata client serving objs, which records the GETs
// it answers.
type fakeMetadata struct {
	*metadatafake.FakeMetadataClient
	mu   sync.Mutex
	gets []string
}

func newFakeMetadata(objs ...runtime.Object) *fakeMetadata {
	scheme := metadatafake.NewTestScheme()
	for _, k := range []struct {
		gvr  schema.GroupVersionResource
		kind string
	}{{localQueuesResource, "LocalQueue"}, {namespacesResource, "Namespace"}, {podGroupsResource, "PodGroup"}, {inTreePodGroupsResource, "PodGroup"}} {
		gv := k.gvr.GroupVersion()
		scheme.AddKnownTypeWithName(gv.WithKind(k.kind), &metav1.PartialObjectMetadata{})
		scheme.AddKnownTypeWithName(gv.WithKind(k.kind+"List"), &metav1.PartialObjectMetadataList{})
	}
	f := &fakeMetadata{FakeMetadataClient: metadatafake.NewSimpleMetadataClient(scheme, objs...)}
	f.PrependReactor("get", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.gets = append(f.gets, a.GetResource().Resource+" "+a.GetNamespace()+"/"+a.(clienttesting.GetAction).GetName())
		return false, nil, nil
	})
	return f
}

func (f *fakeMetadata) reads() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.gets...)
}

func TestAPILookup(t *testing.T) {
	objs := []runtime.Object{
		metaObject(localQueuesResource, "LocalQueue", ns, ourQueue, nil, nil),
		metaObject(namespacesResource, "Namespace", "", optedNS, map[string]string{wellknown.DefaultSchedulerNamespaceLabel: "true"}, nil),
		metaObject(namespacesResource, "Namespace", "", ns, map[string]string{wellknown.DefaultSchedulerNamespaceLabel: "yes"}, nil),
		metaObject(podGroupsResource, "PodGroup", ns, "pg", map[string]string{wellknown.QueueNameLabel: ourQueue}, nil),
		metaObject(inTreePodGroupsResource, "PodGroup", ns, "gang", nil, map[string]string{wellknown.QueueNameLabel: "annotated"}),
	}
	ctx := t.Context()

	t.Run("informers not synced: read from the API", func(t *testing.T) {
		f := newFakeMetadata(objs...)
		l := NewAPILookup(f, 0)
		if ok, err := l.LocalQueue(ctx, ns, ourQueue); !ok || err != nil {
			t.Errorf("LocalQueue(ours) = %v, %v", ok, err)
		}
		if ok, err := l.LocalQueue(ctx, ns, kueueQueue); ok || err != nil {
			t.Errorf("LocalQueue(kueue's) = %v, %v", ok, err)
		}
		if ok, err := l.NamespaceOptedIn(ctx, optedNS); !ok || err != nil {
			t.Errorf("NamespaceOptedIn(opted) = %v, %v", ok, err)
		}
		if ok, err := l.NamespaceOptedIn(ctx, ns); ok || err != nil {
			t.Errorf("NamespaceOptedIn(label not \"true\") = %v, %v", ok, err)
		}
		if ok, err := l.NamespaceOptedIn(ctx, "gone"); ok || err != nil {
			t.Errorf("NamespaceOptedIn(missing) = %v, %v", ok, err)
		}
		if got := len(f.reads()); got != 5 {
			t.Errorf("%d reads, want 5: %v", got, f.reads())
		}
	})

	t.Run("informers synced: no reads for what they hold", func(t *testing.T) {
		f := newFakeMetadata(objs...)
		l := NewAPILookup(f, 0)
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		l.Start(ctx)
		if !cache.WaitForCacheSync(ctx.Done(), l.Synced) {
			t.Fatal("informers did not sync")
		}
		if ok, err := l.LocalQueue(ctx, ns, ourQueue); !ok || err != nil {
			t.Errorf("LocalQueue(ours) = %v, %v", ok, err)
		}
		if ok, err := l.NamespaceOptedIn(ctx, optedNS); !ok || err != nil {
			t.Errorf("NamespaceOptedIn(opted) = %v, %v", ok, err)
		}
		if reads := f.reads(); len(reads) != 0 {
			t.Errorf("reads %v, want none", reads)
		}
		// A LocalQueue created after the informers listed, which they
		// have not seen yet, is read.
		if ok, err := l.LocalQueue(ctx, ns, "unseen"); ok || err != nil {
			t.Errorf("LocalQueue(missing) = %v, %v", ok, err)
		}
		if reads := f.reads(); len(reads) != 1 || reads[0] != "localqueues team/unseen" {
			t.Errorf("reads %v, want the missing LocalQueue's", reads)
		}
	})

	t.Run("PodGroups", func(t *testing.T) {
		f := newFakeMetadata(objs...)
		l := NewAPILookup(f, 0)
		for _, tc := range []struct {
			g         GroupRef
			queue     string
			found     bool
			wantReads int
		}{
			{GroupRef{Namespace: ns, Name: "pg"}, ourQueue, true, 1},
			{GroupRef{InTree: true, Namespace: ns, Name: "gang"}, "annotated", true, 1},
			// Not in the watch cache: read again from storage.
			{GroupRef{Namespace: ns, Name: "gang"}, "", false, 2},
		} {
			before := len(f.reads())
			q, found, err := l.PodGroupQueue(ctx, tc.g)
			if q != tc.queue || found != tc.found || err != nil {
				t.Errorf("PodGroupQueue(%s) = %q, %v, %v; want %q, %v", tc.g, q, found, err, tc.queue, tc.found)
			}
			if n := len(f.reads()) - before; n != tc.wantReads {
				t.Errorf("PodGroupQueue(%s): %d reads, want %d", tc.g, n, tc.wantReads)
			}
		}
	})

	t.Run("API errors are errors, not answers", func(t *testing.T) {
		f := newFakeMetadata(objs...)
		f.PrependReactor("get", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, errors.New("etcd is slow")
		})
		l := NewAPILookup(f, time.Hour)
		if _, err := l.LocalQueue(ctx, ns, ourQueue); err == nil {
			t.Error("LocalQueue: no error")
		}
		if _, err := l.NamespaceOptedIn(ctx, ns); err == nil {
			t.Error("NamespaceOptedIn: no error")
		}
		if _, _, err := l.PodGroupQueue(ctx, GroupRef{Namespace: ns, Name: "pg"}); err == nil {
			t.Error("PodGroupQueue: no error")
		}
	})
}
