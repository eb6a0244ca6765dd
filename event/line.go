package event

import (
	"encoding/binary"
	"unsafe"
)

// Execution reports written exactly as the service writes them (in
// AppendExecution's order and forms, with or without the optional fields)
// are read by straight-line code, one function per type (execSpotLine,
// execContractLine, sharing execBody): the object with its values cut
// out must equal the type's skeleton, the bytes between the values (a
// string's closing quote, the comma, the key, a string's opening quote).
// Each stretch of skeleton is compared in one load where the value before
// it ends, which checks that value's end and the next key at once; each
// value is read by the one form its field takes there. The line is all
// or nothing: the first field that differs (another key, a value written
// another way) ends it with nothing decided, and fastExec's table loop
// (execInOrder) and keyed loop read the report from its head, so the
// line only ever agrees with them. There is no table to walk and no kind
// to dispatch on: the keys, the forms and the destinations are constants
// of the code.
//
// Nothing past the frame's end is read: each scan checks the index of
// the word it loads against slim (lineBuf), the few loads at other
// indexes against lim, and the object's last value (and a spot report's
// O before a short Z) is read as load8 reads (decLast, createdLast).

// The skeleton between two values, as the low bytes of eight, with the key
// put in by the caller (sepSS|'k'<<24 is `","k":"`).
const (
	sepSS = '"' | ','<<8 | '"'<<16 | '"'<<32 | ':'<<40 | '"'<<48 // `","k":"`: a string, then a string
	sepSB = '"' | ','<<8 | '"'<<16 | '"'<<32 | ':'<<40           // `","k":`: a string, then another value
	sepBS = ',' | '"'<<8 | '"'<<24 | ':'<<32 | '"'<<40           // `,"k":"`: another value, then a string
	sepBB = ',' | '"'<<8 | '"'<<24 | ':'<<32                     // `,"k":`: another value, then another
)

// The heads the lines start with, up to the first value: the event type
// and the key E (and the opening quote of a contract's E).
const (
	lineHeadSpot     = `{"e":"executionReport","E":`
	lineHeadContract = `{"e":"contractExecutionReport","E":"`
	lineHead         = len(lineHeadContract) // bytes compared: the longer
)

// lineHeads are the heads as words: bytes 0, 8, 16, 24 and the last
// eight of each (a spot head's 24 and last both its last eight).
var lineHeads = func() (w [2][5]uint64) {
	for n, h := range []string{lineHeadSpot, lineHeadContract} {
		b := []byte(h)
		last := binary.LittleEndian.Uint64(b[len(b)-8:])
		w[n] = [5]uint64{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), binary.LittleEndian.Uint64(b[16:]), last, last}
		if len(b) >= 32 {
			w[n][3] = binary.LittleEndian.Uint64(b[24:])
		}
	}
	return w
}()

// lineBuf is the object a line reads: where it starts (index 0 of the
// line's indexes, its '{') and the last index a scan loads from (slim:
// its frame's length less 16 from there; the line reads objects of
// lineHead bytes or more). The last index eight bytes can be loaded from
// is lim, eight more (not kept: one register less where the line's
// values are read). A scan stops at a byte of its last word, so the skeleton
// after the value it ends, loaded there, is inside the frame with no
// check of its own; a scan that reaches slim ends the line, returning 0:
// any skeleton compared at 0 meets the object's '{', which none begins
// with. Values in the last sixteen bytes (but the last, and a spot
// report's O before it: createdLast) are read by the table loop.
type lineBuf struct {
	p    unsafe.Pointer
	slim uint
}

// lim is the last index eight bytes can be loaded from.
func (f lineBuf) lim() uint { return f.slim + 8 }

// lineBuf.w, the eight bytes from i, is in load_*.go.

// is reports whether the n (1..8) bytes from i, the end of a scan (or
// its 0), are the low n bytes of w.
func (f lineBuf) is(i int, w uint64, n uint) bool {
	return f.w(i)<<(64-8*n) == w<<(64-8*n)
}

// diff is zero when is(i, w, n): several values' ends are checked with
// one branch, their diffs or'ed (the scans after a wrong end are
// bounded as any, and come to nothing).
func (f lineBuf) diff(i int, w uint64, n uint) uint64 {
	return (f.w(i) ^ w) << (64 - 8*n)
}

// texts2 reads two strings in a row from a, `","k":"` between them and
// sep (n bytes) after the second: the ends of both, or 0, 0 when either
// differs.
func (f lineBuf) texts2(a int, k byte, sep uint64, n uint) (int, int) {
	ae := f.text(a)
	be := f.text(ae + 7)
	if f.diff(ae, sepSS|uint64(k)<<24, 7)|f.diff(be, sep, n) != 0 {
		return 0, 0
	}
	return ae, be
}

// isc is is at any i: false from the last eight bytes on.
func (f lineBuf) isc(i int, w uint64, n uint) bool {
	return uint(i) <= f.lim() && f.is(i, w, n)
}

// isEnd is is at any i, in the frame's last eight bytes too.
func (f lineBuf) isEnd(i int, w uint64, n uint) bool {
	return f.wEnd(i)<<(64-8*n) == w<<(64-8*n)
}

// sub is the object's bytes [i, j) (0 <= i <= j <= its length, checked by
// the caller), its capacity its length.
func (f lineBuf) sub(i, j int) []byte {
	return *(*[]byte)(unsafe.Pointer(&sliceHeader{unsafe.Add(f.p, i), j - i, j - i}))
}

// text returns the index of the first byte from i on that may end a
// plain string's text: a quote, a backslash or a byte below '#' (control
// characters, but also a space and '!'), or one of 0x80 and above (lanes
// minus '#' or minus 1 after the backslash's XOR that keep their top
// bit; exact for the lowest). The skeleton after the value, not finding
// its quote there, ends the line on any but the quote. A scan (0 past
// slim).
func (f lineBuf) text(i int) int {
	for {
		if uint(i) > f.slim {
			return 0
		}
		if m := textStops(f.w(i)); m != 0 {
			return i + lowLane(m)
		}
		i += 8
	}
}

// textStops marks the bytes of v that may end a plain string's text, as
// text says (the lowest mark is exact).
func textStops(v uint64) uint64 {
	return (v - '#'*lanes1 | (v ^ '\\'*lanes1 - lanes1)) & lanesTop
}

// digits returns the end of the run of digits from i. A scan (0 past
// slim).
func (f lineBuf) digits(i int) int {
	for {
		if uint(i) > f.slim {
			return 0
		}
		if m := nonDigits(f.w(i)); m != 0 {
			return i + lowLane(m)
		}
		i += 8
	}
}

// id is digits, reading the number the same words write: the end of
// the run of digits from i (0 past slim), and their number plus one when
// they are 1 to 19 digits with no leading zero, else 0 (not known).
func (f lineBuf) id(i int) (int, uint64) {
	if uint(i) > f.slim {
		return 0, 0
	}
	v := f.w(i)
	if m := nonDigits(v); m != 0 {
		n := lowLane(m)
		if n == 0 || n > 1 && byte(v) == '0' {
			return i + n, 0
		}
		return i + n, digitsIn(v, n) + 1
	}
	if uint(i+8) > f.slim {
		return 0, 0
	}
	u := f.w(i + 8)
	m := nonDigits(u)
	if m == 0 { // 16 digits or more: a third word
		if uint(i+16) > f.slim {
			return 0, 0
		}
		w := f.w(i + 16)
		if m = nonDigits(w); m == 0 {
			return f.digits(i + 24), 0
		}
		n := lowLane(m)
		if n > 3 || byte(v) == '0' {
			return i + 16 + n, 0
		}
		return i + 16 + n, (parseEight(v)*1e8+parseEight(u))*pow10[n&3] + digitsIn(w, n) + 1
	}
	n := lowLane(m)
	if byte(v) == '0' {
		return i + 8 + n, 0
	}
	return i + 8 + n, parseEight(v)*pow10[n&7] + digitsIn(u, n) + 1
}

// dec reads a decimal (digits, then a fraction after a '.' or not) from
// i as execBody reads q, and its digits as one number: its end (i when
// no digit begins it, 0 when it is cut or reaches past slim), the number
// and 1 + the digits after the point when they are eight or fewer in
// all (seven or fewer before an integer's end), else scale 0 (not known).
func (f lineBuf) dec(i int) (int, uint64, uint8) {
	if uint(i) > f.slim {
		return 0, 0, 0
	}
	v := f.w(i)
	m := nonDigits(v)
	if m == 0 { // eight integer digits or more
		j := f.digits(i + 8)
		if j > i && f.at(j) == '.' {
			j = f.frac(j)
		}
		return j, 0, 0
	}
	n := lowLane(m)
	if n == 0 || laneByte(v, n) != '.' {
		return i + n, digitsIn(v, n), 1
	}
	k := i + n + 1 // the fraction's first digit
	if uint(k) > f.slim {
		return 0, 0, 0
	}
	u := f.w(k)
	if m = nonDigits(u); m == 0 {
		return f.digits(k + 8), 0, 0 // 0 past slim, as frac
	}
	d := lowLane(m)
	if d == 0 {
		return 0, 0, 0 // no digit after the point
	}
	if n+d > 8 {
		return k + d, 0, 0
	}
	// the digits of both runs in one word, the integer's above the
	// fraction's, '0's below them: one parse
	s, t := 8*uint(d)&63, 8*uint(n+d)
	w := u<<((64-s)&63) | v<<((64-8*uint(n))&63)>>s | '0'*lanes1&^(^uint64(0)<<((64-t)&63))
	return k + d, parseEight(w), uint8(d + 1)
}

// at is the byte at i, the end of a scan that found digits (or its 0).
func (f lineBuf) at(i int) byte { return *(*byte)(unsafe.Add(f.p, i)) }

// unsigned returns the end of the JSON integer (digits, no leading zero)
// from i, or 0 when there is none.
func (f lineBuf) unsigned(i int) int {
	if j := f.digits(i); j > i && (j == i+1 || f.at(i) != '0') {
		return j
	}
	return 0
}

// signed is unsigned with a '-' or not.
func (f lineBuf) signed(i int) int {
	if j := f.digits(i); j != i || f.at(i) != '-' {
		i--
	}
	return f.unsigned(i + 1)
}

// frac returns the end of a decimal's fraction after its '.' at j, or 0
// when no digit follows. (dec, inline: digits, then frac after a '.'.)
func (f lineBuf) frac(j int) int {
	if k := f.digits(j + 1); k > j+1 {
		return k
	}
	return 0
}

// lead0 reports whether the digits [i, j) are more than one and start
// with a '0' (no JSON integer).
func (f lineBuf) lead0(i, j int) bool { return j > i+1 && f.at(i) == '0' }

// boolean reads true or false at i; end is 0 when it is neither. A scan.
func (f lineBuf) boolean(i int) (t bool, end int) {
	if uint(i) > f.slim {
		return false, 0
	}
	switch v := f.w(i); {
	case uint32(v) == wordTrue:
		return true, i + 4
	case v&0xFF_FFFF_FFFF == wordFalse:
		return false, i + 5
	}
	return false, 0
}

// time reads a time's 1 to 15 digits from i, scanning and parsing the
// same words: its value and end, or end 0 when there are none or more,
// or (bare) a leading zero. A scan.
func (f lineBuf) time(i int, bare bool) (int64, int) {
	if uint(i) > f.slim {
		return 0, 0
	}
	v := f.w(i)
	if m := nonDigits(v); m != 0 {
		n := lowLane(m)
		if n == 0 || bare && n > 1 && byte(v) == '0' {
			return 0, 0
		}
		return int64(digitsIn(v, n)), i + n
	}
	if uint(i+8) > f.slim || bare && byte(v) == '0' {
		return 0, 0
	}
	u := f.w(i + 8)
	m := nonDigits(u)
	if m == 0 {
		return 0, 0
	}
	n := lowLane(m)
	return int64(parseEight(v)*pow10[n] + digitsIn(u, n)), i + 8 + n
}

// createdLast reads a spot report's O from i as execBody does, its
// digits reaching into the frame's last sixteen bytes (loaded as wEnd
// loads them): it returns the index of Z's value, or 0 when O is no
// time, has a leading zero, or is not followed by `,"Z":"` and the three
// bytes or more a Z needs (a digit, `"}`; so is may load there, and num
// O's digits).
func (f lineBuf) createdLast(i int, x *ExecView) int {
	j := i
	v := f.wEnd(j)
	for nonDigits(v) == 0 {
		j += 8
		v = f.wEnd(j)
	}
	if j += lowLane(nonDigits(v)); uint(j-i-1) >= 15 || uint(j) >= f.lim() || f.lead0(i, j) || !f.is(j, sepBS|'Z'<<16, 6) {
		return 0
	}
	x.Created = f.num(i, j)
	return j + 6
}

// num is the number the digits [i, j) write, 1 to 15 of them (a
// timeEnd's).
func (f lineBuf) num(i, j int) int64 {
	v := f.w(i)
	if n := j - i; n < 8 {
		return int64(digitsIn(v, n))
	}
	n := j - i - 8
	return int64(parseEight(v)*pow10[n&7] + digitsIn(f.w(i+8), n))
}

// digitsIn is the number the first n (0..7) lanes of v, ASCII digits,
// write: parseFirst with shifts the compiler need not guard.
func digitsIn(v uint64, n int) uint64 {
	return parseEight(v<<((56-8*uint(n))&63)<<8 | '0'*lanes1>>(8*uint(n)&63))
}

// wEnd is the eight bytes from i, those past the frame's end as 0.
func (f lineBuf) wEnd(i int) uint64 {
	if uint(i) <= f.lim() {
		return f.w(i)
	}
	if d := i - int(f.lim()); d < 8 {
		return f.w(int(f.lim())) >> (8 * uint(d) & 63)
	}
	return 0
}

// decLast is dec for an object's last value, which may reach into the
// frame's last eight bytes, followed by its closing quote: the index of
// that quote, or 0.
func (f lineBuf) decLast(i int) int {
	j := i
	v := f.wEnd(j)
	for nonDigits(v) == 0 {
		j += 8
		v = f.wEnd(j)
	}
	lane := lowLane(nonDigits(v))
	if j += lane; j == i {
		return 0
	}
	if c := laneByte(v, lane); c != '.' {
		if c != '"' {
			return 0
		}
		return j
	}
	k := j + 1
	for v = f.wEnd(k); nonDigits(v) == 0; v = f.wEnd(k) {
		k += 8
	}
	lane = lowLane(nonDigits(v))
	if k += lane; k == j+1 || laneByte(v, lane) != '"' {
		return 0
	}
	return k
}

// lineOf is the line the object at b[start] takes: 1 a spot report's, 2
// a contract report's, 0 none; f is the object.
func lineOf(b []byte, start int) (f lineBuf, line int) {
	if len(b)-start < lineHead {
		return f, 0
	}
	f = lineBuf{unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), start), uint(len(b) - start - 16)}
	if w0, w1, w2 := f.w(0), f.w(8), f.w(16); w0 == lineHeads[0][0] && w1 == lineHeads[0][1] && w2 == lineHeads[0][2] &&
		f.w(len(lineHeadSpot)-8) == lineHeads[0][3] {
		line = 1
	} else if w0 == lineHeads[1][0] && w1 == lineHeads[1][1] && w2 == lineHeads[1][2] &&
		f.w(24) == lineHeads[1][3] && f.w(lineHead-8) == lineHeads[1][4] {
		line = 2
	}
	return f, line
}

// execLine reads the object at b[start] when it is an execution report
// written the service's way, as the comment above says: contract tells
// the types apart, ok says it was (then every field of x is set, those a
// report may leave out nil or false when it does), i is the index after
// its last value (its '}' in a report written the service's way). When ok
// is false x holds leftovers.
func execLine(b []byte, start int, x *ExecView) (i int, contract, ok bool) {
	switch f, line := lineOf(b, start); line {
	case 1:
		i = execSpotLine(f, len(lineHeadSpot), x)
	case 2:
		i, contract = execContractLine(f, lineHead, x), true
	default:
		return 0, false, false
	}
	return start + i, contract, i > 0
}

// execSpotLine reads a spot report's fields in the service's order and
// forms, from E's value at i, as execLine describes: it returns the index
// after Z's closing quote, or 0 when a field differs.
func execSpotLine(f lineBuf, i int, x *ExecView) int {
	// E, a time
	t, ee := f.time(i, true)
	if !f.is(ee, sepBS|'s'<<16, 6) {
		return 0
	}
	// s, a string
	s := ee + 6
	k := f.text(s)
	if !f.is(k, sepSB|'c'<<24, 6) {
		return 0
	}
	x.Symbol = f.sub(s, k)
	// c, a string or digits
	c, ce := k+6, 0
	if f.is(k, sepSS|'c'<<24, 7) {
		c++
		if ce = f.text(c); !f.is(ce, sepSS|'S'<<24, 7) {
			return 0
		}
		i = ce + 7
	} else {
		if ce = f.digits(c); ce <= c || f.lead0(c, ce) || !f.is(ce, sepBS|'S'<<16, 6) {
			return 0
		}
		i = ce + 6
	}
	x.ClientOrderID, x.Close, x.Leverage = f.sub(c, ce), false, nil
	if i = execBody(f, i, x, true); i <= 0 {
		if i == 0 {
			return 0
		}
		if i = f.createdLast(-i, x); i == 0 {
			return 0
		}
	}
	// Z, a decimal: the last value
	k = f.decLast(i)
	if k == 0 {
		return 0
	}
	x.CumQuote, x.EventTime = f.sub(i, k), t
	return k + 1
}

// execContractLine is execSpotLine for a contract report, from E's value
// (after its opening quote) at i: every value a string but the booleans.
func execContractLine(f lineBuf, i int, x *ExecView) int {
	t, ee := f.time(i, false)
	if !f.is(ee, sepSS|'s'<<24, 7) {
		return 0
	}
	x.EventTime = t
	// s c, strings, their ends checked at once
	s := ee + 7
	k := f.text(s)
	ce := f.text(k + 7)
	if f.diff(k, sepSS|'c'<<24, 7)|f.diff(ce, sepSS|'S'<<24, 7) != 0 {
		return 0
	}
	x.Symbol, x.ClientOrderID = f.sub(s, k), f.sub(k+7, ce)
	if i = execBody(f, ce+7, x, false); i <= 0 {
		return 0
	}
	// Z, a decimal
	if k = f.digits(i); k > i && f.at(k) == '.' {
		k = f.frac(k)
	}
	if k <= i || !f.is(k, '"', 1) {
		return 0
	}
	x.CumQuote = f.sub(i, k)
	x.TradeTime, x.TradeID, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil, nil
	// t, a string
	if f.is(k, sepSS|'t'<<24, 7) {
		i = k + 7
		if k = f.text(i); !f.is(k, '"', 1) {
			return 0
		}
		x.TradeID = f.sub(i, k)
	}
	// M A, the optional fields, strings skipped
	if f.is(k, sepSS|'M'<<24, 7) {
		if k = f.text(k + 7); !f.is(k, sepSS|'A'<<24, 7) {
			return 0
		}
		if k = f.text(k + 7); !f.is(k, '"', 1) {
			return 0
		}
	}
	// C v: the object's last eight bytes or more
	if !f.is(k, sepSB|'C'<<24, 6) {
		return 0
	}
	switch k += 6; {
	case f.isc(k, wordTrue|','<<32|'"'<<40|'v'<<48|'"'<<56, 8) && f.isEnd(k+8, ':'|'"'<<8, 2):
		x.Close, i = true, k+10
	case f.isc(k, wordFalse|','<<40|'"'<<48|'v'<<56, 8) && f.isEnd(k+8, '"'|':'<<8|'"'<<16, 3):
		x.Close, i = false, k+11
	default:
		return 0
	}
	if k = f.decLast(i); k == 0 {
		return 0
	}
	x.Leverage = f.sub(i, k)
	return k + 1
}

// execBody reads the fields from S to O, the same in either report but
// for i's quotes, from S's value at i, as execSpotLine does: it returns
// the index of Z's value (after its opening quote), or 0; or, when a
// bare O (a spot report's) or what follows it differs, minus O's index,
// x.Created not set: its scan stops at slim, before the frame's last
// sixteen bytes, which a Z of a byte or two (as "0") leaves it in, so
// execSpotLine reads it again (createdLast), as decLast reads. In a spot
// report the optional fields may come between p and X (execOptional); it
// sets them, nil when they are left out.
func execBody(f lineBuf, i int, x *ExecView, spot bool) int {
	// S o f, strings, their ends checked at once
	k := f.text(i)
	o := k + 7
	oe := f.text(o)
	tf := oe + 7
	tfe := f.text(tf)
	if f.diff(k, sepSS|'o'<<24, 7)|f.diff(oe, sepSS|'f'<<24, 7)|f.diff(tfe, sepSS|'q'<<24, 7) != 0 {
		return 0
	}
	x.Side, x.Type, x.TimeInForce = f.sub(i, k), f.sub(o, oe), f.sub(tf, tfe)
	// q p, decimals
	q := tfe + 7
	qe := f.digits(q)
	if qe > q && f.at(qe) == '.' {
		qe = f.frac(qe)
	}
	if qe <= q || !f.is(qe, sepSS|'p'<<24, 7) {
		return 0
	}
	x.Quantity = f.sub(q, qe)
	p := qe + 7
	pe := f.digits(p)
	if pe > p && f.at(pe) == '.' {
		pe = f.frac(pe)
	}
	if pe <= p {
		return 0
	}
	switch {
	case f.is(pe, sepSS|'X'<<24, 7):
		i = pe + 7
		if spot {
			x.TradeTime, x.TradeID, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil, nil
		}
	case spot && f.is(pe, sepSS|'P'<<24, 7):
		if i = execOptional(f, pe+7, x); i == 0 {
			return 0
		}
	case spot && f.is(pe, sepSB|'t'<<24, 6):
		x.TradeTime, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil
		if i = execTradeID(f, pe+6, x); i == 0 {
			return 0
		}
	default:
		return 0
	}
	x.Price = f.sub(p, pe)
	// X, a string
	k = f.text(i)
	// i, digits (a string of digits in a contract report)
	if spot {
		if !f.is(k, sepSB|'i'<<24, 6) {
			return 0
		}
		x.Status, i = f.sub(i, k), k+6
		var id uint64
		if k, id = f.id(i); k <= i || f.lead0(i, k) || !f.is(k, sepBS|'l'<<16, 6) {
			return 0
		}
		x.OrderID, x.IDNum, i = f.sub(i, k), id, k+6
	} else {
		if !f.is(k, sepSS|'i'<<24, 7) {
			return 0
		}
		x.Status, i = f.sub(i, k), k+7
		var id uint64
		if k, id = f.id(i); k <= i || !f.is(k, sepSS|'l'<<24, 7) {
			return 0
		}
		x.OrderID, x.IDNum, i = f.sub(i, k), id, k+7
	}
	// l, a string
	k = f.text(i)
	if !f.is(k, sepSS|'z'<<24, 7) {
		return 0
	}
	x.LastQty = f.sub(i, k)
	// z, a decimal
	z := k + 7
	ze, zn, zs := f.dec(z)
	if ze <= z || !f.is(ze, sepSS|'L'<<24, 7) {
		return 0
	}
	x.ZNum, x.ZScale = zn, zs
	// L n, strings (n's end checked with N)
	l := ze + 7
	le := f.text(l)
	n := le + 7
	ne := f.text(n)
	if f.diff(le, sepSS|'n'<<24, 7) != 0 {
		return 0
	}
	x.CumQty, x.LastPrice, x.Commission = f.sub(z, ze), f.sub(l, le), f.sub(n, ne)
	// N, a string or null; u, true
	switch {
	case f.is(ne, sepSB|'N'<<24|'n'<<48|'u'<<56, 8):
		if !f.isc(ne+8, 'l'|'l'<<8|','<<16|'"'<<24|'u'<<32|'"'<<40|':'<<48|'t'<<56, 8) {
			return 0
		}
		x.CommissionAsset, i = f.sub(ne+6, ne+10), ne+16
	case f.is(ne, sepSS|'N'<<24, 7):
		if k = f.text(ne + 7); !f.is(k, '"'|','<<8|'"'<<16|'u'<<24|'"'<<32|':'<<40|'t'<<48, 7) {
			return 0
		}
		x.CommissionAsset, i = f.sub(ne+7, k), k+7
	default:
		return 0
	}
	if !f.isc(i, 'r'|'u'<<8|'e'<<16|sepBB<<24|'w'<<40, 8) {
		return 0
	}
	// w m, booleans
	w, k := f.boolean(i + 8)
	if !f.is(k, sepBB|'m'<<16, 5) {
		return 0
	}
	m, k := f.boolean(k + 5)
	x.Working, x.Maker = w, m
	// O, a time (quoted in a contract report)
	var t int64
	switch {
	case f.is(k, sepBS|'O'<<16, 6):
		if t, k = f.time(k+6, false); !f.is(k, sepSS|'Z'<<24, 7) {
			return 0
		}
		i = k + 7
	case f.is(k, sepBB|'O'<<16, 5):
		if t, i = f.time(k+5, true); !f.is(i, sepBS|'Z'<<16, 6) {
			return -(k + 5) // execSpotLine's to read again (createdLast)
		}
		i += 6
	default:
		return 0
	}
	x.Created = t
	return i
}

// execOptional reads the optional fields of a spot report as
// AppendExecution writes them, from P's value at i to X's (after
// `,"X":"`), whose index it returns; 0 when one differs.
func execOptional(f lineBuf, i int, x *ExecView) int {
	// P F, strings
	k, fqe := f.texts2(i, 'F', sepSB|'g'<<24, 6)
	if fqe == 0 {
		return 0
	}
	x.StopPrice, x.IcebergQty = f.sub(i, k), f.sub(k+7, fqe)
	// g, an integer skipped
	if k = f.signed(fqe + 6); !f.is(k, sepBS|'x'<<16, 6) {
		return 0
	}
	// x r, strings
	xt := k + 6
	xte, re := f.texts2(xt, 'r', sepSB|'T'<<24, 6)
	if re == 0 {
		return 0
	}
	x.ExecType, x.RejectReason = f.sub(xt, xte), f.sub(xte+7, re)
	// T, digits; I, digits skipped
	t := re + 6
	te := f.unsigned(t)
	if !f.is(te, sepBB|'I'<<16, 5) {
		return 0
	}
	x.TradeTime = f.sub(t, te)
	if k = f.unsigned(te + 5); !f.is(k, sepBB|'M'<<16, 5) {
		return 0
	}
	// M, a boolean skipped
	if _, k = f.boolean(k + 5); !f.is(k, sepBB|'t'<<16, 5) {
		return 0
	}
	return execTradeID(f, k+5, x)
}

// execTradeID reads a spot report's t, an integer, from its value at i
// to X's (after `,"X":"`), whose index it returns; 0 when it differs.
func execTradeID(f lineBuf, i int, x *ExecView) int {
	k := f.signed(i)
	if !f.is(k, sepBS|'X'<<16, 6) {
		return 0
	}
	x.TradeID = f.sub(i, k)
	return k + 6
}

// wordEnd is load8 for a b of eight bytes or more (as every object the
// table loop reads: digitsTime), inline: the eight bytes of b from i,
// those past its end as 0. For the values that may end an object.
func wordEnd(b []byte, i int) uint64 {
	if n := len(b); uint(i)+8 > uint(n) {
		if i >= n {
			return 0
		}
		return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n-8))[:]) >> (8 * (i + 8 - n))
	}
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:])
}

// digitsTime reads a time of 1 to 15 digits from b[i]; end is -1 when
// there are none or more, or (bare) a leading zero.
func digitsTime(b []byte, i int, bare bool) (t int64, end int) {
	v := wordEnd(b, i)
	start, first := i, byte(v)
	var n uint64
	m := nonDigits(v)
	if m == 0 {
		n, i = parseEight(v), i+8
		if v = wordEnd(b, i); nonDigits(v) == 0 {
			return 0, -1
		}
		m = nonDigits(v)
	} else if m&0xFF != 0 {
		return 0, -1 // no digit
	}
	lane := lowLane(m)
	end = i + lane
	if bare && first == '0' && end > start+1 {
		return 0, -1
	}
	return int64(n*pow10[lane&7] + parseFirst(v, lane)), end
}
