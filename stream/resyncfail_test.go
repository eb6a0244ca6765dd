package stream

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

// TestNotLiveWhenCredentialsFail: the socket opens on the API key alone
// (USER_STREAM), but the signed snapshot is refused. The session must not
// claim live data: it stays resyncing with the service's reason, flagged
// as needing action, and retries slowly.
func TestNotLiveWhenCredentialsFail(t *testing.T) {
	t.Parallel()
	const apiKey = "testKey123"
	right := signer.NewSecret("the-right-secret")
	tests := []struct {
		name   string
		key    sim.Key
		secret signer.Secret
		want   string
	}{
		{"wrong secret", sim.Key{APIKey: apiKey, Secret: right}, signer.NewSecret("a-wrong-secret"),
			"signature not valid (-1022): check BHTOP_SECRET_KEY"},
		{"no USER_DATA permission", sim.Key{APIKey: apiKey, Secret: right, Perms: []string{"USER_STREAM", "MARKET_DATA"}}, right,
			"API key rejected (-2015)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, clk := simtest.StartOnClock(t, sim.Options{Keys: []sim.Key{tt.key}})
			inflight := &testkit.Inflight{}
			c := rest.New(srv.URL(), rest.WithAPIKey(apiKey), rest.WithSecret(tt.secret), rest.WithClock(clk.Now),
				rest.WithHTTPClient(inflight.Client()))
			s := startSession(t, c, srv.WSURL(), clk) // AuthRetry: 30s

			testkit.Eventually(t, 3*time.Second, func() bool { return s.Status().Connects >= 1 && s.Status().Reason != "" },
				"an open connection with a reason")
			// The first attempt, then one every 30s of the clock: the fourth
			// comes 90s later, not sooner. The clock stops at each moment a
			// retry's timer is due (in steps of 10s that fired its timer
			// late, a retry every 21s passed) and moves only between
			// requests, so each retry is timed from its failure's moment.
			began := clk.Now()
			if !inflight.Advancing(clk, time.Second, 5*time.Second, func() bool { return srv.Log.Count("GET", "/openapi/v1/account") >= 4 }) {
				t.Fatalf("GET account requests = %d in %s, want 4 (retried every 30s)", srv.Log.Count("GET", "/openapi/v1/account"), clk.Now().Sub(began))
			}
			if el := clk.Now().Sub(began); el < 90*time.Second {
				t.Errorf("4 snapshot attempts within %s, want AuthRetry 30s between them", el)
			}
			// The fourth failure is recorded a moment after its request.
			var st Status
			testkit.Within(2*time.Second, func() bool { st = s.Status(); return st.RetryAt.After(clk.Now()) })
			if st.State == StateLive {
				t.Errorf("State = %s, want not live (no snapshot was applied)", st.State)
			}
			if st.State != StateResyncing || !st.NeedsAction || !strings.Contains(st.Reason, tt.want) {
				t.Errorf("Status = state %s, needsAction %v, reason %q; want resyncing, true, containing %q",
					st.State, st.NeedsAction, st.Reason, tt.want)
			}
			if !st.LastSnapshot.IsZero() || !strings.Contains(st.LastError, tt.want) {
				t.Errorf("LastSnapshot %v, LastError %q; want zero and containing %q", st.LastSnapshot, st.LastError, tt.want)
			}
			if d := st.RetryAt.Sub(clk.Now()); d <= 0 || d > 30*time.Second {
				t.Errorf("RetryAt in %s, want within AuthRetry 30s", d)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			if err := s.WaitLive(ctx); err == nil {
				t.Errorf("WaitLive = nil, want an error: the session never had a snapshot")
			}
			notes, _ := s.Notes(0)
			for _, n := range notes {
				if n.Text == "stream live" {
					t.Errorf("note %q, want none: the session was never live", n.Text)
				}
			}
		})
	}
}

// failingProxy forwards to the simulator but answers GET account itself
// while fail is set: with a 503, or a 429 with Retry-After once.
type failingProxy struct {
	URL       string // the proxy's base URL
	now       func() time.Time
	fail      atomic.Bool
	tooMany   atomic.Bool // answer the next account request 429 Retry-After: 1
	mu        sync.Mutex
	accountAt []time.Time // forwarded account requests
	limitedAt time.Time
}

func newFailingProxy(t *testing.T, target string, now func() time.Time) *failingProxy {
	p := &failingProxy{now: now}
	p.URL = testkit.Front(t, target, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path == "/openapi/v1/account" {
			switch {
			case p.tooMany.CompareAndSwap(true, false):
				p.mu.Lock()
				p.limitedAt = p.now()
				p.mu.Unlock()
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"code":-1003,"msg":"Too many requests."}`))
				return
			case p.fail.Load():
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = w.Write([]byte(`{"code":-1001,"msg":"Internal error; unable to process your request."}`))
				return
			}
			p.mu.Lock()
			p.accountAt = append(p.accountAt, p.now())
			p.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
	return p
}

// TestGoesLiveOnceSnapshotApplied: a transient snapshot failure keeps the
// session resyncing (not flagged as needing action) and it goes live by
// itself once a retry succeeds; a 429 is honoured (no request before its
// Retry-After).
func TestGoesLiveOnceSnapshotApplied(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(p *failingProxy)
		fix   func(p *failingProxy)
		want  string
	}{
		{"service error", func(p *failingProxy) { p.fail.Store(true) }, func(p *failingProxy) { p.fail.Store(false) }, "HTTP 503"},
		{"rate limited", func(p *failingProxy) { p.tooMany.Store(true) }, func(p *failingProxy) {}, "rate limited by the service until"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, clk := simtest.StartOnClock(t, sim.Options{})
			p := newFailingProxy(t, srv.URL(), clk.Now)
			tt.setup(p)
			c := rest.New(p.URL, rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret()), rest.WithClock(clk.Now))
			s := startSession(t, c, srv.WSURL(), clk)
			testkit.Eventually(t, 3*time.Second, func() bool { return s.Status().Reason != "" },
				"a reason for the missing snapshot")
			st := s.Status()
			if st.State != StateResyncing || st.NeedsAction || !strings.Contains(st.Reason, tt.want) {
				t.Errorf("Status = state %s, needsAction %v, reason %q; want resyncing, false, containing %q",
					st.State, st.NeedsAction, st.Reason, tt.want)
			}
			tt.fix(p)
			if !testkit.Advancing(clk, 100*time.Millisecond, 5*time.Second, func() bool { return live(s) }) {
				t.Fatalf("not live once the snapshot succeeds; status %+v", s.Status())
			}
			st = s.Status()
			if st.State != StateLive || st.Reason != "" || st.LastSnapshot.IsZero() {
				t.Errorf("Status = state %s, reason %q, last snapshot %v; want live, \"\", set", st.State, st.Reason, st.LastSnapshot)
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			if !p.limitedAt.IsZero() && len(p.accountAt) > 0 {
				if gap := p.accountAt[0].Sub(p.limitedAt); gap < 950*time.Millisecond {
					t.Errorf("account asked again %s after a 429 with Retry-After 1s, want >= 1s", gap)
				}
			}
		})
	}
}

// TestResyncRateLimitedIsNoBan: the service's weight is spent by another
// client of the same key (which this session's governor cannot know), so
// the resync's first snapshot is answered 429. The service bans (418) a
// client that sends again while told to wait (SPEC.md): the resync must
// stop at the 429, not have its other snapshots arrive during the wait.
func TestResyncRateLimitedIsNoBan(t *testing.T) {
	t.Parallel()
	for round := range 5 { // (a race: five tries)
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			t.Parallel()
			srv, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 6}})
			srv.SpendWeight(t, clk.Now, 5) // another client of the key: 5 of 6
			c := srv.Client(rest.WithClock(clk.Now))
			s := startSession(t, c, srv.WSURL(), clk) // the listenKey: 6 of 6
			testkit.Eventually(t, 5*time.Second, func() bool { return srv.Log.Count("GET", "/openapi/v1/account") >= 2 },
				"the resync's account request")
			testkit.Eventually(t, 5*time.Second, func() bool { return s.Status().State == StateResyncing && s.Status().Reason != "" },
				"the resync failed")
			time.Sleep(50 * time.Millisecond) // (requests still under way arrive)
			if n := srv.Log.Banned(); n > 0 || !c.BannedUntil().IsZero() {
				t.Fatalf("%d requests answered 418 (banned until %v) after the resync's 429:\n%s",
					n, c.BannedUntil(), srv.Log.Raw())
			}
			// The minute's weight is spent and the clock stands still: the
			// key's DELETE at Close would wait, in real time, for what is left
			// of the clock's minute (5 s in a test started at hh:mm:55).
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			_ = s.Close(ctx)
			cancel()
		})
	}
}

// TestResyncGateReasonInUTC: the reason of a snapshot held by a 429 or
// 418 gives the gate's end in UTC, saying so, as every other message of
// the gate does (README 'gates'), whatever the local time zone.
func TestResyncGateReasonInUTC(t *testing.T) {
	t.Parallel()
	until := time.Date(2026, 11, 24, 14, 2, 11, 0, time.FixedZone("EST", -5*3600)) // 19:02:11 UTC
	for _, tt := range []struct {
		err  error
		want string
	}{
		{&rest.BackoffError{Err: rest.ErrRateLimited, Until: until}, "rate limited by the service until 19:02:11 UTC"},
		{&rest.BackoffError{Err: rest.ErrBanned, Until: until}, "banned by the service (HTTP 418) until 19:02:11 UTC"},
	} {
		if got := classifyResync(tt.err).reason; !strings.HasPrefix(got, tt.want) {
			t.Errorf("reason = %q, want it to start %q", got, tt.want)
		}
	}
}

// TestResyncWhileGatedAnswersAtOnce: a resync asked for (the dashboard's
// r) while a 429/418 gate holds the host's requests answers at once with
// the gate, without holding the stream's frames behind requests that
// could not be sent before it ends (they froze the panes, silently, for
// as long as the caller waited).
func TestResyncWhileGatedAnswersAtOnce(t *testing.T) {
	t.Parallel()
	srv, clk := simtest.StartOnClock(t, sim.Options{})
	host := rest.NewHostLimits()
	c := rest.New(srv.URL(), rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret()),
		rest.WithClock(clk.Now), rest.WithSharedLimits(host))
	s := startSession(t, c, srv.WSURL(), clk)
	if !testkit.Advancing(clk, 100*time.Millisecond, 5*time.Second, func() bool { return live(s) }) {
		t.Fatal("session never went live")
	}
	host.Hold(clk.Now().Add(time.Minute), time.Time{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.Resync(ctx)
	var be *rest.BackoffError
	if !errors.As(err, &be) {
		t.Fatalf("Resync while gated = %v, want the gate's *rest.BackoffError at once", err)
	}
	if !strings.Contains(err.Error(), "UTC") {
		t.Errorf("Resync error %q does not say when the gate ends", err)
	}
	// The order form's loads fail naming their request once: the form
	// says "could not load symbols: " before it ("… load symbols: load
	// symbols: GET …" was shown).
	for name, load := range map[string]func() error{
		"Symbols":   func() error { _, err := s.Symbols(ctx); return err },
		"Contracts": func() error { _, err := s.Contracts(ctx); return err },
	} {
		if err := load(); err == nil || !strings.HasPrefix(err.Error(), "GET /openapi/v1/brokerInfo: ") {
			t.Errorf("%s while gated = %v, want the request's error, starting with its route", name, err)
		}
	}
}
