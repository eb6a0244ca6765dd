package engine

import (
	"math/big"
	"math/bits"
	"slices"
	"time"
)

// Intervals are the kline intervals of the quote API, shortest first.
var Intervals = []string{"1m", "5m", "15m", "30m", "1h", "2h", "4h", "6h", "12h", "1d", "1w", "1M"}

var fixed = map[string]int64{
	"1m": 60_000, "5m": 300_000, "15m": 900_000, "30m": 1_800_000,
	"1h": 3_600_000, "2h": 7_200_000, "4h": 14_400_000, "6h": 21_600_000, "12h": 43_200_000,
	"1d": 86_400_000, "1w": 7 * 86_400_000,
}

// ValidInterval reports whether iv is one of Intervals.
func ValidInterval(iv string) bool { return iv == "1M" || fixed[iv] > 0 }

// BarStart is the open time of the bar of interval iv holding time t (ms):
// fixed lengths from the epoch, weeks from Monday, months by the calendar
// (UTC).
func BarStart(iv string, t int64) int64 {
	switch iv {
	case "1M":
		u := time.UnixMilli(t).UTC()
		return time.Date(u.Year(), u.Month(), 1, 0, 0, 0, 0, time.UTC).UnixMilli()
	case "1w":
		const monday = 4 * 86_400_000 // 1970-01-05 was a Monday
		return floorTo(t-monday, fixed[iv]) + monday
	}
	return floorTo(t, fixed[iv])
}

// BarEnd is the last ms of the bar of iv opened at start.
func BarEnd(iv string, start int64) int64 {
	if iv == "1M" {
		return time.UnixMilli(start).UTC().AddDate(0, 1, 0).UnixMilli() - 1
	}
	return start + fixed[iv] - 1
}

func floorTo(t, d int64) int64 {
	q := t / d
	if t%d != 0 && t < 0 {
		q--
	}
	return q * d
}

// u128 is an unsigned 128-bit sum of price×quantity products (ticks×lots),
// exact where int64 could overflow.
type u128 struct{ hi, lo uint64 }

func (u *u128) addMul(a, b int64) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	var c uint64
	u.lo, c = bits.Add64(u.lo, lo, 0)
	u.hi += hi + c
}

func (u *u128) add(v u128) {
	var c uint64
	u.lo, c = bits.Add64(u.lo, v.lo, 0)
	u.hi += v.hi + c
}

// Big returns the sum as a big.Int.
func (u u128) Big() *big.Int {
	b := new(big.Int).SetUint64(u.hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(u.lo))
}

// Bar is one kline: prices in ticks, volumes in lots, quote volumes in
// ticks×lots.
type Bar struct {
	Open, Close         int64 // open time and last ms of the bar
	O, H, L, C          int64
	Volume, TakerBuyVol int64
	QuoteVol, TakerBuyQ u128
	Trades              int64
}

func (b *Bar) add(tr *Trade) {
	if b.Trades == 0 {
		b.O, b.H, b.L = tr.Price, tr.Price, tr.Price
	}
	b.H, b.L, b.C = max(b.H, tr.Price), min(b.L, tr.Price), tr.Price
	b.Volume += tr.Qty
	b.QuoteVol.addMul(tr.Price, tr.Qty)
	if !tr.BuyerMaker {
		b.TakerBuyVol += tr.Qty
		b.TakerBuyQ.addMul(tr.Price, tr.Qty)
	}
	b.Trades++
}

func (b *Bar) merge(m *Bar) {
	if b.Trades == 0 {
		b.O, b.H, b.L = m.O, m.H, m.L
	}
	b.H, b.L, b.C = max(b.H, m.H), min(b.L, m.L), m.C
	b.Volume += m.Volume
	b.TakerBuyVol += m.TakerBuyVol
	b.QuoteVol.add(m.QuoteVol)
	b.TakerBuyQ.add(m.TakerBuyQ)
	b.Trades += m.Trades
}

// maxMinuteBars bounds the minute bars kept per symbol (two weeks).
const maxMinuteBars = 14 * 1440

// bars holds one symbol's minute bars, oldest first; longer intervals are
// aggregated from them on demand.
type bars struct {
	minute []Bar
}

// reserve makes room for n more minute bars (a backfill knows how many
// it adds).
func (bs *bars) reserve(n int) { bs.minute = slices.Grow(bs.minute, min(n, maxMinuteBars)) }

func (bs *bars) add(tr *Trade) {
	start := BarStart("1m", tr.Time)
	n := len(bs.minute)
	if n == 0 || bs.minute[n-1].Open < start {
		if n >= maxMinuteBars+maxMinuteBars/8 {
			bs.minute = append(bs.minute[:0], bs.minute[n-maxMinuteBars:]...)
		}
		bs.minute = append(bs.minute, Bar{Open: start, Close: start + 59_999})
		n = len(bs.minute)
	}
	bs.minute[n-1].add(tr) // a late trade (time going back) joins the newest bar
}

// Klines returns the bars of interval iv whose open time lies in
// [from, to] (inclusive, ms), oldest first: the newest limit of them, or
// with first the oldest limit.
func (bs *bars) klines(iv string, from, to int64, limit int, first bool) []Bar {
	var out []Bar
	for i := range bs.minute {
		m := &bs.minute[i]
		start := BarStart(iv, m.Open)
		if start < from || start > to {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Open != start {
			if first && len(out) == limit {
				break
			}
			out = append(out, Bar{Open: start, Close: BarEnd(iv, start)})
		}
		out[len(out)-1].merge(m)
	}
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

// since aggregates the minute bars opened after from into one bar (the
// rolling window of a 24 h ticker).
func (bs *bars) since(from int64) Bar {
	var b Bar
	i := len(bs.minute)
	for i > 0 && bs.minute[i-1].Open > from {
		i--
	}
	for ; i < len(bs.minute); i++ {
		b.merge(&bs.minute[i])
	}
	return b
}
