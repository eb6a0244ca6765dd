package market

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/state"
)

func push(t *testing.T, s *Store, frame string) {
	t.Helper()
	var p Push
	if err := DecodeFrame([]byte(frame), &p); err != nil {
		t.Fatalf("DecodeFrame(%s): %v", frame, err)
	}
	s.ApplyPush(&p)
}

func testStore() *Store {
	s := NewStore(nil, func() time.Time { return time.UnixMilli(5000) })
	s.SetInstruments(map[string]Instrument{
		"BTCUSDT":  {Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT", Multiplier: "1"},
		"ETH-PERP": {Symbol: "ETH-PERP", Base: "ETH", Quote: "USDT", Contract: true, Multiplier: "1", Index: "ETHUSDT", MarginAsset: "USDT"},
	})
	return s
}

func TestStoreFoldsPushes(t *testing.T) {
	s := testStore()
	push(t, s, `{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1000,"s":"BTCUSDT","c":"100","h":"110","l":"90","o":"95","v":"7","qv":"700"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"depth","data":[{"t":1001,"b":[["99","1"],["98","2"]],"a":[["101","3"]]}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"2","t":1003,"p":"100.5","q":"1"},{"v":"1","t":1002,"p":"100.2","q":"1"}],"f":true}`)
	// A ticker older than the newest trade leaves the last price alone.
	push(t, s, `{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1002,"s":"BTCUSDT","c":"99.9","h":"110","l":"90","o":"95","v":"8","qv":"800"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":60000,"c":"1","h":"1","l":"1","o":"1","v":"1"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":60000,"c":"2","h":"2","l":"1","o":"1","v":"3"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":120000,"c":"3","h":"3","l":"2","o":"2","v":"1"}]}`)
	push(t, s, `{"symbol":"ETH-PERP","topic":"trade","data":[{"v":"9","t":1500,"p":"3011.5","q":"1"}]}`)
	s.SetIndex(map[string]string{"ETHUSDT": "3010.1"})
	snap := s.Publish()

	q := snap.Quotes["BTCUSDT"]
	want := Quote{Symbol: "BTCUSDT", Last: "100.5", Bid: "99", BidQty: "1", Ask: "101", AskQty: "3",
		Open24h: "95", High24h: "110", Low24h: "90", Volume24h: "8", QuoteVolume: "800", Updated: 1003}
	if q != want {
		t.Errorf("BTCUSDT quote\n got %+v\nwant %+v", q, want)
	}
	if tr := snap.Trades["BTCUSDT"]; len(tr) != 2 || tr[0].ID != "1" || tr[1].ID != "2" {
		t.Errorf("tape = %+v, want ids 1, 2 (time order)", tr)
	}
	bars := snap.Candles[CandleKey("BTCUSDT", "1m")].All()
	if len(bars) != 2 || bars[0].Close != "2" || bars[0].Volume != "3" || bars[1].OpenTime != 120000 {
		t.Errorf("bars = %+v, want the current bar replaced, then a new one", bars)
	}
	if p := snap.Quotes["ETH-PERP"]; p.Mark != "3011.5" || p.Last != "3011.5" || p.Index != "3010.1" {
		t.Errorf("contract quote = %+v, want mark = last 3011.5, index 3010.1", p)
	}
	if snap.Version != 1 || s.Publish() != snap {
		t.Errorf("version %d; a publish with nothing new must return the same snapshot", snap.Version)
	}

	// Snapshots are immutable: later pushes never show in them.
	push(t, s, `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"3","t":1004,"p":"102","q":"1"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":120000,"c":"9","h":"9","l":"2","o":"2","v":"1"}]}`)
	next := s.Publish()
	if len(snap.Trades["BTCUSDT"]) != 2 || snap.Quotes["BTCUSDT"].Last != "100.5" || snap.Candles[CandleKey("BTCUSDT", "1m")].At(1).Close != "3" {
		t.Errorf("an old snapshot changed: %+v", snap.Trades["BTCUSDT"])
	}
	if next.Version != 2 || next.Quotes["BTCUSDT"].Last != "102" || len(next.Trades["BTCUSDT"]) != 3 {
		t.Errorf("next snapshot: version %d, last %s", next.Version, next.Quotes["BTCUSDT"].Last)
	}

	s.Remove("BTCUSDT")
	gone := s.Publish()
	if _, ok := gone.Quotes["BTCUSDT"]; ok || gone.Trades["BTCUSDT"] != nil || gone.Candles[CandleKey("BTCUSDT", "1m")].Len() != 0 {
		t.Errorf("Remove left BTCUSDT behind")
	}
}

func TestStoreTapeKeepsTheNewest(t *testing.T) {
	s := testStore()
	for i := range 3 * MaxTrades {
		push(t, s, fmt.Sprintf(`{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"%d","t":%d,"p":"1","q":"1"}]}`, i, i))
	}
	tr := s.Publish().Trades["BTCUSDT"]
	if len(tr) != MaxTrades || tr[MaxTrades-1].ID != fmt.Sprint(3*MaxTrades-1) {
		t.Errorf("tape has %d trades, newest %s; want %d ending with the newest", len(tr), tr[len(tr)-1].ID, MaxTrades)
	}
}

func TestStoreRESTSnapshot(t *testing.T) {
	s := testStore()
	s.ApplyTicker24h(rest.Ticker24h{Symbol: "BTCUSDT", Time: 10, Last: "100", BestBid: "99", BestAsk: "101", Open: "90", High: "110", Low: "80", Volume: "5"})
	if q := s.Publish().Quotes["BTCUSDT"]; q.Bid != "99" || q.Last != "100" {
		t.Errorf("after ticker: %+v", q)
	}
	s.ApplyDepth("BTCUSDT", rest.Depth{Bids: []rest.PriceLevel{{Price: "99.5", Qty: "1"}}, Asks: []rest.PriceLevel{{Price: "100.5", Qty: "2"}}})
	s.ApplyBookTicker(rest.BookTicker{Symbol: "BTCUSDT", BidPrice: "1", AskPrice: "2"}) // a book is known: ignored
	s.ApplyTrades("BTCUSDT", []rest.PublicTrade{{Price: "100.1", Qty: "1", Time: 20}, {Price: "100.2", Qty: "1", Time: 19}})
	s.ApplyKlines("BTCUSDT", "5m", []rest.Kline{{OpenTime: 600000, Close: "2"}, {OpenTime: 300000, Close: "1"}})
	snap := s.Publish()
	q := snap.Quotes["BTCUSDT"]
	if q.Bid != "99.5" || q.Ask != "100.5" || q.Last != "100.1" {
		t.Errorf("quote = %+v, want the book's best and the newest trade's price", q)
	}
	if bars := snap.Candles[CandleKey("BTCUSDT", "5m")].All(); len(bars) != 2 || bars[0].OpenTime != 300000 {
		t.Errorf("bars = %+v, want sorted by open time", bars)
	}
}

func TestStoreHealth(t *testing.T) {
	s := testStore()
	s.SetHealth(false, "quote endpoints answer 404")
	h := s.Publish().Health
	if h.Up || h.Reason != "quote endpoints answer 404" || h.Since != 5000 {
		t.Errorf("Health = %+v", h)
	}
}

func TestTouched(t *testing.T) {
	ins := map[string]Instrument{}
	for _, s := range []Instrument{
		{Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT"}, {Symbol: "ETHBTC", Base: "ETH", Quote: "BTC"},
		{Symbol: "LTCBTC", Base: "LTC", Quote: "BTC"}, {Symbol: "USDTEUR", Base: "USDT", Quote: "EUR"},
		{Symbol: "BHTETH", Base: "BHT", Quote: "ETH"}, {Symbol: "ETHUSDT", Base: "ETH", Quote: "USDT"},
		{Symbol: "XRPUSDT", Base: "XRP", Quote: "USDT"},
		{Symbol: "ETH-PERP", Base: "ETH", Quote: "USDT", Contract: true},
	} {
		ins[s.Symbol] = s
	}
	st := &state.Snapshot{
		Balances: []state.Balance{{Asset: "USDT"}, {Asset: "BTC"}, {Asset: "LTC"}, {Asset: "EUR"}, {Asset: "BHT"}, {Asset: "XYZ"}},
		Orders: state.NewOrderRows(
			&state.Order{Symbol: "XRPUSDT", Status: "NEW"},
			&state.Order{Symbol: "ETHBTC", Status: "FILLED"},
			&state.Order{Symbol: "NOPE", Status: "NEW"},
		),
		Positions: []state.Position{{Symbol: "ETH-PERP", Side: "LONG"}},
	}
	got := Touched(st, ins, "USDT", []string{"ETHUSDT", "UNKNOWN"})
	// BTC: BTCUSDT; LTC: LTCBTC + BTCUSDT; EUR: USDTEUR; BHT: through
	// ETH (BHTETH + ETHUSDT); XRPUSDT (open order); ETH-PERP; ETHUSDT.
	want := []string{"BHTETH", "BTCUSDT", "ETH-PERP", "ETHUSDT", "LTCBTC", "USDTEUR", "XRPUSDT"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Touched = %v, want %v", got, want)
	}
}

func TestStoreHidesAndShows(t *testing.T) {
	s := testStore()
	push(t, s, `{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1000,"s":"BTCUSDT","c":"100","h":"110","l":"90","o":"95","v":"7","qv":"700"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"depth","data":[{"t":1001,"b":[["99","1"]],"a":[["101","3"]]}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"1","t":1002,"p":"100.2","q":"1"}],"f":true}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":60000,"c":"1","h":"1","l":"1","o":"1","v":"1"}]}`)
	push(t, s, `{"symbol":"ETH-PERP","topic":"trade","data":[{"v":"9","t":1500,"p":"3011.5","q":"1"}]}`)
	first := s.Publish()

	s.Hide("BTCUSDT")
	// Pushes go on updating a hidden symbol.
	push(t, s, `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"2","t":1003,"p":"100.5","q":"1"}]}`)
	hid := s.Publish()
	_, q := hid.Quotes["BTCUSDT"]
	_, b := hid.Books["BTCUSDT"]
	_, tr := hid.Trades["BTCUSDT"]
	_, k := hid.Candles[CandleKey("BTCUSDT", "1m")]
	if q || b || tr || k || hid.Quotes["ETH-PERP"].Last != "3011.5" {
		t.Fatalf("hidden BTCUSDT published: quote %v book %v trades %v bars %v; quotes %v", q, b, tr, k, hid.Quotes)
	}
	moved := map[string]bool{}
	if !hid.MovedSince(first, func(sym string) { moved[sym] = true }) || !moved["BTCUSDT"] {
		t.Errorf("hiding BTCUSDT is not in the move log: %v", moved)
	}

	s.Show("BTCUSDT")
	back := s.Publish()
	if back.Quotes["BTCUSDT"].Last != "100.5" || len(back.Trades["BTCUSDT"]) != 2 ||
		back.Candles[CandleKey("BTCUSDT", "1m")].Len() != 1 || len(back.Books["BTCUSDT"].Bids) != 1 {
		t.Fatalf("shown BTCUSDT = %+v, %d trades", back.Quotes["BTCUSDT"], len(back.Trades["BTCUSDT"]))
	}

	// Removing a hidden symbol forgets it: new data shows.
	s.Hide("BTCUSDT")
	s.Remove("BTCUSDT")
	push(t, s, `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"3","t":1004,"p":"101","q":"1"}],"f":true}`)
	if got := s.Publish().Quotes["BTCUSDT"].Last; got != "101" {
		t.Errorf("BTCUSDT after Remove and a trade: last %q, want 101", got)
	}
}

// TestStoreTradesStayPublished: a snapshot shares the store's trade tape,
// so a later late trade, trim or first push must not change it.
func TestStoreTradesStayPublished(t *testing.T) {
	s := testStore()
	trade := func(id, at int, first bool) {
		push(t, s, fmt.Sprintf(`{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"%d","t":%d,"p":"100","q":"1"}],"f":%v}`, id, at, first))
	}
	for i := range 10 {
		trade(i, 1000+10*i, i == 0)
	}
	snap := s.Publish()
	want := slices.Clone(snap.Trades["BTCUSDT"])
	trade(100, 1095, false) // appended
	mid := s.Publish()
	trade(101, 1005, false) // late: inserted before published trades
	for i := range 3 * MaxTrades {
		trade(200+i, 2000+i, false) // trims the tape
	}
	s.Publish()
	trade(999, 9000, true) // a first push replaces the tape
	last := s.Publish()
	if got := snap.Trades["BTCUSDT"]; !slices.Equal(got, want) {
		t.Errorf("published trades changed:\n got %v\nwant %v", got, want)
	}
	if got := mid.Trades["BTCUSDT"]; len(got) != 11 || got[10].ID != "100" || !slices.Equal(got[:10], want) {
		t.Errorf("second snapshot's trades = %v", got)
	}
	if got := last.Trades["BTCUSDT"]; len(got) != 1 || got[0].ID != "999" {
		t.Errorf("after a first push: %v", got)
	}
}

// TestStoreBarsStayPublished: a snapshot shares all but the newest bar
// with the store, so a later push of the current bar, a new bar, a late
// bar, a trim or a REST answer must not change it.
func TestStoreBarsStayPublished(t *testing.T) {
	s := testStore()
	bar := func(open, close int) {
		push(t, s, fmt.Sprintf(`{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":%d,"c":"%d","h":"1","l":"1","o":"1","v":"1"}]}`, open, close))
	}
	key := CandleKey("BTCUSDT", "1m")
	for i := range 5 {
		bar(60000*(i+1), i)
	}
	snap := s.Publish()
	want := snap.Candles[key].All()
	steps := []struct {
		name string
		do   func()
	}{
		{"current bar", func() { bar(300000, 99) }},
		{"new bar", func() { bar(360000, 98) }},
		{"late bar", func() { bar(120000, 97) }},
		{"bar between", func() { bar(90000, 96) }},
		{"trim", func() {
			// Up to the trim, published, then one more bar: the trim
			// then works in an array a snapshot holds.
			for i := range MaxCandles + MaxCandles/2 - 7 {
				bar(400000+60000*i, 95)
			}
			full := s.Publish()
			if bars := s.candles[key]; cap(bars) == len(bars) {
				t.Fatalf("the series' array is full (%d bars): the trim would not reuse it", len(bars))
			}
			before := full.Candles[key].All()
			bar(400000+60000*(MaxCandles+MaxCandles/2-7), 95)
			if got := full.Candles[key].All(); !slices.Equal(got, before) {
				t.Fatal("the trim changed the bars of the snapshot before it")
			}
		}},
		{"REST", func() { s.ApplyKlines("BTCUSDT", "1m", []rest.Kline{{OpenTime: 60000, Close: "94"}}) }},
	}
	var snaps []*Snapshot
	var wants [][]Candle
	for _, st := range steps {
		st.do()
		next := s.Publish()
		if got := snap.Candles[key].All(); !slices.Equal(got, want) {
			t.Fatalf("after %s, the first snapshot's bars changed:\n got %v\nwant %v", st.name, got, want)
		}
		for i, sn := range snaps {
			if got := sn.Candles[key].All(); !slices.Equal(got, wants[i]) {
				t.Fatalf("after %s, the snapshot after %s changed", st.name, steps[i].name)
			}
		}
		snaps, wants = append(snaps, next), append(wants, next.Candles[key].All())
	}
	if got := wants[0]; len(got) != 5 || got[4].Close != "99" {
		t.Errorf("after the current bar: %v", got)
	}
	if got := wants[3]; len(got) != 7 || got[1].OpenTime != 90000 || got[2].Close != "97" {
		t.Errorf("after a late bar and one between: %v", got)
	}
	if got := wants[4]; len(got) != MaxCandles || got[MaxCandles-1].OpenTime != 400000+60000*(MaxCandles+MaxCandles/2-7) {
		t.Errorf("after the trim: %d bars", len(got))
	}
	if got := wants[5]; len(got) != 1 || got[0].Close != "94" {
		t.Errorf("after REST: %v", got)
	}
}

func TestBars(t *testing.T) {
	cs := []Candle{{OpenTime: 1}, {OpenTime: 2}, {OpenTime: 3}}
	b := NewBars(cs)
	if b.Len() != 3 || b.At(0).OpenTime != 1 || b.At(2).OpenTime != 3 {
		t.Errorf("NewBars(%v): Len %d, At(0) %v, At(2) %v", cs, b.Len(), b.At(0), b.At(2))
	}
	for _, c := range []struct{ n, want int }{{-1, 0}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {9, 3}} {
		got := b.Tail(c.n)
		if len(got) != c.want || (c.want > 0 && got[c.want-1].OpenTime != 3) {
			t.Errorf("Tail(%d) = %v, want the newest %d", c.n, got, c.want)
		}
	}
	if tail := b.Tail(2); &tail[0] == &cs[1] {
		t.Error("Tail shares its result with the series")
	}
	var zero Bars
	if zero.Len() != 0 || zero.All() != nil || NewBars(nil).Len() != 0 {
		t.Errorf("empty series: Len %d, All %v", zero.Len(), zero.All())
	}
}

// TestStoreForgetDropsLatePushes: a symbol the client dropped (its
// cancel sent) may still have pushes on the way; they must not bring it
// back, with a stale last price and no one to remove it (a closed order
// of a symbol not followed reads Last —), until it is expected again.
func TestStoreForgetDropsLatePushes(t *testing.T) {
	s := testStore()
	trade := `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"1","t":1002,"p":"100.2","q":"1"}],"f":true}`
	push(t, s, trade)
	s.Forget("BTCUSDT")
	push(t, s, trade)
	push(t, s, `{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1003,"s":"BTCUSDT","c":"100","h":"110","l":"90","o":"95","v":"7","qv":"700"}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"depth","data":[{"t":1004,"b":[["99","1"]],"a":[["101","3"]]}]}`)
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":60000,"c":"1","h":"1","l":"1","o":"1","v":"1"}]}`)
	m := s.Publish()
	_, q := m.Quotes["BTCUSDT"]
	_, b := m.Books["BTCUSDT"]
	_, tr := m.Trades["BTCUSDT"]
	_, k := m.Candles[CandleKey("BTCUSDT", "1m")]
	if q || b || tr || k {
		t.Fatalf("late pushes of a forgotten BTCUSDT published: quote %v book %v trades %v bars %v", q, b, tr, k)
	}
	s.Expect("BTCUSDT")
	push(t, s, trade)
	if got := s.Publish().Quotes["BTCUSDT"].Last; got != "100.2" {
		t.Errorf("BTCUSDT expected again: last %q, want 100.2", got)
	}
}
