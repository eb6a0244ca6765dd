// Package hub hands a single writer's latest immutable snapshot to any
// number of readers, with coalesced change notices.
package hub

import (
	"sync"
	"sync/atomic"
)

// Hub hands the writer's latest *T to any number of readers. The writer
// calls Publish; readers call Latest and wait on the channel from
// Subscribe. A reader holds at most one pending notice (latest wins), so a
// slow or stalled reader never slows the writer and nothing queues. The
// zero value is ready to use. Published values must not be modified.
type Hub[T any] struct {
	latest atomic.Pointer[T]

	mu     sync.Mutex
	subs   map[chan struct{}]struct{}
	nsubs  atomic.Int32
	joined chan struct{} // made by Joined; a notice per Subscribe
}

// Publish makes s the latest snapshot and notifies every subscriber. It
// never blocks.
func (h *Hub[T]) Publish(s *T) {
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

// Latest returns the newest published snapshot, or a zero T before the
// first Publish. Never nil.
func (h *Hub[T]) Latest() *T {
	if s := h.latest.Load(); s != nil {
		return s
	}
	return new(T)
}

// Waiting reports whether some subscriber has consumed its last notice,
// so that a Publish now would wake it. A writer may use it to publish
// less eagerly while every reader still has a notice to act on (or none
// is subscribed), since they read the latest snapshot when they do.
func (h *Hub[T]) Waiting() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.subs {
		if len(c) == 0 {
			return true
		}
	}
	return false
}

// Subscribe returns a channel that receives a notice after each Publish
// (coalesced: one pending notice at most) and a function that unsubscribes.
func (h *Hub[T]) Subscribe() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs == nil {
		h.subs = make(map[chan struct{}]struct{})
	}
	h.subs[c] = struct{}{}
	h.nsubs.Store(int32(len(h.subs)))
	if h.joined != nil {
		select {
		case h.joined <- struct{}{}:
		default:
		}
	}
	h.mu.Unlock()
	return c, func() {
		h.mu.Lock()
		delete(h.subs, c)
		h.nsubs.Store(int32(len(h.subs)))
		h.mu.Unlock()
	}
}

// Subscribed reports whether any reader is subscribed. Without one, the
// only readers poll Latest (a recheck once a second, a scrape, a dump),
// and a writer may publish less often; Joined says when that changes.
func (h *Hub[T]) Subscribed() bool { return h.nsubs.Load() > 0 }

// Joined returns a channel that receives a notice (coalesced) after each
// Subscribe, so that a writer publishing slowly while nobody subscribed
// can publish at once for the new reader. It is meant for the hub's one
// writer: every call returns the same channel.
func (h *Hub[T]) Joined() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.joined == nil {
		h.joined = make(chan struct{}, 1)
	}
	return h.joined
}
