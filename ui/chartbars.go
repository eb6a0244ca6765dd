package ui

import (
	"time"

	"github.com/shopspring/decimal"

	"bhtop/market"
)

// The chart's bars at the interval it shows: the market's own, kept live
// by the 1m bars, or merged from a shorter interval the market holds.

// intervalDur is each interval's length; 1M has none (months differ).
var intervalDur = map[string]time.Duration{
	"1m": time.Minute, "5m": 5 * time.Minute, "15m": 15 * time.Minute, "30m": 30 * time.Minute,
	"1h": time.Hour, "2h": 2 * time.Hour, "4h": 4 * time.Hour, "6h": 6 * time.Hour,
	"12h": 12 * time.Hour, "1d": 24 * time.Hour, "1w": 7 * 24 * time.Hour,
}

// weekStart shifts week buckets to Mondays (1970-01-01 was a Thursday).
const weekStart = 4 * 24 * time.Hour

// candlesFor returns sym's bars at interval iv: the market's own, else
// bars merged from the longest shorter interval the market holds that
// divides iv (note says so).
func candlesFor(ms *market.Snapshot, sym string, iv int) (bars []market.Candle, note string) {
	name := market.Intervals[iv]
	if cs := ms.Candles[market.CandleKey(sym, name)]; cs.Len() > 0 {
		return liveTail(cs.All(), ms.Candles[market.CandleKey(sym, "1m")].All(), name), ""
	}
	want, ok := intervalDur[name]
	if !ok {
		return nil, ""
	}
	for i := iv - 1; i >= 0; i-- {
		from := market.Intervals[i]
		d := intervalDur[from]
		cs := ms.Candles[market.CandleKey(sym, from)]
		if cs.Len() == 0 || want%d != 0 {
			continue
		}
		return mergeCandles(cs.All(), want), "(from " + from + " bars)"
	}
	return nil, ""
}

// mergeCandles merges bars into bars of length d: first open, highest
// high, lowest low, last close, summed volume.
func mergeCandles(cs []market.Candle, d time.Duration) []market.Candle {
	ms := d.Milliseconds()
	off := int64(0)
	if d == intervalDur["1w"] {
		off = weekStart.Milliseconds()
	}
	var out []market.Candle
	var hi, lo, vol decimal.Decimal
	for _, c := range cs {
		start := (c.OpenTime-off)/ms*ms + off
		h, _ := dec(c.High)
		l, _ := dec(c.Low)
		v, _ := dec(c.Volume)
		if n := len(out); n == 0 || out[n-1].OpenTime != start {
			out = append(out, market.Candle{OpenTime: start, Open: c.Open, Close: c.Close})
			hi, lo, vol = h, l, v
		} else {
			hi, lo, vol = decimal.Max(hi, h), decimal.Min(lo, l), vol.Add(v)
			out[n-1].Close = c.Close
		}
		last := &out[len(out)-1]
		last.High, last.Low, last.Volume = hi.String(), lo.String(), vol.String()
	}
	return out
}

// liveTail brings bars (the market's own at interval name) up to date
// with the newer 1m bars: the newest bar takes the highs, lows and close
// of the 1m bars in its span, and 1m bars past its end make new bars (so
// the live bar moves with the 1m stream even before, or without, a push
// of its own interval). bars is never changed: a copy is returned when
// anything differs. 1M bars (months differ in length) stay as they are.
func liveTail(bars, ones []market.Candle, name string) []market.Candle {
	d, ok := intervalDur[name]
	if !ok || name == "1m" || len(bars) == 0 {
		return bars
	}
	last := bars[len(bars)-1]
	i := len(ones)
	for i > 0 && ones[i-1].OpenTime >= last.OpenTime {
		i--
	}
	if i == len(ones) {
		return bars
	}
	merged := mergeCandles(ones[i:], d)
	end := last.OpenTime + d.Milliseconds()
	if merged[0].OpenTime == last.OpenTime {
		hi, ok1 := dec(last.High)
		lo, ok2 := dec(last.Low)
		mh, ok3 := dec(merged[0].High)
		ml, ok4 := dec(merged[0].Low)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return bars
		}
		f := last
		f.High, f.Low, f.Close = decimal.Max(hi, mh).String(), decimal.Min(lo, ml).String(), merged[0].Close
		if len(merged) == 1 && f == last {
			return bars
		}
		last, merged = f, merged[1:]
	}
	for _, b := range merged {
		if b.OpenTime < end { // buckets that do not line up: leave the bars alone
			return bars
		}
	}
	out := make([]market.Candle, 0, len(bars)+len(merged))
	out = append(append(append(out, bars[:len(bars)-1]...), last), merged...)
	return out
}
