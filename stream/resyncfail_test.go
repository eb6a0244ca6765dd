package stream

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

// startSession starts a session on client c and the simulator's socket.
func startSession(t *testing.T, c *rest.Client, wsURL string, cfg Config) *Session {
	t.Helper()
	cfg.REST, cfg.WSURL, cfg.Simulated = c, wsURL, true
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// TestNotLiveWhenCredentialsFail: the socket opens on the API key alone
// (USER_STREAM), but the signed snapshot is refused. The session must not
// claim live data: it stays resyncing with the service's reason, flagged
// as needing action, and retries slowly.
func TestNotLiveWhenCredentialsFail(t *testing.T) {
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
			reqs := &syncBuf{}
			srv := sim.New(sim.Options{Keys: []sim.Key{tt.key}, MarketInterval: -1, RequestLog: reqs})
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = srv.Close() })
			c := rest.New(srv.URL(), rest.WithAPIKey(apiKey), rest.WithSecret(tt.secret))
			s := startSession(t, c, srv.WSURL(), Config{AuthRetry: 400 * time.Millisecond})

			if !eventually(3*time.Second, func() bool { return s.Status().Connects >= 1 && s.Status().Reason != "" }) {
				t.Fatalf("Status = %+v, want an open connection with a reason", s.Status())
			}
			time.Sleep(1100 * time.Millisecond) // a few slow retries
			st := s.Status()
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
			if d := time.Until(st.RetryAt); d <= 0 || d > 400*time.Millisecond {
				t.Errorf("RetryAt in %s, want within AuthRetry 400ms", d)
			}
			// One attempt on connect, then one every 400ms: 3 or 4 in 1.1s+.
			if n := reqs.count("GET", "/openapi/v1/account"); n < 2 || n > 5 {
				t.Errorf("GET account requests = %d, want 2..5 (retried slowly)", n)
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
	*httptest.Server
	fail      atomic.Bool
	tooMany   atomic.Bool // answer the next account request 429 Retry-After: 1
	mu        sync.Mutex
	accountAt []time.Time // forwarded account requests
	limitedAt time.Time
}

func newFailingProxy(t *testing.T, target string) *failingProxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &failingProxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ErrorLog = log.New(io.Discard, "", 0)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/openapi/v1/account" {
			switch {
			case p.tooMany.CompareAndSwap(true, false):
				p.mu.Lock()
				p.limitedAt = time.Now()
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
			p.accountAt = append(p.accountAt, time.Now())
			p.mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// TestGoesLiveOnceSnapshotApplied: a transient snapshot failure keeps the
// session resyncing (not flagged as needing action) and it goes live by
// itself once a retry succeeds; a 429 is honoured (no request before its
// Retry-After).
func TestGoesLiveOnceSnapshotApplied(t *testing.T) {
	tests := []struct {
		name  string
		setup func(p *failingProxy)
		fix   func(p *failingProxy)
		want  string
	}{
		{"service error", func(p *failingProxy) { p.fail.Store(true) }, func(p *failingProxy) { p.fail.Store(false) }, "HTTP 503"},
		{"rate limited", func(p *failingProxy) { p.tooMany.Store(true) }, func(p *failingProxy) {}, "rate limited until"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := sim.New(sim.Options{MarketInterval: -1})
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = srv.Close() })
			p := newFailingProxy(t, srv.URL())
			tt.setup(p)
			c := rest.New(p.URL, rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret()))
			s := startSession(t, c, srv.WSURL(), Config{})
			if !eventually(3*time.Second, func() bool { return s.Status().Reason != "" }) {
				t.Fatalf("Status = %+v, want a reason for the missing snapshot", s.Status())
			}
			st := s.Status()
			if st.State != StateResyncing || st.NeedsAction || !strings.Contains(st.Reason, tt.want) {
				t.Errorf("Status = state %s, needsAction %v, reason %q; want resyncing, false, containing %q",
					st.State, st.NeedsAction, st.Reason, tt.want)
			}
			tt.fix(p)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.WaitLive(ctx); err != nil {
				t.Fatalf("WaitLive = %v, want live once the snapshot succeeds; status %+v", err, s.Status())
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
