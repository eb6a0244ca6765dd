package stream

import (
	"context"
	"strings"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

const userStream = "/openapi/v1/userDataStream"

func TestKeepaliveCadence(t *testing.T) {
	f := newFixture(t, sim.Options{}, Config{Keepalive: 250 * time.Millisecond}, false)
	time.Sleep(1100 * time.Millisecond)
	got := f.log.count("PUT", userStream)
	if got < 3 || got > 5 {
		t.Errorf("PUTs in 1.1s with keepalive 250ms = %d, want 3..5", got)
	}
	st := f.s.Status()
	if st.LastKeepalive.IsZero() || st.NextKeepalive.Sub(st.LastKeepalive) != 250*time.Millisecond {
		t.Errorf("Status keepalive times = last %v next %v, want 250ms apart", st.LastKeepalive, st.NextKeepalive)
	}
	if err := f.s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.log.count("DELETE", userStream); got != 1 {
		t.Errorf("DELETEs after Close = %d, want 1", got)
	}
}

func TestRecoversFromKeyExpiry(t *testing.T) {
	// The key lapses after 600ms (no keepalive in time): the service closes
	// the socket; the session must POST a new key and carry on.
	f := newFixture(t, sim.Options{ListenKeyTTL: 600 * time.Millisecond},
		Config{Keepalive: time.Hour, KeyTTL: 600 * time.Millisecond}, true)
	if !eventually(3*time.Second, func() bool { return f.log.count("POST", userStream) >= 3 }) {
		t.Fatalf("POSTs of listenKey = %d, want >= 3 (a new key after each expiry)", f.log.count("POST", userStream))
	}
	if !eventually(2*time.Second, func() bool { return f.s.Status().State == StateLive }) {
		t.Fatalf("state = %s, want live", f.s.Status().State)
	}
	// Events still flow on the new key: place an order and see its report.
	res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
		Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("PlaceOrder = %+v, want accepted", res)
	}
	if !eventually(2*time.Second, func() bool { return hasOrder(f.s.Hub().Latest(), res.OrderID) }) {
		t.Errorf("order %s never reached the state after the key was replaced", res.OrderID)
	}
}

func TestRotationLosesNoEvent(t *testing.T) {
	// Rotate every 300ms while orders are placed every 30ms: every order's
	// report must arrive on some socket (the journal sees them all), so no
	// event fell between two connections.
	rec := &frames{}
	f := newFixture(t, sim.Options{}, Config{Rotate: 300 * time.Millisecond, Journal: rec}, true)
	var ids []string
	for i := 0; i < 40; i++ {
		res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
			Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("PlaceOrder = %+v, want accepted", res)
		}
		ids = append(ids, res.ClientOrderID)
		time.Sleep(30 * time.Millisecond)
	}
	rotations := 0
	notes, _ := f.s.Notes(0)
	for _, n := range notes {
		if strings.Contains(n.Text, "rotation") {
			rotations++
		}
	}
	if rotations < 2 {
		t.Fatalf("rotations = %d, want >= 2", rotations)
	}
	time.Sleep(200 * time.Millisecond)
	for _, id := range ids {
		if !rec.contains(`"c":"` + id + `"`) {
			t.Errorf("report of order %s never arrived on the stream", id)
		}
	}
	if n := f.log.count("POST", userStream); n != 1 {
		t.Errorf("listenKeys created = %d, want 1 (rotation reuses the key)", n)
	}
}

func TestReconnectsQuicklyAfterDrop(t *testing.T) {
	// Connections are dropped (no close frame) every 400ms: the session
	// reconnects on the same key, the first retry within 1s.
	f := newFixture(t, sim.Options{Faults: sim.Faults{DropEvery: 400 * time.Millisecond}}, Config{}, false)
	if !eventually(4*time.Second, func() bool { return f.s.Status().Connects >= 4 }) {
		t.Fatalf("connections live in 4s with a drop every 400ms = %d, want >= 4", f.s.Status().Connects)
	}
	if n := f.log.count("POST", userStream); n != 1 {
		t.Errorf("listenKeys created = %d, want 1 (a drop without close frame retries the same key)", n)
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
	for _, tc := range []struct {
		name       string
		takeEffect bool
		wantOrder  bool
	}{
		{"504 but placed", true, true},
		{"504 and not placed", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, sim.Options{Faults: sim.Faults{OrderErrorRate: 1, OrderErrorTakesEffect: tc.takeEffect}},
				Config{QueryDelay: 100 * time.Millisecond}, true)
			res := f.s.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY",
				Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "0.01"})
			if res.Outcome != rest.OutcomeUnknown {
				t.Fatalf("PlaceOrder outcome = %s, want unknown", res.Outcome)
			}
			cid := res.ClientOrderID
			if !eventually(3*time.Second, func() bool {
				snap := f.s.Hub().Latest()
				p := pendingOf(snap, cid)
				if tc.wantOrder {
					return p == nil && hasClientOrder(snap, cid)
				}
				return p != nil && p.Status == state.PendingNotPlaced
			}) {
				t.Errorf("pending %s = %+v, want settled (order placed: %v)", cid, pendingOf(f.s.Hub().Latest(), cid), tc.wantOrder)
			}
		})
	}
}

func TestReadOnlyCannotTrade(t *testing.T) {
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
	for _, o := range s.Orders {
		if o.OrderID == id {
			return true
		}
	}
	return false
}

func hasClientOrder(s *state.Snapshot, cid string) bool {
	for _, o := range s.Orders {
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
	f := newFixture(t, sim.Options{}, Config{}, false)
	before := f.s.Status().LastSnapshot
	time.Sleep(10 * time.Millisecond)
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
	// No events at all for QuietMax: the socket is replaced (new one first).
	f := newFixture(t, sim.Options{}, Config{QuietMax: 400 * time.Millisecond}, false)
	if !eventually(2*time.Second, func() bool { return f.s.Status().Connects >= 3 }) {
		t.Fatalf("connections after 2s of silence with QuietMax 400ms = %d, want >= 3", f.s.Status().Connects)
	}
	if n := f.log.count("POST", userStream); n != 1 {
		t.Errorf("listenKeys created = %d, want 1", n)
	}
}

func TestRecoversFromKeyClosedElsewhere(t *testing.T) {
	// Someone DELETEs our key: the service closes the socket with a close
	// frame, and a PUT would say -1125. The session moves to a new key.
	f := newFixture(t, sim.Options{}, Config{Keepalive: 200 * time.Millisecond}, false)
	f.s.mu.Lock()
	key := f.s.key
	f.s.mu.Unlock()
	if err := f.rest.CloseListenKey(context.Background(), key); err != nil {
		t.Fatal(err)
	}
	if !eventually(3*time.Second, func() bool {
		st := f.s.Status()
		return st.KeysCreated >= 2 && st.Connects >= 2 && st.State == StateLive
	}) {
		st := f.s.Status()
		t.Fatalf("after the key was closed: keys %d, connections %d, state %s; want a new key, a new connection, live",
			st.KeysCreated, st.Connects, st.State)
	}
	f.s.mu.Lock()
	now := f.s.key
	f.s.mu.Unlock()
	if now == key || now == "" {
		t.Errorf("current key = %q, want a new one", now)
	}
}

func TestServiceCutAtMaxAge(t *testing.T) {
	// The service cuts the connection at its max age with a close frame:
	// a new key is POSTed, and the old one (still valid) is DELETEd.
	f := newFixture(t, sim.Options{ConnMaxAge: 400 * time.Millisecond}, Config{}, false)
	if !eventually(3*time.Second, func() bool {
		return f.s.Status().Connects >= 3 && f.log.count("DELETE", userStream) >= 2
	}) {
		t.Fatalf("after two cuts: connections %d, keys created %d, DELETEs %d; want >= 3, >= 3, >= 2",
			f.s.Status().Connects, f.log.count("POST", userStream), f.log.count("DELETE", userStream))
	}
}
