package rest

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"bhtop/api"
)

// KlineRequest asks for the bars of one symbol and interval (1m ... 1M).
// Zero fields are not sent. Spot klines take StartTime/EndTime, contract
// klines (Contract set) take To.
type KlineRequest struct {
	Symbol, Interval   string
	StartTime, EndTime int64 // ms, spot
	To                 int64 // ms, contract
	Limit              int
	Contract           bool
}

// Kline is one bar: [openTime, open, high, low, close, volume, closeTime,
// quoteVolume, trades, takerBuyBase, takerBuyQuote].
type Kline struct {
	OpenTime                             int64
	Open, High, Low, Close, Volume       string
	CloseTime                            int64
	QuoteVolume                          string
	Trades                               int64
	TakerBuyBaseVolume, TakerBuyQuoteVol string
}

// klineFields is how many fields of a bar array Kline holds; more are
// ignored.
const klineFields = 11

// Klines fetches bars (GET /openapi/quote/v1/klines, or contract/klines).
// A market client asks for hundreds of bars of every symbol it starts to
// follow, so the answer is read by klinesOf (every text a substring of
// one copy of the body); encoding/json reads only what klinesOf leaves.
func (c *Client) Klines(ctx context.Context, r KlineRequest) ([]Kline, error) {
	p := &params{}
	p.add("symbol", r.Symbol).add("interval", r.Interval)
	ep := api.Klines
	if r.Contract {
		ep = api.ContractKlines
		if r.To > 0 {
			p.addInt("to", r.To)
		}
	} else {
		if r.StartTime > 0 {
			p.addInt("startTime", r.StartTime)
		}
		if r.EndTime > 0 {
			p.addInt("endTime", r.EndTime)
		}
	}
	if r.Limit > 0 {
		p.addInt("limit", int64(r.Limit))
	}
	rt := quoteRoute(ep)
	var body rawBody
	if err := c.call(ctx, rt, p, &body); err != nil {
		return nil, err
	}
	if ks, ok := klinesOf(body); ok {
		return ks, nil
	}
	var ws [][]flexString
	if err := decode(body, &ws); err != nil {
		return nil, fmt.Errorf("%s %s: decoding the reply: %w", rt.method, rt.path, err)
	}
	out := make([]Kline, 0, len(ws))
	var fields []string
	for i, w := range ws {
		fields = fields[:0]
		for _, f := range w {
			fields = append(fields, string(f))
		}
		k, err := kline(fields)
		if err != nil {
			return nil, fmt.Errorf("GET %s: bar %d: %w", ep.Path, i, err)
		}
		out = append(out, k)
	}
	return out, nil
}

// kline reads one bar's fields (texts of strings and numbers, "" for
// null); the fields after volume are optional.
func kline(w []string) (Kline, error) {
	if len(w) < 6 {
		return Kline{}, fmt.Errorf("%d fields, want at least 6", len(w))
	}
	at := func(i int) string {
		if i < len(w) {
			return w[i]
		}
		return ""
	}
	num := func(i int) (int64, error) {
		if at(i) == "" {
			return 0, nil
		}
		return strconv.ParseInt(at(i), 10, 64)
	}
	k := Kline{Open: at(1), High: at(2), Low: at(3), Close: at(4), Volume: at(5), QuoteVolume: at(7),
		TakerBuyBaseVolume: at(9), TakerBuyQuoteVol: at(10)}
	var err error
	if k.OpenTime, err = num(0); err != nil {
		return Kline{}, fmt.Errorf("open time %q: %w", at(0), err)
	}
	if k.CloseTime, err = num(6); err != nil {
		return Kline{}, fmt.Errorf("close time %q: %w", at(6), err)
	}
	if k.Trades, err = num(8); err != nil {
		return Kline{}, fmt.Errorf("trade count %q: %w", at(8), err)
	}
	return k, nil
}

// klinesOf reads a klines answer, an array of bar arrays whose fields are
// strings, numbers or null, as encoding/json and kline would, with every
// text a substring of one copy of b. ok is false for anything it cannot
// read that way, which the caller hands to encoding/json: a string with
// an escape, a control or non-ASCII byte, another kind of value, a bar
// kline refuses, bad syntax, or text after the array.
func klinesOf(b []byte) (ks []Kline, ok bool) {
	sc := arrayScanner{b: b}
	if !sc.open('[') {
		return nil, false
	}
	ks = make([]Kline, 0, max(0, bytes.Count(b, []byte{']'})-1))
	var text string // string(b), made once a bar is read
	var fields [klineFields]string
	for more := !sc.close(']'); more; {
		if !sc.open('[') {
			return nil, false
		}
		n := 0
		for fmore := !sc.close(']'); fmore; {
			start, end, ok := sc.scalar()
			if !ok {
				return nil, false
			}
			if n < klineFields {
				if text == "" {
					text = string(b)
				}
				fields[n] = text[start:end]
			}
			n++
			if fmore, ok = sc.next(']'); !ok {
				return nil, false
			}
		}
		k, err := kline(fields[:min(n, klineFields)])
		if err != nil {
			return nil, false
		}
		ks = append(ks, k)
		if more, ok = sc.next(']'); !ok {
			return nil, false
		}
	}
	return ks, sc.end()
}

// arrayScanner reads JSON arrays of scalars from b, strictly: what it
// accepts, encoding/json reads the same.
type arrayScanner struct {
	b []byte
	i int
}

func (s *arrayScanner) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// open takes the bracket c after white space.
func (s *arrayScanner) open(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// close takes the bracket c (an empty array's end) if it comes next.
func (s *arrayScanner) close(c byte) bool { return s.open(c) }

// next takes the comma before another element (more) or the closing
// bracket c; ok is false for anything else.
func (s *arrayScanner) next(c byte) (more, ok bool) {
	s.ws()
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case ',':
			s.i++
			return true, true
		case c:
			s.i++
			return false, true
		}
	}
	return false, false
}

// end reports whether only white space is left.
func (s *arrayScanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// scalar reads a string (its text between the quotes: printable ASCII
// without escapes), a number (its literal) or null (empty) and returns
// where its text is in b.
func (s *arrayScanner) scalar() (start, end int, ok bool) {
	s.ws()
	if s.i >= len(s.b) {
		return 0, 0, false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		start = s.i + 1
		for i := start; i < len(s.b); i++ {
			switch c := s.b[i]; {
			case c == '"':
				s.i = i + 1
				return start, i, true
			case c == '\\' || c < 0x20 || c >= 0x80:
				return 0, 0, false
			}
		}
		return 0, 0, false
	case c == 'n':
		if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
			s.i += 4
			return s.i, s.i, true
		}
		return 0, 0, false
	case c == '-' || (c >= '0' && c <= '9'):
		start = s.i
		end, ok = numberEnd(s.b, s.i)
		s.i = end
		return start, end, ok
	}
	return 0, 0, false
}

// numberEnd returns the end of the JSON number at b[i]: -?(0|[1-9]d*)
// (.d+)?([eE][+-]?d+)?, followed by a delimiter.
func numberEnd(b []byte, i int) (int, bool) {
	digits := func() int {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return i, false
		}
	}
	if i < len(b) {
		switch b[i] {
		case ',', ']', ' ', '\t', '\n', '\r':
		default:
			return i, false
		}
	}
	return i, true
}
