package market_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// startSim runs the simulator for one test, its market walking (seed 7
// and activity 20 unless opts say otherwise).
func startSim(t *testing.T, opts sim.Options) *sim.Server {
	t.Helper()
	if opts.Seed == 0 {
		opts.Seed = 7
	}
	if opts.MarketActivity == 0 {
		opts.MarketActivity = 20
	}
	if opts.MarketInterval == 0 {
		opts.MarketInterval = 500 * time.Millisecond // the simulator's own step (simtest's market is stepped by hand)
	}
	return simtest.Start(t, opts).Server
}

// waitFor polls the hub until ok holds or the deadline passes.
func waitFor(t *testing.T, h *market.Hub, what string, ok func(*market.Snapshot) bool) *market.Snapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m := h.Latest()
		if ok(m) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; health %+v, %d quotes", what, m.Health, len(m.Quotes))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func account(version uint64, orders ...*state.Order) *state.Snapshot {
	return &state.Snapshot{
		Version:   version,
		Balances:  []state.Balance{{Asset: "BTC", Free: "1", Locked: "0"}, {Asset: "USDT", Free: "1000", Locked: "0"}},
		Orders:    state.NewOrderRows(orders...),
		Positions: []state.Position{{Symbol: "ETH-PERP", Side: "LONG", AvgPrice: "3000", Total: "1", Margin: "300"}},
	}
}

func TestClientFollowsTheAccountsSymbols(t *testing.T) {
	s := startSim(t, sim.Options{})
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, nil)

	m := waitFor(t, c.Hub(), "BTCUSDT and ETH-PERP quotes, trades and bars", func(m *market.Snapshot) bool {
		q, p := m.Quotes["BTCUSDT"], m.Quotes["ETH-PERP"]
		return m.Health.Up && q.Last != "" && q.Bid != "" && q.Ask != "" && len(m.Trades["BTCUSDT"]) > 0 &&
			m.Candles[market.CandleKey("BTCUSDT", "1m")].Len() > 0 && p.Mark != "" && p.Index != ""
	})
	if got := slices.Sorted(func(yield func(string) bool) {
		for k := range m.Quotes {
			if !yield(k) {
				return
			}
		}
	}); !slices.Equal(got, []string{"BTCUSDT", "ETH-PERP"}) {
		t.Errorf("followed %v, want [BTCUSDT ETH-PERP]", got)
	}
	if p := m.Quotes["ETH-PERP"]; p.Mark != p.Last {
		t.Errorf("ETH-PERP mark %s, last %s: a contract's mark is its last price", p.Mark, p.Last)
	}
	if ins := m.Instruments["BTC-PERP-REV"]; !ins.Contract || !ins.Inverse || ins.Index == "" {
		t.Errorf("BTC-PERP-REV instrument = %+v", ins)
	}
	if b := m.Books["BTCUSDT"]; len(b.Bids) == 0 || len(b.Asks) == 0 || len(b.Bids) > market.MaxLevels {
		t.Errorf("BTCUSDT book has %d bids and %d asks", len(b.Bids), len(b.Asks))
	}

	// A chart asks for 5m bars: fetched, then kept by the socket.
	c.LoadCandles("BTCUSDT", "5m")
	waitFor(t, c.Hub(), "BTCUSDT 5m bars", func(m *market.Snapshot) bool {
		return m.Candles[market.CandleKey("BTCUSDT", "5m")].Len() > 0
	})

	// An open order on XRPUSDT adds it; a snapshot without ETH-PERP's
	// position drops it.
	next := account(2, &state.Order{Symbol: "XRPUSDT", Status: "NEW"})
	next.Positions = nil
	st.Publish(next)
	waitFor(t, c.Hub(), "XRPUSDT followed and ETH-PERP dropped", func(m *market.Snapshot) bool {
		_, perp := m.Quotes["ETH-PERP"]
		return m.Quotes["XRPUSDT"].Last != "" && !perp
	})
	if st := c.Stats(); st.Pushes == 0 || st.Malformed != 0 {
		t.Errorf("stats = %+v, want pushes and nothing malformed", st)
	}
}

func TestClientWithoutMarketData(t *testing.T) {
	s := startSim(t, sim.Options{NoMarketData: true})
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, nil)
	m := waitFor(t, c.Hub(), "health down", func(m *market.Snapshot) bool {
		return !m.Health.Up && m.Health.Reason == "quote endpoints answer 404"
	})
	if len(m.Quotes) != 0 {
		t.Errorf("quotes without market data: %v", m.Quotes)
	}
	// It retries slowly, and stays down.
	waitFor(t, c.Hub(), "a retry", func(*market.Snapshot) bool { return c.Stats().Reconnects >= 2 })
	if h := c.Hub().Latest().Health; h.Up {
		t.Errorf("health %+v, want still down", h)
	}
}

func TestClientPingsKeepTheSocket(t *testing.T) {
	s := startSim(t, sim.Options{QuoteIdle: 600 * time.Millisecond})
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, func(cfg *market.Config) { cfg.PingEvery = 150 * time.Millisecond })
	waitFor(t, c.Hub(), "up", func(m *market.Snapshot) bool { return m.Health.Up })
	time.Sleep(1500 * time.Millisecond) // several idle windows: only pings keep it open
	if st := c.Stats(); st.Reconnects != 0 {
		t.Errorf("reconnects = %d, want 0: the JSON pings should keep the socket", st.Reconnects)
	}
}

func TestClientReconnectsAfterAClose(t *testing.T) {
	s := startSim(t, sim.Options{QuoteIdle: 300 * time.Millisecond})
	st := &state.Hub{}
	st.Publish(account(1))
	// Pinging less often than the idle limit: the service closes the socket.
	c := simtest.Market(t, s, st, func(cfg *market.Config) { cfg.PingEvery = time.Hour })
	waitFor(t, c.Hub(), "a reconnect and up again", func(m *market.Snapshot) bool {
		return c.Stats().Reconnects >= 1 && m.Health.Up
	})
}

// TestClientSocketRefused: quote endpoints answer but the quote socket is
// refused (a front that 404s its path): health down with the reason.
func TestClientSocketRefused(t *testing.T) {
	s := startSim(t, sim.Options{})
	front := testkit.Front(t, s.URL(), func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path == market.QuotePath {
			http.Error(w, "no quote socket here", http.StatusNotFound)
			return
		}
		next.ServeHTTP(w, r)
	})
	st := &state.Hub{}
	st.Publish(account(1))
	cfg := market.Config{REST: rest.New(front), WSURL: "ws" + strings.TrimPrefix(front, "http"), State: st,
		SlowRetry: time.Hour}
	c, err := market.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Start()
	t.Cleanup(c.Close)
	m := waitFor(t, c.Hub(), "health down", func(m *market.Snapshot) bool {
		return !m.Health.Up && strings.HasPrefix(m.Health.Reason, "quote socket refused: HTTP 404")
	})
	// The REST snapshot taken before the socket is kept.
	if m.Quotes["BTCUSDT"].Last == "" {
		t.Errorf("BTCUSDT quote = %+v, want the REST snapshot's", m.Quotes["BTCUSDT"])
	}
}

// TestClientPublishTickRestartsOnPush: the publish tick stops while the
// store is clean; a push (applied by the socket's reader, not the loop)
// must restart it, with nothing else waking the loop.
func TestClientPublishTickRestartsOnPush(t *testing.T) {
	s := startSim(t, sim.Options{MarketActivity: 0.001})
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, func(cfg *market.Config) {
		cfg.RecheckEvery, cfg.IndexEvery = time.Hour, time.Hour
	})
	waitFor(t, c.Hub(), "market data up", func(m *market.Snapshot) bool { return m.Health.Up })
	// Quiet: the same version for a while, so the tick has stopped.
	var v uint64
	for stable := 0; stable < 10; {
		time.Sleep(20 * time.Millisecond)
		if now := c.Hub().Latest().Version; now == v {
			stable++
		} else {
			v, stable = now, 0
		}
	}
	// The 24 h ticker is pushed every second with its time: a change.
	waitFor(t, c.Hub(), "a publication after the quiet", func(m *market.Snapshot) bool { return m.Version > v })
}

// TestClientPublishesSlowlyWithoutSubscriber: while no reader subscribes
// to the hub, pushes wait for PublishIdle (here an hour: never during
// the test); a reader that subscribes is published to at once, then
// every PublishEvery.
func TestClientPublishesSlowlyWithoutSubscriber(t *testing.T) {
	s := startSim(t, sim.Options{})
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, func(cfg *market.Config) { cfg.PublishIdle = time.Hour })
	up := waitFor(t, c.Hub(), "market data up", func(m *market.Snapshot) bool { return m.Health.Up })
	pushes := c.Stats().Pushes
	deadline := time.Now().Add(10 * time.Second)
	for c.Stats().Pushes < pushes+20 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d pushes", c.Stats().Pushes-pushes)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if v := c.Hub().Latest().Version; v != up.Version {
		t.Fatalf("published version %d after %d with no subscriber, want none before PublishIdle", v, up.Version)
	}
	notice, unsub := c.Hub().Subscribe()
	defer unsub()
	select {
	case <-notice:
	case <-time.After(10 * time.Second):
		t.Fatal("a new subscriber got no snapshot")
	}
	joined := c.Hub().Latest().Version
	if joined == up.Version {
		t.Fatal("the pushes waiting were not published for the new subscriber")
	}
	select {
	case <-notice:
	case <-time.After(10 * time.Second):
		t.Fatal("no publication every PublishEvery while subscribed")
	}
	if v := c.Hub().Latest().Version; v <= joined {
		t.Errorf("version %d after %d", v, joined)
	}
}

// TestClientFollowsAFormsSymbol: a symbol the account does not touch is
// followed while Follow names it (the order form shows its bid, ask and
// last, and warns of a limit order that would execute at once), and left
// once Follow names another or none.
func TestClientFollowsAFormsSymbol(t *testing.T) {
	s := startSim(t, sim.Options{})
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, nil)
	waitFor(t, c.Hub(), "the account's symbols", func(m *market.Snapshot) bool {
		return m.Health.Up && m.Quotes["BTCUSDT"].Last != ""
	})
	if _, ok := c.Hub().Latest().Quotes["LTCBTC"]; ok {
		t.Fatal("LTCBTC followed before the form asked")
	}
	c.Follow("LTCBTC")
	waitFor(t, c.Hub(), "LTCBTC's bid, ask and last", func(m *market.Snapshot) bool {
		q := m.Quotes["LTCBTC"]
		return q.Last != "" && q.Bid != "" && q.Ask != ""
	})
	c.Follow("")
	waitFor(t, c.Hub(), "LTCBTC left", func(m *market.Snapshot) bool {
		_, ok := m.Quotes["LTCBTC"]
		return !ok && m.Quotes["BTCUSDT"].Last != ""
	})
}
