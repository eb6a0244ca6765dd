package ui

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"bhtop/chart"
	"bhtop/market"
	"bhtop/state"
	"bhtop/value"
)

// mktView is the market as the panes show it: the quote snapshot, the
// account valued against it (package value) and the cells derived from
// both. It is built in Update whenever the state or the market changed,
// never in View, and is immutable once built.
type mktView struct {
	seq    uint64           // grows with every build; panes key their rows on it
	snap   *market.Snapshot // never nil; Version 0: no data yet
	state  uint64           // the state version it was valued against
	live   bool             // a market hub is wired at all
	val    *value.Valuation // nil: no valuation (no market data)
	assets map[string]assetCells
	pos    []posCells                 // index-aligned with the state's positions
	last   map[string]decimal.Decimal // last price by symbol, for distances
	rows   []mktRow                   // the Market pane, sorted by symbol
}

// assetCells are a balance's market columns.
type assetCells struct{ price, value, share string }

// posCells are a position's market columns; sign is the unrealized
// PnL's sign (it picks the colour).
type posCells struct {
	mark, index, pnl, pnlPct, liqPct string
	sign                             int
}

// mktRow is one row of the Market pane.
type mktRow struct {
	symbol, last, change, bid, ask, spread, volume, spark string
	sign                                                  int // of the 24 h change
}

// sparkWidth is the Market pane's trend column.
const sparkWidth = 16

var emptyMkt = &market.Snapshot{}

// newMktView values s against ms in asset in.
func newMktView(seq uint64, s *state.Snapshot, ms *market.Snapshot, in string, live bool) *mktView {
	if ms == nil {
		ms = emptyMkt
	}
	v := &mktView{seq: seq, snap: ms, state: s.Version, live: live}
	if ms.Version == 0 {
		return v
	}
	v.last = make(map[string]decimal.Decimal, len(ms.Quotes))
	for sym, q := range ms.Quotes {
		if d, err := decimal.NewFromString(q.Last); err == nil && d.IsPositive() {
			v.last[sym] = d
		}
	}
	v.val = value.Of(s, ms, in)
	if v.val != nil {
		places := valuePlaces(in)
		v.assets = make(map[string]assetCells, len(v.val.Assets))
		for _, a := range v.val.Assets {
			var c assetCells
			if a.Price != nil {
				c.price = sigFixed(*a.Price, 8)
			}
			if a.Value != nil {
				c.value = a.Value.StringFixed(places)
			}
			if a.Share != nil {
				c.share = a.Share.Mul(hundred).StringFixed(1) + "%"
			}
			v.assets[a.Asset] = c
		}
		v.pos = make([]posCells, len(v.val.Positions))
		for i, p := range v.val.Positions {
			v.pos[i] = positionCells(&p)
		}
	}
	v.rows = marketRows(ms)
	return v
}

func positionCells(p *value.PositionValue) posCells {
	var c posCells
	if p.Mark != nil {
		c.mark = p.Mark.String()
	}
	if p.Index != nil {
		c.index = p.Index.String()
	}
	if p.Unrealized != nil {
		c.pnl = signed(p.Unrealized.StringFixed(valuePlaces(p.PnLAsset)))
		c.sign = p.Unrealized.Sign()
	}
	if p.UnrealizedPct != nil {
		c.pnlPct = pctText(*p.UnrealizedPct)
	}
	if p.LiquidationPct != nil {
		c.liqPct = pctText(*p.LiquidationPct)
	}
	return c
}

// marketRows lists every symbol the market holds (the watch list and the
// symbols the account touches).
func marketRows(ms *market.Snapshot) []mktRow {
	syms := make([]string, 0, len(ms.Quotes))
	for s := range ms.Quotes {
		syms = append(syms, s)
	}
	slices.Sort(syms)
	rows := make([]mktRow, len(syms))
	for i, sym := range syms {
		q := ms.Quotes[sym]
		r := mktRow{symbol: sym, last: q.Last, bid: q.Bid, ask: q.Ask, volume: q.Volume24h}
		if open, ok := dec(q.Open24h); ok {
			if last, ok := dec(q.Last); ok {
				if d, ok := value.DistancePct(open, last); ok {
					r.change, r.sign = pctText(d), d.Sign()
				}
			}
		}
		if bid, ok := dec(q.Bid); ok {
			if ask, ok := dec(q.Ask); ok {
				r.spread = ask.Sub(bid).String()
			}
		}
		if series := trend(ms, sym); len(series) > 0 {
			r.spark = chart.Sparkline(series, sparkWidth, chart.Style{})
		}
		rows[i] = r
	}
	return rows
}

// trend is a symbol's recent prices for its sparkline: the closes of
// its shortest-interval candles, else the prices of its recent trades.
func trend(ms *market.Snapshot, sym string) []decimal.Decimal {
	for _, iv := range market.Intervals {
		if cs := ms.Candles[market.CandleKey(sym, iv)]; len(cs) >= 2 {
			return newestPrices(cs, func(c market.Candle) string { return c.Close })
		}
	}
	return newestPrices(ms.Trades[sym], func(t market.Trade) string { return t.Price })
}

// newestPrices parses the price of each of the newest sparkWidth of xs.
func newestPrices[T any](xs []T, price func(T) string) []decimal.Decimal {
	xs = xs[max(0, len(xs)-sparkWidth):]
	out := make([]decimal.Decimal, 0, len(xs))
	for _, x := range xs {
		if d, ok := dec(price(x)); ok {
			out = append(out, d)
		}
	}
	return out
}

// orderDistance is how far, in %, the market must move from its last
// price to reach price ("" when either is unknown).
func (v *mktView) orderDistance(symbol, price string) string {
	last, ok := v.last[symbol]
	if !ok {
		return ""
	}
	p, ok := dec(price)
	if !ok {
		return ""
	}
	d, ok := value.DistancePct(last, p)
	if !ok {
		return ""
	}
	return pctText(d)
}

// dec parses a decimal literal; ok is false for "" or a bad literal.
func dec(s string) (decimal.Decimal, bool) {
	if s == "" {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// pctText shows a percentage with a sign and two decimals: "+1.25%".
func pctText(d decimal.Decimal) string { return signed(d.StringFixed(2)) + "%" }

// signed puts a + before a positive number's text.
func signed(s string) string {
	if s != "" && s[0] != '-' && strings.Trim(s, "0.") != "" {
		return "+" + s
	}
	return s
}

// valuePlaces is how many decimals an amount in asset shows: cents for
// dollars and other fiat-like assets, eight otherwise.
func valuePlaces(asset string) int32 {
	switch {
	case strings.Contains(asset, "USD"), asset == "DAI", asset == "EUR", asset == "GBP", asset == "TRY":
		return 2
	}
	return 8
}

// sigFixed shows d with about sig significant digits, at least two
// decimals for prices of 1 and more.
func sigFixed(d decimal.Decimal, sig int) string {
	intDigits := len(d.Abs().Truncate(0).String())
	if d.Abs().LessThan(decimal.NewFromInt(1)) {
		intDigits = 0
		// leading zeros after the point do not count
		for x := d.Abs(); x.IsPositive() && x.LessThan(decimal.New(1, -1)); x = x.Shift(1) {
			intDigits--
		}
	}
	places := max(2, min(12, sig-intDigits))
	return d.StringFixed(int32(places))
}
