package ui

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/stream"
)

// TestChartLoadsIntervalsFromSimulator: against the simulator, the chart
// asks the market client for the bars of the interval it shows, and 1d
// and 1M show the service's own bars, not ones merged from 1m bars.
func TestChartLoadsIntervalsFromSimulator(t *testing.T) {
	srv := simtest.Start(t, sim.Options{Activity: 5, MarketActivity: 20})
	sess, err := stream.New(stream.Config{REST: srv.Client(), WSURL: srv.WSURL(), Simulated: true})
	testkit.Live(t, sess, err) // (the simulator's start: LiveWithin, not waitLimit)
	mc := simtest.Market(t, srv.Server, sess.Hub(), func(c *market.Config) { c.Watch = []string{"BTCUSDT"} })

	m := New(sess, nil, WithNoColor(true), WithMarket(mc.Hub(), "USDT"), WithCandles(mc))
	tm := runModel(t, m, 160, 48)
	waitText(t, tm, "● live", "BTCUSDT")
	sendKeys(tm, "5", "/")
	tm.Type("BTCUSDT")
	sendKeys(tm, "enter")
	// The market's first quotes may come after the account's (the
	// BTCUSDT waited for above can be an order's): c on an empty Market
	// pane charts nothing.
	waitText(t, tm, "Market (1)  filter:/BTCUSDT")
	sendKeys(tm, "c")
	waitText(t, tm, "▶ BTCUSDT 1m")
	sendKeys(tm, "left", "left", "left") // 1m → 1M → 1w → 1d
	waitText(t, tm, "▶ BTCUSDT 1d  last")
	waitGone(t, tm, "(from 1m bars)")
	// The socket's current 1d bar can come before the fetched history
	// (the chart shows it meanwhile): wait for the history.
	if !testkit.Within(10*time.Second, func() bool {
		return mc.Hub().Latest().Candles[market.CandleKey("BTCUSDT", "1d")].Len() >= 2
	}) {
		t.Fatalf("the market holds %d 1d bars, want the service's history",
			mc.Hub().Latest().Candles[market.CandleKey("BTCUSDT", "1d")].Len())
	}
	sendKeys(tm, "right", "right") // 1w, 1M: no 1m bars merge into a month
	waitText(t, tm, "▶ BTCUSDT 1M  last", " O ")
	finish(t, tm)
}

// waitGone waits until no screen line has text.
func waitGone(t *testing.T, p *program, text string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s := p.screen.Load()
		if s != nil && !strings.Contains(*s, text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q still on the screen:\n%s", text, *s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// recordedLoads remembers the bars the chart asked for (the fixture
// market has no client to ask).
type recordedLoads struct {
	mu   sync.Mutex
	asks []string
}

func (r *recordedLoads) LoadCandles(symbol, interval string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asks = append(r.asks, symbol+" "+interval)
}

func (r *recordedLoads) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.asks)
}

// dayBars adds 30 daily BTCUSDT bars ending with the day of t0 to s, the
// last one older than the fixture's newest 1m bars.
func dayBars(s *market.Snapshot) *market.Snapshot {
	day := t0.Truncate(24 * time.Hour)
	var bars []market.Candle
	for i := range 30 {
		o := 52000 + (i*53)%23*150
		c := o + ((i*31)%9-4)*180
		bars = append(bars, market.Candle{OpenTime: day.Add(time.Duration(i-29) * 24 * time.Hour).UnixMilli(),
			Open: strconv.Itoa(o), High: strconv.Itoa(max(o, c) + 300), Low: strconv.Itoa(min(o, c) - 250), Close: strconv.Itoa(c), Volume: "100"})
	}
	bars[29].High, bars[29].Low = "60500", "59000" // the fixture's 1m bars lift and close it
	s.Candles[market.CandleKey("BTCUSDT", "1d")] = market.NewBars(bars)
	return s
}

// TestChartAsksForBars: opening the chart and changing its interval tell
// the loader what it shows (so it keeps a charted symbol's bars), the
// re-asks only ask for bars the market lacks, and the market's own 1d
// bars show with their newest bar kept live by the 1m bars (golden at
// 120×30).
func TestChartAsksForBars(t *testing.T) {
	loads := &recordedLoads{}
	m := marketModel(dayBars(testMarket()), 120, 30, WithNoColor(true), WithCandles(loads))
	m = press(t, m, "2 down down down c left left left")
	if got, want := loads.got(), []string{"BTCUSDT 1m", "BTCUSDT 1M", "BTCUSDT 1w", "BTCUSDT 1d"}; !slices.Equal(got, want) {
		t.Errorf("asked for %q, want %q (the chart's symbol at each interval it showed)", got, want)
	}
	if out := plainGolden(t, m, 120, 30); strings.Contains(out, "from 1m bars") {
		t.Errorf("1d bars are in the market, yet the chart merges them:\n%s", out)
	}
	// The re-ask waits reaskCandles; a market notice past it asks again.
	if m.loadCandles(false) != nil {
		t.Error("asked again before reaskCandles passed")
	}
	m.nowFn = func() time.Time { return t0.Add(time.Hour) }
	m = press(t, m, "right right")
	if cmd := m.loadCandles(false); cmd != nil { // what onMarket asks
		cmd()
	}
	if got := loads.got(); len(got) < 4 || got[len(got)-1] != "BTCUSDT 1M" {
		t.Errorf("asks %q: want 1M asked again", got)
	}
}

// TestLiveTail: the newest bar of an interval takes the newer 1m bars'
// extremes and close; 1m bars past its end make a new bar.
func TestLiveTail(t *testing.T) {
	h := time.Hour.Milliseconds()
	min := time.Minute.Milliseconds()
	bars := []market.Candle{
		{OpenTime: 0, Open: "1", High: "5", Low: "1", Close: "4", Volume: "9"},
		{OpenTime: h, Open: "4", High: "6", Low: "3", Close: "5", Volume: "2"},
	}
	ones := []market.Candle{
		{OpenTime: h - min, Open: "4", High: "9", Low: "0", Close: "4"}, // before the newest bar: ignored
		{OpenTime: h + 2*min, Open: "5", High: "8", Low: "4", Close: "7"},
		{OpenTime: 2*h + min, Open: "7", High: "7.5", Low: "6", Close: "6.5"},
	}
	got := liveTail(bars, ones, "1h")
	want := []market.Candle{
		bars[0],
		{OpenTime: h, Open: "4", High: "8", Low: "3", Close: "7", Volume: "2"},
		{OpenTime: 2 * h, Open: "7", High: "7.5", Low: "6", Close: "6.5", Volume: "0"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("liveTail =\n%+v\nwant\n%+v", got, want)
	}
	if bars[1].High != "6" {
		t.Error("liveTail changed the market's bars")
	}
	if got := liveTail(bars, ones[:1], "1h"); &got[0] != &bars[0] {
		t.Error("nothing newer: the bars must be returned as they are")
	}
	if got := liveTail(bars, ones, "1M"); &got[0] != &bars[0] {
		t.Error("1M bars must stay as they are")
	}
}

// TestChartSaysWhyItWaits: a chart without bars says why: loading once
// asked, the loader's reason (request weight, a failed load it retries),
// none from the service, or no market data at all; never "no candles"
// while they load.
func TestChartSaysWhyItWaits(t *testing.T) {
	key := market.CandleKey("ETHBTC", "1m")
	ms := func(why string) *market.Snapshot {
		return &market.Snapshot{Version: 3, BarsWait: map[string]string{key: why}}
	}
	asked := chartState{symbol: "ETHBTC", asked: t0}
	for _, tc := range []struct {
		c    chartState
		ms   *market.Snapshot
		want string
	}{
		{chartState{symbol: "ETHBTC"}, ms(""), "no 1m candles for ETHBTC yet"},
		{asked, ms(""), "loading 1m candles for ETHBTC…"},
		{asked, ms(market.BarsLoading), "loading 1m candles for ETHBTC…"},
		{asked, ms(market.BarsNoWeight), "1m candles for ETHBTC: " + market.BarsNoWeight},
		{asked, ms("load failed (HTTP 502), retrying"), "1m candles for ETHBTC: load failed (HTTP 502), retrying"},
		{asked, ms(market.BarsNone), "no 1m candles for ETHBTC yet"},
		{asked, &market.Snapshot{Health: market.Health{Reason: "quote endpoints answer 404"}}, "no market data (quote endpoints answer 404)"},
	} {
		if got := tc.c.noBars(tc.ms, "1m"); got != tc.want {
			t.Errorf("BarsWait %q, asked %v: %q, want %q", tc.ms.BarsWait[key], !tc.c.asked.IsZero(), got, tc.want)
		}
	}
}

// TestChartKeepsANewOrdersSymbol is the chart seen once by hand saying
// "no 1m candles for ETHBTC yet" for seconds: opened on a symbol in the
// second its order appeared (ETHBTC: the demo account touches it by that
// order only), it lost its bars when the order went and the market client
// hid the symbol. Against the simulator: the chart keeps its candles.
func TestChartKeepsANewOrdersSymbol(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	sess, err := stream.New(stream.Config{REST: srv.Client(), WSURL: srv.WSURL(), Simulated: true})
	testkit.Live(t, sess, err) // (the simulator's start: LiveWithin, not waitLimit)
	mc := simtest.Market(t, srv.Server, sess.Hub(), nil)
	tm := runModel(t, New(sess, nil, WithNoColor(true), WithMarket(mc.Hub(), "USDT"), WithCandles(mc)), 160, 48)
	waitText(t, tm, "● live")

	tr := srv.Trader()
	placed := tr.PlaceOrder(t.Context(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "1", Price: "0.02"})
	if placed.Outcome != rest.OutcomeAccepted {
		t.Fatalf("placing the ETHBTC order: %+v", placed)
	}
	waitText(t, tm, "Open Orders (1)", "spot ETHBTC")
	sendKeys(tm, "2", "c") // the open orders, the chart of the order's symbol
	waitText(t, tm, "▶ ETHBTC 1m", " O ")
	if res := tr.CancelOrder(t.Context(), rest.CancelRequest{Symbol: "ETHBTC", ClientOrderID: placed.ClientOrderID}); res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("canceling the ETHBTC order: %+v", res)
	}
	testkit.Eventually(t, 10*time.Second, func() bool { _, quoted := mc.Hub().Latest().Quotes["ETHBTC"]; return !quoted },
		"ETHBTC hidden by the market client")
	time.Sleep(200 * time.Millisecond) // several market publications and frames
	if s := *tm.screen.Load(); !strings.Contains(s, " O ") || strings.Contains(s, "candles for ETHBTC") {
		t.Errorf("the order went and the chart lost its bars:\n%s", s)
	}
	finish(t, tm)
}

// TestFormFollowsItsSymbol: against the simulator, the order form on a
// symbol the account does not touch (LTCBTC) gets its live bid, ask and
// last from the market client, so it can take them as the price and warn
// of a limit order that would execute at once; closing the form lets the
// symbol go.
func TestFormFollowsItsSymbol(t *testing.T) {
	srv := simtest.Start(t, sim.Options{MarketActivity: 20})
	sess, err := stream.New(stream.Config{REST: srv.Client(), WSURL: srv.WSURL(), Simulated: true})
	testkit.Live(t, sess, err) // (the simulator's start: LiveWithin, not waitLimit)
	mc := simtest.Market(t, srv.Server, sess.Hub(), nil)
	m := New(sess, &testTrader{}, WithNoColor(true), WithMarket(mc.Hub(), "USDT"), WithCandles(mc))
	tm := runModel(t, m, 170, 48) // the Market pane on the bottom row
	waitText(t, tm, "● live", "BTCUSDT")
	sendKeys(tm, "n")
	waitText(t, tm, "New spot order")
	tm.Type("LTCBTC")
	waitText(t, tm, "◀ LTCBTC", "bid 0.00", "ask 0.00", "last 0.00")
	sendKeys(tm, "tab", "tab", "tab", "tab")
	tm.Type("1")
	sendKeys(tm, "tab")
	tm.Type("1") // far above the ask
	waitText(t, tm, "executes at once")
	sendKeys(tm, "esc")
	waitGone(t, tm, "LTCBTC")
	finish(t, tm)
}

// recordedFollows is a candle loader that also records what the form
// asked the market client to follow.
type recordedFollows struct {
	recordedLoads
	follows []string
}

func (r *recordedFollows) Follow(symbol string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.follows = append(r.follows, symbol)
}

func (r *recordedFollows) followed() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.follows)
}

// TestFormFollowsOnlyTheSymbolItRestsOn: stepping through symbols with
// ←/→ follows only the one the form rests on (each new symbol costs the
// market client a REST snapshot: holding → through hundreds of symbols
// must not spend the request weight), and closing the form stops.
func TestFormFollowsOnlyTheSymbolItRestsOn(t *testing.T) {
	rec := &recordedFollows{}
	tm := startProgram(t, newTestBackend(testSnapshot()), &testTrader{}, 120, 40,
		WithMarket(marketHub(testMarket()), "USDT"), WithCandles(rec))
	sendKeys(tm, "n")
	waitText(t, tm, "New spot order", "◀ BTCUSDT") // the first symbol, once the symbols loaded
	sendKeys(tm, "right", "right")                 // BTCUSDT → ETHBTC → ETHUSDT, passing ETHBTC at once
	waitText(t, tm, "◀ ETHUSDT")
	deadline := time.Now().Add(waitLimit)
	for !slices.Contains(rec.followed(), "ETHUSDT") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// BTCUSDT may have been followed if the machine was slow to press →.
	if got := slices.DeleteFunc(rec.followed(), func(s string) bool { return s == "BTCUSDT" }); !slices.Equal(got, []string{"ETHUSDT"}) {
		t.Errorf("followed %q, want only the symbol the form rests on", rec.followed())
	}
	sendKeys(tm, "esc")
	waitText(t, tm, "order form closed")
	finish(t, tm)
	if got := rec.followed(); got[len(got)-1] != "" {
		t.Errorf("followed %q, want none once the form closed", got)
	}
}
