package metrics

import (
	"context"
	"maps"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"

	"bhtop/dec"
	"bhtop/rest"
	"bhtop/sim"
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
	prom.waitFor(t, `bhtop_fees_total{asset="USDT"} > 0`, "desk="+fees(t, l)["USDT"].String())

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

	charged, rebated := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
	for asset, c := range commissions(t, l) {
		charged[asset], rebated[asset] = decimal.Zero, decimal.Zero
		for _, x := range c {
			if x.IsNegative() {
				rebated[asset] = rebated[asset].Sub(x)
			} else {
				charged[asset] = charged[asset].Add(x)
			}
		}
	}
	if !rebated["USDT"].IsPositive() || !charged["BTC"].IsPositive() {
		t.Fatalf("the simulator's records: charged %v, rebated %v; want a USDT rebate and a BTC fee", charged, rebated)
	}
	series := func(name string) map[string]float64 {
		out := map[string]float64{}
		for _, s := range gather(t, l.reg, name) {
			out[s.labels["asset"]] = s.value
		}
		return out
	}
	floats := func(m map[string]decimal.Decimal) map[string]float64 {
		out := map[string]float64{}
		for k, v := range m {
			out[k] = v.InexactFloat64()
		}
		return out
	}
	if got, want := series("bhtop_fees_total"), floats(charged); !maps.Equal(got, want) {
		t.Errorf("bhtop_fees_total = %v, want the commissions charged %v", got, want)
	}
	if got, want := series("bhtop_fee_rebates_total"), floats(rebated); !maps.Equal(got, want) {
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

// commissions are the simulator's myTrades records of the account (both
// markets): each fill's commission, by commission asset.
func commissions(t *testing.T, l *live) map[string][]decimal.Decimal {
	t.Helper()
	out := map[string][]decimal.Decimal{}
	for _, contract := range []bool{false, true} {
		recs, err := l.rest.RecentTrades(context.Background(), contract, 10_000, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			out[r.CommissionAsset] = append(out[r.CommissionAsset], dec.Sum(r.Commission))
		}
	}
	return out
}

// fees are the simulator's records' commissions summed by asset.
func fees(t *testing.T, l *live) map[string]decimal.Decimal {
	t.Helper()
	out := map[string]decimal.Decimal{}
	for asset, c := range commissions(t, l) {
		out[asset] = dec.Sum()
		for _, x := range c {
			out[asset] = out[asset].Add(x)
		}
	}
	return out
}
