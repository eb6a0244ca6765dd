package ui

import (
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"bhtop/chart"
	declit "bhtop/dec"
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
	// lastText is the literal each last price was parsed from.
	lastText map[string]string
	rows     []mktRow         // the Market pane, sorted by symbol
	sparks   map[string]spark // each row's sparkline and what it was drawn from

	// valuer made val; the next build (in Update, as this one) uses it
	// again, so only the rows a new market or state moved are valued anew.
	valuer *value.Valuer

	// assetsTok and posTok stand for assets' and pos' texts: a new token
	// only when they changed, so drawn rows whose cells read them are
	// reused across market views (render.go).
	assetsTok, posTok *int
}

// keepCells takes prev's cell texts and their tokens where they are the
// same, and new tokens where they are not.
func (v *mktView) keepCells(prev *mktView) {
	if prev != nil && maps.Equal(prev.assets, v.assets) {
		v.assets, v.assetsTok = prev.assets, prev.assetsTok
	} else {
		v.assetsTok = new(int)
	}
	if prev != nil && slices.Equal(prev.pos, v.pos) {
		v.pos, v.posTok = prev.pos, prev.posTok
	} else {
		v.posTok = new(int)
	}
}

// spark is a drawn sparkline and the series it was drawn from, so an
// unchanged series is not drawn again (the market store copies a tape or
// a bar list only when it changes, but a new snapshot holds them all).
type spark struct {
	key  sparkKey
	text string
}

// sparkKey identifies a trend series: its source, length and its first
// and newest points.
type sparkKey struct {
	source             string // interval, or "trades"
	n                  int
	firstTime, newTime int64
	newPrice           string
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

// newMktView values s against ms in asset in. prev (nil at first) lends
// what did not change: parsed last prices, drawn sparklines and its
// Valuer.
func newMktView(seq uint64, s *state.Snapshot, ms *market.Snapshot, in string, live bool, prev *mktView) *mktView {
	if ms == nil {
		ms = emptyMkt
	}
	v := &mktView{seq: seq, snap: ms, state: s.Version, live: live, valuer: &value.Valuer{}}
	if prev != nil && prev.valuer != nil {
		v.valuer = prev.valuer
	}
	if ms.Version == 0 {
		return v
	}
	v.last = make(map[string]decimal.Decimal, len(ms.Quotes))
	v.lastText = make(map[string]string, len(ms.Quotes))
	for sym, q := range ms.Quotes {
		if prev != nil && prev.lastText[sym] == q.Last && q.Last != "" {
			v.last[sym], v.lastText[sym] = prev.last[sym], q.Last
			continue
		}
		if d, err := decimal.NewFromString(q.Last); err == nil && d.IsPositive() {
			v.last[sym], v.lastText[sym] = d, q.Last
		}
	}
	v.val = v.valuer.Of(s, ms, in)
	if v.val != nil {
		places := valuePlaces(in)
		v.assets = make(map[string]assetCells, len(v.val.Assets))
		for _, a := range v.val.Assets {
			var c assetCells
			if a.Price != nil {
				c.price = priceText(*a.Price)
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
	v.keepCells(prev)
	if prev != nil && prev.snap == ms && prev.rows != nil {
		// Only the state changed: the Market pane's rows (read-only once
		// built) are the same, and keeping them keeps its drawn lines.
		v.rows, v.sparks = prev.rows, prev.sparks
		return v
	}
	var sparks map[string]spark
	if prev != nil {
		sparks = prev.sparks
	}
	v.rows, v.sparks = marketRows(ms, sparks)
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
		c.sign = shownSign(c.pnl)
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
func marketRows(ms *market.Snapshot, prev map[string]spark) ([]mktRow, map[string]spark) {
	syms := slices.Sorted(maps.Keys(ms.Quotes))
	rows := make([]mktRow, len(syms))
	sparks := make(map[string]spark, len(syms))
	for i, sym := range syms {
		q := ms.Quotes[sym]
		r := mktRow{symbol: sym, last: q.Last, bid: q.Bid, ask: q.Ask, volume: q.Volume24h}
		if open, ok := dec(q.Open24h); ok {
			if last, ok := dec(q.Last); ok {
				if d, ok := value.DistancePct(open, last); ok {
					r.change = pctText(d)
					r.sign = shownSign(r.change)
				}
			}
		}
		if bid, ok := dec(q.Bid); ok {
			if ask, ok := dec(q.Ask); ok {
				r.spread = ask.Sub(bid).String()
			}
		}
		key, series := trend(ms, sym)
		if sp, ok := prev[sym]; ok && sp.key == key {
			r.spark = sp.text
		} else if s := series(); len(s) > 0 {
			r.spark = chart.Sparkline(s, sparkWidth, chart.Style{})
		}
		sparks[sym] = spark{key: key, text: r.spark}
		rows[i] = r
	}
	return rows, sparks
}

// trend is where a symbol's sparkline comes from: the closes of its
// shortest-interval candles, else the prices of its recent trades. It
// returns the series' key and a function that reads the series.
func trend(ms *market.Snapshot, sym string) (sparkKey, func() []decimal.Decimal) {
	for _, iv := range market.Intervals {
		if cs := ms.Candles[market.CandleKey(sym, iv)]; cs.Len() >= 2 {
			n := cs.Len() - 1
			key := sparkKey{source: iv, n: cs.Len(), firstTime: cs.At(0).OpenTime, newTime: cs.At(n).OpenTime, newPrice: cs.At(n).Close}
			return key, func() []decimal.Decimal {
				return newestPrices(cs.Tail(sparkWidth), func(c market.Candle) string { return c.Close })
			}
		}
	}
	ts := ms.Trades[sym]
	key := sparkKey{source: "trades", n: len(ts)}
	if n := len(ts) - 1; n >= 0 {
		key.firstTime, key.newTime, key.newPrice = ts[0].Time, ts[n].Time, ts[n].ID+"@"+ts[n].Price
	}
	return key, func() []decimal.Decimal { return newestPrices(ts, func(t market.Trade) string { return t.Price }) }
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

// dec parses a decimal literal; ok is false for "" or a bad literal
// (package dec's Parse, under the short name the panes use).
func dec(s string) (decimal.Decimal, bool) { return declit.Parse(s) }

// pctText shows a percentage with a sign and two decimals: "+1.25%".
func pctText(d decimal.Decimal) string { return signed(d.StringFixed(2)) + "%" }

// shownSign is the sign of a number as signed (or pctText) shows it: 0
// when it reads as zero at the shown precision ("0.00", "0.00%"), so
// that its colour says no gain and no loss, as its text does.
func shownSign(s string) int {
	switch {
	case isZeroAmount(strings.TrimSuffix(strings.TrimLeft(s, "+-"), "%")):
		return 0
	case strings.HasPrefix(s, "-"):
		return -1
	}
	return 1
}

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

// priceText shows a price as the market gives it, or, when it was
// computed (an inverse or bridged route) to more digits, rounded to eight
// significant digits; trailing zeros are dropped ("1", "61020.5").
func priceText(d decimal.Decimal) string {
	if d.Exponent() >= -8 {
		return d.String()
	}
	places := 8 - len(d.Abs().Truncate(0).String())
	if d.Abs().LessThan(decimal.NewFromInt(1)) {
		places = 8
		for x := d.Abs(); x.IsPositive() && x.LessThan(decimal.New(1, -1)); x = x.Shift(1) {
			places++ // leading zeros after the point are not significant
		}
	}
	return d.Round(int32(max(0, min(18, places)))).String()
}
