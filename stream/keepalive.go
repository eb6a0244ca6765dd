package stream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
)

// listenKey bookkeeping: creation, keepalive, retirement, and the DELETE
// of every key this process created when it exits.

// currentKey returns the listenKey in use, creating one when there is none.
func (s *Session) currentKey(ctx context.Context) (string, error) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key != "" {
		return key, nil
	}
	return s.newKey(ctx)
}

// newKey POSTs a new listenKey and makes it current.
func (s *Session) newKey(ctx context.Context) (string, error) {
	key, err := s.rest.CreateListenKey(ctx)
	if err != nil {
		return "", fmt.Errorf("create listenKey: %w", err)
	}
	now := s.cfg.Now()
	s.mu.Lock()
	s.key = key
	s.created[key] = true
	s.setStatus(func(st *Status) {
		st.KeyCreated = now
		st.KeysCreated++
		st.KeyExpires = now.Add(s.cfg.KeyTTL)
		st.LastKeepalive = time.Time{}
		st.NextKeepalive = now.Add(s.cfg.Keepalive)
	})
	s.mu.Unlock()
	s.note(NoteKeepalive, "new listenKey created")
	select {
	case s.keyChanged <- struct{}{}:
	default:
	}
	return key, nil
}

// retireKey stops using key (dead or replaced). When it may still be
// valid it is DELETEd, best effort.
func (s *Session) retireKey(ctx context.Context, key string, stillValid bool) {
	s.mu.Lock()
	if s.key == key {
		s.key = ""
	}
	s.mu.Unlock()
	if !stillValid {
		s.mu.Lock()
		delete(s.created, key)
		s.mu.Unlock()
		return
	}
	s.deleteKey(ctx, key)
}

func (s *Session) deleteKey(ctx context.Context, key string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := s.rest.CloseListenKey(ctx, key)
	if err == nil || errors.Is(err, rest.ErrInvalidListenKey) {
		s.mu.Lock()
		delete(s.created, key)
		s.mu.Unlock()
		return nil
	}
	return fmt.Errorf("close listenKey: %w", err)
}

// deleteAllKeys DELETEs every key created and not yet deleted.
func (s *Session) deleteAllKeys(ctx context.Context) error {
	s.mu.Lock()
	keys := make([]string, 0, len(s.created))
	for k := range s.created {
		keys = append(keys, k)
	}
	s.key = ""
	s.mu.Unlock()
	var errs []error
	for _, k := range keys {
		if err := s.deleteKey(ctx, k); err != nil {
			errs = append(errs, err)
		}
	}
	if len(keys) > 0 && len(errs) == 0 {
		s.note(NoteKeepalive, "listenKey closed")
	}
	return errors.Join(errs...)
}

// Keepalive sends PUT /openapi/v1/userDataStream now and returns the
// key's new expiry. A -1125 answer makes the session move to a new key.
func (s *Session) Keepalive(ctx context.Context) (time.Time, error) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key == "" {
		return time.Time{}, errors.New("keepalive: no listenKey yet")
	}
	return s.keepalive(ctx, key)
}

func (s *Session) keepalive(ctx context.Context, key string) (time.Time, error) {
	err := s.rest.KeepAliveListenKey(ctx, key)
	now := s.cfg.Now()
	if err != nil {
		if errors.Is(err, rest.ErrInvalidListenKey) {
			s.noteError("keepalive: listenKey no longer valid; moving to a new one")
			select {
			case s.keyLost <- key:
			default:
			}
		} else {
			s.noteError(fmt.Sprintf("keepalive failed: %v", err))
		}
		return time.Time{}, fmt.Errorf("keepalive listenKey: %w", err)
	}
	exp := now.Add(s.cfg.KeyTTL)
	s.mu.Lock()
	if s.key == key {
		s.setStatus(func(st *Status) {
			st.LastKeepalive = now
			st.KeyExpires = exp
			st.NextKeepalive = now.Add(s.cfg.Keepalive)
		})
	}
	s.mu.Unlock()
	s.note(NoteKeepalive, "keepalive sent")
	select {
	case s.keyChanged <- struct{}{}: // re-time the loop from now
	default:
	}
	return exp, nil
}

// keepaliveLoop PUTs the current key every Keepalive. A failure is retried
// with backoff, often enough to land before the key could lapse.
func (s *Session) keepaliveLoop(ctx context.Context) {
	failures := 0
	dead := ""              // a key found invalid: wait for the next one
	var gateUntil time.Time // the REST client refuses to send until then (429/418)
	for {
		s.mu.Lock()
		st := s.statusNow()
		key, next, expires := s.key, st.NextKeepalive, st.KeyExpires
		s.mu.Unlock()
		var t clock.Timer
		var wait <-chan time.Time
		if key != "" && key != dead {
			now := s.cfg.Now()
			d := next.Sub(now)
			if failures > 0 {
				d = backoff(failures-1, time.Second, s.cfg.BackoffCap, jitter)
				if left := expires.Sub(now) / 3; left > 0 && left < d {
					d = left // try again before the key could lapse
				}
				d = max(d, 500*time.Millisecond, gateUntil.Sub(now))
			}
			t = s.cfg.Clock.NewTimer(max(d, 0))
			wait = t.C()
		}
		fired := false
		select {
		case <-ctx.Done():
		case <-s.keyChanged:
			failures = 0
		case <-wait:
			fired = true
		}
		if t != nil {
			t.Stop()
		}
		if ctx.Err() != nil {
			return
		}
		if !fired {
			continue
		}
		if _, err := s.keepalive(ctx, key); err != nil {
			if errors.Is(err, rest.ErrInvalidListenKey) {
				failures, dead = 0, key
				continue
			}
			failures++
			var be *rest.BackoffError
			if errors.As(err, &be) {
				gateUntil = be.Until
			}
			continue
		}
		failures = 0
		// keepalive poked keyChanged; drain it so the loop does not spin.
		select {
		case <-s.keyChanged:
		default:
		}
	}
}
