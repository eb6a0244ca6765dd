package market

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"bhtop/event"
)

// Topics of the quote socket (API-FACTS.md 'Quote WebSocket').
const (
	TopicRealtimes = "realtimes"
	TopicTrade     = "trade"
	TopicDepth     = "depth"
	TopicKline     = "kline" // pushes say "kline"; subscriptions say "kline_" + interval
)

// FrameKind tells what a quote-socket text frame is.
type FrameKind uint8

// The kinds of frame: a data push, the server's pong, a ping from the
// server (answer it), or anything else (a subscription acknowledgement,
// an error reply), which carries no data.
const (
	FramePush FrameKind = iota
	FramePong
	FramePing
	FrameOther
)

// Push is one decoded frame. DecodeFrame reuses its slices, so a reader
// decoding frame after frame into one Push allocates only the strings it
// keeps.
type Push struct {
	Kind     FrameKind
	Symbol   string // the push's symbol
	Topic    string // realtimes, trade, kline or depth
	Interval string // kline pushes: "1m", ...
	First    bool   // f: the first (snapshot) push after a subscription
	Ping     int64  // FramePing / FramePong: the echoed number
	PingText string // FramePing: the number exactly as received

	Tickers []Ticker // realtimes
	Trades  []Trade  // trade, in the order received
	Candles []Candle // kline
	Books   []Book   // depth
	// Symbols holds each data element's own symbol (s) where it has one,
	// parallel to the element slice of the topic ("" = the push's).
	Symbols []string

	// Skipped counts data elements that failed to decode (kept out).
	Skipped int
	// levels is scratch space for a book's sides before they get their
	// own array.
	levels []Level
	// Code and Msg are an error reply's fields (FrameOther).
	Code string
	Msg  string
}

// Ticker is one realtimes element: the rolling 24 h ticker.
type Ticker struct {
	Time                                     int64
	Close, High, Low, Open, Volume, QuoteVol string
}

// ErrMalformed wraps every decoding failure of a whole frame.
var ErrMalformed = errors.New("malformed quote frame")

func malformed(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, a...))
}

func (p *Push) reset() {
	*p = Push{Tickers: p.Tickers[:0], Trades: p.Trades[:0], Candles: p.Candles[:0],
		Books: p.Books[:0], Symbols: p.Symbols[:0], levels: p.levels[:0]}
}

// DecodeFrame decodes one quote-socket text frame into p. A frame that is
// not one JSON object, or a push whose data is not an array, is an error
// wrapping ErrMalformed; a bad data element is skipped and counted in
// p.Skipped, its good neighbours kept.
func DecodeFrame(b []byte, p *Push) error {
	p.reset()
	d := decoder{b: b}
	var data, params []byte
	var pingRaw, pongRaw []byte
	var topicSeen bool
	ok := event.Fields(b, func(k, v []byte) {
		switch string(k) {
		case "symbol":
			p.Symbol = d.str(v)
		case "topic":
			p.Topic, topicSeen = d.str(v), true
		case "data":
			data = v
		case "f":
			p.First = string(v) == "true"
		case "params":
			params = v
		case "ping":
			pingRaw = v
		case "pong":
			pongRaw = v
		case "code":
			p.Code = d.str(v)
		case "msg":
			p.Msg = d.str(v)
		}
	})
	if !ok {
		return malformed("not a JSON object")
	}
	switch {
	case pingRaw != nil && !topicSeen:
		p.Kind = FramePing
		p.PingText = string(bytes.Trim(pingRaw, `"`))
		p.Ping, _ = event.ParseTime([]byte(p.PingText))
		return nil
	case pongRaw != nil && !topicSeen:
		p.Kind = FramePong
		p.Ping, _ = event.ParseTime(bytes.Trim(pongRaw, `"`))
		return nil
	case data == nil || !topicSeen:
		p.Kind = FrameOther
		return nil
	}
	p.Kind = FramePush
	if len(p.Topic) > len(TopicKline) && p.Topic[:len(TopicKline)+1] == TopicKline+"_" {
		p.Interval, p.Topic = p.Topic[len(TopicKline)+1:], TopicKline
	}
	if p.Topic == TopicKline && params != nil {
		members(params, func(k, v []byte) {
			if string(k) == "klineType" {
				p.Interval = d.str(v)
			}
		})
	}
	var elem func(*Push, []byte) bool
	switch p.Topic {
	case TopicRealtimes:
		elem = d.realtime
	case TopicTrade:
		elem = d.trade
	case TopicKline:
		elem = d.kline
	case TopicDepth:
		elem = d.depth
	default:
		p.Kind = FrameOther
		return nil
	}
	if !elements(data, func(v []byte) {
		if !elem(p, v) {
			p.Skipped++
		}
	}) {
		return malformed("%s push: data is not an array", p.Topic)
	}
	return nil
}

// bar is what realtimes and kline elements share: {"t","s","c","h","l",
// "o","v"} and, for realtimes, "qv". ok needs a close price.
type bar struct {
	t                    int64
	s, c, h, l, o, v, qv string
}

func (d *decoder) bar(v []byte) (b bar, ok bool) {
	good := true
	ok = members(v, func(k, val []byte) {
		switch string(k) {
		case "t":
			b.t, good = timeOf(val, good)
		case "s":
			b.s = d.str(val)
		default:
			if f := b.decimal(string(k)); f != nil {
				*f, good = d.dec(val, good)
			}
		}
	})
	return b, ok && good && b.c != ""
}

// decimal is the field of b that key names, nil for none.
func (b *bar) decimal(key string) *string {
	switch key {
	case "c":
		return &b.c
	case "h":
		return &b.h
	case "l":
		return &b.l
	case "o":
		return &b.o
	case "v":
		return &b.v
	case "qv":
		return &b.qv
	}
	return nil
}

// realtime reads a 24 h ticker element.
func (d *decoder) realtime(p *Push, v []byte) bool {
	b, ok := d.bar(v)
	if !ok {
		return false
	}
	p.Tickers = append(p.Tickers, Ticker{Time: b.t, Close: b.c, High: b.h, Low: b.l, Open: b.o, Volume: b.v, QuoteVol: b.qv})
	p.Symbols = append(p.Symbols, b.s)
	return true
}

// trade reads {"v","t","p","q","m"}: id, time, price, quantity, buyer is
// maker.
func (d *decoder) trade(p *Push, v []byte) bool {
	var t Trade
	good := true
	ok := members(v, func(k, val []byte) {
		switch string(k) {
		case "v":
			t.ID = d.str(val)
		case "t":
			t.Time, good = timeOf(val, good)
		case "p":
			t.Price, good = d.dec(val, good)
		case "q":
			t.Qty, good = d.dec(val, good)
		case "m":
			t.BuyerMaker = string(val) == "true"
		}
	})
	if !ok || !good || t.Price == "" {
		return false
	}
	p.Trades = append(p.Trades, t)
	p.Symbols = append(p.Symbols, "")
	return true
}

// kline reads the current bar; t is its open time.
func (d *decoder) kline(p *Push, v []byte) bool {
	b, ok := d.bar(v)
	if !ok || b.t == 0 {
		return false
	}
	p.Candles = append(p.Candles, Candle{OpenTime: b.t, Open: b.o, High: b.h, Low: b.l, Close: b.c, Volume: b.v})
	p.Symbols = append(p.Symbols, b.s)
	return true
}

// depth reads {"s","t","v","b":[[price, qty]],"a":[[price, qty]]}. Both
// sides share one array, allocated once their lengths are known.
func (d *decoder) depth(p *Push, v []byte) bool {
	var bk Book
	var sym string
	good := true
	p.levels = p.levels[:0]
	var bids, asks []Level // in p.levels, until copied
	ok := members(v, func(k, val []byte) {
		switch string(k) {
		case "s":
			sym = d.str(val)
		case "t":
			bk.Time, good = timeOf(val, good)
		case "v":
			bk.Version = d.str(val)
		case "b":
			bids, good = d.levels(p, val, good)
		case "a":
			asks, good = d.levels(p, val, good)
		}
	})
	if !ok || !good {
		return false
	}
	sides := make([]Level, len(bids)+len(asks))
	n := copy(sides, bids)
	copy(sides[n:], asks)
	bk.Bids, bk.Asks = sides[:n:n], sides[n:]
	p.Books = append(p.Books, bk)
	p.Symbols = append(p.Symbols, sym)
	return true
}

// decoder reads the values of one frame. Every string it returns is a
// substring of a copy of a window of the frame: a push costs a few
// allocations for all its text, and a book keeps the text of the levels
// it holds, not of the hundreds a push may carry. Values it reads are
// subslices of b.
type decoder struct {
	b  []byte
	s  string // a copy of b[at : at+len(s)], made on first use
	at int
}

// textWindow is the least of the frame a copy takes: the values read
// next follow the first.
const textWindow = 1024

// text is the frame's text at v (a subslice of d.b).
func (d *decoder) text(v []byte) string {
	i := cap(d.b) - cap(v)
	if i < 0 || i+len(v) > len(d.b) {
		return string(v) // not from this frame: copy
	}
	if d.s == "" || i < d.at || i+len(v) > d.at+len(d.s) {
		d.s, d.at = string(d.b[i:min(len(d.b), i+max(len(v), textWindow))]), i
	}
	return d.s[i-d.at : i-d.at+len(v)]
}

// levels reads [[price, qty], ...] onto the end of p.levels and returns
// them (p.levels's array, which the next levels may move); each level
// needs two decimals. Only the top MaxLevels levels are read (books are
// sent best first): the scan stops there, since a push carries up to 300
// levels a side and the frame's JSON was checked already.
func (d *decoder) levels(p *Push, v []byte, good bool) ([]Level, bool) {
	from := len(p.levels)
	okAll := elementsWhile(v, func(l []byte) bool {
		if len(p.levels)-from >= MaxLevels {
			return false
		}
		var lv Level
		i := 0
		if !elements(l, func(x []byte) {
			var ok bool
			switch i {
			case 0:
				lv.Price, ok = d.dec(x, true)
			case 1:
				lv.Qty, ok = d.dec(x, true)
			default:
				ok = true
			}
			good = good && ok
			i++
		}) || i < 2 {
			good = false
			return true
		}
		p.levels = append(p.levels, lv)
		return true
	})
	return p.levels[from:], good && okAll
}

// str is the text of a JSON string (or the literal of any other value).
func (d *decoder) str(v []byte) string {
	if len(v) >= 2 && v[0] == '"' {
		in := v[1 : len(v)-1]
		if bytes.IndexByte(in, '\\') < 0 {
			return d.text(in)
		}
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s
		}
		return ""
	}
	return d.text(v)
}

// dec reads a decimal sent as a string or a number, keeping its text;
// anything else sets good to false.
func (d *decoder) dec(v []byte, good bool) (string, bool) {
	lit := v
	if len(v) >= 2 && v[0] == '"' {
		lit = v[1 : len(v)-1]
	}
	if !event.IsDecimal(lit) {
		return "", false
	}
	return d.text(lit), good
}

// timeOf reads a time (ms) sent as a number or a string of digits.
func timeOf(v []byte, good bool) (int64, bool) {
	if len(v) >= 2 && v[0] == '"' {
		v = v[1 : len(v)-1]
	}
	t, ok := event.ParseTime(v)
	return t, good && ok
}
