package ui

import (
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"bhtop/market"
	"bhtop/rest"
	"bhtop/state"
	"bhtop/upstream"
)

// TestMarketPaneAndChart runs the dashboard with a market hub: key 5
// shows the Market pane, c charts the selected symbol with the
// account's order marked, ←/→ and [ ] switch intervals, a new market
// snapshot moves the live bar, and esc closes the chart.
func TestMarketPaneAndChart(t *testing.T) {
	ms := testMarket()
	hub := marketHub(ms)
	tm := startProgram(t, newTestBackend(testSnapshot()), &testTrader{}, 120, 40, WithMarket(hub, "USDT"))
	waitText(t, tm, "equity 147601.70 USDT")

	sendKeys(tm, "5")
	waitText(t, tm, "▶ Market (5)", "BTCUSDT", "+1.68%", "▁")
	sendKeys(tm, "down", "c")
	waitText(t, tm, "▶ BTCUSDT 1m", "[1m]", "BUY 61000.5", "◀61080")

	sendKeys(tm, "right")
	waitText(t, tm, "▶ BTCUSDT 5m", "[5m]", "(from 1m bars)")
	sendKeys(tm, "]")
	waitText(t, tm, "▶ BTCUSDT 15m", "[15m]")
	sendKeys(tm, "left", "[")
	waitText(t, tm, "▶ BTCUSDT 1m", "[1m]")

	// The live bar: the newest 1m bar trades up to a new high.
	next := *ms
	next.Version++
	next.Candles = maps.Clone(ms.Candles)
	key := market.CandleKey("BTCUSDT", "1m")
	bars := ms.Candles[key].All()
	bars[len(bars)-1].High, bars[len(bars)-1].Close = "61400", "61390"
	next.Candles[key] = market.NewBars(bars)
	hub.Publish(&next)
	waitText(t, tm, "H 61400", "C 61390", "◀61390")

	sendKeys(tm, "esc")
	waitText(t, tm, "▶ Market (5)")
	m := finish(t, tm)
	if m.chart != nil {
		t.Errorf("chart still open after esc")
	}
	if m.focus != paneMarket {
		t.Errorf("focus = %d, want the Market pane", m.focus)
	}
	checkScreen(t, m.View().Content, 120, 40)
}

// TestChartFromEveryPane: c charts the selected row's symbol from the
// balances (asset in the valuation asset), orders and positions panes,
// and says so when the row has no symbol.
func TestChartFromEveryPane(t *testing.T) {
	cases := []struct{ keys, want string }{
		{"1 c", "▶ BTCUSDT 1m"},
		{"2 down down down c", "▶ BTCUSDT 1m"},
		{"3 c", "▶ BTC-PERP 1m"},
		{"3 down c", "▶ ETH-PERP 1m"},
		{"4 c", "select a row with a symbol"},
	}
	for _, tc := range cases {
		t.Run(tc.keys, func(t *testing.T) {
			m := press(t, marketModel(testMarket(), 120, 40), tc.keys)
			if out := m.View().Content; !strings.Contains(out, tc.want) {
				t.Errorf("after %q the screen has no %q", tc.keys, tc.want)
			}
		})
	}
}

// TestFormTakesQuotePrices: in the price field b, a and l take the bid,
// the ask and the last; elsewhere they are ordinary keys.
func TestFormTakesQuotePrices(t *testing.T) {
	base := "n down down down down type:0.01 down "
	for k, want := range map[string]string{"b": "61020.4", "a": "61020.6", "l": "61020.5"} {
		m := press(t, marketModel(testMarket(), 120, 40), base+k)
		if m.form == nil || m.form.price != want {
			t.Errorf("%s in the price field: price %q, want %q", k, m.form.price, want)
		}
	}
	m := press(t, marketModel(testMarket(), 120, 40), "n down b")
	if m.form.price != "" || m.form.side != 0 {
		t.Errorf("b in the side field: price %q side %d, want no price and BUY", m.form.price, m.form.side)
	}
}

// TestFormQuoteKeysNeverReplaceTyping: b, a and l take a price only into
// an empty price field or over a price one of them took; typed text
// ("NaN", "6b") stays as typed, marked, never silently becomes a price.
func TestFormQuoteKeysNeverReplaceTyping(t *testing.T) {
	base := "n down down down down type:0.01 down "
	for _, tc := range []struct{ keys, want string }{
		{"type:NaN", "NaN"},
		{"type:6b", "6b"},
		{"type:6 backspace a", "61020.6"},
		{"a b", "61020.4"},
		{"l type:1", "61020.51"},
		{"l type:1 a", "61020.51a"},
	} {
		m := press(t, marketModel(testMarket(), 120, 40), base+tc.keys)
		if m.form == nil || m.form.price != tc.want {
			t.Errorf("%q in the price field: price %q, want %q", tc.keys, m.form.price, tc.want)
		}
		if strings.ContainsAny(tc.want, "Nab") && m.form.errs[fieldPrice] == "" {
			t.Errorf("%q in the price field: %q not marked", tc.keys, m.form.price)
		}
	}
}

func TestCrossWarning(t *testing.T) {
	tests := []struct {
		side, typ, price, want string
	}{
		{"BUY", "LIMIT", "100", ""},
		{"BUY", "LIMIT", "101", "BUY at or above the ask 101: executes at once (taker)"},
		{"BUY", "LIMIT_MAKER", "102", "BUY at or above the ask 101: a LIMIT_MAKER would be rejected"},
		{"SELL", "LIMIT", "100.5", ""},
		{"SELL", "LIMIT", "99", "SELL at or below the bid 99.5: executes at once (taker)"},
		{"SELL", "MARKET", "99", ""},
	}
	for _, tt := range tests {
		p, _ := dec(tt.price)
		if got := crossWarning(tt.side, tt.typ, p, "99.5", "101"); got != tt.want {
			t.Errorf("crossWarning(%s %s @ %s) = %q, want %q", tt.side, tt.typ, tt.price, got, tt.want)
		}
	}
}

// TestMarketSortByChange: the 24 h change sorts by its value, signs and
// percent signs notwithstanding.
func TestMarketSortByChange(t *testing.T) {
	m := press(t, marketModel(testMarket(), 120, 40), "5 s s s")
	p := &m.panes[paneMarket]
	if got := p.sortName(); got != "24h %" {
		t.Fatalf("sort column = %q, want 24h %%", got)
	}
	var got []string
	for _, r := range p.rows {
		got = append(got, r.mrow.symbol)
	}
	want := "ETH-PERP ETHBTC BTC-PERP ETHUSDT BTCUSDT"
	if strings.Join(got, " ") != want {
		t.Errorf("rows by 24h change = %v, want %s", got, want)
	}
}

// TestHistoryHasNoDistance: a closed order has no distance to fill.
func TestHistoryHasNoDistance(t *testing.T) {
	m := press(t, marketModel(testMarket(), 160, 48), "h")
	col := -1
	for i, c := range m.panes[paneOrders].cols {
		if c.title == "To Fill" {
			col = i
		}
	}
	cc := &cellCtx{mk: m.mk}
	for _, it := range m.panes[paneOrders].rows {
		if s := m.panes[paneOrders].cols[col].text(&it, cc); s != "" {
			t.Errorf("closed order %s shows a distance to fill %q", it.ord.OrderID, s)
		}
	}
}

// TestMarketChangeRemeasures: a new market snapshot alone (same account
// state) re-measures the orders' market columns, so a wider last price
// shows whole, and moves the distances to fill.
func TestMarketChangeRemeasures(t *testing.T) {
	ms := testMarket()
	hub := marketHub(ms)
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithMarket(hub, "USDT")), 160, 48)
	m = press(t, m, "2")
	before := m.panes[paneOrders].gen

	next := *ms
	next.Version++
	next.Quotes = maps.Clone(ms.Quotes)
	q := next.Quotes["BTCUSDT"]
	q.Last = "122041.000001"
	next.Quotes["BTCUSDT"] = q
	hub.Publish(&next)
	upd, _ := m.Update(marketMsg{})
	m = upd.(Model)

	if m.panes[paneOrders].gen == before {
		t.Fatalf("orders pane not refreshed by the market change")
	}
	out := m.View().Content
	for _, want := range []string{"122041.000001", "-50.02%"} {
		if !strings.Contains(out, want) {
			t.Errorf("after the market change the screen has no %q:\n%s", want, out)
		}
	}
	checkScreen(t, out, 160, 48)
}

func TestPriceText(t *testing.T) {
	for in, want := range map[string]string{
		"61020.5": "61020.5", "1": "1", "2106.30": "2106.3",
		"0.000016393442622951": "0.000016393443", "16.393442622950819672": "16.393443",
		"123456789.123456789123": "123456789",
	} {
		d, _ := dec(in)
		if got := priceText(d); got != want {
			t.Errorf("priceText(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestFormQuoteKeyWithoutQuote: b on a symbol the market does not quote
// leaves the price empty and says why; after a typed typo a quote key is
// typed too, keeping the typo and its mark (typed text is never replaced).
func TestFormQuoteKeyWithoutQuote(t *testing.T) {
	ms := testMarket()
	delete(ms.Quotes, "BTCUSDT")
	m := press(t, marketModel(ms, 120, 40), "n down down down down type:0.01 down b")
	if m.form.price != "" || !strings.Contains(m.form.errs[fieldPrice], "no bid known for BTCUSDT") {
		t.Errorf("b without a quote: price %q, error %q", m.form.price, m.form.errs[fieldPrice])
	}
	m = press(t, marketModel(testMarket(), 120, 40), "n down down down down type:0.01 down type:1,5 a")
	if m.form.price != "1,5a" || m.form.errs[fieldPrice] == "" {
		t.Errorf("a after a typo: price %q, error %q; want the typed text, marked", m.form.price, m.form.errs[fieldPrice])
	}
}

// TestContractFormCrossWarning: the contract form warns by the contract
// order's own side (BUY_OPEN and BUY_CLOSE buy, SELL_OPEN and
// SELL_CLOSE sell), never by the spot side left in the form, and its
// review repeats the warning as the spot review does.
func TestContractFormCrossWarning(t *testing.T) {
	// BTC-PERP: bid 61049.5, ask 61050.5.
	base := "n up right down down right down down down down type:10 down type:5 down "
	tests := []struct{ price, want string }{
		{"70000", ""},
		{"61000", "SELL at or below the bid 61049.5: executes at once (taker)"},
	}
	for _, tt := range tests {
		m := press(t, marketModel(testMarket(), 120, 40, WithNoColor(true)), base+"type:"+tt.price)
		screen := ansi.Strip(m.View().Content)
		if !strings.Contains(screen, "SELL_OPEN") {
			t.Fatalf("the form is not a SELL_OPEN contract order:\n%s", screen)
		}
		if tt.want == "" {
			if strings.Contains(screen, "⚠") {
				t.Errorf("SELL_OPEN @ %s rests above the ask, but the form warns:\n%s", tt.price, screen)
			}
			continue
		}
		if !strings.Contains(screen, tt.want) {
			t.Errorf("SELL_OPEN @ %s: the form lacks %q:\n%s", tt.price, tt.want, screen)
		}
		m = press(t, m, "enter")
		screen = ansi.Strip(m.View().Content)
		if !strings.Contains(screen, "SEND THIS CONTRACT ORDER?") || !strings.Contains(screen, tt.want) {
			t.Errorf("SELL_OPEN @ %s: the review lacks %q:\n%s", tt.price, tt.want, screen)
		}
	}
}

// TestMarketDownMarksPricesStale: when market data goes down after it
// flowed, the quotes on screen are the last ones received: the Market
// pane says it may be stale, and the panes showing prices and values
// (balances, open orders, positions) say their prices may be; the
// stream being live, nothing else is marked. Back up, the marks go.
func TestMarketDownMarksPricesStale(t *testing.T) {
	ms := testMarket()
	hub := marketHub(ms)
	tm := startProgram(t, newTestBackend(testSnapshot()), &testTrader{}, 170, 48, WithMarket(hub, "USDT")) // the Market pane on the bottom row
	waitText(t, tm, "equity 147601.70 USDT")
	waitGone(t, tm, "may be stale")

	down := *ms
	down.Version++
	down.Health = market.Health{Reason: "reconnecting: quote socket closed"}
	hub.Publish(&down)
	waitText(t, tm, "no market data (reconnecting: quote socket closed)", "Market (5)  ⚠ may be stale",
		"Balances (", "Positions (")
	screen := *tm.screen.Load()
	for _, title := range []string{"Balances (", "Open Orders (", "Positions ("} {
		line := ""
		for _, l := range strings.Split(screen, "\n") {
			if i := strings.Index(l, title); i >= 0 {
				line = l[i:]
				break
			}
		}
		if !strings.Contains(line, "⚠ prices may be stale") {
			t.Errorf("%s title without the prices mark: %q", title, line)
		}
	}
	if strings.Contains(screen, "Fills (") && strings.Contains(screen[strings.Index(screen, "Fills ("):], "Fills (0)  ⚠") {
		t.Errorf("the Fills pane is marked, yet shows no market price:\n%s", screen)
	}

	up := down
	up.Version++
	up.Health = market.Health{Up: true}
	hub.Publish(&up)
	waitGone(t, tm, "may be stale")
	finish(t, tm)
}

// TestMarketOrderReviewEstimates: a spot MARKET order's review says
// about what it costs at the live ask (a BUY) or brings at the bid (a
// SELL), and warns when a BUY's estimate is above the free quote
// balance; without a quote it says the notional is not known.
func TestMarketOrderReviewEstimates(t *testing.T) {
	review := func(m Model) string {
		t.Helper()
		if m.confirm == nil || m.confirm.place == nil {
			t.Fatalf("no order review open")
		}
		return ansi.Strip(m.confirm.question(m.modeCtx()))
	}
	// BTCUSDT: bid 61020.4, ask 61020.6; the account has 10250.75 USDT free.
	buy := review(press(t, marketModel(testMarket(), 120, 40), "n down down right down type:0.5 enter"))
	for _, want := range []string{"BUY 0.5 BTCUSDT MARKET", "notional ≈ 30510.3 USDT at the ask 61020.6", "⚠ needs about 30510.3 USDT, free 10250.75"} {
		if !strings.Contains(buy, want) {
			t.Errorf("BUY review lacks %q:\n%s", want, buy)
		}
	}
	sell := review(press(t, marketModel(testMarket(), 120, 40), "n down right down right down type:0.5 enter"))
	if want := "notional ≈ 30510.2 USDT at the bid 61020.4"; !strings.Contains(sell, want) || strings.Contains(sell, "needs") {
		t.Errorf("SELL review lacks %q or warns:\n%s", want, sell)
	}
	noQuote := testMarket()
	delete(noQuote.Quotes, "BTCUSDT")
	if got := review(press(t, marketModel(noQuote, 120, 40), "n down down right down type:0.5 enter")); !strings.Contains(got, "not known here") {
		t.Errorf("review without a quote:\n%s", got)
	}
}

// TestStopTriggerWarning: a contract STOP order whose trigger the last
// price has already reached (a BUY at or below it, a SELL at or above
// it) triggers as soon as it is placed: the review says so.
func TestStopTriggerWarning(t *testing.T) {
	m := marketModel(testMarket(), 120, 40) // BTC-PERP last 61050
	for _, tc := range []struct {
		side, trigger, want string
	}{
		{"BUY_OPEN", "61000", "⚠ trigger 61000 at or below the last 61050: this BUY stop triggers at once"},
		{"BUY_CLOSE", "61050", "⚠ trigger 61050 at or below the last 61050: this BUY stop triggers at once"},
		{"BUY_OPEN", "61100", ""},
		{"SELL_CLOSE", "61100", "⚠ trigger 61100 at or above the last 61050: this SELL stop triggers at once"},
		{"SELL_OPEN", "61000", ""},
	} {
		r := rest.ContractOrderRequest{Symbol: "BTC-PERP", Side: tc.side, OrderType: "STOP", PriceType: "INPUT",
			Price: "61000", TriggerPrice: tc.trigger, Quantity: "1", Leverage: "10", TimeInForce: "GTC"}
		c := confirmation{contract: &r}
		got := ansi.Strip(c.question(m.modeCtx()))
		switch {
		case tc.want == "" && strings.Contains(got, "triggers at once"):
			t.Errorf("%s stop at %s warns:\n%s", tc.side, tc.trigger, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s stop at %s: review lacks %q:\n%s", tc.side, tc.trigger, tc.want, got)
		}
	}
}

// TestChartSaysWhenMarketIsDown: with market data down after it flowed,
// the chart's bars and quote are the last received: its title says so.
func TestChartSaysWhenMarketIsDown(t *testing.T) {
	down := testMarket()
	down.Health = market.Health{Reason: "reconnecting: quote socket closed"}
	m := press(t, marketModel(down, 120, 40), "5 down c")
	if m.chart == nil {
		t.Fatal("no chart open")
	}
	out := ansi.Strip(m.View().Content)
	title := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "▶ BTCUSDT 1m") {
			title = l
		}
	}
	if !strings.Contains(title, "⚠ no market data: may be stale") {
		t.Errorf("chart title %q does not say the market is down:\n%s", title, out)
	}
	if live := ansi.Strip(press(t, marketModel(testMarket(), 120, 40), "5 down c").View().Content); strings.Contains(live, "may be stale") {
		t.Errorf("live market, yet the chart says stale:\n%s", live)
	}
}

// TestFormSaysWhenMarketIsDown: with market data down after it flowed,
// the order form's bid, ask and last (which b, a and l take as the
// price) and the review's estimate are the last received: both say so,
// and neither does while the market is live.
func TestFormSaysWhenMarketIsDown(t *testing.T) {
	down := testMarket()
	down.Health = market.Health{Reason: "reconnecting: quote socket closed"}
	for _, v := range []goldenView{{"form", "n"}, {"form-price", "n down down down down type:0.01 down b"},
		{"review-market", "n down down right down type:0.01 enter"}} {
		t.Run(v.name, func(t *testing.T) {
			out := ansi.Strip(press(t, marketModel(down, 120, 40), v.keys).View().Content)
			if !strings.Contains(out, "⚠ no market data: quotes may be stale") {
				t.Errorf("market down, yet the %s does not say its quotes may be stale:\n%s", v.name, out)
			}
			if live := ansi.Strip(press(t, marketModel(testMarket(), 120, 40), v.keys).View().Content); strings.Contains(live, "may be stale") {
				t.Errorf("live market, yet the %s says stale:\n%s", v.name, live)
			}
		})
	}
}

// TestChartOfBridgedBalance: c on a balance valued through a bridge (ETH
// in USDT by ETHBTC × BTCUSDT, no ETHUSDT listed) charts the route's
// first symbol, ETHBTC: it asked for ETHUSDT, which does not exist, and
// said "loading 1m candles for ETHUSDT…" for ever.
func TestChartOfBridgedBalance(t *testing.T) {
	ms := testMarket()
	delete(ms.Quotes, "ETHUSDT")
	delete(ms.Instruments, "ETHUSDT")
	m := press(t, marketModel(ms, 120, 40), "1 down c")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "▶ ETHBTC 1m") {
		t.Errorf("the chart of ETH (valued through BTC) is not ETHBTC's:\n%s", out)
	}
}

// TestEquityChangeWaitsForPrices: the header's change since start is
// measured from a valuation that priced what it could: when the first
// one left assets unpriced (their quotes had not come yet: the market
// follows the account's symbols once the account is loaded), the start
// is taken again once they are priced, so the change is the market's,
// not the arrival of a price (it read +XXXX% for a flat account).
func TestEquityChangeWaitsForPrices(t *testing.T) {
	full := testMarket()
	partial := *full
	partial.Quotes = map[string]market.Quote{"BTC-PERP": full.Quotes["BTC-PERP"], "ETH-PERP": full.Quotes["ETH-PERP"]}
	hub := marketHub(&partial)
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithMarket(hub, "USDT")), 160, 48)
	if m.eq.unpriced == 0 {
		t.Fatalf("the partial market prices everything: %+v", m.eq)
	}
	next := *full
	next.Version = partial.Version + 1
	hub.Publish(&next)
	upd, _ := m.Update(marketMsg{})
	m = upd.(Model)
	if m.eq.unpriced != 0 || m.eq.change != "0.00%" {
		t.Errorf("with every price in, the change since start is %q (unpriced %d), want 0.00%%", m.eq.change, m.eq.unpriced)
	}
}

// TestEquityChangeStartComparable: the start of the header's change is
// taken again whenever an asset held then and now went from priced to
// unpriced or back (its value entered or left the equity: no market
// move), not only when fewer assets are unpriced (a price lost, or one
// lost as another came, kept the old start: the change read the lost
// asset's value as a loss); so when a position held then and now gains
// or loses its mark (its PnL enters or leaves the equity); a market move
// keeps it.
func TestEquityChangeStartComparable(t *testing.T) {
	without := func(symbols ...string) *market.Snapshot {
		ms := *testMarket()
		ms.Quotes = maps.Clone(ms.Quotes)
		for _, s := range symbols {
			delete(ms.Quotes, s)
		}
		return &ms
	}
	btcUp := without()
	q := btcUp.Quotes["BTCUSDT"]
	q.Last = "67122.55" // +10 %
	btcUp.Quotes["BTCUSDT"] = q
	perpUp := without()
	pq := perpUp.Quotes["BTC-PERP"]
	pq.Mark = "67155" // +10 %
	perpUp.Quotes["BTC-PERP"] = pq
	for _, c := range []struct {
		name        string
		first, then *market.Snapshot
		want        func(change string) bool
		wantText    string
	}{
		{"a price lost", without(), without("ETHUSDT", "ETHBTC"), func(c string) bool { return c == "0.00%" }, "0.00%"},
		{"one price lost as another came", without("BTCUSDT", "ETHBTC"), without("ETHUSDT", "ETHBTC"), func(c string) bool { return c == "0.00%" }, "0.00%"},
		{"a market move", without(), btcUp, func(c string) bool { return strings.HasPrefix(c, "+") && c != "+0.00%" }, "a gain"},
		// A position's PnL leaves or enters the equity with its mark
		// (its PnL asset, USDT, priced throughout): no market move.
		{"a position's mark lost", without(), without("BTC-PERP"), func(c string) bool { return c == "0.00%" }, "0.00%"},
		{"a position's mark came", without("BTC-PERP"), without(), func(c string) bool { return c == "0.00%" }, "0.00%"},
		{"a position's mark moves", without(), perpUp, func(c string) bool { return strings.HasPrefix(c, "+") && c != "+0.00%" }, "a gain"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hub := marketHub(c.first)
			m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithMarket(hub, "USDT")), 160, 48)
			next := *c.then
			next.Version = c.first.Version + 1
			hub.Publish(&next)
			upd, _ := m.Update(marketMsg{})
			m = upd.(Model)
			if !c.want(m.eq.change) {
				t.Errorf("change since start = %q (unpriced %d), want %s", m.eq.change, m.eq.unpriced, c.wantText)
			}
		})
	}
}

// TestMarketEmptySaysWhyOff: with no market data at all the Market pane
// says why: --no-market, or a journal replayed (which holds the user
// stream only); it said "not connected to the quote service", a failure
// where nothing failed.
func TestMarketEmptySaysWhyOff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		state upstream.ConnState
		want  string
	}{
		{"no-market", upstream.StateLive, "(no market data: off, --no-market)"},
		{"replay", upstream.StateReplay, "(no market data: a journal holds the user stream only)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			st := liveStatus()
			st.State = tc.state
			b.setStatus(st)
			m := press(t, sized(New(b, nil, WithNow(fixedNow), WithNoColor(true)), 80, 24), "5")
			if out := ansi.Strip(m.View().Content); !strings.Contains(out, tc.want) {
				t.Errorf("the Market pane lacks %q:\n%s", tc.want, out)
			}
		})
	}
}

// TestEquityChangeUnpricedPnLAtZero: a position whose PnL asset has no
// price (XYZ) and whose PnL is 0 counts for nothing in the equity, as
// when its PnL is not 0 (then XYZ is unpriced): the PnL leaving 0 is no
// price lost, and the change goes on with the market (BTC +10 % here).
// The start marked XYZ priced (a PnL not listed unpriced), so its PnL
// leaving 0 took the start again: 0.00%.
func TestEquityChangeUnpricedPnLAtZero(t *testing.T) {
	withXYZ := func(mark string, btc string) *market.Snapshot {
		ms := *testMarket()
		ms.Quotes, ms.Instruments = maps.Clone(ms.Quotes), maps.Clone(ms.Instruments)
		ms.Instruments["ABCXYZ-PERP"] = market.Instrument{Symbol: "ABCXYZ-PERP", Base: "ABC", Quote: "XYZ", Contract: true, Multiplier: "1", MarginAsset: "XYZ"}
		ms.Quotes["ABCXYZ-PERP"] = market.Quote{Symbol: "ABCXYZ-PERP", Last: mark, Mark: mark}
		q := ms.Quotes["BTCUSDT"]
		q.Last = btc
		ms.Quotes["BTCUSDT"] = q
		return &ms
	}
	s := testSnapshot()
	s.Positions = append(s.Positions, state.Position{AccountID: "1", Symbol: "ABCXYZ-PERP", Side: "LONG", AvgPrice: "10", Total: "1", Available: "1", Margin: "1"})
	first := withXYZ("10", "61020.5") // its PnL is 0
	hub := marketHub(first)
	m := sized(New(newTestBackend(s), &testTrader{}, WithNow(fixedNow), WithMarket(hub, "USDT")), 160, 48)
	if m.eq.unpriced != 0 || m.eq.change != "0.00%" {
		t.Fatalf("at start: change %q, unpriced %d; want 0.00%%, none (the test's premise)", m.eq.change, m.eq.unpriced)
	}
	next := withXYZ("11", "67122.55") // its PnL 1 XYZ, unpriced; BTC +10 %
	next.Version = first.Version + 1
	hub.Publish(next)
	upd, _ := m.Update(marketMsg{})
	m = upd.(Model)
	if m.eq.unpriced != 1 || !strings.HasPrefix(m.eq.change, "+") || m.eq.change == "+0.00%" {
		t.Errorf("change since start = %q (unpriced %d), want a gain (BTC's), 1 unpriced", m.eq.change, m.eq.unpriced)
	}
}

// TestHeaderEquityNothingPriced (QA): with a valuation asset nothing is
// priced in (--value-in XYZ) the header read "eq 0.00000000 XYZ": a false
// 0, and the count of unpriced assets was left out of the short form
// (every screen narrower than the long one, 100 columns included). The
// equity now reads "—" and the count shows in both forms.
func TestHeaderEquityNothingPriced(t *testing.T) {
	for _, w := range []int{100, 200} {
		m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithNoColor(true),
			WithMarket(marketHub(testMarket()), "XYZ")), w, 30)
		header, _, _ := strings.Cut(ansi.Strip(m.View().Content), "\n")
		if strings.Contains(header, "0.00") || !regexp.MustCompile(`eq(uity)? — XYZ \(\d+ unpriced\)`).MatchString(header) {
			t.Errorf("%d columns: header %q, want the equity unknown and the unpriced count", w, header)
		}
	}
}
