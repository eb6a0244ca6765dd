package event

import (
	"encoding/binary"
	"unsafe"
)

// Execution reports written exactly as the service writes them (in
// AppendExecution's order and forms, with or without the optional fields)
// are read by straight-line code, one function per type (execSpotLine,
// execContractLine, sharing execMid and execTail): the frame
// with its values cut out must equal the type's skeleton, the bytes
// between the values (a string's closing quote, the comma, the key, a
// string's opening quote). Each stretch of skeleton is compared in one
// load where the value before it ends, which checks that value's end and
// the next key at once; each value is then read by the one form its field
// takes there, and stored once its end is checked. The first field that
// differs (another key, a value written another way) ends the line: the
// fields before it are read, and fastExec's table loop (execInOrder) and
// keyed loop go on from its comma, so the line only ever agrees with them.
// There is no table to walk and no kind to dispatch on: the keys, the
// forms and the destinations are constants of the code.

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

// execSeen is the fields seen once the first n of execOrder are read.
var execSeen = func() (s [len(execOrder) + 1]uint32) {
	for n, f := range execOrder {
		s[n+1] = s[n] | f.need
	}
	return s
}()

// execLine reads the head of the object at b[start] and the fields after
// it that follow the line of its type: ok is false when the head is not
// one of the two (then it read nothing); else i is the comma before the
// first field not read (or the byte after the last value), seen the
// fields read, as execInOrder returns them.
func execLine(b []byte, start int, x *ExecView) (i int, seen uint32, contract, ok bool) {
	if len(b)-start < lineHead {
		return 0, 0, false, false
	}
	h := b[start : start+lineHead : start+lineHead]
	w0, w1, w2 := binary.LittleEndian.Uint64(h), binary.LittleEndian.Uint64(h[8:]), binary.LittleEndian.Uint64(h[16:])
	var n int
	switch {
	case w0 == lineHeads[0][0] && w1 == lineHeads[0][1] && w2 == lineHeads[0][2] &&
		binary.LittleEndian.Uint64(h[len(lineHeadSpot)-8:]) == lineHeads[0][3]:
		i, n = execSpotLine(b, start+len(lineHeadSpot)-5, x)
	case w0 == lineHeads[1][0] && w1 == lineHeads[1][1] && w2 == lineHeads[1][2] &&
		binary.LittleEndian.Uint64(h[24:]) == lineHeads[1][3] && binary.LittleEndian.Uint64(h[lineHead-8:]) == lineHeads[1][4]:
		i, n = execContractLine(b, start+lineHead-6, x)
		contract = true
	default:
		return 0, 0, false, false
	}
	return i, execSeen[n], contract, true
}

// word is the eight bytes of b from i, or 0 when fewer are left: load8
// without its tail, so that it inlines where load8 would not. Used where
// a value or skeleton of the usual form never reaches the last eight bytes
// of an object: past them it reads as a mismatch, which ends the line.
func word(b []byte, i int) uint64 {
	if uint(i)+8 > uint(len(b)) {
		return 0
	}
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:])
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

// is reports whether the n (1..8) bytes from b[i] are the low n bytes of
// w (false in the last eight bytes of b, as word).
func is(b []byte, i int, w uint64, n uint) bool {
	return word(b, i)<<(64-8*n) == w<<(64-8*n)
}

// textEnd returns the index of the first byte from b[i] on that may end a
// plain string's text: a quote, a backslash or a byte below '#' (control
// characters, but also a space and '!'), or one of 0x80 and above (lanes
// minus '#' or minus 1 after the backslash's XOR that keep their top
// bit; exact for the lowest). The skeleton after the value, not finding
// its quote there, hands any but the quote to execInOrder. In the last
// eight bytes of b it returns where they start, a mismatch too.
func textEnd(b []byte, i int) int {
	for {
		v := word(b, i)
		if m := (v - '#'*lanes1 | (v ^ '\\'*lanes1 - lanes1)) & lanesTop; m != 0 {
			return i + lowLane(m)
		}
		i += 8
	}
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

// digitsTo returns the end of the run of digits from b[i] (as word: in
// the last eight bytes of b, where they start).
func digitsTo(b []byte, i int) int {
	for {
		if m := nonDigits(word(b, i)); m != 0 {
			return i + lowLane(m)
		}
		i += 8
	}
}

// uintEnd returns the end of the JSON integer (digits, no leading zero)
// from b[i], or -1 when there is none.
func uintEnd(b []byte, i int) int {
	j := digitsTo(b, i)
	if j == i || (j > i+1 && word(b, i)&0xFF == '0') {
		return -1
	}
	return j
}

// boolEnd reads true or false at b[i]; end is -1 when it is neither.
func boolEnd(b []byte, i int) (t bool, end int) {
	v := word(b, i)
	switch {
	case uint32(v) == wordTrue:
		return true, i + 4
	case v&0xFF_FFFF_FFFF == wordFalse:
		return false, i + 5
	}
	return false, -1
}

// execSpotLine reads a spot report's fields in the service's order and
// forms, from the comma before E at b[i], as execLine describes: it
// returns the comma before the first field not read and the number read
// (all 20: the index after Z's closing quote).
func execSpotLine(b []byte, i int, x *ExecView) (int, int) {
	t, j := digitsTime(b, i+5, true)
	if j < 0 || !is(b, j, sepBS|'s'<<16, 6) {
		return i, 0
	}
	x.EventTime, i = t, j
	// s, a string
	k := textEnd(b, i+6)
	if !is(b, k, sepSB|'c'<<24, 6) {
		return i, 1
	}
	x.Symbol, i = sub(b, i+6, k), k+1
	// c, a string or digits
	if at(b, i+5) == '"' {
		if k = textEnd(b, i+6); !is(b, k, sepSS|'S'<<24, 7) {
			return i, 2
		}
		x.ClientOrderID, i = sub(b, i+6, k), k+1
	} else {
		if k = uintEnd(b, i+5); k < 0 || !is(b, k, sepBS|'S'<<16, 6) {
			return i, 2
		}
		x.ClientOrderID, i = sub(b, i+5, k), k
	}
	i, n := execMid(b, i, x, true)
	if n < 9 {
		return i, n
	}
	// i, digits
	if k = uintEnd(b, i+5); k < 0 || !is(b, k, sepBS|'l'<<16, 6) {
		return i, 9
	}
	x.OrderID = sub(b, i+5, k)
	i, n = execTail(b, k, x)
	return i, 10 + n
}

// execContractLine is execSpotLine for a contract report, from the
// opening quote of E at b[i+5]: every value a string but the booleans.
func execContractLine(b []byte, i int, x *ExecView) (int, int) {
	t, j := digitsTime(b, i+6, false)
	if j < 0 || !is(b, j, sepSS|'s'<<24, 7) {
		return i, 0
	}
	x.EventTime, i = t, j+1
	// s c, strings
	k := textEnd(b, i+6)
	if !is(b, k, sepSS|'c'<<24, 7) {
		return i, 1
	}
	x.Symbol, i = sub(b, i+6, k), k+1
	if k = textEnd(b, i+6); !is(b, k, sepSS|'S'<<24, 7) {
		return i, 2
	}
	x.ClientOrderID, i = sub(b, i+6, k), k+1
	i, n := execMid(b, i, x, false)
	if n < 9 {
		return i, n
	}
	// i, a string of digits
	if k = digitsTo(b, i+6); at(b, i+5) != '"' || k == i+6 || !is(b, k, sepSS|'l'<<24, 7) {
		return i, 9
	}
	x.OrderID = sub(b, i+6, k)
	if i, n = execTail(b, k+1, x); n < 10 {
		return i, 10 + n
	}
	// t, a string
	if is(b, i, sepBS|'t'<<16, 6) {
		if k = textEnd(b, i+6); !is(b, k, '"'|','<<8, 2) {
			return i, 20
		}
		x.TradeID, i = sub(b, i+6, k), k+1
	}
	// M A, the optional fields, strings skipped
	if is(b, i, sepBS|'M'<<16, 6) {
		k = textEnd(b, i+6)
		if !is(b, k, sepSS|'A'<<24, 7) {
			return i, 20
		}
		if k = textEnd(b, k+7); !is(b, k, sepSB|'C'<<24, 6) {
			return i, 20
		}
		i = k + 1
	}
	// C v
	c, k := boolEnd(b, i+5)
	if !is(b, i, sepBB|'C'<<16, 5) || k < 0 || !is(b, k, sepBS|'v'<<16, 6) {
		return i, 20
	}
	x.Close, i = c, k
	if k = decEnd(b, i+6); k < 0 || at(b, k) != '"' {
		return i, 21
	}
	x.Leverage = sub(b, i+6, k)
	return k + 1, 22
}

// execMid reads S o f q p X, the same in either report, from the comma
// before S at b[i] (`,"S":"` checked), as execSpotLine does: it returns
// the comma before the first field not read and the number read from E
// on (all 9: the comma before i, `","i":` checked). In a spot report the
// optional fields may come between p and X (execOptional).
func execMid(b []byte, i int, x *ExecView, spot bool) (int, int) {
	// S o f, strings
	k := textEnd(b, i+6)
	if !is(b, k, sepSS|'o'<<24, 7) {
		return i, 3
	}
	x.Side, i = sub(b, i+6, k), k+1
	if k = textEnd(b, i+6); !is(b, k, sepSS|'f'<<24, 7) {
		return i, 4
	}
	x.Type, i = sub(b, i+6, k), k+1
	if k = textEnd(b, i+6); !is(b, k, sepSS|'q'<<24, 7) {
		return i, 5
	}
	x.TimeInForce, i = sub(b, i+6, k), k+1
	// q p, decimals
	if k = decEnd(b, i+6); k < 0 || !is(b, k, sepSS|'p'<<24, 7) {
		return i, 6
	}
	x.Quantity, i = sub(b, i+6, k), k+1
	if k = decEnd(b, i+6); k < 0 {
		return i, 7
	}
	switch {
	case is(b, k, sepSS|'X'<<24, 7):
		x.Price, i = sub(b, i+6, k), k+1
	case spot && is(b, k, sepSS|'P'<<24, 7):
		x.Price = sub(b, i+6, k)
		j, ok := execOptional(b, k+1, x)
		if !ok {
			return j, 8
		}
		i = j
	case spot && is(b, k, sepSB|'t'<<24, 6):
		x.Price = sub(b, i+6, k)
		j, ok := execTradeID(b, k+1, x)
		if !ok {
			return j, 8
		}
		i = j
	default:
		return i, 7
	}
	// X, a string
	if k = textEnd(b, i+6); !is(b, k, sepSB|'i'<<24, 6) {
		return i, 8
	}
	x.Status = sub(b, i+6, k)
	return k + 1, 9
}

// execOptional reads the optional fields of a spot report as
// AppendExecution writes them, from the comma before P at b[i] (`,"P":"`
// checked) to the comma before X (`,"X":"` checked), which it returns;
// false when one differs, with the comma before it.
func execOptional(b []byte, i int, x *ExecView) (int, bool) {
	// P F, strings
	k := textEnd(b, i+6)
	if !is(b, k, sepSS|'F'<<24, 7) {
		return i, false
	}
	x.StopPrice, i = sub(b, i+6, k), k+1
	if k = textEnd(b, i+6); !is(b, k, sepSB|'g'<<24, 6) {
		return i, false
	}
	x.IcebergQty, i = sub(b, i+6, k), k+1
	// g, an integer skipped
	if k = intEnd(b, i+5); k < 0 || !is(b, k, sepBS|'x'<<16, 6) {
		return i, false
	}
	i = k
	// x r, strings
	if k = textEnd(b, i+6); !is(b, k, sepSS|'r'<<24, 7) {
		return i, false
	}
	x.ExecType, i = sub(b, i+6, k), k+1
	if k = textEnd(b, i+6); !is(b, k, sepSB|'T'<<24, 6) {
		return i, false
	}
	x.RejectReason, i = sub(b, i+6, k), k+1
	// T, digits; I, digits skipped
	if k = uintEnd(b, i+5); k < 0 || !is(b, k, sepBB|'I'<<16, 5) {
		return i, false
	}
	x.TradeTime, i = sub(b, i+5, k), k
	if k = uintEnd(b, i+5); k < 0 || !is(b, k, sepBB|'M'<<16, 5) {
		return i, false
	}
	i = k
	// M, a boolean skipped
	if _, k = boolEnd(b, i+5); k < 0 || !is(b, k, sepBB|'t'<<16, 5) {
		return i, false
	}
	return execTradeID(b, k, x)
}

// execTradeID reads a spot report's t, an integer, from the comma before
// it at b[i] (`,"t":` checked) to the comma before X (`,"X":"` checked),
// which it returns; false when it differs, with the comma before t.
func execTradeID(b []byte, i int, x *ExecView) (int, bool) {
	k := intEnd(b, i+5)
	if k < 0 || !is(b, k, sepBS|'X'<<16, 6) {
		return i, false
	}
	x.TradeID = sub(b, i+5, k)
	return k, true
}

// intEnd returns the end of the JSON integer (a '-' or not, digits, no
// leading zero) from b[i], or -1 when there is none.
func intEnd(b []byte, i int) int {
	if word(b, i)&0xFF == '-' {
		i++
	}
	return uintEnd(b, i)
}

// execTail reads the fields from l to Z, the same in either report, from
// the comma before l at b[i] as execSpotLine does; it returns the number
// read (all 10: the index after Z's closing quote, or in a contract
// report the comma before C).
func execTail(b []byte, i int, x *ExecView) (int, int) {
	// l, a string
	k := textEnd(b, i+6)
	if !is(b, k, sepSS|'z'<<24, 7) {
		return i, 0
	}
	x.LastQty, i = sub(b, i+6, k), k+1
	// z, a decimal
	if k = decEnd(b, i+6); k < 0 || !is(b, k, sepSS|'L'<<24, 7) {
		return i, 1
	}
	x.CumQty, i = sub(b, i+6, k), k+1
	// L n, strings
	if k = textEnd(b, i+6); !is(b, k, sepSS|'n'<<24, 7) {
		return i, 2
	}
	x.LastPrice, i = sub(b, i+6, k), k+1
	if k = textEnd(b, i+6); !is(b, k, sepSB|'N'<<24, 6) {
		return i, 3
	}
	x.Commission, i = sub(b, i+6, k), k+1
	// N, a string or null; u, true
	if uint32(word(b, i+5)) == wordNull {
		if !is(b, i+9, sepBB|'u'<<16, 5) {
			return i, 4
		}
		x.CommissionAsset, i = sub(b, i+5, i+9), i+9
		if !is(b, i+5, wordTrue, 4) {
			return i, 5
		}
	} else {
		if at(b, i+5) != '"' {
			return i, 4
		}
		if k = textEnd(b, i+6); !is(b, k, sepSB|'u'<<24, 6) {
			return i, 4
		}
		x.CommissionAsset, i = sub(b, i+6, k), k+1
		if !is(b, i+5, wordTrue, 4) {
			return i, 5
		}
	}
	// w m, booleans
	i += 9
	w, k := boolEnd(b, i+5)
	if !is(b, i, sepBB|'w'<<16, 5) || k < 0 || !is(b, k, sepBB|'m'<<16, 5) {
		return i, 6
	}
	x.Working, i = w, k
	m, k := boolEnd(b, i+5)
	if k < 0 || !is(b, k, sepBB|'O'<<16, 5) {
		return i, 7
	}
	x.Maker, i = m, k
	// O, a time (quoted in a contract report); Z, a decimal
	var t int64
	if at(b, i+5) == '"' {
		if t, k = digitsTime(b, i+6, false); k < 0 || !is(b, k, sepSS|'Z'<<24, 7) {
			return i, 8
		}
		k++
	} else if t, k = digitsTime(b, i+5, true); k < 0 || !is(b, k, sepBS|'Z'<<16, 6) {
		return i, 8
	}
	x.Created, i = t, k
	if k = decEnd(b, i+6); k < 0 || at(b, k) != '"' {
		return i, 9
	}
	x.CumQuote = sub(b, i+6, k)
	return k + 1, 10
}
