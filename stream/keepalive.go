package stream

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
)

// keyring is the session's listenKey lifecycle: creation, keepalive,
// retirement, and the DELETE of every key this process created when it
// exits. It shares the session's lock (mu), which also guards closing,
// and reports through the session's reporter.
type keyring struct {
	rest *rest.Client
	cfg  *Config
	rep  *reporter
	mu   *sync.Mutex // the session's

	key        string          // the current listenKey
	created    map[string]bool // keys created and not yet deleted
	keyLost    chan string     // a key the keepalive found dead
	keyChanged chan struct{}   // wakes the keepalive loop
}

func newKeyring(c *rest.Client, cfg *Config, rep *reporter, mu *sync.Mutex) keyring {
	return keyring{rest: c, cfg: cfg, rep: rep, mu: mu, created: map[string]bool{},
		keyLost: make(chan string, 1), keyChanged: make(chan struct{}, 1)}
}

// currentKey returns the listenKey in use, creating one when there is none.
func (k *keyring) currentKey(ctx context.Context) (string, error) {
	k.mu.Lock()
	key := k.key
	k.mu.Unlock()
	if key != "" {
		return key, nil
	}
	return k.newKey(ctx)
}

// newKey POSTs a new listenKey and makes it current. The POST is not
// abandoned when ctx ends (Close): the service may already have made the
// key, and only a key whose answer was read can be DELETEd on exit. It is
// bounded like a DELETE instead.
func (k *keyring) newKey(ctx context.Context) (string, error) {
	// The clock is measured first, under ctx: until the POST leaves no
	// key can exist, so Close need not wait for a slow /time.
	k.rest.MeasureClock(ctx)
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("create listenKey: not sent: %w", err)
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	key, err := k.rest.CreateListenKey(cctx)
	if err != nil {
		return "", fmt.Errorf("create listenKey: %w", err)
	}
	now := k.cfg.Now()
	k.mu.Lock()
	k.key = key
	k.created[key] = true
	k.rep.setStatus(func(st *Status) {
		st.KeyCreated = now
		st.KeysCreated++
		st.KeyExpires = now.Add(k.cfg.KeyTTL)
		st.LastKeepalive = time.Time{}
		st.NextKeepalive = now.Add(k.cfg.Keepalive)
	})
	k.mu.Unlock()
	k.rep.note(NoteKeepalive, "new listenKey created")
	select {
	case k.keyChanged <- struct{}{}:
	default:
	}
	return key, nil
}

// retireKey stops using key (dead or replaced). When it may still be
// valid it is DELETEd, best effort.
func (k *keyring) retireKey(ctx context.Context, key string, stillValid bool) {
	k.mu.Lock()
	if k.key == key {
		k.key = ""
	}
	k.mu.Unlock()
	if !stillValid {
		k.mu.Lock()
		delete(k.created, key)
		k.mu.Unlock()
		return
	}
	k.deleteKey(ctx, key)
}

func (k *keyring) deleteKey(ctx context.Context, key string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	err := k.rest.CloseListenKey(ctx, key)
	if err == nil || errors.Is(err, rest.ErrInvalidListenKey) {
		k.mu.Lock()
		delete(k.created, key)
		k.mu.Unlock()
		return nil
	}
	return closeKeyError(err)
}

// closeKeyError words a DELETE of a listenKey that failed. Held back by
// the client-side limit or a 429/418 gate, it was not sent (or refused
// with a 429): nothing retries it at exit, and the key expires on its own
// within its 60 minutes (SPEC.md), so it says so rather than "retry after".
func closeKeyError(err error) error {
	var be *rest.BackoffError
	if errors.As(err, &be) {
		what := "not sent"
		if be.Cause != nil {
			what = "refused"
		}
		return fmt.Errorf("close listenKey: %s (%s); the key expires on its own within 60 minutes: %w", what, be.Brief(), errNotRetried{err})
	}
	return fmt.Errorf("close listenKey: %w", err)
}

// errNotRetried keeps the cause for errors.Is/As without its text (its
// "retry after" would promise a retry nothing makes).
type errNotRetried struct{ err error }

func (e errNotRetried) Error() string { return "not retried" }
func (e errNotRetried) Unwrap() error { return e.err }

// deleteAllKeys DELETEs every key created and not yet deleted.
func (k *keyring) deleteAllKeys(ctx context.Context) error {
	k.mu.Lock()
	keys := slices.Collect(maps.Keys(k.created))
	k.key = ""
	k.mu.Unlock()
	var errs []error
	for _, key := range keys {
		if err := k.deleteKey(ctx, key); err != nil {
			errs = append(errs, err)
		}
	}
	if len(keys) > 0 && len(errs) == 0 {
		k.rep.note(NoteKeepalive, "listenKey closed")
	}
	return errors.Join(errs...)
}

func (k *keyring) keepalive(ctx context.Context, key string) (time.Time, error) {
	err := k.rest.KeepAliveListenKey(ctx, key)
	now := k.cfg.Now()
	if err != nil {
		if errors.Is(err, rest.ErrInvalidListenKey) {
			k.rep.noteError("keepalive: listenKey no longer valid; moving to a new one")
			select {
			case k.keyLost <- key:
			default:
			}
		} else {
			k.rep.noteError(fmt.Sprintf("keepalive failed: %v", err))
		}
		return time.Time{}, fmt.Errorf("keepalive listenKey: %w", err)
	}
	exp := now.Add(k.cfg.KeyTTL)
	k.mu.Lock()
	if k.key == key {
		k.rep.setStatus(func(st *Status) {
			st.LastKeepalive = now
			st.KeyExpires = exp
			st.NextKeepalive = now.Add(k.cfg.Keepalive)
		})
	}
	k.mu.Unlock()
	k.rep.note(NoteKeepalive, "keepalive sent")
	select {
	case k.keyChanged <- struct{}{}: // re-time the loop from now
	default:
	}
	return exp, nil
}

// keepaliveLoop PUTs the current key every Keepalive. A failure is retried
// with backoff, often enough to land before the key could lapse.
func (k *keyring) keepaliveLoop(ctx context.Context) {
	failures := 0
	dead := ""              // a key found invalid: wait for the next one
	var gateUntil time.Time // the REST client refuses to send until then (429/418)
	for {
		k.mu.Lock()
		st := k.rep.statusNow()
		key, next, expires := k.key, st.NextKeepalive, st.KeyExpires
		k.mu.Unlock()
		var t clock.Timer
		var wait <-chan time.Time
		if key != "" && key != dead {
			now := k.cfg.Now()
			d := next.Sub(now)
			if failures > 0 {
				d = backoff(failures-1, time.Second, k.cfg.BackoffCap, jitter)
				if left := expires.Sub(now) / 3; left > 0 && left < d {
					d = left // try again before the key could lapse
				}
				d = max(d, 500*time.Millisecond, gateUntil.Sub(now))
			}
			t = k.cfg.Clock.NewTimer(max(d, 0))
			wait = t.C()
		}
		fired := false
		select {
		case <-ctx.Done():
		case <-k.keyChanged:
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
		if _, err := k.keepalive(ctx, key); err != nil {
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
		case <-k.keyChanged:
		default:
		}
	}
}

// Keepalive sends PUT /openapi/v1/userDataStream now and returns the
// key's new expiry as assumed from Config.KeyTTL (the service's answer
// gives none, and the simulator's TTL may differ). A -1125 answer makes
// the session move to a new key.
func (s *Session) Keepalive(ctx context.Context) (time.Time, error) {
	s.mu.Lock()
	key := s.key
	s.mu.Unlock()
	if key == "" {
		return time.Time{}, errors.New("keepalive: no listenKey yet")
	}
	return s.keyring.keepalive(ctx, key)
}
