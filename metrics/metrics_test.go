package metrics

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/dec"
	"bhtop/internal/simtest"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
	"bhtop/stream"
)

// TestStreamMetrics: the per-account series follow a live session on the
// simulator: events by type, stream up, lag, weight, requests by route.
func TestStreamMetrics(t *testing.T) {
	l := newLive(t, "", 50)
	waitFor(t, "events of two types", func() bool {
		ev := gather(t, l.reg, "bhtop_events_total")
		a := find(ev, map[string]string{"account": DefaultAccount, "type": "outboundAccountInfo"})
		x := find(ev, map[string]string{"account": DefaultAccount, "type": "executionReport"})
		return a != nil && x != nil && a.value > 0 && x.value > 0
	})
	var total float64
	for _, s := range gather(t, l.reg, "bhtop_events_total") {
		total += s.value
	}
	if st := l.sess.Hub().Latest().Stats; total < float64(st.Events)-200 || total > float64(l.sess.Hub().Latest().Stats.Events) {
		t.Errorf("sum of bhtop_events_total = %v, state counts %d", total, st.Events)
	}
	if up := find(gather(t, l.reg, "bhtop_stream_up"), map[string]string{"account": DefaultAccount}); up == nil || up.value != 1 {
		t.Errorf("bhtop_stream_up = %+v, want 1", up)
	}
	waitFor(t, "a lag observation", func() bool {
		h := find(gather(t, l.reg, "bhtop_event_lag_seconds"), map[string]string{"account": DefaultAccount})
		return h != nil && h.count > 0
	})
	if w := find(gather(t, l.reg, "bhtop_request_weight_used"), map[string]string{"account": DefaultAccount}); w == nil || w.value <= 0 {
		t.Errorf("bhtop_request_weight_used = %+v, want > 0 after the snapshots", w)
	}
	reqs := gather(t, l.reg, "bhtop_requests_total")
	if r := find(reqs, map[string]string{"endpoint": "GET /openapi/v1/account", "status": "200"}); r == nil || r.value < 1 {
		t.Errorf("bhtop_requests_total{GET /openapi/v1/account,200} = %+v; all: %+v", r, reqs)
	}
	for _, s := range reqs {
		if strings.ContainsAny(s.labels["endpoint"], "?=&") {
			t.Errorf("endpoint label %q is not a route template", s.labels["endpoint"])
		}
	}
	if r := find(gather(t, l.reg, "bhtop_reconnects_total"), map[string]string{"account": DefaultAccount}); r == nil || r.value != 0 {
		t.Errorf("bhtop_reconnects_total = %+v, want 0", r)
	}
	for _, name := range []string{"go_goroutines", "go_memstats_alloc_bytes", "process_resident_memory_bytes"} {
		if len(gather(t, l.reg, name)) == 0 {
			t.Errorf("%s missing: the Go runtime and process collectors are registered", name)
		}
	}
}

// TestNoSecretsOrOrderIDsInLabels: after orders were placed, no label
// holds the API key, the secret, a listenKey or an order id.
func TestNoSecretsOrOrderIDsInLabels(t *testing.T) {
	l := newLive(t, "main", 20)
	tr := rest.NewTrader(l.rest)
	ack := tr.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "1", Price: "0.001", NewClientOrderID: "bh-metrics-test"})
	if ack.Outcome != rest.OutcomeAccepted {
		t.Fatalf("PlaceOrder: %+v", ack)
	}
	waitFor(t, "the order in the state", func() bool { return l.sess.Hub().Latest().Orders.Len() > 0 })
	secrets := []string{l.sim.APIKey(), sim.DemoSecret, ack.OrderID, "bh-metrics-test"}
	for _, o := range l.sess.Hub().Latest().Orders.All() {
		secrets = append(secrets, o.OrderID)
	}
	for _, s := range secrets {
		if where := labelsHold(t, l.reg, s); where != "" {
			t.Errorf("a label holds %q: %s", s, where)
		}
	}
}

// TestEquityAndPnL: with market data, bhtop_equity and
// bhtop_position_unrealized_pnl come from package value.
func TestEquityAndPnL(t *testing.T) {
	reg := New()
	var sh state.Hub
	sh.Publish(&state.Snapshot{Version: 1,
		Balances:  []state.Balance{{Asset: "BTC", Free: "1.5", Locked: "0.5"}, {Asset: "USDT", Free: "100", Locked: "0"}},
		Positions: []state.Position{{Symbol: "BTC-PERP", Side: "LONG", AvgPrice: "20000", Total: "2", LiquidationPrice: "15000"}},
	})
	var mh market.Hub
	mh.Publish(&market.Snapshot{Version: 1,
		Quotes:      map[string]market.Quote{"BTCUSDT": {Symbol: "BTCUSDT", Last: "30000"}, "BTC-PERP": {Symbol: "BTC-PERP", Mark: "21000"}},
		Instruments: map[string]market.Instrument{"BTC-PERP": {Symbol: "BTC-PERP", Base: "BTC", Quote: "USDT", Contract: true, Multiplier: "0.001"}},
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg.AddAccount(ctx, Account{Name: "main", State: &sh, Market: &mh, Status: func() stream.Status { return stream.Status{LastSnapshot: time.Now()} }})
	// 2 BTC × 30000 + 100 USDT + PnL (21000-20000)·2·0.001 = 2 USDT
	if eq := find(gather(t, reg, "bhtop_equity"), map[string]string{"account": "main", "asset": "USDT"}); eq == nil || eq.value != 60102 {
		t.Errorf("bhtop_equity = %+v, want 60102", eq)
	}
	if p := find(gather(t, reg, "bhtop_position_unrealized_pnl"), map[string]string{"account": "main", "symbol": "BTC-PERP", "side": "LONG"}); p == nil || p.value != 2 {
		t.Errorf("bhtop_position_unrealized_pnl = %+v, want 2", p)
	}
	cancel()
	waitFor(t, "the account to leave", func() bool { return len(gather(t, reg, "bhtop_equity")) == 0 })
}

// TestViewersAndHTTP: bhtop_serve_viewers reads its count at scrape, and
// Serve serves the exposition format at /metrics.
func TestViewersAndHTTP(t *testing.T) {
	reg := New()
	n := 3
	reg.SetViewers(func() int { return n })
	reg.CountRequest("GET /openapi/v1/ping", 200)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := serveOn(ctx, t, reg)
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"bhtop_serve_viewers 3", `bhtop_requests_total{endpoint="GET /openapi/v1/ping",status="200"} 1`, "go_goroutines"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if resp, err := http.Get("http://" + addr + "/other"); err == nil {
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("/other: HTTP %d, want 404", resp.StatusCode)
		}
		resp.Body.Close()
	}
	var nilReg *Registry // switched off: every method is a no-op
	nilReg.CountRequest("x", 1)
	nilReg.SetViewers(func() int { return 1 })
	nilReg.AddAccount(ctx, Account{})
	if nilReg.RequestHook() != nil || nilReg.Gatherer() != nil {
		t.Error("a nil Registry hands out hooks")
	}
}

// TestSimulatorRequests: the simulator's OnRequest hook counts requests by
// route template, the user stream without its listenKey.
func TestSimulatorRequests(t *testing.T) {
	reg := New()
	s := simtest.Start(t, sim.Options{OnRequest: reg.CountRequest})
	for _, p := range []string{"/openapi/v1/ping", "/openapi/v1/ping", "/no/such/path?secret=x"} {
		resp, err := http.Get(s.URL() + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	reqs := gather(t, reg, "bhtop_requests_total")
	if r := find(reqs, map[string]string{"endpoint": "GET /openapi/v1/ping", "status": "200"}); r == nil || r.value != 2 {
		t.Errorf("ping count = %+v, want 2", r)
	}
	if r := find(reqs, map[string]string{"endpoint": "other", "status": "404"}); r == nil || r.value != 1 {
		t.Errorf("other count = %+v, want 1 (%+v)", r, reqs)
	}
}

// TestNoEquityBeforeTheFirstSnapshot: an account never synced from a REST
// snapshot (a wrong key, a stream down from the start) has no known
// equity: bhtop_equity is absent, never 0, even when its market data is
// there (README 'Accounts': an unknown equity is never counted as 0).
func TestNoEquityBeforeTheFirstSnapshot(t *testing.T) {
	var sh state.Hub
	sh.Publish(&state.Snapshot{})
	var synced atomic.Bool
	status := func() stream.Status {
		if synced.Load() {
			return stream.Status{LastSnapshot: time.Now()}
		}
		return stream.Status{LastError: "HTTP 401"}
	}
	reg := onHubs(t, "bad", &sh, status)
	if eq := gather(t, reg, "bhtop_equity"); len(eq) != 0 {
		t.Errorf("bhtop_equity of an account never synced = %+v, want no series", eq)
	}
	sh.Publish(&state.Snapshot{Version: 1, Balances: []state.Balance{{Asset: "USDT", Free: "0", Locked: "0"}}})
	synced.Store(true)
	if eq := find(gather(t, reg, "bhtop_equity"), map[string]string{"account": "bad"}); eq == nil || eq.value != 0 {
		t.Errorf("bhtop_equity once synced = %+v, want 0", eq)
	}
}

// onHubs is a registry following one account, name, until the test ends:
// its state is sh, its market quotes BTCUSDT at 30000, status is its
// stream's.
func onHubs(t *testing.T, name string, sh *state.Hub, status func() stream.Status) *Registry {
	var mh market.Hub
	mh.Publish(&market.Snapshot{Version: 1, Quotes: map[string]market.Quote{"BTCUSDT": {Symbol: "BTCUSDT", Last: "30000"}}})
	reg := New()
	reg.AddAccount(t.Context(), Account{Name: name, State: sh, Market: &mh, Status: status})
	return reg
}

// TestBalancesAndOpenOrders: bhtop_balance (free + locked per asset) and
// bhtop_open_orders (per market) equal what the simulator's REST
// endpoints say once the stream has folded the orders placed.
func TestBalancesAndOpenOrders(t *testing.T) {
	l := newLive(t, "main", 0)
	ctx := context.Background()
	tr := rest.NewTrader(l.rest)
	for _, p := range []string{"0.001", "0.002"} {
		if ack := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT",
			TimeInForce: "GTC", Quantity: "1", Price: p}); ack.Outcome != rest.OutcomeAccepted {
			t.Fatalf("PlaceOrder: %+v", ack)
		}
	}
	spot, err := l.rest.OpenOrders(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	contract, err := l.rest.ContractOpenOrders(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := l.rest.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the open orders", func() bool {
		s := find(gather(t, l.reg, "bhtop_open_orders"), map[string]string{"account": "main", "market": "spot"})
		return s != nil && s.value == float64(len(spot))
	})
	if s := find(gather(t, l.reg, "bhtop_open_orders"), map[string]string{"account": "main", "market": "contract"}); s == nil || s.value != float64(len(contract)) {
		t.Errorf("bhtop_open_orders{market=contract} = %+v, want %d", s, len(contract))
	}
	waitFor(t, "the balances", func() bool {
		bals := gather(t, l.reg, "bhtop_balance")
		for _, b := range acct.Balances {
			total := dec.Sum(b.Free, b.Locked)
			s := find(bals, map[string]string{"account": "main", "asset": b.Asset})
			if s == nil || s.value != total.InexactFloat64() {
				return false
			}
		}
		return len(bals) == len(acct.Balances)
	})
}

// TestStatusReadBeforeState: a scrape reads the stream's status before
// the state, as the alert rules do: the stream publishes a resync's
// state before its status says synced, so a state read first can be the
// one before the resync while the status read after says synced (an
// empty account exported as equity 0). Here the resync lands between the
// two reads, inside Status.
func TestStatusReadBeforeState(t *testing.T) {
	var sh state.Hub
	sh.Publish(&state.Snapshot{Version: 1}) // a subscriber joined before the first resync
	var synced atomic.Bool
	status := func() stream.Status {
		if synced.CompareAndSwap(false, true) {
			sh.Publish(&state.Snapshot{Version: 2, Balances: []state.Balance{{Asset: "USDT", Free: "100", Locked: "0"}}})
		}
		return stream.Status{LastSnapshot: time.Now()}
	}
	reg := onHubs(t, "main", &sh, status)
	if eq := find(gather(t, reg, "bhtop_equity"), map[string]string{"account": "main"}); eq == nil || eq.value != 100 {
		t.Errorf("bhtop_equity = %+v, want 100 (the synced state), never 0", eq)
	}
}

// TestFillsAndFees: bhtop_fills_total{symbol} and bhtop_fees_total{asset}
// equal the simulator's myTrades records of the account (spot and
// contract, market orders on two symbols of each, two rounds scraped in
// between), the fees summed exactly; no order or trade id is a label.
func TestFillsAndFees(t *testing.T) {
	l := newLive(t, "main", 0)
	series := func(name, label string) map[string]float64 { return l.series(t, name, label) }
	for round := 1; round <= 2; round++ {
		tradeBoth(t, l)
		fills, fees := recordCounts(t, l)
		if len(fills) < 4 {
			t.Fatalf("round %d: the simulator has fills of %v, want 4 symbols", round, fills)
		}
		waitFor(t, fmt.Sprintf("round %d's fills", round), func() bool {
			return maps.Equal(series("bhtop_fills_total", "symbol"), fills) && maps.Equal(series("bhtop_fees_total", "asset"), fees)
		})
	}
	for _, name := range []string{"bhtop_fills_total", "bhtop_fees_total"} {
		for _, s := range gather(t, l.reg, name) {
			if len(s.labels) != 2 {
				t.Errorf("%s has labels %v, want account and one more", name, s.labels)
			}
		}
	}
}
