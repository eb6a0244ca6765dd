package stream

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
)

// A socket can open while the REST snapshot fails: the WebSocket needs
// only the listenKey (USER_STREAM: the API key, no signature), the
// snapshot needs a signed USER_DATA request. Such a session has events but
// no baseline, so it is not live: it stays resyncing with the reason, and
// the supervisor retries the snapshot. Failures that will not fix
// themselves (credentials) are flagged and retried slowly.

// authCodes are the service's answers that only a person can fix, with
// what to say about them.
var authCodes = []struct {
	err  error
	what string
	hint string
}{
	{rest.ErrInvalidSignature, "signature not valid (-1022)", "check BHTOP_SECRET_KEY, --secret-file or the config file: it does not match the API key"},
	{rest.ErrKeyRejected, "API key rejected (-2015)", "check BHTOP_API_KEY and that the key has the USER_DATA permission"},
	{rest.ErrBadKeyFormat, "API key malformed (-2014)", "check BHTOP_API_KEY"},
	{rest.ErrUnauthorized, "API key missing (-1002)", "set BHTOP_API_KEY"},
	{rest.ErrNoCredentials, "no API credentials configured", "set BHTOP_API_KEY and BHTOP_SECRET_KEY"},
}

// resyncFailure is what a failed snapshot means for the session.
type resyncFailure struct {
	reason string    // for Status.Reason and the note: printable, short
	auth   bool      // will not fix itself: credentials or permissions
	until  time.Time // the REST client sends nothing before this (429/418)
}

// classifyResync explains err, a failed resync.
func classifyResync(err error) resyncFailure {
	var f resyncFailure
	var api *rest.APIError
	hasAPI := errors.As(err, &api)
	for _, a := range authCodes {
		if errors.Is(err, a.err) {
			f.auth = true
			f.reason = a.what + ": " + a.hint
			if hasAPI {
				// The key's hints name where it came from.
				f.reason = a.what + ": " + strings.ReplaceAll(a.hint, "BHTOP_API_KEY", api.KeySource())
			}
			if hasAPI && api.Msg != "" {
				f.reason += "; the service said: " + sanitize(api.Msg, serviceTextMax)
			}
			return f
		}
	}
	var b *rest.BackoffError
	if errors.As(err, &b) {
		f.until = b.Until
		f.reason = b.Brief() // in UTC, as every message of the gate
		if b.Cause != nil && b.Cause.Msg != "" {
			f.reason += "; the service said: " + sanitize(b.Cause.Msg, serviceTextMax)
		}
		return f
	}
	f.reason = shortErr(err)
	return f
}

// delay is how long to wait before retry n (0 = the first) of a failed
// resync: slowly for credentials, never before the REST gate opens, else
// with backoff from 1 s.
func (f resyncFailure) delay(n int, now time.Time, cfg *Config) time.Duration {
	d := backoff(n, time.Second, cfg.BackoffCap, jitter)
	if f.auth {
		d = cfg.AuthRetry
	}
	if gate := f.until.Sub(now); gate > 0 {
		d = max(d, gate+50*time.Millisecond)
	}
	return d
}

// resyncFailed records a failed resync on the current connection: the
// session is not live (no snapshot), says why, and when it tries again.
// It returns the timer for the retry.
func (s *Session) resyncFailed(err error, n int) <-chan time.Time {
	f := classifyResync(err)
	now := s.cfg.Now()
	d := f.delay(n, now, &s.cfg)
	reason := "no snapshot: " + f.reason
	s.setStatus(func(st *Status) {
		st.State, st.Reason, st.RetryAt, st.NeedsAction = StateResyncing, reason, now.Add(d), f.auth
	})
	s.noteError(fmt.Sprintf("REST snapshot failed, data not live: %s (retry in %s)", f.reason, d.Round(time.Millisecond)))
	return clock.After(s.cfg.Clock, d)
}

// goLive marks the current connection live: it is open and a snapshot
// was applied. The readers hear of it at once: the snapshot is published
// again now that the status says live, so a dashboard's first live frame
// does not wait for the writer's next tick.
func (s *Session) goLive() {
	s.setStatus(func(st *Status) {
		st.State, st.Reason, st.RetryAt, st.NeedsAction = StateLive, "", time.Time{}, false
	})
	s.note(NoteConnect, "stream live")
	s.markLive()
	s.do(func(w *writer) { w.publish(time.Now()) })
}
