package stream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
)

// The supervisor goroutine owns the connections: it connects, resyncs,
// watches the current connection, rotates it before the 24 h cut,
// replaces a silent one, and reconnects with backoff when one is lost.

// supervise runs until ctx ends, then closes the connection it holds.
func (s *Session) supervise(ctx context.Context) {
	var cur *conn
	attempt := 0
	resyncFails := 0
	var retryResync <-chan time.Time // a failed resync is tried again
	unsynced := false                // cur has no snapshot applied: not live
	var replaceAfter time.Time       // a failed replacement backs off
	replaceFails := 0
	newKey := false // the next connect must use a new listenKey
	check := s.cfg.Clock.NewTicker(s.checkEvery())
	defer check.Stop()
	defer func() {
		if cur != nil {
			cur.close("client shutting down")
		}
	}()
	for ctx.Err() == nil {
		if cur == nil {
			if d := s.waitGate(); d > 0 {
				if !clock.Sleep(s.cfg.Clock, ctx.Done(), d) {
					return
				}
				continue
			}
			c, rerr, err := s.connect(ctx, newKey, "", nil)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				newKey = newKey || refusedKey(err)
				d := backoff(attempt, s.cfg.BackoffBase, s.cfg.BackoffCap, jitter)
				attempt++
				why := fmt.Sprintf("connect failed: %v", err)
				s.noteError(fmt.Sprintf("%s; retrying in %s", why, d.Round(time.Millisecond)))
				s.reconnecting(why, d)
				if !clock.Sleep(s.cfg.Clock, ctx.Done(), d) {
					return
				}
				continue
			}
			// A connect starts every backoff afresh, the replacements'
			// too: a rotation whose old connection ended while it waited
			// (for the turn, the weight) failed nothing of the new one.
			cur, attempt, newKey = c, 0, false
			replaceAfter, replaceFails = time.Time{}, 0
			retryResync, resyncFails, unsynced = nil, 0, rerr != nil
			if unsynced {
				retryResync = s.resyncFailed(rerr, resyncFails)
				resyncFails++
			}
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-cur.done:
			reason := cur.endReason
			if cur.serverClosed {
				// A close frame from the service: the key may be gone
				// (expired, DELETEd) or the connection aged out. Use a
				// new key; retire the old one (DELETE if still valid).
				s.retireKey(ctx, cur.key, true)
				newKey = true
			}
			lost := !cur.serverClosed && cur.silent.Load() == nil // (silence is counted when found)
			cur = nil
			d := backoff(attempt, s.cfg.BackoffBase, s.cfg.BackoffCap, jitter)
			attempt++
			s.reconnecting(reason, d)
			text := fmt.Sprintf("stream %s; reconnecting in %s", reason, d.Round(time.Millisecond))
			if lost {
				s.noteError(text) // a connection lost without a close frame is an error
			} else {
				s.note(NoteConnect, text)
			}
			if !clock.Sleep(s.cfg.Clock, ctx.Done(), d) {
				return
			}
		case key := <-s.keyLost:
			if key != cur.key {
				continue
			}
			s.retireKey(ctx, key, false)
			cur.close("listenKey invalid")
			cur, newKey = nil, true
			s.note(NoteConnect, "listenKey invalid; reconnecting on a new one")
		case reply := <-s.resyncReq:
			err := s.resync(ctx, false, cur.done)
			if err == nil && unsynced {
				retryResync, resyncFails, unsynced = nil, 0, false
				s.goLive()
			}
			reply <- err
		case <-retryResync:
			retryResync = nil
			if err := s.resync(ctx, false, cur.done); err != nil {
				if ctx.Err() != nil {
					return
				}
				retryResync = s.resyncFailed(err, resyncFails)
				resyncFails++
			} else {
				resyncFails, unsynced = 0, false
				s.goLive()
			}
		case <-check.C():
			if s.cfg.Now().Before(replaceAfter) {
				continue
			}
			if why := s.replaceReason(cur); why != "" {
				c, rerr := s.replace(ctx, cur, why)
				if c == nil {
					replaceAfter = s.cfg.Now().Add(backoff(replaceFails, s.cfg.BackoffBase, s.cfg.BackoffCap, jitter))
					replaceFails++
				} else {
					cur, replaceFails = c, 0
					switch {
					case rerr != nil:
						// The new connection has no snapshot of its own.
						unsynced = true
						if retryResync == nil {
							retryResync = s.resyncFailed(rerr, resyncFails)
							resyncFails++
						}
					case unsynced:
						retryResync, resyncFails, unsynced = nil, 0, false
					}
				}
			}
		}
	}
}

// connect gets a key (a new one when asked or when the handshake is
// refused), opens the socket, and resyncs from REST. It goes live only
// when the snapshot was applied: resyncErr is the snapshot's failure when
// the socket is open but the REST snapshots failed (events flow, the
// session is not live; the caller records it and retries the resync).
// replacing is "" for a connect with no connection, else what replace
// is doing ("rotating"): the old connection still folds events, so until
// the new socket opens the status stays live, its reason saying so and
// what the connect waits for. old (nil: never) is closed when that old
// connection ends: a wait for the turn or for request weight then ends
// with an error, rather than show live a connection that is gone (the
// supervisor reconnects).
func (s *Session) connect(ctx context.Context, newKey bool, replacing string, old <-chan struct{}) (c *conn, resyncErr error, err error) {
	as := waitAs{state: StateConnecting}
	if replacing == "" {
		s.setStatus(func(st *Status) { st.State, st.RetryAt = StateConnecting, time.Time{} })
	} else {
		as = waitAs{state: StateLive, doing: replacing}
	}
	// The host's turn (Session.turn) from the key to the snapshots' end:
	// no other session of the host spends the weight waited for below.
	release, err := s.turn(ctx, as, old)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	var key string
	if newKey {
		key, err = s.newKey(ctx)
	} else {
		key, err = s.currentKey(ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	// The frames are held from the socket's open to the snapshot's end:
	// a snapshot paced for want of request weight would hold them (and
	// leave the socket unread) meanwhile. Wait with no socket instead.
	if err := s.waitWeight(ctx, as, old); err != nil {
		return nil, nil, err
	}
	c, err = s.dial(ctx, key)
	if refusedKey(err) {
		// The key is dead: POST a new one and connect at once.
		s.note(NoteConnect, fmt.Sprintf("listenKey refused (%v); creating a new one", err))
		s.retireKey(ctx, key, false)
		if key, err = s.newKey(ctx); err != nil {
			return nil, nil, err
		}
		c, err = s.dial(ctx, key)
	}
	if err != nil {
		return nil, nil, err
	}
	if !s.do(func(w *writer) { w.beginHold() }) {
		c.ws.Close()
		return nil, nil, errors.New("session closing")
	}
	s.startConn(c)
	s.setStatus(func(st *Status) {
		st.State, st.Reason = StateResyncing, ""
		st.ConnectedAt = c.opened
		st.Connects++
	})
	if err := s.resync(ctx, true, nil); err != nil {
		// The socket is open and frames flow; the snapshot failed. Stay
		// connected on events but do not claim live data: the caller
		// says why and retries the resync.
		return c, err, nil
	}
	s.goLive()
	return c, nil, nil
}

// replace opens a new connection on the current key while old still
// runs, and closes old only once the new one is resynced (rotation: no
// event can fall in a gap; duplicates from the overlap are absorbed by
// the ordering rules). It returns nil when the new connection failed (the
// old one's status is put back, unless the old one ended meanwhile), and
// the new one's snapshot failure.
func (s *Session) replace(ctx context.Context, old *conn, why string) (*conn, error) {
	s.note(NoteConnect, "replacing the connection: "+why)
	prev := s.Status()
	doing := "replacing a silent connection"
	if strings.HasPrefix(why, "rotation") {
		doing = "rotating"
	}
	c, rerr, err := s.connect(ctx, false, doing, old.done)
	if err != nil {
		select {
		case <-old.done:
			// The old connection ended while the new one waited: not
			// live, the supervisor reconnects and says why.
			return nil, nil
		default:
		}
		s.noteError(fmt.Sprintf("replace connection: %v", err))
		s.setStatus(func(st *Status) {
			st.State, st.Reason, st.RetryAt, st.NeedsAction = prev.State, prev.Reason, prev.RetryAt, prev.NeedsAction
			st.ConnectedAt = old.opened
		})
		return nil, nil
	}
	old.close("rotated")
	return c, rerr
}

// replaceReason says why the current connection should be replaced now
// (rotation age, or a silence that is suspicious), or "".
func (s *Session) replaceReason(c *conn) string {
	now := s.cfg.Now()
	if age := now.Sub(c.opened); age >= s.cfg.Rotate {
		return fmt.Sprintf("rotation at age %s", age.Round(time.Second))
	}
	last := c.opened
	if ns := s.lastEvent.Load(); ns > 0 && time.Unix(0, ns).After(last) {
		last = time.Unix(0, ns)
	}
	quiet := now.Sub(last)
	switch {
	case quiet >= s.cfg.QuietMax:
		return fmt.Sprintf("no event for %s", quiet.Round(time.Second))
	case quiet >= s.cfg.QuietActive && s.expectActivity(c):
		return fmt.Sprintf("no event for %s while the account is active", quiet.Round(time.Second))
	}
	return ""
}

// expectActivity: orders of ours in flight, or a stream that was busy
// (at least one event a second for busySustained running, see
// noteRate) right up to its silence on c. A burst
// seen on an earlier connection does not count: c replaced the one that
// went quiet after it and resynced, so c's silence is no news.
func (s *Session) expectActivity(c *conn) bool {
	for _, p := range s.hub.Latest().Pending {
		if p.Status != "NOT_PLACED" {
			return true
		}
	}
	busy, last := s.lastBusy.Load(), s.lastEvent.Load()
	return busy > 0 && busy >= last-int64(2*time.Second) && last > c.opened.UnixNano()
}

func (s *Session) checkEvery() time.Duration {
	d := min(s.cfg.Rotate, s.cfg.QuietActive, s.cfg.QuietMax) / 20
	return max(10*time.Millisecond, min(d, time.Second))
}

func (s *Session) reconnecting(reason string, d time.Duration) {
	at := s.cfg.Now().Add(d)
	s.setStatus(func(st *Status) {
		st.State, st.Reason, st.RetryAt = StateReconnecting, reason, at
		st.ConnectedAt = time.Time{}
	})
}

// waitGate says, when the REST client's 429/418 gate holds (one this
// process was given, or one another bhtop process stored for the host),
// that the session waits for it, and returns how long: connecting now
// would only queue the listenKey request behind the gate, or fail on a
// ban. 0 when no gate holds.
func (s *Session) waitGate() time.Duration {
	var be *rest.BackoffError
	if !errors.As(s.cfg.REST.Gate(), &be) {
		return 0
	}
	d := be.Until.Sub(s.cfg.Now())
	if d <= 0 {
		return 0
	}
	d += 50 * time.Millisecond // past the gate's end on any rounding
	why := be.Brief()
	s.setStatus(func(st *Status) {
		st.State, st.Reason, st.RetryAt = StateConnecting, why, s.cfg.Now().Add(d)
		st.ConnectedAt = time.Time{}
	})
	s.note(NoteConnect, "REST requests held: "+why+"; connecting then")
	return d
}
