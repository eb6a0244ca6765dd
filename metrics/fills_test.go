package metrics

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"

	"bhtop/dec"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// TestRebatesNeverLowerFees: on a service that pays makers (a negative
// commission, as a rebate is reported), bhtop_fees_total{asset} counts
// the commissions charged and bhtop_fee_rebates_total{asset} the rebates
// paid, so neither counter ever goes down. A real Prometheus scrapes the
// registry before and after a maker fill whose rebate is in the asset a
// taker fill was charged in: it sees no reset of bhtop_fees_total, and
// both counters equal the simulator's myTrades records, summed exactly.
func TestRebatesNeverLowerFees(t *testing.T) {
	l := newLiveOn(t, "desk", sim.Options{MakerRate: "-0.0002", Accounts: 2})
	prom := startPrometheus(t, l.reg)
	ctx := context.Background()
	tr := rest.NewTrader(l.rest)
	other := l.sim.Accounts(sim.DemoSecret)[1] // another trader
	taker := rest.NewTrader(l.sim.ClientAs(other.APIKey, other.SecretKey))
	place := func(r rest.OrderRequest) {
		t.Helper()
		tr := tr
		if r.Type == "MARKET" && r.Side == "BUY" {
			tr = taker
		}
		if res := tr.PlaceOrder(ctx, r); res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("%+v: %+v", r, res)
		}
	}
	// A taker sell: its commission is charged in USDT.
	place(rest.OrderRequest{Symbol: "BTCUSDT", Side: "SELL", Type: "MARKET", Quantity: "0.01"})
	prom.waitFor(t, `bhtop_fills_total{symbol="BTCUSDT"}`, "desk=1")
	_, charged, _ := records(t, l)
	prom.waitFor(t, `bhtop_fees_total{asset="USDT"} > 0`, "desk="+charged["USDT"].String())

	// A sell resting inside the spread, taken by another trader's buy:
	// the sell is the maker, paid its rebate in USDT. Then a taker buy,
	// charged in BTC.
	book, err := l.rest.BookTicker(ctx, "BTCUSDT")
	if err != nil {
		t.Fatal(err)
	}
	bid, ask := dec.Sum(book.BidPrice), dec.Sum(book.AskPrice)
	price := ask.Sub(decimal.RequireFromString("0.01"))
	if !price.GreaterThan(bid) {
		t.Fatalf("book %+v: no room inside the spread", book)
	}
	place(rest.OrderRequest{Symbol: "BTCUSDT", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: price.String()})
	place(rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.01"})
	if res := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.01"}); res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("the taker buy: %+v", res)
	}
	prom.waitFor(t, `bhtop_fills_total{symbol="BTCUSDT"}`, "desk=3")

	_, charged, rebated := records(t, l)
	if !rebated["USDT"].IsPositive() || !charged["BTC"].IsPositive() {
		t.Fatalf("the simulator's records: charged %v, rebated %v; want a USDT rebate and a BTC fee", charged, rebated)
	}
	if got, want := l.series(t, "bhtop_fees_total", "asset"), floats(charged); !maps.Equal(got, want) {
		t.Errorf("bhtop_fees_total = %v, want the commissions charged %v", got, want)
	}
	if got, want := l.series(t, "bhtop_fee_rebates_total", "asset"), floats(rebated); !maps.Equal(got, want) {
		t.Errorf("bhtop_fee_rebates_total = %v, want the rebates %v", got, want)
	}
	prom.waitFor(t, `bhtop_fee_rebates_total{asset="USDT"}`, "desk="+rebated["USDT"].String())
	net := charged["USDT"].InexactFloat64() - rebated["USDT"].InexactFloat64() // as Prometheus subtracts
	prom.waitFor(t, `bhtop_fees_total{asset="USDT"} - bhtop_fee_rebates_total{asset="USDT"}`,
		"desk="+strconv.FormatFloat(net, 'f', -1, 64))
	if got, err := prom.query(`sum(resets(bhtop_fees_total[10m]))`); err != nil || got != "=0" {
		t.Errorf("Prometheus saw bhtop_fees_total reset: sum(resets) %q (%v), want 0", got, err)
	}
}

// TestResyncCountsFillsOnce: a resync reads the newest myTrades records
// again, among them the trades the stream already brought (whose events
// carry no trade id unless the service sends the optional t, so each
// record pairs with its event's fill, which then gains the id). The fill
// and fee counters stay equal to the records: no fill counted twice,
// with a scrape before the resyncs and after each.
func TestResyncCountsFillsOnce(t *testing.T) {
	for _, noIDs := range []bool{false, true} {
		t.Run(fmt.Sprintf("t sent %v", !noIDs), func(t *testing.T) {
			l := newLiveOn(t, "main", sim.Options{Faults: sim.Faults{NoTradeIDs: noIDs}})
			tradeBoth(t, l)
			fills, fees := recordCounts(t, l)
			same := func() bool {
				return maps.Equal(l.series(t, "bhtop_fills_total", "symbol"), fills) && maps.Equal(l.series(t, "bhtop_fees_total", "asset"), fees)
			}
			waitFor(t, "the stream's fills", same)
			for i := range 2 {
				if err := l.sess.Resync(context.Background()); err != nil {
					t.Fatalf("resync %d: %v", i+1, err)
				}
				waitFor(t, "the records read by the resync", func() bool {
					for _, f := range l.sess.Hub().Latest().Fills {
						if f.TradeID == "" {
							return false
						}
					}
					return true
				})
				if !same() {
					t.Fatalf("after resync %d: fills %v, fees %v; want the records' %v, %v", i+1,
						l.series(t, "bhtop_fills_total", "symbol"), l.series(t, "bhtop_fees_total", "asset"), fills, fees)
				}
			}
		})
	}
}

// TestResyncCountsDroppedFillsOnce: with a fill retention of 1, the
// stream's fills (events without t) are dropped as the next comes: the
// last of each order's, after a scrape counted it; the others (a market
// order takes several levels of the book), and all of one order, before
// any scrape did. The resync's myTrades records of them are new fills of
// the Store but the same executions (Fill.Again): the fill and fee
// counters equal the records after it, each execution counted once.
func TestResyncCountsDroppedFillsOnce(t *testing.T) {
	const keep = 12 // at least the records the resync brings anew
	l := newLiveInto(t, "main", sim.Options{Faults: sim.Faults{NoTradeIDs: true}}, state.NewStore(state.WithFillRetention(keep)))
	tr := rest.NewTrader(l.rest)
	seen := 0.0 // fills counted
	total := func() (n float64) {
		for _, v := range l.series(t, "bhtop_fills_total", "symbol") {
			n += v
		}
		return n
	}
	for i, r := range []rest.OrderRequest{
		{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.05"},
		{Symbol: "ETHUSDT", Side: "SELL", Type: "MARKET", Quantity: "1.5"},
		{Symbol: "BTCUSDT", Side: "SELL", Type: "MARKET", Quantity: "0.05"}, // all dropped before a scrape
		{Symbol: "ETHUSDT", Side: "BUY", Type: "MARKET", Quantity: "1.5"},
	} {
		if res := tr.PlaceOrder(context.Background(), r); res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("%+v: %+v", r, res)
		}
		if i != 2 { // (no scrape between the third order and the fourth)
			waitFor(t, fmt.Sprintf("order %d's last fill counted", i+1), func() bool { n := total(); return n > seen })
			seen = total()
		}
	}
	fills, fees := recordCounts(t, l)
	t.Logf("before the resync: counted %v, records %v", l.series(t, "bhtop_fills_total", "symbol"), fills)
	if err := l.sess.Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the records, as the fills kept", func() bool {
		for _, f := range l.sess.Hub().Latest().Fills {
			if f.TradeID == "" {
				return false
			}
		}
		return true
	})
	if got, gotFees := l.series(t, "bhtop_fills_total", "symbol"), l.series(t, "bhtop_fees_total", "asset"); !maps.Equal(got, fills) || !maps.Equal(gotFees, fees) {
		t.Errorf("after the resync: fills %v, fees %v; want the records' %v, %v", got, gotFees, fills, fees)
	}
}

// tradeBoth places market orders on two symbols of each market.
func tradeBoth(t *testing.T, l *live) {
	t.Helper()
	ctx := context.Background()
	tr := rest.NewTrader(l.rest)
	for _, r := range []rest.OrderRequest{
		{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.05"},
		{Symbol: "ETHUSDT", Side: "SELL", Type: "MARKET", Quantity: "1.5"},
	} {
		if res := tr.PlaceOrder(ctx, r); res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("%+v: %+v", r, res)
		}
	}
	for _, r := range []rest.ContractOrderRequest{
		{Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "4", PriceType: "MARKET", Leverage: "10"},
		{Symbol: "BTC-PERP-REV", Side: "SELL_OPEN", Quantity: "300", PriceType: "OPPONENT", Leverage: "5"},
	} {
		if res := tr.PlaceContractOrder(ctx, r); res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("%+v: %+v", r, res)
		}
	}
}

// recordCounts are the counters the simulator's myTrades records make:
// fills per symbol, fees charged per asset.
func recordCounts(t *testing.T, l *live) (fills, fees map[string]float64) {
	t.Helper()
	bySym, charged, _ := records(t, l)
	return bySym, floats(charged)
}

// records are the simulator's myTrades records of the account (both
// markets): the fills per symbol, and per commission asset the
// commissions charged and the rebates paid (negative commissions, as
// positive amounts), summed exactly; every asset is in both.
func records(t *testing.T, l *live) (fills map[string]float64, charged, rebated map[string]decimal.Decimal) {
	t.Helper()
	fills, charged, rebated = map[string]float64{}, map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	for _, contract := range []bool{false, true} {
		recs, err := l.rest.RecentTrades(context.Background(), contract, 10_000, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			fills[r.Symbol]++
			c, a := dec.Sum(r.Commission), r.CommissionAsset
			charged[a], rebated[a] = charged[a].Add(decimal.Max(c, decimal.Zero)), rebated[a].Sub(decimal.Min(c, decimal.Zero))
		}
	}
	return fills, charged, rebated
}

// floats are m's values as float64, as a scrape exports them.
func floats(m map[string]decimal.Decimal) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		out[k] = v.InexactFloat64()
	}
	return out
}

// TestSelfTradeIsTwoFills: an order of the account that trades against
// another of its orders gives two executions with one trade id, the
// maker's and the taker's, each with its own commission (the service's
// myTrades has both records): bhtop_fills_total counts both and
// bhtop_fees_total sums both commissions.
func TestSelfTradeIsTwoFills(t *testing.T) {
	l := newLive(t, "main", 0)
	ctx := context.Background()
	tr := rest.NewTrader(l.rest)
	book, err := l.rest.BookTicker(ctx, "BTCUSDT")
	if err != nil {
		t.Fatal(err)
	}
	price := dec.Sum(book.AskPrice).Sub(decimal.RequireFromString("0.01")) // inside the spread: the best ask
	if !price.GreaterThan(dec.Sum(book.BidPrice)) {
		t.Fatalf("book %+v: no room inside the spread", book)
	}
	for _, r := range []rest.OrderRequest{
		{Symbol: "BTCUSDT", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: price.String()},
		{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.01"}, // takes the sell
	} {
		if res := tr.PlaceOrder(ctx, r); res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("%+v: %+v", r, res)
		}
	}
	fills, fees := recordCounts(t, l)
	if fills["BTCUSDT"] != 2 {
		t.Fatalf("the simulator's records: %v fills, want the two sides of one trade", fills)
	}
	waitFor(t, "both sides counted", func() bool {
		return maps.Equal(l.series(t, "bhtop_fills_total", "symbol"), fills) && maps.Equal(l.series(t, "bhtop_fees_total", "asset"), fees)
	})
	if n := len(l.sess.Hub().Latest().Fills); n != 2 {
		t.Errorf("the state holds %d fills, want 2", n)
	}
}
