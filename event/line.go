package event

import (
	"encoding/binary"
	"unsafe"
)

// Execution reports written exactly as the service writes them (in
// AppendExecution's order and forms, with or without the optional fields)
// are read by straight-line code, one function per type (execSpotLine,
// execContractLine, sharing execMid and execTail): the object with its
// values cut out must equal the type's skeleton, the bytes between the
// values (a string's closing quote, the comma, the key, a string's
// opening quote). Each stretch of skeleton is compared in one load where
// the value before it ends, which checks that value's end and the next
// key at once; each value is read by the one form its field takes there.
// The line is all or nothing: the first field that differs (another key,
// a value written another way) ends it with nothing decided, and
// fastExec's table loop (execInOrder) and keyed loop read the report from
// its head, so the line only ever agrees with them. There is no table to
// walk and no kind to dispatch on: the keys, the forms and the
// destinations are constants of the code.
//
// Every load of eight bytes but those of the last value is checked
// against the frame's end once (lineBuf's lim, one comparison): a value
// running into the last eight bytes ends the line, as a mismatch does,
// so nothing past the end is read. A usual report's last value is read
// as load8 reads (decEnd).

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

// lineBuf is the frame a line reads: where it starts, and the last index
// eight bytes can be loaded from (len - 8; the line reads frames of
// lineHead bytes or more).
type lineBuf struct {
	p   unsafe.Pointer
	lim uint
}

// w is the eight bytes from i, which the caller has checked (i <= lim).
func (f lineBuf) w(i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(f.p, i))[:])
}

// is reports whether the n (1..8) bytes from i are the low n bytes of w;
// false from the last eight bytes of the frame on (or for an i < 0).
func (f lineBuf) is(i int, w uint64, n uint) bool {
	return uint(i) <= f.lim && f.w(i)<<(64-8*n) == w<<(64-8*n)
}

// sub is the frame's bytes [i, j) (0 <= i <= j <= len, checked by the
// caller), its capacity its length.
func (f lineBuf) sub(i, j int) []byte {
	return *(*[]byte)(unsafe.Pointer(&sliceHeader{unsafe.Add(f.p, i), j - i, j - i}))
}

// text returns the index of the first byte from i on that may end a
// plain string's text: a quote, a backslash or a byte below '#' (control
// characters, but also a space and '!'), or one of 0x80 and above (lanes
// minus '#' or minus 1 after the backslash's XOR that keep their top
// bit; exact for the lowest). The skeleton after the value, not finding
// its quote there, ends the line on any but the quote. From the last
// eight bytes on it returns an index there, a mismatch too.
func (f lineBuf) text(i int) int {
	for ; uint(i) <= f.lim; i += 8 {
		v := f.w(i)
		if m := (v - '#'*lanes1 | (v ^ '\\'*lanes1 - lanes1)) & lanesTop; m != 0 {
			return i + lowLane(m)
		}
	}
	return i
}

// digits returns the end of the run of digits from i (as text does in
// the last eight bytes).
func (f lineBuf) digits(i int) int {
	for ; uint(i) <= f.lim; i += 8 {
		if m := nonDigits(f.w(i)); m != 0 {
			return i + lowLane(m)
		}
	}
	return i
}

// unsigned returns the end of the JSON integer (digits, no leading zero)
// from i, or -1 when there is none.
func (f lineBuf) unsigned(i int) int {
	j := f.digits(i)
	if j == i || (j > i+1 && *(*byte)(unsafe.Add(f.p, i)) == '0') {
		return -1
	}
	return j
}

// signed is unsigned with a '-' or not.
func (f lineBuf) signed(i int) int {
	if f.is(i, '-', 1) {
		i++
	}
	return f.unsigned(i)
}

// dec returns the end of the usual decimal text from i (digits, and a
// '.' and digits or not), or -1 when there is none.
func (f lineBuf) dec(i int) int {
	j := f.digits(i)
	if j == i {
		return -1
	}
	if f.is(j, '.', 1) {
		k := f.digits(j + 1)
		if k == j+1 {
			return -1
		}
		return k
	}
	return j
}

// boolean reads true or false at i; end is -1 when it is neither.
func (f lineBuf) boolean(i int) (t bool, end int) {
	if uint(i) > f.lim {
		return false, -1
	}
	switch v := f.w(i); {
	case uint32(v) == wordTrue:
		return true, i + 4
	case v&0xFF_FFFF_FFFF == wordFalse:
		return false, i + 5
	}
	return false, -1
}

// time reads a time of 1 to 15 digits from i; end is -1 when there are
// none or more, or (bare) a leading zero.
func (f lineBuf) time(i int, bare bool) (t int64, end int) {
	if uint(i) > f.lim {
		return 0, -1
	}
	v := f.w(i)
	start, first := i, byte(v)
	var n uint64
	m := nonDigits(v)
	if m == 0 {
		n, i = parseEight(v), i+8
		if uint(i) > f.lim {
			return 0, -1
		}
		if v = f.w(i); nonDigits(v) == 0 {
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

// execLine reads the object at b[start] when it is an execution report
// written the service's way, as the comment above says: contract tells
// the types apart, ok says it was (then every field of x is set, those a
// report may leave out nil or false when it does), i is the index after
// its last value (its '}' in a report written the service's way). When ok
// is false x holds leftovers.
func execLine(b []byte, start int, x *ExecView) (i int, contract, ok bool) {
	if len(b)-start < lineHead {
		return 0, false, false
	}
	f := lineBuf{unsafe.Pointer(unsafe.SliceData(b)), uint(len(b) - 8)}
	w0, w1, w2 := f.w(start), f.w(start+8), f.w(start+16)
	switch {
	case w0 == lineHeads[0][0] && w1 == lineHeads[0][1] && w2 == lineHeads[0][2] &&
		f.w(start+len(lineHeadSpot)-8) == lineHeads[0][3]:
		i = execSpotLine(b, f, start+len(lineHeadSpot), x)
	case w0 == lineHeads[1][0] && w1 == lineHeads[1][1] && w2 == lineHeads[1][2] &&
		f.w(start+24) == lineHeads[1][3] && f.w(start+lineHead-8) == lineHeads[1][4]:
		i, contract = execContractLine(b, f, start+lineHead, x), true
	default:
		return 0, false, false
	}
	return i, contract, i >= 0
}

// execSpotLine reads a spot report's fields in the service's order and
// forms, from E's value at b[i], as execLine describes: it returns the
// index after Z's closing quote, or -1 when a field differs.
func execSpotLine(b []byte, f lineBuf, i int, x *ExecView) int {
	// E, a time
	t, k := f.time(i, true)
	if !f.is(k, sepBS|'s'<<16, 6) {
		return -1
	}
	x.EventTime = t
	// s, a string
	s := k + 6
	if k = f.text(s); !f.is(k, sepSB|'c'<<24, 6) {
		return -1
	}
	// c, a string or digits
	c, ce := k+6, 0
	if f.is(c, '"', 1) {
		c++
		if ce = f.text(c); !f.is(ce, sepSS|'S'<<24, 7) {
			return -1
		}
		i = ce + 7
	} else {
		if ce = f.unsigned(c); !f.is(ce, sepBS|'S'<<16, 6) {
			return -1
		}
		i = ce + 6
	}
	x.Symbol, x.ClientOrderID, x.Close, x.Leverage = f.sub(s, k), f.sub(c, ce), false, nil
	if i = execMid(f, i, x, true); i < 0 {
		return -1
	}
	// i, digits
	if k = f.unsigned(i); !f.is(k, sepBS|'l'<<16, 6) {
		return -1
	}
	x.OrderID = f.sub(i, k)
	if i = execTail(f, k+6, x); i < 0 {
		return -1
	}
	// Z, a decimal: the last value
	if k = decEnd(b, i); k < 0 || at(b, k) != '"' {
		return -1
	}
	x.CumQuote = f.sub(i, k)
	return k + 1
}

// execContractLine is execSpotLine for a contract report, from E's value
// (after its opening quote) at b[i]: every value a string but the
// booleans.
func execContractLine(b []byte, f lineBuf, i int, x *ExecView) int {
	t, k := f.time(i, false)
	if !f.is(k, sepSS|'s'<<24, 7) {
		return -1
	}
	x.EventTime = t
	// s c, strings
	s := k + 7
	if k = f.text(s); !f.is(k, sepSS|'c'<<24, 7) {
		return -1
	}
	c := k + 7
	ce := f.text(c)
	if !f.is(ce, sepSS|'S'<<24, 7) {
		return -1
	}
	x.Symbol, x.ClientOrderID = f.sub(s, k), f.sub(c, ce)
	if i = execMid(f, ce+7, x, false); i < 0 {
		return -1
	}
	// i, a string of digits
	if k = f.digits(i + 1); !f.is(i, '"', 1) || k == i+1 || !f.is(k, sepSS|'l'<<24, 7) {
		return -1
	}
	x.OrderID = f.sub(i+1, k)
	if i = execTail(f, k+7, x); i < 0 {
		return -1
	}
	// Z, a decimal
	if k = f.dec(i); !f.is(k, '"', 1) {
		return -1
	}
	x.CumQuote, i = f.sub(i, k), k+1
	x.TradeTime, x.TradeID, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil, nil
	// t, a string
	if f.is(i, sepBS|'t'<<16, 6) {
		if k = f.text(i + 6); !f.is(k, '"'|','<<8, 2) {
			return -1
		}
		x.TradeID, i = f.sub(i+6, k), k+1
	}
	// M A, the optional fields, strings skipped
	if f.is(i, sepBS|'M'<<16, 6) {
		if k = f.text(i + 6); !f.is(k, sepSS|'A'<<24, 7) {
			return -1
		}
		if k = f.text(k + 7); !f.is(k, '"', 1) {
			return -1
		}
		i = k + 1
	}
	// C v
	c0, v := f.boolean(i + 5)
	if !f.is(i, sepBB|'C'<<16, 5) || !f.is(v, sepBS|'v'<<16, 6) {
		return -1
	}
	if k = decEnd(b, v+6); k < 0 || at(b, k) != '"' {
		return -1
	}
	x.Close, x.Leverage = c0, f.sub(v+6, k)
	return k + 1
}

// execMid reads S o f q p X, the same in either report, from S's value
// at b[i], as execSpotLine does: it returns the index of i's value, or -1.
// In a spot report the optional fields may come between p and X
// (execOptional); it sets them, nil when they are left out.
func execMid(f lineBuf, i int, x *ExecView, spot bool) int {
	// S o f, strings
	k := f.text(i)
	if !f.is(k, sepSS|'o'<<24, 7) {
		return -1
	}
	o := k + 7
	oe := f.text(o)
	if !f.is(oe, sepSS|'f'<<24, 7) {
		return -1
	}
	tf := oe + 7
	tfe := f.text(tf)
	if !f.is(tfe, sepSS|'q'<<24, 7) {
		return -1
	}
	// q p, decimals
	q := tfe + 7
	qe := f.dec(q)
	if !f.is(qe, sepSS|'p'<<24, 7) {
		return -1
	}
	x.Side, x.Type, x.TimeInForce, x.Quantity = f.sub(i, k), f.sub(o, oe), f.sub(tf, tfe), f.sub(q, qe)
	p := qe + 7
	pe := f.dec(p)
	switch {
	case f.is(pe, sepSS|'X'<<24, 7):
		i = pe + 7
		if spot {
			x.TradeTime, x.TradeID, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil, nil
		}
	case spot && f.is(pe, sepSS|'P'<<24, 7):
		if i = execOptional(f, pe+7, x); i < 0 {
			return -1
		}
	case spot && f.is(pe, sepSB|'t'<<24, 6):
		x.TradeTime, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil
		if i = execTradeID(f, pe+6, x); i < 0 {
			return -1
		}
	default:
		return -1
	}
	x.Price = f.sub(p, pe)
	// X, a string
	if k = f.text(i); !f.is(k, sepSB|'i'<<24, 6) {
		return -1
	}
	x.Status = f.sub(i, k)
	return k + 6
}

// execOptional reads the optional fields of a spot report as
// AppendExecution writes them, from P's value at b[i] to X's (after
// `,"X":"`), whose index it returns; -1 when one differs.
func execOptional(f lineBuf, i int, x *ExecView) int {
	// P F, strings
	k := f.text(i)
	if !f.is(k, sepSS|'F'<<24, 7) {
		return -1
	}
	fq := k + 7
	fqe := f.text(fq)
	if !f.is(fqe, sepSB|'g'<<24, 6) {
		return -1
	}
	x.StopPrice, x.IcebergQty = f.sub(i, k), f.sub(fq, fqe)
	// g, an integer skipped
	if k = f.signed(fqe + 6); !f.is(k, sepBS|'x'<<16, 6) {
		return -1
	}
	// x r, strings
	xt := k + 6
	xte := f.text(xt)
	if !f.is(xte, sepSS|'r'<<24, 7) {
		return -1
	}
	r := xte + 7
	re := f.text(r)
	if !f.is(re, sepSB|'T'<<24, 6) {
		return -1
	}
	x.ExecType, x.RejectReason = f.sub(xt, xte), f.sub(r, re)
	// T, digits; I, digits skipped
	t := re + 6
	te := f.unsigned(t)
	if !f.is(te, sepBB|'I'<<16, 5) {
		return -1
	}
	x.TradeTime = f.sub(t, te)
	if k = f.unsigned(te + 5); !f.is(k, sepBB|'M'<<16, 5) {
		return -1
	}
	// M, a boolean skipped
	if _, k = f.boolean(k + 5); !f.is(k, sepBB|'t'<<16, 5) {
		return -1
	}
	return execTradeID(f, k+5, x)
}

// execTradeID reads a spot report's t, an integer, from its value at
// b[i] to X's (after `,"X":"`), whose index it returns; -1 when it
// differs.
func execTradeID(f lineBuf, i int, x *ExecView) int {
	k := f.signed(i)
	if !f.is(k, sepBS|'X'<<16, 6) {
		return -1
	}
	x.TradeID = f.sub(i, k)
	return k + 6
}

// execTail reads the fields from l to O, the same in either report, from
// l's value at b[i] as execSpotLine does; it returns the index of Z's
// value (after its opening quote), or -1.
func execTail(f lineBuf, i int, x *ExecView) int {
	// l, a string
	k := f.text(i)
	if !f.is(k, sepSS|'z'<<24, 7) {
		return -1
	}
	// z, a decimal
	z := k + 7
	ze := f.dec(z)
	if !f.is(ze, sepSS|'L'<<24, 7) {
		return -1
	}
	// L n, strings
	l := ze + 7
	le := f.text(l)
	if !f.is(le, sepSS|'n'<<24, 7) {
		return -1
	}
	n := le + 7
	ne := f.text(n)
	if !f.is(ne, sepSB|'N'<<24, 6) {
		return -1
	}
	x.LastQty, x.CumQty, x.LastPrice, x.Commission = f.sub(i, k), f.sub(z, ze), f.sub(l, le), f.sub(n, ne)
	// N, a string or null; u, true
	i = ne + 6
	if f.is(i, wordNull, 4) {
		x.CommissionAsset, i = f.sub(i, i+4), i+4
	} else {
		if !f.is(i, '"', 1) {
			return -1
		}
		if k = f.text(i + 1); !f.is(k, '"', 1) {
			return -1
		}
		x.CommissionAsset, i = f.sub(i+1, k), k+1
	}
	if !f.is(i, ','|'"'<<8|'u'<<16|'"'<<24|':'<<32|'t'<<40|'r'<<48|'u'<<56, 8) ||
		!f.is(i+8, 'e'|sepBB<<8|'w'<<24, 6) {
		return -1
	}
	// w m, booleans
	w, k := f.boolean(i + 14)
	if !f.is(k, sepBB|'m'<<16, 5) {
		return -1
	}
	m, k := f.boolean(k + 5)
	if !f.is(k, sepBB|'O'<<16, 5) {
		return -1
	}
	x.Working, x.Maker = w, m
	// O, a time (quoted in a contract report)
	var t int64
	if f.is(k+5, '"', 1) {
		if t, k = f.time(k+6, false); !f.is(k, sepSS|'Z'<<24, 7) {
			return -1
		}
		k++
	} else if t, k = f.time(k+5, true); !f.is(k, sepBS|'Z'<<16, 6) {
		return -1
	}
	x.Created = t
	return k + 6
}

// wordEnd is load8 for a b of eight bytes or more (as every object the
// lines read), inline: the eight bytes of b from i, those past its end as
// 0. For the values that may end an object.
func wordEnd(b []byte, i int) uint64 {
	if n := len(b); uint(i)+8 > uint(n) {
		if i >= n {
			return 0
		}
		return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n-8))[:]) >> (8 * (i + 8 - n))
	}
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:])
}

// decEnd returns the end of the usual decimal text from b[i] (digits, and
// a '.' and digits or not), or -1 when there is none.
func decEnd(b []byte, i int) int {
	j := i
	v := wordEnd(b, j)
	for nonDigits(v) == 0 {
		j += 8
		v = wordEnd(b, j)
	}
	lane := lowLane(nonDigits(v))
	if j += lane; j == i {
		return -1
	}
	if laneByte(v, lane) != '.' {
		return j
	}
	k := j + 1
	for v = wordEnd(b, k); nonDigits(v) == 0; v = wordEnd(b, k) {
		k += 8
	}
	if k += lowLane(nonDigits(v)); k == j+1 {
		return -1
	}
	return k
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
