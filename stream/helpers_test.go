package stream

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/clock"
	"bhtop/internal/defaults"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// frames records what the session's journal receives.
type frames struct {
	mu  sync.Mutex
	all [][]byte
}

func (f *frames) Write(frame []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.all = append(f.all, append([]byte(nil), frame...))
	return nil
}

func (f *frames) contains(s string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, fr := range f.all {
		if bytes.Contains(fr, []byte(s)) {
			return true
		}
	}
	return false
}

// syncBuf is the simulator's request log (the test kit's), under the
// names this package's tests use.
type syncBuf struct{ testkit.RequestLog }

// count is how many logged requests have this method and path.
func (b *syncBuf) count(method, path string) int { return b.Count(method, path) }

// eventually polls cond until it holds or d passes (testkit.Within).
func eventually(d time.Duration, cond func() bool) bool { return testkit.Within(d, cond) }

// decEq reports whether two decimal strings are the same number.
func decEq(a, b string) bool { return testkit.DecEqual(a, b) }

// fixture is a running simulator and a live session on it.
type fixture struct {
	t    *testing.T
	srv  *simtest.Sim
	log  *syncBuf
	rest *rest.Client
	s    *Session
	clk  *clock.Fake // the clock of the simulator, the client and the session; nil: real time
	// inflight counts the client's requests under way (fake clock only)
	inflight *testkit.Inflight
}

// advance moves the fake clock by d once no request is under way.
func (f *fixture) advance(d time.Duration) {
	f.t.Helper()
	if !f.inflight.Idle(5 * time.Second) {
		f.t.Fatal("a request still under way after 5s")
	}
	f.clk.Advance(d)
}

// newFixture starts a simulator with opts (market walk off unless set)
// and a session with cfg (REST and WSURL filled in) on real time, and
// waits until live. Throughput tests use it; lifecycle tests take
// newFakeFixture.
func newFixture(t *testing.T, opts sim.Options, cfg Config, trader bool) *fixture {
	t.Helper()
	return startFixture(t, opts, cfg, trader, nil)
}

// newFakeFixture is newFixture with one fake clock for the simulator
// (TTLs, connection age, faults), the REST client (timestamps) and the
// session (keepalive, rotation, backoff, silence, queries): tests move it
// with f.clk.Advance or f.until and never sleep. Pings and the quiet
// limits default to a day, so big steps of the clock do not start
// replacements the test did not ask for.
func newFakeFixture(t *testing.T, opts sim.Options, cfg Config, trader bool) *fixture {
	t.Helper()
	clk := clock.NewFake(time.Now().Truncate(time.Millisecond))
	opts, cfg.Clock = simtest.OnFake(clk, opts), clk
	if opts.RateLimits == (sim.RateLimits{}) {
		// The client paces itself on the fake clock but waits in real
		// time: with the clock still, the default limits would stall it.
		opts.RateLimits = sim.RateLimits{WeightPerMinute: 1 << 30, OrdersPerSecond: 1 << 20, OrdersPerDay: 1 << 30}
	}
	for _, d := range []*time.Duration{&cfg.PingEvery, &cfg.QuietActive, &cfg.QuietMax} {
		if *d == 0 {
			*d = 24 * time.Hour
		}
	}
	return startFixture(t, opts, cfg, trader, clk)
}

// polled gives cfg the publishing of a test that polls Hub().Latest()
// for a change: with no subscriber the writer publishes at most every
// PublishIdle (1s by default), and each look would wait up to that long
// in real time. PublishEvery applies instead unless the test set
// PublishIdle.
func polled(cfg Config) Config {
	defaults.Fill(&cfg.PublishIdle, time.Nanosecond) // (max(PublishIdle, PublishEvery) is the gap)
	return cfg
}

func startFixture(t *testing.T, opts sim.Options, cfg Config, trader bool, clk *clock.Fake) *fixture {
	t.Helper()
	cfg = polled(cfg)
	log := &syncBuf{}
	opts.RequestLog = log
	srv := simtest.Start(t, opts)
	var ro []rest.Option
	inflight := &testkit.Inflight{}
	if clk != nil {
		// One clock on both sides: the offset is measured once, before the
		// test moves the clock (a jump during a /time round trip would
		// skew it), and the clock moves only between requests.
		ro = append(ro, rest.WithClock(clk.Now), rest.WithResyncInterval(100*365*24*time.Hour),
			rest.WithHTTPClient(inflight.Client()))
	}
	c := srv.Client(ro...)
	cfg.REST, cfg.WSURL, cfg.Simulated = c, srv.WSURL(), true
	if trader {
		cfg.Trader = rest.NewTrader(c)
	}
	if clk != nil {
		// The client holds to the simulator's limits, not to the defaults
		// it assumes until brokerInfo tells it: on a clock that stands
		// still, the 21st order of a second would wait for ever.
		if _, err := c.BrokerInfo(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	s, err := New(cfg)
	testkit.Live(t, s, err)
	return &fixture{t: t, srv: srv, log: log, rest: c, s: s, clk: clk, inflight: inflight}
}

// until moves the fake clock by step per poll, between requests, until
// cond holds, failing the test after 5 s of real time with what was
// awaited and, as they are then, the session's status and the listenKey
// requests.
func (f *fixture) until(step time.Duration, cond func() bool, what string) {
	f.t.Helper()
	if !f.inflight.Advancing(f.clk, step, 5*time.Second, cond) {
		f.t.Fatalf("waited for %s; %s", what, f.describe())
	}
}

// live reports whether s has gone live (its first snapshot applied).
func live(s *Session) bool {
	select {
	case <-s.live:
		return true
	default:
		return false
	}
}

// describe is the session's status and the listenKey requests, for a
// failure message.
func (f *fixture) describe() string {
	st := f.s.Status()
	return fmt.Sprintf("state %s (%q), connections %d, keys created %d, errors %d (%q); listenKey POST %d PUT %d DELETE %d",
		st.State, st.Reason, st.Connects, st.KeysCreated, st.Errors, st.LastError,
		f.log.count("POST", userStream), f.log.count("PUT", userStream), f.log.count("DELETE", userStream))
}

// wantTruth waits for the session's state to equal the simulator's REST
// truth: up to within once the stream folds nothing more, and for as long
// as it goes on folding the backlog a busy simulator left (up to 4 times
// within in all: under -race beside other packages' tests, at load 20, a
// session went on folding for more than 30 s after the activity stopped,
// some 50,000 events). It logs the fold's counts, and fails the test
// unless they became equal after a busy stream (at least minEvents
// events) with nothing malformed.
func (f *fixture) wantTruth(t *testing.T, within time.Duration, minEvents int64) {
	t.Helper()
	var diff string
	ok := false
	folded, foldedAt := f.s.Hub().Latest().Stats.Events, time.Now()
	testkit.Within(4*within, func() bool {
		if n := f.s.Hub().Latest().Stats.Events; n != folded {
			folded, foldedAt = n, time.Now()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var err error
		diff, err = truthDiff(ctx, f.rest, f.s.Hub().Latest())
		ok = err == nil && diff == ""
		return ok || time.Since(foldedAt) > within
	})
	snap := f.s.Hub().Latest()
	t.Logf("events %d applied %d stale %d malformed %d; orders retained %d; snapshots %d; reconnects %d",
		snap.Stats.Events, snap.Stats.Applied, snap.Stats.Stale, snap.Stats.Malformed,
		snap.Orders.Len(), snap.Version, f.s.Status().Connects-1)
	if !ok {
		t.Fatalf("state differs from the REST truth (the last event folded %s before):\n%s",
			time.Since(foldedAt).Round(time.Millisecond), diff)
	}
	if snap.Stats.Events < minEvents {
		t.Errorf("events = %d, want a busy stream (>= %d)", snap.Stats.Events, minEvents)
	}
	if snap.Stats.Malformed != 0 {
		t.Errorf("malformed = %d, want 0", snap.Stats.Malformed)
	}
}

// truthDiff compares the session's latest snapshot with the simulator's
// REST truth (account balances by value, spot and contract open orders,
// contract positions) and returns the differences ("" when equal).
func truthDiff(ctx context.Context, c *rest.Client, snap *state.Snapshot) (string, error) {
	var diffs []string
	acct, err := c.Account(ctx)
	if err != nil {
		return "", err
	}
	have := map[string]state.Balance{}
	for _, b := range snap.Balances {
		have[b.Asset] = b
	}
	for _, b := range acct.Balances {
		h, ok := have[b.Asset]
		if !ok || !decEq(h.Free, b.Free) || !decEq(h.Locked, b.Locked) {
			diffs = append(diffs, fmt.Sprintf("balance %s: got %+v, want free %s locked %s", b.Asset, h, b.Free, b.Locked))
		}
	}
	open := map[string]*state.Order{}
	for _, o := range snap.Orders.All() {
		if o.Open() {
			open[o.Market+"/"+o.OrderID] = o
		}
	}
	spot, err := c.OpenOrders(ctx, "", 1000)
	if err != nil {
		return "", err
	}
	ctr, err := c.ContractOpenOrders(ctx, 1000)
	if err != nil {
		return "", err
	}
	want := map[string]rest.OrderRecord{}
	for _, r := range spot {
		want["spot/"+r.OrderID] = r
	}
	for _, r := range ctr {
		want["contract/"+r.OrderID] = r
	}
	for k, r := range want {
		o, ok := open[k]
		switch {
		case !ok:
			diffs = append(diffs, "lost open order "+k)
		case o.Status != r.Status || !decEq(o.ExecutedQty, r.ExecutedQty):
			diffs = append(diffs, fmt.Sprintf("order %s: got %s %s, want %s %s", k, o.Status, o.ExecutedQty, r.Status, r.ExecutedQty))
		}
	}
	for k := range open {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, "phantom open order "+k)
		}
	}
	pos, err := c.ContractPositions(ctx)
	if err != nil {
		return "", err
	}
	hp := map[string]state.Position{}
	for _, p := range snap.Positions {
		hp[p.Symbol+"/"+p.Side] = p
	}
	for _, p := range pos {
		if decEq(p.Position, "0") {
			continue
		}
		h, ok := hp[p.Symbol+"/"+p.Side]
		if !ok || !decEq(h.Total, p.Position) || !decEq(h.AvgPrice, p.AvgPrice) {
			diffs = append(diffs, fmt.Sprintf("position %s/%s: got %+v, want total %s avg %s", p.Symbol, p.Side, h, p.Position, p.AvgPrice))
		}
		delete(hp, p.Symbol+"/"+p.Side)
	}
	for k := range hp {
		diffs = append(diffs, "phantom position "+k)
	}
	sort.Strings(diffs)
	if len(diffs) > 10 {
		diffs = append(diffs[:10], fmt.Sprintf("... %d more", len(diffs)-10))
	}
	out := ""
	for _, d := range diffs {
		out += d + "\n"
	}
	return out, nil
}

// serveWS serves h on 127.0.0.1 until the test ends and returns its
// ws:// URL: a stand-in for the service's socket.
func serveWS(t *testing.T, h http.Handler) string {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return "ws" + strings.TrimPrefix(ts.URL, "http")
}

// wsPeer serves a bare WebSocket peer (serveWS): each connection is
// upgraded and handed to serve.
func wsPeer(t *testing.T, serve func(ws *websocket.Conn)) string {
	t.Helper()
	return serveWS(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		serve(ws)
	}))
}

// startSession starts a session on client c and the simulator's socket,
// on clk, without waiting for it to go live. Pings are daily: the test
// steps the clock faster than a loaded machine may answer them.
func startSession(t *testing.T, c *rest.Client, wsURL string, clk clock.Clock) *Session {
	t.Helper()
	s, err := New(polled(Config{REST: c, WSURL: wsURL, Simulated: true, Clock: clk, PingEvery: 24 * time.Hour}))
	return testkit.Started(t, s, err)
}

// writerOnly is a session on the socket at wsURL (cfg adds to that) with
// only its writer running: no REST behind it (the base URL leads
// nowhere), closed when the test ends.
func writerOnly(t testing.TB, wsURL string, cfg Config) *Session {
	t.Helper()
	cfg.REST, cfg.WSURL = rest.New("http://127.0.0.1:1"), wsURL
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.startOnce.Do(func() { go s.runWriter(s.stopWriter) })
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// connect dials the session's socket (listenKey "k") and starts reading
// it, as a live session does after its snapshot.
func connect(t *testing.T, s *Session) *conn {
	t.Helper()
	c, err := s.dial(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	s.startConn(c)
	return c
}
