package fleet

import (
	"bytes"
	"encoding/json"
	"sync"
	"time"
)

// Hub holds the latest model, as JSON, and tells whoever waits when a new
// one is published. It is safe for concurrent use.
type Hub struct {
	mu sync.Mutex
	// snapshot is the latest model's JSON (nil before the first);
	// version counts the models published.
	snapshot []byte
	version  uint64
	// content is the latest model's JSON without its time: a model that
	// says nothing new is not published again.
	content []byte
	// next is closed when the next model is published.
	next chan struct{}
}

// NewHub returns a hub with no model yet.
func NewHub() *Hub { return &Hub{next: make(chan struct{})} }

// Publish makes m the latest model, unless only its time differs from the
// latest one's. It reports whether it did.
func (h *Hub) Publish(m *Model) (bool, error) {
	untimed := *m
	untimed.At = time.Time{}
	content, err := json.Marshal(&untimed)
	if err != nil {
		return false, err
	}
	snapshot, err := json.Marshal(m)
	if err != nil {
		return false, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.snapshot != nil && bytes.Equal(content, h.content) {
		return false, nil
	}
	h.snapshot, h.content = snapshot, content
	h.version++
	close(h.next)
	h.next = make(chan struct{})
	return true, nil
}

// Latest is the latest model's JSON (nil before the first), its version,
// and a channel closed when a newer one is published.
func (h *Hub) Latest() (snapshot []byte, version uint64, next <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.snapshot, h.version, h.next
}
