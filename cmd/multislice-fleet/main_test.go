package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	jobsetfake "sigs.k8s.io/jobset/client-go/clientset/versioned/fake"
	schedfake "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/fake"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/fleet"
	multislicefake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// syncBuffer is a buffer the command writes to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// fakeClients serve two v5e pools. PodGroups are not served (the fake
// clientset cannot feed informers).
func fakeClients() (*gather.Clients, error) {
	var nodes []runtime.Object
	for _, n := range builders.V5ePools(2) {
		nodes = append(nodes, n)
	}
	pg := schedfake.NewSimpleClientset()
	pg.PrependReactor("list", "podgroups", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Resource: "podgroups"}, "")
	})
	return &gather.Clients{
		Kube: kubefake.NewSimpleClientset(nodes...), Multislice: multislicefake.NewSimpleClientset(),
		JobSets: jobsetfake.NewSimpleClientset(), PodGroups: pg,
	}, nil
}

// The command serves the page at the address it prints, with the model of
// what it watches, and stops with its context.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr syncBuffer
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"--address", "127.0.0.1:0"}, &stdout, &stderr, fakeClients) }()

	served := regexp.MustCompile(`The fleet page: (http://127\.0\.0\.1:\d+/)\n`)
	var url string
	err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		if m := served.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		}
		if url == "" {
			return false, nil
		}
		resp, err := http.Get(url + "healthz")
		if err != nil {
			return false, nil
		}
		_ = resp.Body.Close()
		return resp.StatusCode == http.StatusOK, nil
	})
	if err != nil {
		t.Fatalf("not serving (%v)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	resp, err := http.Get(url + "api/fleet")
	if err != nil {
		t.Fatal(err)
	}
	var m fleet.Model
	err = json.NewDecoder(resp.Body).Decode(&m)
	_ = resp.Body.Close()
	if err != nil || len(m.Pools) != 2 || m.Pools[0].Name != "pool-1" {
		t.Errorf("/api/fleet: %v, %+v", err, m.Pools)
	}
	if !strings.Contains(stdout.String(), "the page is up to date") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit code %d after its context ended\nstderr:\n%s", c, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop with its context")
	}
}

func TestFlags(t *testing.T) {
	var stdout, stderr syncBuffer
	if c := run(t.Context(), []string{"--help"}, &stdout, &stderr, fakeClients); c != 0 || !strings.Contains(stdout.String(), "--kubeconfig") ||
		!strings.Contains(stdout.String(), "--address string") || !strings.Contains(stdout.String(), DefaultAddress) {
		t.Errorf("--help (exit %d):\n%s", c, stdout.String())
	}
	stderr = syncBuffer{}
	if c := run(t.Context(), []string{"--address", "not an address"}, &stdout, &stderr, fakeClients); c != 1 || !strings.HasPrefix(stderr.String(), "error: listen tcp") {
		t.Errorf("a bad address: exit %d, stderr %q", c, stderr.String())
	}
	stderr = syncBuffer{}
	if c := run(t.Context(), []string{"extra"}, &stdout, &stderr, fakeClients); c != 1 {
		t.Errorf("an argument: exit %d, stderr %q", c, stderr.String())
	}
}
