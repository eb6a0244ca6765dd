package alert

import (
	"slices"
	"strings"
	"testing"
	"time"

	"bhtop/market"
	"bhtop/state"
)

// t0 is the fake clock's start; evaluations pass t0.Add(...).
var t0 = time.UnixMilli(1_700_000_000_000)

func rule(t *testing.T, n int, fields map[string]any) Rule {
	t.Helper()
	r, err := ParseRule(n, fields)
	if err != nil {
		t.Fatalf("ParseRule(%v): %v", fields, err)
	}
	return r
}

// world is one account's inputs, edited between evaluations.
type world struct {
	version uint64
	st      state.Snapshot
	mk      market.Snapshot
	now     time.Time
	last    time.Time // last frame
}

func newWorld() *world {
	w := &world{now: t0, last: t0}
	w.mk.Quotes = map[string]market.Quote{}
	w.mk.Instruments = map[string]market.Instrument{
		"BTC-PERP": {Symbol: "BTC-PERP", Base: "BTC", Quote: "USDT", Contract: true, Multiplier: "1"},
	}
	return w
}

func (w *world) input(account string) Input {
	w.version++
	w.st.Version = w.version
	w.mk.Version = w.version
	st, mk := w.st, w.mk
	return Input{Account: account, Now: w.now, State: &st, Ready: true, Market: &mk, ValueIn: "USDT",
		Stream: Stream{LastFrame: w.last, Since: t0}}
}

func (w *world) price(sym, last string) { w.mk.Quotes[sym] = market.Quote{Symbol: sym, Last: last} }

func (w *world) balance(asset, free string) {
	w.st.Balances = []state.Balance{{Asset: asset, Free: free, Locked: "0"}}
}

// steps runs edits and evaluations and checks how many firings each gave.
type step struct {
	edit  func(w *world)
	fires int
	want  string // substring of the firing's message, when it fires
}

func runSteps(t *testing.T, rules []Rule, steps []step) {
	t.Helper()
	e := NewEngine(rules)
	w := newWorld()
	for i, s := range steps {
		if s.edit != nil {
			s.edit(w)
		}
		got := e.Evaluate(w.input(DefaultAccountForTest))
		if len(got) != s.fires {
			t.Fatalf("step %d: %d firings %v, want %d", i, len(got), got, s.fires)
		}
		for _, f := range got {
			if !strings.Contains(f.Message, s.want) {
				t.Errorf("step %d: message %q lacks %q", i, f.Message, s.want)
			}
			if f.Account != DefaultAccountForTest || !f.Time.Equal(w.now) || f.Rule != rules[0].ID {
				t.Errorf("step %d: firing %+v: wrong account, time or rule", i, f)
			}
		}
	}
}

const DefaultAccountForTest = "default"

// TestEveryKindFiresOncePerCrossing: each level kind fires when its
// condition becomes true, not while it stays true, and again after it was
// false.
func TestEveryKindFiresOncePerCrossing(t *testing.T) {
	pos := func(liq, avg string) func(w *world) {
		return func(w *world) {
			w.st.Positions = []state.Position{{Symbol: "BTC-PERP", Side: "LONG", AvgPrice: avg, Total: "2", LiquidationPrice: liq}}
		}
	}
	cases := []struct {
		name  string
		rule  map[string]any
		steps []step
	}{
		{"price_cross above", map[string]any{"kind": "price_cross", "symbol": "BTCUSDT", "above": int64(100)}, []step{
			{func(w *world) { w.price("BTCUSDT", "99") }, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "101") }, 1, "BTCUSDT price 101 crossed above 100"},
			{func(w *world) { w.price("BTCUSDT", "150") }, 0, ""},
			{func(w *world) { delete(w.mk.Quotes, "BTCUSDT") }, 0, ""}, // unknown: no re-arm
			{func(w *world) { w.price("BTCUSDT", "120") }, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "100") }, 0, ""}, // not above: re-armed
			{func(w *world) { w.price("BTCUSDT", "100.01") }, 1, "crossed above"},
		}},
		{"price_cross below", map[string]any{"kind": "price_cross", "symbol": "BTCUSDT", "below": "50"}, []step{
			{func(w *world) { w.price("BTCUSDT", "49.9") }, 1, "crossed below 50"},
			{nil, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "51") }, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "10") }, 1, "crossed below"},
		}},
		{"balance_below", map[string]any{"kind": "balance_below", "asset": "usdt", "below": int64(100)}, []step{
			{func(w *world) { w.balance("USDT", "150") }, 0, ""},
			{func(w *world) { w.balance("USDT", "99.5") }, 1, "USDT balance 99.5 is below 100"},
			{func(w *world) { w.balance("USDT", "10") }, 0, ""},
			{func(w *world) { w.balance("USDT", "100") }, 0, ""},
			{func(w *world) { w.st.Balances = nil }, 1, "USDT balance 0 is below"},
		}},
		{"equity_below", map[string]any{"kind": "equity_below", "below": int64(1000)}, []step{
			{func(w *world) { w.balance("BTC", "1"); w.price("BTCUSDT", "2000") }, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "999") }, 1, "equity 999 USDT is below 1000"},
			{func(w *world) { w.price("BTCUSDT", "500") }, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "1500") }, 0, ""},
			{func(w *world) { w.price("BTCUSDT", "900") }, 1, "below 1000"},
		}},
		{"pnl_below", map[string]any{"kind": "pnl_below", "symbol": "BTC-PERP", "below": int64(-10)}, []step{
			{func(w *world) { pos("", "100")(w); w.mk.Quotes["BTC-PERP"] = market.Quote{Mark: "100"} }, 0, ""},
			{func(w *world) { w.mk.Quotes["BTC-PERP"] = market.Quote{Mark: "94"} }, 1, "BTC-PERP unrealized PnL -12 USDT is below -10"},
			{func(w *world) { w.mk.Quotes["BTC-PERP"] = market.Quote{Mark: "90"} }, 0, ""},
			{func(w *world) { w.st.Positions = nil }, 0, ""},
			{func(w *world) { pos("", "100")(w) }, 1, "PnL -20"},
		}},
		{"liquidation_within", map[string]any{"kind": "liquidation_within", "percent": int64(5)}, []step{
			{func(w *world) { pos("90", "100")(w); w.mk.Quotes["BTC-PERP"] = market.Quote{Mark: "100"} }, 0, ""},
			{func(w *world) { w.mk.Quotes["BTC-PERP"] = market.Quote{Mark: "94"} }, 1, "BTC-PERP LONG is 4.26% from liquidation"},
			{func(w *world) { w.mk.Quotes["BTC-PERP"] = market.Quote{Mark: "93"} }, 0, ""},
			{func(w *world) { w.st.Positions = nil }, 0, ""}, // closed: re-armed
			{func(w *world) { pos("90", "100")(w) }, 1, "from liquidation"},
		}},
		{"stream_silent", map[string]any{"kind": "stream_silent", "after": "1m"}, []step{
			{func(w *world) { w.now = t0.Add(59 * time.Second) }, 0, ""},
			{func(w *world) { w.now = t0.Add(60 * time.Second) }, 1, "user stream silent for 1m0s"},
			{func(w *world) { w.now = t0.Add(10 * time.Minute) }, 0, ""},
			{func(w *world) { w.last = w.now }, 0, ""},
			{func(w *world) { w.now = w.now.Add(61 * time.Second) }, 1, "silent for 1m1s"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, []Rule{rule(t, 1, tc.rule)}, tc.steps)
		})
	}
}

// order is a spot order row.
func order(id, status, executed string) *state.Order {
	return &state.Order{Market: "spot", Symbol: "ETHBTC", OrderID: id, Side: "BUY", Type: "LIMIT", Quantity: "2",
		ExecutedQty: executed, Status: status}
}

// TestFillAndRejection: fills and rejections fire once per new snapshot
// that brings them (coalesced), never for what was there at start.
func TestFillAndRejection(t *testing.T) {
	fill := []Rule{rule(t, 1, map[string]any{"kind": "fill"})}
	runSteps(t, fill, []step{
		{func(w *world) { w.st.Orders = state.NewOrderRows(order("1", "PARTIALLY_FILLED", "1")) }, 0, ""}, // baseline
		{func(w *world) { w.st.Orders = state.NewOrderRows(order("1", "FILLED", "2")) }, 1, "fill: ETHBTC BUY LIMIT filled 2 of 2"},
		{nil, 0, ""},
		{func(w *world) { w.st.Orders = w.st.Orders.Append(order("2", "FILLED", "2")) }, 1, "filled 2 of 2"},
		{func(w *world) {
			w.st.Orders = w.st.Orders.Append(order("3", "FILLED", "2"), order("4", "PARTIALLY_FILLED", "0.5"))
		}, 1, "2 × fill"},
		{func(w *world) { w.st.Orders = w.st.Orders.Append(order("5", "NEW", "0")) }, 0, ""},
		{func(w *world) { w.st.Orders = state.NewOrderRows(w.st.Orders.Slice(4, w.st.Orders.Len())...) }, 0, ""}, // older orders left the retention
		{func(w *world) { w.st.Orders = state.NewOrderRows(order("4", "FILLED", "2"), order("5", "NEW", "0")) }, 1, "filled 2 of 2"},
	})
	// The price it filled at: the order's average when known (a LIMIT
	// can fill better than its price; a MARKET has none).
	avg := func(o *state.Order, p string) *state.Order { o.AvgPrice = &p; return o }
	runSteps(t, fill, []step{
		{func(w *world) { w.st.Orders = state.NewOrderRows(order("1", "NEW", "0")) }, 0, ""}, // baseline
		{func(w *world) { w.st.Orders = state.NewOrderRows(avg(order("1", "FILLED", "2"), "0.0491")) }, 1,
			"fill: ETHBTC BUY LIMIT filled 2 of 2 at avg 0.0491"},
	})
	other := []Rule{rule(t, 1, map[string]any{"kind": "fill", "symbol": "BTCUSDT"})}
	runSteps(t, other, []step{
		{nil, 0, ""},
		{func(w *world) { w.st.Orders = state.NewOrderRows(order("1", "FILLED", "2")) }, 0, ""},
	})
	rej := []Rule{rule(t, 1, map[string]any{"kind": "order_rejected"})}
	runSteps(t, rej, []step{
		{func(w *world) { w.st.Orders = state.NewOrderRows(order("1", "REJECTED", "0")) }, 0, ""}, // baseline
		{func(w *world) { w.st.Orders = w.st.Orders.Append(order("2", "REJECTED", "0")) }, 1, "order rejected: ETHBTC BUY LIMIT order 2"},
		{nil, 0, ""},
		{func(w *world) {
			w.st.Pending = []state.Pending{{ClientOrderID: "bh-1", Symbol: "ETHBTC", Side: "SELL", Status: "NOT_PLACED", Reason: "-2013"}}
		}, 1, "order bh-1 not placed"},
		{nil, 0, ""},
	})
}

// TestRulesPerAccount: a rule naming an account ignores the others, and
// edge state is kept per account.
func TestRulesPerAccount(t *testing.T) {
	all := rule(t, 1, map[string]any{"kind": "price_cross", "symbol": "X", "above": int64(1)})
	bot := rule(t, 2, map[string]any{"kind": "price_cross", "symbol": "X", "above": int64(1), "account": "bot"})
	e := NewEngine([]Rule{all, bot})
	w := newWorld()
	w.price("X", "2")
	if got := e.Evaluate(w.input("main")); len(got) != 1 || got[0].Rule != "price_cross#1" || got[0].Account != "main" {
		t.Errorf("main: %v, want price_cross#1 only", got)
	}
	if got := e.Evaluate(w.input("bot")); len(got) != 2 {
		t.Errorf("bot: %v, want both rules", got)
	}
	if got := e.Evaluate(w.input("main")); len(got) != 0 {
		t.Errorf("main again: %v, want nothing", got)
	}
}

// TestMarketAlertAccounts: a market rule (config gives a price_cross
// naming no account to its host's first account, with the host's
// accounts in Host) fires on that account and concerns every account of
// the host; an account's own alert concerns that account alone.
func TestMarketAlertAccounts(t *testing.T) {
	market := rule(t, 1, map[string]any{"kind": "price_cross", "symbol": "X", "above": int64(1), "account": "bot"})
	market.Host = []string{"bot", "main"}
	own := rule(t, 2, map[string]any{"kind": "price_cross", "symbol": "X", "above": int64(1), "account": "bot"})
	w := newWorld()
	w.price("X", "2")
	got := NewEngine([]Rule{market, own}).Evaluate(w.input("bot"))
	if len(got) != 2 {
		t.Fatalf("firings %v, want both rules'", got)
	}
	if a := got[0].Accounts(); !got[0].Market() || got[0].Account != "bot" || strings.Join(a, ",") != "bot,main" {
		t.Errorf("the market alert: market %v, account %s, accounts %v; want bot's, concerning bot and main", got[0].Market(), got[0].Account, a)
	}
	if a := got[1].Accounts(); got[1].Market() || strings.Join(a, ",") != "bot" {
		t.Errorf("bot's own alert: market %v, accounts %v; want bot alone", got[1].Market(), a)
	}
}

// TestNotReady: before the state holds a REST snapshot, balance and fill
// rules stay quiet (an empty state is not a zero balance).
func TestNotReady(t *testing.T) {
	e := NewEngine([]Rule{rule(t, 1, map[string]any{"kind": "balance_below", "asset": "USDT", "below": int64(5)})})
	w := newWorld()
	in := w.input("a")
	in.Ready = false
	if got := e.Evaluate(in); len(got) != 0 {
		t.Fatalf("not ready: %v", got)
	}
	if got := e.Evaluate(w.input("a")); len(got) != 1 {
		t.Fatalf("ready: %v, want one firing", got)
	}
}

// TestNoStorm: a condition that stays true over many evaluations fires
// once.
func TestNoStorm(t *testing.T) {
	e := NewEngine([]Rule{rule(t, 1, map[string]any{"kind": "stream_silent", "after": "1s"})})
	w := newWorld()
	n := 0
	for i := range 10000 {
		w.now = t0.Add(time.Duration(i) * 100 * time.Millisecond)
		n += len(e.Evaluate(w.input("a")))
	}
	if n != 1 {
		t.Errorf("%d firings over a long silence, want 1", n)
	}
}

// TestUnknownKeepsState: while market data is gone (no quotes at all), a
// level condition cannot be known and keeps its state: when the same
// prices come back nothing fires again (README: "A condition that cannot
// be known (no market data) keeps its state"). liquidation_within re-armed
// its positions then, so every loss of market data fired it again.
func TestUnknownKeepsState(t *testing.T) {
	pos := func(w *world) {
		w.st.Positions = []state.Position{{Symbol: "BTC-PERP", Side: "LONG", AvgPrice: "100", Total: "2", LiquidationPrice: "90"}}
	}
	quotes := func(w *world) {
		w.mk.Quotes = map[string]market.Quote{"BTC-PERP": {Symbol: "BTC-PERP", Mark: "94"}, "BTCUSDT": {Symbol: "BTCUSDT", Last: "94"}}
	}
	gone := func(w *world) { w.mk.Quotes = map[string]market.Quote{} }
	for _, tc := range []struct {
		name string
		rule map[string]any
	}{
		{"liquidation_within", map[string]any{"kind": "liquidation_within", "percent": int64(5)}},
		{"pnl_below", map[string]any{"kind": "pnl_below", "symbol": "BTC-PERP", "below": int64(-10)}},
		{"equity_below", map[string]any{"kind": "equity_below", "below": int64(1000)}},
		{"price_cross", map[string]any{"kind": "price_cross", "symbol": "BTCUSDT", "below": int64(95)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runSteps(t, []Rule{rule(t, 1, tc.rule)}, []step{
				{func(w *world) { pos(w); w.balance("USDT", "10"); quotes(w) }, 1, ""},
				{gone, 0, ""},
				{quotes, 0, ""},
			})
		})
	}
}

// TestFillOfAnOrderNeverSeen: an order placed and filled while the stream
// was down is never in the state's orders (the resync reads only open
// ones), but its fills come with the myTrades records: they fire (once),
// while fills there before start, or of orders the order watch reports,
// do not fire on their own.
func TestFillOfAnOrderNeverSeen(t *testing.T) {
	fill := func(order, trade, qty string) state.Fill {
		return state.Fill{Market: "spot", Symbol: "LTCUSDT", OrderID: order, TradeID: trade, Side: "SELL", Price: "84.1", Qty: qty,
			Time: t0.UnixMilli()}
	}
	runSteps(t, []Rule{rule(t, 1, map[string]any{"kind": "fill"})}, []step{
		{func(w *world) { w.st.Fills = []state.Fill{fill("7", "70", "1")} }, 0, ""}, // baseline: before start
		{func(w *world) { w.st.Fills = append(w.st.Fills, fill("9", "90", "0.119")) }, 1, "fill: LTCUSDT SELL 0.119 at 84.1"},
		{nil, 0, ""},
		{func(w *world) { w.st.Fills = append(slices.Clone(w.st.Fills), fill("9", "91", "0.2")) }, 1, "LTCUSDT SELL 0.2 at 84.1"},
		{func(w *world) {
			w.st.Orders = state.NewOrderRows(order("1", "FILLED", "2"))
			w.st.Fills = append(slices.Clone(w.st.Fills), state.Fill{Market: "spot", Symbol: "ETHBTC", OrderID: "1", TradeID: "10", Side: "BUY", Qty: "2"})
		}, 1, "fill: ETHBTC BUY LIMIT filled 2 of 2"}, // one alert: the order's
		{func(w *world) { // a resync's myTrades record, sorted in among older fills
			w.st.Fills = slices.Insert(slices.Clone(w.st.Fills), 1, fill("8", "80", "0.3"))
		}, 1, "fill: LTCUSDT SELL 0.3 at 84.1"},
		{func(w *world) { w.st.Fills = w.st.Fills[1:] }, 0, ""}, // the oldest evicted
	})
}

// TestOldFillsAfterTheBaseline: the start's myTrades records (fills from
// before bhtop started, of orders long closed) can be folded in after the
// rules' baseline was taken; they are not new fills and never fire.
func TestOldFillsAfterTheBaseline(t *testing.T) {
	old := func(trade string) state.Fill {
		return state.Fill{Market: "spot", Symbol: "ETHBTC", OrderID: "1" + trade, TradeID: trade, Side: "BUY", Price: "0.05", Qty: "1",
			Time: t0.Add(-time.Hour).UnixMilli()}
	}
	runSteps(t, []Rule{rule(t, 1, map[string]any{"kind": "fill"})}, []step{
		{nil, 0, ""}, // the baseline: the REST snapshot, no fills yet
		{func(w *world) { w.st.Fills = []state.Fill{old("1"), old("2"), old("3")} }, 0, ""},
	})
}
