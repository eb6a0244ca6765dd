package stream

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"bhtop/event"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

const userStream = "/openapi/v1/userDataStream"

func TestKeepaliveCadence(t *testing.T) {
	t.Parallel()
	// Three keepalive periods of the clock: three PUTs, each re-timing the
	// next one Keepalive later.
	f := newFakeFixture(t, sim.Options{}, Config{}, false)
	for want := 1; want <= 3; want++ {
		f.advance(30 * time.Minute)
		testkit.Eventually(t, 5*time.Second, func() bool { return f.log.count("PUT", userStream) >= want },
			"%d PUTs after %d keepalive periods", want, want)
	}
	if got := f.log.count("PUT", userStream); got != 3 {
		t.Errorf("PUTs in 90m with keepalive 30m = %d, want 3", got)
	}
	st := f.s.Status()
	if st.LastKeepalive.IsZero() || st.NextKeepalive.Sub(st.LastKeepalive) != 30*time.Minute {
		t.Errorf("Status keepalive times = last %v next %v, want 30m apart", st.LastKeepalive, st.NextKeepalive)
	}
	if err := f.s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.log.count("DELETE", userStream); got != 1 {
		t.Errorf("DELETEs after Close = %d, want 1", got)
	}
}

func TestRecoversFromKeyExpiry(t *testing.T) {
	t.Parallel()
	// No keepalive before the key's 60m lapse: the service closes the
	// socket; the session must POST a new key and carry on, twice.
	f := newFakeFixture(t, sim.Options{}, Config{Keepalive: 24 * time.Hour}, true)
	for want := 2; want <= 3; want++ {
		f.advance(61 * time.Minute)
		f.until(100*time.Millisecond, func() bool {
			return f.log.count("POST", userStream) >= want && f.s.Status().State == StateLive
		}, fmt.Sprintf("%d listenKeys (a new key after each expiry) and live", want))
	}
	// Events still flow on the new key: place an order and see its report.
	res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
		Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("PlaceOrder = %+v, want accepted", res)
	}
	testkit.Eventually(t, 2*time.Second, func() bool { return hasOrder(f.s.Hub().Latest(), res.OrderID) },
		"order %s never reached the state after the key was replaced", res.OrderID)
}

func TestRotationLosesNoEvent(t *testing.T) {
	t.Parallel()
	// Rotate every hour while an order is placed every 10 minutes: every
	// order's report must arrive on the socket of its moment, the first
	// ones on each new socket included (the journal sees them all), and
	// the key is reused. (An order placed in the instant the old socket
	// closes may reach only that socket: the new one's resync, begun after
	// it opened, still brings the order into the state.)
	rec := &frames{}
	// (No keepalive falls due: TestKeepaliveCadence has those.)
	f := newFakeFixture(t, sim.Options{ListenKeyTTL: 48 * time.Hour},
		Config{Rotate: time.Hour, Keepalive: 24 * time.Hour, KeyTTL: 48 * time.Hour, Journal: rec}, true)
	for i := 0; i < 40; i++ {
		res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
			Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("PlaceOrder = %+v, want accepted", res)
		}
		testkit.Eventually(t, 2*time.Second, func() bool { return rec.contains(`"c":"` + res.ClientOrderID + `"`) },
			"the report of order %d (%s) on the stream, %d rotations in", i, res.ClientOrderID, rotations(f.s))
		f.advance(10 * time.Minute)
		if i%6 == 5 { // a rotation is due: let it happen before more orders go
			want := (i + 1) / 6
			f.until(time.Minute, func() bool { return rotations(f.s) >= want && lives(f.s) > want },
				fmt.Sprintf("rotation %d done", want))
		}
	}
	if n := rotations(f.s); n < 6 {
		t.Errorf("rotations = %d, want >= 6", n)
	}
	if n := f.log.count("POST", userStream); n != 1 {
		t.Errorf("listenKeys created = %d, want 1 (rotation reuses the key); %s", n, f.describe())
	}
}

// rotations counts the rotation notes so far.
func rotations(s *Session) int { return countNotes(s, "rotation") }

// lives counts the times the session went live (after a snapshot).
func lives(s *Session) int { return countNotes(s, "stream live") }

func countNotes(s *Session, text string) int {
	n := 0
	notes, _ := s.Notes(0)
	for _, note := range notes {
		if strings.Contains(note.Text, text) {
			n++
		}
	}
	return n
}

func TestReconnectsQuicklyAfterDrop(t *testing.T) {
	t.Parallel()
	// Connections are dropped (no close frame) every 10 minutes: the
	// session reconnects on the same key, the first retry within 1s, and
	// counts each drop as an error.
	f := newFakeFixture(t, sim.Options{Faults: sim.Faults{DropEvery: 10 * time.Minute}}, Config{}, false)
	f.until(3*time.Minute, func() bool { return f.s.Status().Connects >= 4 }, "4 connections with a drop every 10m")
	if n := f.log.count("POST", userStream); n != 1 {
		t.Errorf("listenKeys created = %d, want 1 (a drop without close frame retries the same key)", n)
	}
	if st := f.s.Status(); st.Errors < 3 || !strings.Contains(st.LastError, "connection lost") {
		t.Errorf("Errors %d, LastError %q; want >= 3 drops counted, the last said", st.Errors, st.LastError)
	}
	notes, _ := f.s.Notes(0)
	for _, n := range notes {
		_, after, ok := strings.Cut(n.Text, "; reconnecting in ")
		if !ok {
			continue
		}
		if d, err := time.ParseDuration(after); err != nil || d >= time.Second {
			t.Errorf("first retry after a drop: %q, want within 1s", n.Text)
		}
	}
}

func TestBackoff(t *testing.T) {
	base, capD := 500*time.Millisecond, 30*time.Second
	for _, tc := range []struct {
		name   string
		n      int
		r      float64
		lo, hi time.Duration
	}{
		{"first retry, low jitter", 0, 0, 250 * time.Millisecond, 250 * time.Millisecond},
		{"first retry, high jitter", 0, 0.999, 0, time.Second},
		{"third retry", 2, 0.5, time.Second, 2 * time.Second},
		{"capped", 30, 0.999, 15 * time.Second, capD},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := backoff(tc.n, base, capD, func() float64 { return tc.r })
			if got < tc.lo || got > tc.hi {
				t.Errorf("backoff(%d, r=%v) = %v, want in [%v, %v]", tc.n, tc.r, got, tc.lo, tc.hi)
			}
		})
	}
}

func TestUnknownOrderSettles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		takeEffect bool
		wantOrder  bool
	}{
		{"504 but placed", true, true},
		{"504 and not placed", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeFixture(t, sim.Options{Faults: sim.Faults{OrderErrorRate: 1, OrderErrorTakesEffect: tc.takeEffect}},
				Config{}, true)
			res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
				Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
			if res.Outcome != rest.OutcomeUnknown {
				t.Fatalf("PlaceOrder outcome = %s, want unknown", res.Outcome)
			}
			cid := res.ClientOrderID
			f.until(500*time.Millisecond, func() bool { // QueryDelay 2s of the clock
				snap := f.s.Hub().Latest()
				p := pendingOf(snap, cid)
				if tc.wantOrder {
					return p == nil && hasClientOrder(snap, cid)
				}
				return p != nil && p.Status == state.PendingNotPlaced
			}, fmt.Sprintf("pending %s to settle (order placed: %v)", cid, tc.wantOrder))
			if p := pendingOf(f.s.Hub().Latest(), cid); p != nil {
				// What is in flight shows: the row carries the request's terms.
				if p.Side != "BUY" || p.Type != "LIMIT" || p.TimeInForce != "GTC" || p.Quantity != "0.01" || p.Price != "0.01" {
					t.Errorf("pending %+v, want BUY LIMIT GTC 0.01 @ 0.01", *p)
				}
			}
		})
	}
}

func TestReadOnlyCannotTrade(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{}, Config{}, false)
	if f.s.Trader() != nil {
		t.Fatal("Trader() of a read-only session is not nil")
	}
	res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
		Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
	if res.Outcome != rest.OutcomeRejected {
		t.Errorf("read-only PlaceOrder = %s, want rejected", res.Outcome)
	}
	if n := f.log.count("POST", "/openapi/v1/order"); n != 0 {
		t.Errorf("order requests sent by a read-only session = %d, want 0", n)
	}
}

func hasOrder(s *state.Snapshot, id string) bool {
	for _, o := range s.Orders.All() {
		if o.OrderID == id {
			return true
		}
	}
	return false
}

func hasClientOrder(s *state.Snapshot, cid string) bool {
	for _, o := range s.Orders.All() {
		if o.ClientOrderID == cid {
			return true
		}
	}
	return false
}

func pendingOf(s *state.Snapshot, cid string) *state.Pending {
	for i := range s.Pending {
		if s.Pending[i].ClientOrderID == cid {
			return &s.Pending[i]
		}
	}
	return nil
}

func TestResyncOnDemand(t *testing.T) {
	t.Parallel()
	f := newFakeFixture(t, sim.Options{}, Config{}, false)
	before := f.s.Status().LastSnapshot
	f.advance(time.Second)
	if err := f.s.Resync(context.Background()); err != nil {
		t.Fatalf("Resync() = %v, want nil", err)
	}
	if got := f.log.count("GET", "/openapi/v1/account"); got != 2 {
		t.Errorf("account snapshots = %d, want 2 (connect + Resync)", got)
	}
	if !f.s.Status().LastSnapshot.After(before) {
		t.Errorf("LastSnapshot = %v, want after %v", f.s.Status().LastSnapshot, before)
	}
}

func TestSilentSocketReplaced(t *testing.T) {
	t.Parallel()
	// No events at all for QuietMax: the socket is replaced (new one first).
	f := newFakeFixture(t, sim.Options{}, Config{QuietMax: 10 * time.Minute}, false)
	f.until(2*time.Minute, func() bool { return f.s.Status().Connects >= 3 }, "3 connections with QuietMax 10m and no event")
	if n := f.log.count("POST", userStream); n != 1 {
		t.Errorf("listenKeys created = %d, want 1", n)
	}
}

func TestRecoversFromKeyClosedElsewhere(t *testing.T) {
	t.Parallel()
	// Someone DELETEs our key: the service closes the socket with a close
	// frame, and a PUT would say -1125. The session moves to a new key.
	f := newFakeFixture(t, sim.Options{}, Config{}, false)
	f.s.mu.Lock()
	key := f.s.key
	f.s.mu.Unlock()
	if err := f.rest.CloseListenKey(context.Background(), key); err != nil {
		t.Fatal(err)
	}
	f.until(100*time.Millisecond, func() bool {
		st := f.s.Status()
		return st.KeysCreated >= 2 && st.Connects >= 2 && st.State == StateLive
	}, "a new key, a new connection, live after the key was closed elsewhere")
	f.s.mu.Lock()
	now := f.s.key
	f.s.mu.Unlock()
	if now == key || now == "" {
		t.Errorf("current key = %q, want a new one", now)
	}
}

func TestServiceCutAtMaxAge(t *testing.T) {
	t.Parallel()
	// The service cuts the connection at its max age with a close frame:
	// a new key is POSTed, and the old one (still valid) is DELETEd.
	f := newFakeFixture(t, sim.Options{ConnMaxAge: 10 * time.Minute}, Config{}, false)
	f.until(2*time.Minute, func() bool {
		return f.s.Status().Connects >= 3 && f.log.count("DELETE", userStream) >= 2
	}, "3 connections and 2 DELETEs after two cuts at max age")
}

// TestForgottenOrderRemoved: an order open here that the service does
// not list and answers -2013 for (a simulator that restarted, or an
// order the service forgot) is dropped from the open orders, with a
// note naming it (not an error), after one query.
func TestForgottenOrderRemoved(t *testing.T) {
	t.Parallel()
	st := state.NewStore()
	r := event.ExecutionReport{EventTime: 1, Symbol: "ETHBTC", ClientOrderID: "lost1", Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "1", Price: "0.01", Status: "NEW", OrderID: "424242", LastQty: "0", CumQty: "0",
		LastPrice: "0", Commission: "0", Working: true, Created: 1, CumQuote: "0"}
	st.ApplyFrame(event.AppendExecution(nil, &r, event.EncodeOptions{}), nil)
	f := newFakeFixture(t, sim.Options{}, Config{Store: st}, false)
	f.until(100*time.Millisecond, func() bool {
		return f.log.count("GET", "/openapi/v1/order") >= 1 && !hasOrder(f.s.Hub().Latest(), "424242")
	}, "order 424242 (unknown to the service) to be queried and removed")
	notes, _ := f.s.Notes(0)
	var found int
	for _, n := range notes {
		if strings.Contains(n.Text, "424242") {
			found++
			if !strings.Contains(n.Text, "no longer knows") || n.Kind == NoteError {
				t.Errorf("note = %+v, want the service no longer knows it (not an error)", n)
			}
		}
	}
	if found != 1 {
		t.Errorf("notes naming 424242 = %d, want 1: %+v", found, notes)
	}
	if n := f.log.count("GET", "/openapi/v1/order"); n != 1 {
		t.Errorf("order queries = %d, want 1", n)
	}
}

// lateKeyTransport carries requests to the simulator; a listenKey POST
// reaches it at once, but its answer is held (up to 200 ms) until the
// caller gives up: what a slow answer meeting Close looks like.
type lateKeyTransport struct{ sent chan struct{} }

func (lt *lateKeyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, userStream) {
		return http.DefaultTransport.RoundTrip(r)
	}
	resp, err := http.DefaultTransport.RoundTrip(r.WithContext(context.WithoutCancel(r.Context())))
	close(lt.sent)
	select {
	case <-r.Context().Done():
		if resp != nil {
			resp.Body.Close()
		}
		return nil, r.Context().Err()
	case <-time.After(200 * time.Millisecond):
		return resp, err
	}
}

// TestCloseDeletesAKeyCreatedMeanwhile: Close while the first listenKey
// POST is under way still DELETEs the key the service made (it used to
// abandon the answer, and the key with it).
func TestCloseDeletesAKeyCreatedMeanwhile(t *testing.T) {
	t.Parallel()
	log := &syncBuf{}
	srv := simtest.Start(t, sim.Options{RequestLog: log})
	lt := &lateKeyTransport{sent: make(chan struct{})}
	c := srv.Client(rest.WithHTTPClient(&http.Client{Transport: lt}))
	s, err := New(Config{REST: c, WSURL: srv.WSURL(), Simulated: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	testkit.Recv(t, lt.sent, 10*time.Second, "the listenKey request was never sent")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if post, del := log.count("POST", userStream), log.count("DELETE", userStream); post != 1 || del != 1 {
		t.Errorf("listenKey POSTs %d, DELETEs %d; want 1 and 1 (no key left behind)", post, del)
	}
}

// TestReconnectLogLinesHaveTheirKind: every log line about a reconnect
// carries the kind its events-pane note has (connect, or error for a
// connection lost), never keepalive or none; a listenKey found dead says
// it reconnects, beside the keepalive line of the new key.
func TestReconnectLogLinesHaveTheirKind(t *testing.T) {
	t.Parallel()
	logged := &syncBuf{}
	f := newFakeFixture(t, sim.Options{Faults: sim.Faults{DropEvery: 90 * time.Minute}},
		Config{Logger: slog.New(slog.NewTextHandler(logged, nil))}, false)
	f.advance(61 * time.Minute) // no keepalive sent: the key lapses
	f.until(100*time.Millisecond, func() bool {
		return f.log.count("POST", userStream) >= 2 && f.s.Status().State == StateLive
	}, "a new key after the lapse, live")
	// DropEvery later the connection is dropped without a close frame
	// (steps of 10m: the keepalive, every 30m, keeps the key meanwhile).
	f.until(10*time.Minute, func() bool { return f.s.Status().Connects >= 3 && f.s.Status().State == StateLive }, "reconnected after the drop")
	var reconnects []string
	for _, line := range strings.Split(logged.Raw(), "\n") {
		if strings.Contains(line, "reconnect") {
			reconnects = append(reconnects, line)
			if !strings.Contains(line, "kind=connect") && !strings.Contains(line, "kind=error") {
				t.Errorf("reconnect log line without kind=connect or kind=error: %s", line)
			}
		}
	}
	if len(reconnects) < 2 {
		t.Errorf("log lines about reconnecting: %q; want one for the dead key and one for the drop:\n%s", reconnects, logged.Raw())
	}
}
