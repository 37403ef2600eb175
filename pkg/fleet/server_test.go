package fleet

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// modelOf builds the model of a cluster of n free v5e pools.
func modelOf(n int, now time.Time) *Model {
	return NewBuilder(10).Build(&cli.Cluster{Now: now, Nodes: builders.V5ePools(n)})
}

func TestHandler(t *testing.T) {
	hub := NewHub()
	srv := httptest.NewServer(&Handler{Hub: hub, Heartbeat: time.Minute})
	defer srv.Close()
	type want struct {
		status      int
		contentType string
		body        string // a part of it
		allow       string
	}
	cases := []struct {
		name, method, path string
		before, after      want // before and after the first model
	}{
		{"the page", "GET", "/", want{200, "text/html; charset=utf-8", `<script src="fleet.js" defer></script>`, ""}, want{200, "text/html; charset=utf-8", "<title>Fleet", ""}},
		{"its script", "GET", "/fleet.js", want{200, "text/javascript; charset=utf-8", `new EventSource("api/events")`, ""}, want{200, "text/javascript; charset=utf-8", "", ""}},
		{"its style", "GET", "/fleet.css", want{200, "text/css; charset=utf-8", ".tile", ""}, want{200, "text/css; charset=utf-8", "", ""}},
		{"the page's head only", "HEAD", "/", want{200, "text/html; charset=utf-8", "", ""}, want{200, "text/html; charset=utf-8", "", ""}},
		{"the model", "GET", "/api/fleet", want{503, "text/plain; charset=utf-8", "no model yet", ""}, want{200, "application/json", `"name":"pool-1"`, ""}},
		{"health", "GET", "/healthz", want{503, "text/plain; charset=utf-8", "no model yet", ""}, want{200, "text/plain; charset=utf-8", "ok", ""}},
		{"nothing else", "GET", "/index.html", want{404, "text/plain; charset=utf-8", "404 page not found", ""}, want{404, "text/plain; charset=utf-8", "", ""}},
		{"nor the embedded directory", "GET", "/web/fleet.js", want{404, "text/plain; charset=utf-8", "", ""}, want{404, "text/plain; charset=utf-8", "", ""}},
		{"no posting", "POST", "/api/fleet", want{405, "text/plain; charset=utf-8", "read-only", "GET, HEAD"}, want{405, "text/plain; charset=utf-8", "read-only", "GET, HEAD"}},
		{"no putting", "PUT", "/", want{405, "text/plain; charset=utf-8", "read-only", "GET, HEAD"}, want{405, "", "", "GET, HEAD"}},
		{"no deleting", "DELETE", "/api/events", want{405, "text/plain; charset=utf-8", "read-only", "GET, HEAD"}, want{405, "", "", "GET, HEAD"}},
		{"no patching elsewhere either", "PATCH", "/nowhere", want{405, "text/plain; charset=utf-8", "read-only", "GET, HEAD"}, want{405, "", "", "GET, HEAD"}},
	}
	check := func(t *testing.T, method, path string, w want) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != w.status {
			t.Errorf("%s %s: %s, want %d", method, path, resp.Status, w.status)
		}
		if got := resp.Header.Get("Content-Type"); w.contentType != "" && got != w.contentType {
			t.Errorf("%s %s: Content-Type %q, want %q", method, path, got, w.contentType)
		}
		if got := resp.Header.Get("Allow"); got != w.allow {
			t.Errorf("%s %s: Allow %q, want %q", method, path, got, w.allow)
		}
		if !strings.Contains(string(body), w.body) {
			t.Errorf("%s %s: body lacks %q:\n%.300s", method, path, w.body, body)
		}
		if method == "HEAD" && len(body) != 0 {
			t.Errorf("HEAD %s: a body of %d bytes", path, len(body))
		}
		if resp.StatusCode == 200 && resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: no X-Content-Type-Options: nosniff", method, path)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name+" before the first model", func(t *testing.T) { check(t, tc.method, tc.path, tc.before) })
	}
	if _, err := hub.Publish(modelOf(2, at(1))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { check(t, tc.method, tc.path, tc.after) })
	}
	resp, err := srv.Client().Get(srv.URL + "/api/fleet")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var m Model
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil || len(m.Pools) != 2 || !m.At.Equal(at(1)) {
		t.Errorf("/api/fleet: %v, %+v", err, m)
	}
}

// The page loads nothing from elsewhere: every file it names is its own,
// and the policy it is served with forbids anything else.
func TestPageSelfContained(t *testing.T) {
	external := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?\s*(https?:)?//|url\(\s*["']?(https?:)?//|@import|fetch\(\s*["']https?:`)
	for path, a := range assets {
		data, err := web.ReadFile(a.file)
		if err != nil {
			t.Fatal(err)
		}
		if m := external.Find(data); m != nil {
			t.Errorf("%s (%s) refers to another site: %q", path, a.file, m)
		}
	}
	index, _ := web.ReadFile("web/index.html")
	for _, own := range regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllSubmatch(index, -1) {
		if _, ok := assets["/"+string(own[1])]; !ok {
			t.Errorf("index.html refers to %s, which the handler does not serve", own[1])
		}
	}
	if !strings.Contains(contentSecurityPolicy, "default-src 'none'") || !strings.Contains(contentSecurityPolicy, "connect-src 'self'") {
		t.Errorf("policy %q", contentSecurityPolicy)
	}
}

// sseEvent is one Server-Sent Event.
type sseEvent struct{ name, id, data string }

// readEvent reads the next event of a stream, skipping comments and
// field-less blocks (the retry advice).
func readEvent(r *bufio.Reader) (sseEvent, error) {
	var e sseEvent
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return e, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if e.name != "" || e.data != "" {
				return e, nil
			}
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event: "):
			e.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "id: "):
			e.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			e.data += strings.TrimPrefix(line, "data: ")
		}
	}
}

// subscribe opens /api/events of srv.
func subscribe(t *testing.T, srv *httptest.Server) *bufio.Reader {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+"/api/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("/api/events: %s, Content-Type %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	return bufio.NewReader(resp.Body)
}

// A stream starts with the latest model and gets each new one; a model
// that only differs in time is not sent; heartbeats keep it open meanwhile.
func TestEventStream(t *testing.T) {
	hub := NewHub()
	srv := httptest.NewServer(&Handler{Hub: hub, Heartbeat: 20 * time.Millisecond})
	// Closed after the streams (cleanups run last first): Close waits
	// for their handlers.
	t.Cleanup(srv.Close)
	if _, err := hub.Publish(modelOf(1, at(1))); err != nil {
		t.Fatal(err)
	}
	stream := subscribe(t, srv)
	pools := func(e sseEvent) int {
		var m Model
		if err := json.Unmarshal([]byte(e.data), &m); err != nil {
			t.Fatalf("event %s: %v", e.id, err)
		}
		return len(m.Pools)
	}
	first, err := readEvent(stream)
	if err != nil || first.name != "fleet" || first.id != "1" || pools(first) != 1 {
		t.Fatalf("first event %+v (%v), want model 1 with 1 pool", first, err)
	}
	if published, err := hub.Publish(modelOf(1, at(2))); published || err != nil {
		t.Errorf("a model that only differs in time was published (%v)", err)
	}
	if published, err := hub.Publish(modelOf(3, at(3))); !published || err != nil {
		t.Fatalf("a changed model was not published (%v)", err)
	}
	next, err := readEvent(stream)
	if err != nil || next.name != "fleet" || next.id != "2" || pools(next) != 3 {
		t.Fatalf("next event %+v (%v), want model 2 with 3 pools", next, err)
	}
	// A late subscriber starts with the latest.
	late, err := readEvent(subscribe(t, srv))
	if err != nil || late.id != "2" || late.data != next.data {
		t.Errorf("a new stream starts with %+v (%v), want model 2", late, err)
	}
	// Meanwhile, heartbeats.
	line, err := stream.ReadString('\n')
	if err != nil || line != ": heartbeat\n" {
		t.Errorf("an idle stream says %q (%v), want a heartbeat", line, err)
	}
}
