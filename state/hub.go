package state

import (
	"sync"
	"sync/atomic"
)

// Hub hands the writer's latest Snapshot to any number of readers. The
// writer calls Publish; readers call Latest and wait on the channel from
// Subscribe. A reader holds at most one pending notice (latest wins), so a
// slow or stalled reader never slows the writer and nothing queues. The
// zero value is ready to use.
type Hub struct {
	latest atomic.Pointer[Snapshot]

	mu   sync.Mutex
	subs map[chan struct{}]struct{}
}

// Publish makes s the latest snapshot and notifies every subscriber. It
// never blocks.
func (h *Hub) Publish(s *Snapshot) {
	h.latest.Store(s)
	h.mu.Lock()
	for c := range h.subs {
		select {
		case c <- struct{}{}:
		default: // a notice is already waiting; it will read the latest
		}
	}
	h.mu.Unlock()
}

// Latest returns the newest published snapshot, or an empty one (Version 0)
// before the first Publish. Never nil.
func (h *Hub) Latest() *Snapshot {
	if s := h.latest.Load(); s != nil {
		return s
	}
	return &Snapshot{}
}

// Subscribe returns a channel that receives a notice after each Publish
// (coalesced: one pending notice at most) and a function that unsubscribes.
func (h *Hub) Subscribe() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs == nil {
		h.subs = make(map[chan struct{}]struct{})
	}
	h.subs[c] = struct{}{}
	h.mu.Unlock()
	return c, func() {
		h.mu.Lock()
		delete(h.subs, c)
		h.mu.Unlock()
	}
}
