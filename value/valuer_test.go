package value

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

// TestValuerAgreesWithEquity: one Valuer, asked in turn about the
// equity test's cases and then about a market and a state that move
// (prices change, quotes appear and vanish, balances and positions
// change, are added and removed, the instruments are replaced), gives
// exactly Equity's answer every time, and again when asked twice.
func TestValuerAgreesWithEquity(t *testing.T) {
	var v Valuer
	check := func(name string, s *state.Snapshot, m *market.Snapshot, in string) {
		t.Helper()
		want, wantUnp, wantOK := Equity(s, m, in)
		for range 2 {
			eq, unp, ok := v.Equity(s, m, in)
			if ok != wantOK || ok && (eq.String() != want.String() || !slices.Equal(unp, wantUnp)) {
				t.Fatalf("%s: Valuer = %s %v %v, Equity = %s %v %v", name, eq, unp, ok, want, wantUnp, wantOK)
			}
		}
		wantOf := show(Of(s, m, in))
		for range 2 {
			if got := show(v.Of(s, m, in)); got != wantOf {
				t.Fatalf("%s: Valuer.Of =\n%s\nOf =\n%s", name, got, wantOf)
			}
		}
	}
	small := &state.Snapshot{
		Balances: []state.Balance{{Asset: "BTC", Free: "0.5", Locked: "0"}, {Asset: "XYZ", Free: "5", Locked: "0"},
			{Asset: "USDT", Free: "900", Locked: "100"}},
		Positions: []state.Position{{Symbol: "BTC-PERP-REV", Side: "LONG", AvgPrice: "8000", Total: "1000", Margin: "0.1"},
			{Symbol: "ETH-PERP", Side: "SHORT", AvgPrice: "3000", Total: "2", Margin: "600"}},
	}
	for _, in := range []string{"USDT", "BTC", "ETH", "USDT"} {
		check("small "+in, small, testMarket(), in)
		check("nil state "+in, nil, testMarket(), in)
		check("no market "+in, small, &market.Snapshot{}, in)
	}

	s, m := benchAccount()
	for step := range 40 {
		// The next market: a fresh map, most quotes shared, some moved.
		next := *m
		next.Version++
		next.Quotes = maps.Clone(m.Quotes)
		for i := step; i < 1000; i += 37 {
			sym := fmt.Sprintf("A%03dUSDT", i)
			if i%10 == 0 {
				sym = fmt.Sprintf("A%03dBTC", i)
			}
			q := next.Quotes[sym]
			switch step % 4 {
			case 0:
				q.Last = fmt.Sprintf("%d.%d", i+step, step)
			case 1:
				q.Last = "0"
			case 2:
				q.Last = ""
			}
			next.Quotes[sym] = q
		}
		if step%5 == 0 {
			q := next.Quotes["BTCUSDT"]
			q.Last = fmt.Sprintf("6%04d.5", step)
			next.Quotes["BTCUSDT"] = q
		}
		for i := step; i < 500; i += 41 {
			sym := fmt.Sprintf("C%03d-PERP", i)
			q := next.Quotes[sym]
			q.Last = fmt.Sprintf("%d.25", 990+step)
			if step%3 == 0 {
				q.Mark = fmt.Sprint(1000 + step)
			}
			next.Quotes[sym] = q
		}
		if step%7 == 3 {
			next.Instruments = maps.Clone(m.Instruments)
		}
		m = &next
		// The next state: sometimes a balance or position moves, a row
		// is added or removed.
		if step%3 == 1 {
			ns := *s
			ns.Balances = slices.Clone(s.Balances)
			ns.Positions = slices.Clone(s.Positions)
			ns.Balances[step*13%len(ns.Balances)].Free = fmt.Sprint(step)
			ns.Positions[step*7%len(ns.Positions)].Total = fmt.Sprint(step + 3)
			ns.Positions[step*11%len(ns.Positions)].Side = "SHORT"
			switch step % 4 {
			case 0:
				ns.Balances = ns.Balances[1:]
			case 1:
				ns.Balances = append(ns.Balances, state.Balance{Asset: fmt.Sprint("N", step), Free: "1"})
				ns.Positions = ns.Positions[:len(ns.Positions)-1]
			}
			s = &ns
		}
		for _, in := range []string{"USDT", "USDT", "BTC"} {
			check(fmt.Sprint("step ", step, " ", in), s, m, in)
		}
		if step%10 == 0 { // every asset routed through bridges other than BTC
			check(fmt.Sprint("step ", step, " A007"), s, m, "A007")
		}
	}
}

// storeFeed is a market store holding the benchmark account's market,
// fed by ticker pushes as the quote client feeds it.
func storeFeed(m *market.Snapshot) *market.Store {
	st := market.NewStore(nil, func() time.Time { return time.UnixMilli(1e12) })
	st.SetInstruments(m.Instruments)
	p := &market.Push{Kind: market.FramePush, Topic: market.TopicRealtimes}
	for sym, q := range m.Quotes {
		p.Symbols = append(p.Symbols, sym)
		p.Tickers = append(p.Tickers, market.Ticker{Time: 1, Close: q.Last})
	}
	st.ApplyPush(p)
	st.Publish()
	return st
}

// tick moves the last price of symbols in st at time t.
func tick(st *market.Store, t int64, last func(sym string) string, symbols ...string) {
	p := &market.Push{Kind: market.FramePush, Topic: market.TopicRealtimes}
	for _, sym := range symbols {
		p.Symbols = append(p.Symbols, sym)
		p.Tickers = append(p.Tickers, market.Ticker{Time: t, Close: last(sym)})
	}
	st.ApplyPush(p)
}

// TestValuerFollowsStore: a Valuer fed the market store's snapshots (which
// say what moved since an earlier one) gives Equity's answer exactly:
// every publication read (by Of, then Equity), some skipped, an older one read again, a quote
// removed, the instruments replaced, the state moving.
func TestValuerFollowsStore(t *testing.T) {
	s, m := benchAccount()
	st := storeFeed(m)
	ins := maps.Clone(st.Instruments())
	for i := range 50 {
		sym := fmt.Sprintf("C%03d-PERP", i)
		in := ins[sym]
		in.Index = "BTCUSDT"
		ins[sym] = in
	}
	st.SetInstruments(ins)
	var v Valuer
	var old []*market.Snapshot
	check := func(name string, s *state.Snapshot, m *market.Snapshot) {
		t.Helper()
		want, wantUnp, _ := Equity(s, m, "USDT")
		if got, want := show(v.Of(s, m, "USDT")), show(Of(s, m, "USDT")); got != want {
			t.Fatalf("%s: Valuer.Of differs from Of", name)
		}
		eq, unp, ok := v.Equity(s, m, "USDT")
		if !ok || eq.String() != want.String() || !slices.Equal(unp, wantUnp) {
			t.Fatalf("%s: Valuer = %s %v, Equity = %s %v", name, eq, unp, want, wantUnp)
		}
	}
	for step := range 150 {
		t0 := int64(10 + step)
		last := func(sym string) string { return fmt.Sprintf("%d.%d", 7+step%5, step) }
		for j := range 3 {
			i := (step*7 + j*331) % 1000
			sym := fmt.Sprintf("A%03dUSDT", i)
			if i%10 == 0 {
				sym = fmt.Sprintf("A%03dBTC", i)
			}
			tick(st, t0, last, sym)
		}
		tick(st, t0, last, fmt.Sprintf("C%03d-PERP", step*3%500))
		switch {
		case step%17 == 5:
			tick(st, t0, func(string) string { return fmt.Sprintf("6%04d", step) }, "BTCUSDT")
		case step%23 == 7:
			st.Remove(fmt.Sprintf("A%03dUSDT", step))
		case step%41 == 9:
			st.SetInstruments(maps.Clone(st.Instruments()))
		case step%8 == 3:
			st.SetIndex(map[string]string{"BTCUSDT": fmt.Sprint(60000 + step)})
		case step%19 == 4:
			ns := *s
			ns.Positions = slices.Clone(s.Positions)
			ns.Positions[step].Margin, ns.Positions[step+1].LiquidationPrice = "11", "901"
			ns.Positions[step+2].AccountID = "sub"
			s = &ns
		case step%13 == 2:
			ns := *s
			ns.Balances = slices.Clone(s.Balances)
			ns.Balances[step].Locked = "2"
			s = &ns
		}
		snap := st.Publish()
		old = append(old, snap)
		switch {
		case step%11 == 10: // the reader was busy: this publication is skipped
		case step%29 == 28:
			check(fmt.Sprint("old ", step), s, old[step/2])
			check(fmt.Sprint("step ", step), s, snap)
		default:
			check(fmt.Sprint("step ", step), s, snap)
		}
	}
}

// show spells out a valuation exactly: every decimal as coefficient and
// exponent, nil as "nil".
func show(v *Valuation) string {
	if v == nil {
		return "nil"
	}
	d := func(x decimal.Decimal) string { return fmt.Sprintf("%se%d", x.Coefficient(), x.Exponent()) }
	p := func(x *decimal.Decimal) string {
		if x == nil {
			return "nil"
		}
		return d(*x)
	}
	var b strings.Builder
	fmt.Fprintln(&b, v.Asset, d(v.Equity), v.Unpriced, v.Unpriced == nil)
	for _, a := range v.Assets {
		fmt.Fprintln(&b, a.Asset, d(a.Total), p(a.Price), p(a.Value), p(a.Share))
	}
	for _, x := range v.Positions {
		fmt.Fprintln(&b, x.AccountID, x.Symbol, x.Side, p(x.Mark), p(x.Index), p(x.Unrealized), x.PnLAsset,
			p(x.UnrealizedPct), p(x.LiquidationPct))
	}
	return b.String()
}
