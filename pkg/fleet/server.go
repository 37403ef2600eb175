package fleet

import (
	"embed"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

//go:embed web
var web embed.FS

// assets are the page's files, by path, with their content types. The page
// loads nothing else: it works offline.
var assets = map[string]struct{ file, contentType string }{
	"/":            {"web/index.html", "text/html; charset=utf-8"},
	"/fleet.js":    {"web/fleet.js", "text/javascript; charset=utf-8"},
	"/fleet.css":   {"web/fleet.css", "text/css; charset=utf-8"},
	"/favicon.svg": {"web/favicon.svg", "image/svg+xml"},
}

// contentSecurityPolicy lets the page load its own files only.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the page and its API, read-only:
//
//	GET /             the page (and /fleet.js, /fleet.css, /favicon.svg)
//	GET /api/fleet    the latest model, as JSON
//	GET /api/events   Server-Sent Events: "fleet" events carrying each new model, the latest first
//	GET /healthz      200 once there is a model
//
// Every other method is refused (405), every other path is 404. Until
// the first model, /api/fleet and /healthz answer 503.
type Handler struct {
	Hub *Hub
	// Heartbeat is how often an idle event stream gets a comment, so
	// that proxies and browsers keep it open.
	Heartbeat time.Duration
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "the fleet page is read-only", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	switch r.URL.Path {
	case "/api/fleet":
		h.snapshot(w)
	case "/api/events":
		h.events(w, r)
	case "/healthz":
		if snapshot, _, _ := h.Hub.Latest(); snapshot == nil {
			http.Error(w, "no model yet: the watches have not synced", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	default:
		a, ok := assets[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		data, err := web.ReadFile(a.file)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", a.contentType)
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(data)
	}
}

func (h *Handler) snapshot(w http.ResponseWriter) {
	snapshot, _, _ := h.Hub.Latest()
	if snapshot == nil {
		http.Error(w, "no model yet: the watches have not synced", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(snapshot)
}

// events streams each new model as a "fleet" event whose id is its
// version; a stream starts with the latest model, once there is one.
// Models published while a slow client is written to are skipped: it gets
// the latest next.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	// The browser reconnects after 2s if the stream breaks.
	if _, err := fmt.Fprint(w, "retry: 2000\n\n"); err != nil {
		return
	}
	if err := rc.Flush(); err != nil {
		return
	}
	heartbeat := time.NewTicker(h.Heartbeat)
	defer heartbeat.Stop()
	var sent uint64
	for {
		snapshot, version, next := h.Hub.Latest()
		if snapshot != nil && version != sent {
			if _, err := fmt.Fprintf(w, "event: fleet\nid: %s\ndata: %s\n\n", strconv.FormatUint(version, 10), snapshot); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			sent = version
		}
		select {
		case <-r.Context().Done():
			return
		case <-next:
		case <-heartbeat.C:
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
		}
	}
}
