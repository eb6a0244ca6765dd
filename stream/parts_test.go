package stream

// Each part of a session alone, on a Config of its own (partsFor): the
// reporter, and against the simulator the keyring, the reconciler and the
// snapshotter.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// partsFor is a Config for a session part tested alone (the REST client
// c, a fake clock, ws unused, cfg's other fields) and a reporter on it.
func partsFor(c *rest.Client, cfg Config) (*Config, *reporter) {
	cfg.REST, cfg.WSURL = c, "ws://unused"
	if cfg.Clock == nil {
		cfg.Clock = clock.NewFake(time.Unix(1_700_000_000, 0))
	}
	cfg.setDefaults()
	rep := &reporter{}
	rep.init(cfg.Now, slog.New(slog.DiscardHandler), Status{})
	return &cfg, rep
}

// TestReporter: notes are made safe to print and logged; an error note
// also counts in the status and becomes its LastError; setStatus makes a
// quoted reason safe to print.
func TestReporter(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var r reporter
	r.init(func() time.Time { return now }, slog.New(slog.DiscardHandler), Status{State: StateConnecting})
	r.note(NoteConnect, "stream live")
	r.noteError("keepalive failed:\x1b[2J boom\nsecond line")
	r.setStatus(func(st *Status) { st.State, st.Reason = StateReconnecting, "closed by the service\x07" })

	notes, seq := r.notes.Since(0)
	if seq != 2 || len(notes) != 2 {
		t.Fatalf("notes = %v (seq %d), want 2", notes, seq)
	}
	if notes[0].Kind != NoteConnect || notes[1].Kind != NoteError || !notes[1].Time.Equal(now) {
		t.Errorf("notes = %+v", notes)
	}
	st := r.statusNow()
	if st.Errors != 1 || st.State != StateReconnecting {
		t.Errorf("status = %+v, want one error and reconnecting", st)
	}
	for _, s := range []string{notes[1].Text, st.LastError, st.Reason} {
		if strings.ContainsAny(s, "\x1b\x07\n") {
			t.Errorf("%q is not safe to print", s)
		}
	}
}

// TestKeyring: the listenKey lifecycle alone, against the simulator: a
// key is created once and reused, a keepalive moves its expiry and the
// status, and deleteAllKeys DELETEs every key made (the service then no
// longer knows them).
func TestKeyring(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	c := s.Client()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	cfg, rep := partsFor(c, Config{Clock: clk})
	var mu sync.Mutex
	k := newKeyring(c, cfg, rep, &mu)
	ctx := context.Background()

	key, err := k.currentKey(ctx)
	if err != nil || key == "" {
		t.Fatalf("currentKey = %q, %v", key, err)
	}
	if again, _ := k.currentKey(ctx); again != key {
		t.Errorf("currentKey made a second key %q", again)
	}
	if st := rep.statusNow(); st.KeysCreated != 1 || !st.KeyExpires.Equal(clk.Now().Add(cfg.KeyTTL)) {
		t.Errorf("status after create = %+v", st)
	}
	clk.Advance(time.Minute)
	exp, err := k.keepalive(ctx, key)
	if err != nil || !exp.Equal(clk.Now().Add(cfg.KeyTTL)) {
		t.Fatalf("keepalive = %v, %v", exp, err)
	}
	if st := rep.statusNow(); !st.LastKeepalive.Equal(clk.Now()) || !st.NextKeepalive.Equal(clk.Now().Add(cfg.Keepalive)) {
		t.Errorf("status after keepalive = %+v", st)
	}
	second, err := k.newKey(ctx)
	if err != nil || second == key {
		t.Fatalf("newKey = %q, %v", second, err)
	}
	if err := k.deleteAllKeys(ctx); err != nil {
		t.Fatalf("deleteAllKeys: %v", err)
	}
	for _, old := range []string{key, second} {
		if err := c.KeepAliveListenKey(ctx, old); !errors.Is(err, rest.ErrInvalidListenKey) {
			t.Errorf("keepalive of a deleted key = %v, want ErrInvalidListenKey", err)
		}
	}
	if len(k.created) != 0 || k.key != "" {
		t.Errorf("after deleteAllKeys: created %v, key %q", k.created, k.key)
	}
}

// TestReconcilerSettle: the reconciler alone, against the simulator: a
// pending order the service has settles to its record; one it never
// received settles as NOT_PLACED.
func TestReconcilerSettle(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	ctx := context.Background()
	placed := rest.NewClientOrderID()
	res := s.Trader().PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "0.001", Price: "30000.00", NewClientOrderID: placed})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("place: %+v", res)
	}
	cfg, rep := partsFor(s.Client(), Config{})
	w := &writer{store: state.NewStore()}
	r := &reconciler{rest: cfg.REST, cfg: cfg, rep: rep, hub: &state.Hub{}, ctx: ctx,
		apply:     func(fn func(*writer)) bool { fn(w); return true },
		goTracked: func(f func()) { f() }}

	lost := rest.NewClientOrderID()
	r.pend(state.Pending{ClientOrderID: placed, Symbol: "BTCUSDT", Side: "BUY"})
	r.pend(state.Pending{ClientOrderID: lost, Symbol: "BTCUSDT", Side: "BUY"})
	if !r.stillPending(placed) || !r.stillPending(lost) {
		t.Fatal("pend did not list the orders as pending")
	}
	if !r.settle(placed, false) || !r.settle(lost, false) {
		t.Fatal("settle: the service did not answer")
	}
	if r.stillPending(placed) || r.stillPending(lost) {
		t.Error("still pending after the service answered")
	}
	snap := w.store.Snapshot()
	found := false
	for _, o := range snap.Orders.All() {
		found = found || (o.ClientOrderID == placed && o.OrderID == res.OrderID && o.Open())
	}
	if !found {
		t.Errorf("the settled order is not in the store: %+v", snap.Orders)
	}
	status := ""
	for _, p := range snap.Pending {
		if p.ClientOrderID == lost {
			status = p.Status
		}
	}
	if status != state.PendingNotPlaced {
		t.Errorf("the lost order is %q, want NOT_PLACED", status)
	}
}

// TestSnapshotter: the resync's REST reads alone, against the simulator:
// the account and the open orders; at the open-orders limit the spot
// orders are not a complete snapshot and a note says so.
func TestSnapshotter(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	tr := s.Trader()
	ctx := context.Background()
	for i := range 2 {
		res := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "0.001", Price: fmt.Sprintf("3000%d.00", i)})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("place order %d: %+v", i, res)
		}
	}
	for _, c := range []struct {
		limit    int
		complete bool
	}{{1000, true}, {2, false}} {
		cfg, rep := partsFor(s.Client(), Config{OpenOrdersLimit: c.limit})
		p := &snapshotter{rest: cfg.REST, cfg: cfg, rep: rep, apply: func(func(*writer)) bool { return true }}
		snap, err := p.takeSnapshots(ctx)
		if err != nil {
			t.Fatalf("limit %d: %v", c.limit, err)
		}
		if snap.Account == nil || len(snap.Account.Balances) == 0 || len(snap.SpotOpenOrders) != 2 {
			t.Errorf("limit %d: account %v, %d open orders", c.limit, snap.Account, len(snap.SpotOpenOrders))
		}
		if snap.HaveSpotOrders != c.complete || !snap.HavePositions {
			t.Errorf("limit %d: HaveSpotOrders %v HavePositions %v", c.limit, snap.HaveSpotOrders, snap.HavePositions)
		}
		notes, _ := rep.notes.Since(0)
		if noted := len(notes) == 1 && strings.Contains(notes[0].Text, "(the limit)"); noted == c.complete {
			t.Errorf("limit %d: notes %v", c.limit, notes)
		}
	}
}

// TestCloseKeyErrorAtExit: a listenKey DELETE held back by the
// client-side limit or a 429 gate does not speak of a retry (nothing
// retries at exit): it says it was not sent and that the key expires on
// its own within 60 minutes; the cause stays reachable.
func TestCloseKeyErrorAtExit(t *testing.T) {
	until := time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC)
	for _, be := range []*rest.BackoffError{
		{Err: rest.ErrRateLimited, Until: until, Local: true, Now: until.Add(-20 * time.Second)},
		{Err: rest.ErrRateLimited, Until: until},
	} {
		err := closeKeyError(be)
		msg := err.Error()
		for _, want := range []string{"close listenKey: not sent", "until 01:02:03 UTC", "expires on its own within 60 minutes"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q: want it to say %q", msg, want)
			}
		}
		if strings.Contains(msg, "retry after") {
			t.Errorf("%q speaks of a retry nothing makes", msg)
		}
		if !errors.Is(err, rest.ErrRateLimited) {
			t.Errorf("%q: the cause is lost", msg)
		}
	}
}
