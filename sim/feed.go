package sim

import "sync"

// feed fans each account's user-stream events out to the WebSocket
// connections open on that account. An event is one encoded JSON object
// (the WebSocket side may wrap, reorder or duplicate them to inject
// faults). A subscriber that falls more than its buffer behind is cut off:
// its channel is closed, the connection ends, and the client resyncs, as
// with the real service.
type feed struct {
	mu   sync.Mutex
	subs map[string]map[*subscriber]struct{} // account id -> subscribers
}

type subscriber struct {
	ch     chan []byte
	closed bool
}

// publish sends one encoded event object to every subscriber of account.
// It never blocks.
func (f *feed) publish(account string, obj []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs[account] {
		select {
		case s.ch <- obj:
		default:
			if !s.closed {
				s.closed = true
				close(s.ch)
			}
			delete(f.subs[account], s)
		}
	}
}

// subscribe returns a channel of the account's events from now on, and a
// function to stop. The channel is closed if the subscriber falls behind
// by more than buf events.
func (f *feed) subscribe(account string, buf int) (<-chan []byte, func()) {
	s := &subscriber{ch: make(chan []byte, buf)}
	f.mu.Lock()
	if f.subs == nil {
		f.subs = make(map[string]map[*subscriber]struct{})
	}
	if f.subs[account] == nil {
		f.subs[account] = make(map[*subscriber]struct{})
	}
	f.subs[account][s] = struct{}{}
	f.mu.Unlock()
	return s.ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if _, ok := f.subs[account][s]; ok {
			delete(f.subs[account], s)
			if !s.closed {
				s.closed = true
				close(s.ch)
			}
		}
	}
}
