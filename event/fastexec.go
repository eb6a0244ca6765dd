package event

import (
	"encoding/binary"
	"math/bits"
)

// The fast path for order updates. Nearly every object of a user stream
// is an execution report written the way the service writes one: the
// type first, then one-letter keys without white space or escapes. For
// such an object fastExec reads each value the moment its key is seen,
// checking it as its field requires, in one pass and without the slot
// table. Anything else (white space, a longer or escaped key, an escaped
// string, a value of the wrong type or form, a second e, a missing field)
// makes it give up having kept nothing, and the generic path decodes the
// object: so the fast path only ever agrees with the generic one, which
// FuzzFastExec checks.

// The type keys an object must start with to take the fast path.
const (
	headSpot     = `{"e":"executionReport",`
	headContract = `{"e":"contractExecutionReport",`
)

// Bits of the fields an execution report needs, by key.
const (
	needE = 1 << iota
	needS // s
	needC // c
	needSide
	needO // o
	needF // f
	needQ // q
	needP // p
	needX // X
	needI // i
	needZ // z
	needW // w
	needM // m
	needCreated
	needQuote // Z
	needClose // C
	needLev   // v

	needSpot     = needClose - 1
	needContract = needLev<<1 - 1
)

// fastExec decodes the object at b[start] into ev when it is an execution
// report written the usual way, returning the index after it; false when
// the generic path must decode it (ev then holds leftovers).
func fastExec(b []byte, start, depth int, ev *Event) (int, bool) {
	i, contract := start+len(headSpot), false
	switch {
	case hasAt(b, start, headSpot):
	case hasAt(b, start, headContract):
		i, contract = start+len(headContract), true
	default:
		return 0, false
	}
	x := &ev.Exec
	// execRawKeys' fields, Close and Leverage (stores, not a loop through
	// pointers to them: this runs once per report)
	x.LastQty, x.LastPrice, x.Commission, x.CommissionAsset, x.TradeTime = nil, nil, nil, nil, nil
	x.TradeID, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil
	x.Close, x.Leverage = false, nil
	// i-1 is the head's comma: the fields in the service's order first,
	// then any others by key.
	i, seen, ok := execInOrder(b, i-1, depth, x, contract)
	if !ok {
		return 0, false
	}
	for {
		// i is the separator after a value.
		if i >= len(b) {
			return 0, false
		}
		if b[i] == '}' {
			i++
			break
		}
		if b[i] != ',' {
			return 0, false
		}
		k, ok := keyAt(b, i+1)
		if !ok {
			return 0, false
		}
		i += 5
		switch k {
		case 'E':
			x.EventTime, i, ok = timeAt(b, i)
			seen |= needE
		case 's':
			x.Symbol, i, ok = strAt(b, i)
			seen |= needS
		case 'c':
			x.ClientOrderID, i, ok = literalAt(b, i)
			seen |= needC
		case 'S':
			x.Side, i, ok = strAt(b, i)
			seen |= needSide
		case 'o':
			x.Type, i, ok = strAt(b, i)
			seen |= needO
		case 'f':
			x.TimeInForce, i, ok = strAt(b, i)
			seen |= needF
		case 'q':
			x.Quantity, i, ok = decAt(b, i)
			seen |= needQ
		case 'p':
			x.Price, i, ok = decAt(b, i)
			seen |= needP
		case 'X':
			x.Status, i, ok = strAt(b, i)
			seen |= needX
		case 'i':
			x.OrderID, i, ok = idAt(b, i)
			seen |= needI
		case 'z':
			x.CumQty, i, ok = decAt(b, i)
			seen |= needZ
		case 'w':
			x.Working, i, ok = boolAt(b, i)
			seen |= needW
		case 'm':
			x.Maker, i, ok = boolAt(b, i)
			seen |= needM
		case 'O':
			x.Created, i, ok = timeAt(b, i)
			seen |= needCreated
		case 'Z':
			x.CumQuote, i, ok = decAt(b, i)
			seen |= needQuote
		case 'e':
			return 0, false // a second type: the generic path decides
		default:
			switch n := int(execRawIndex[k]) - 1; {
			case n >= 0 && execRawKept(n, contract):
				*execRaws(x)[n], i, ok = rawAt(b, i, depth)
			case contract && k == 'C':
				x.Close, i, ok = boolAt(b, i)
				seen |= needClose
			case contract && k == 'v':
				x.Leverage, i, ok = decAt(b, i)
				seen |= needLev
			default:
				i, ok = skipAt(b, i, depth)
			}
		}
		if !ok || i >= len(b) {
			return 0, false
		}
	}
	ev.Kind = KindExecution
	need := uint32(needSpot)
	if contract {
		ev.Kind, need = KindContractExecution, needContract
	}
	if seen&need != need {
		return 0, false
	}
	return i, true
}

// execInOrder reads the fields of an execution report that come in the
// order the service writes them (AppendExecution without the optional
// fields), each key checked with the comma before it in one load and each
// value as fastExec checks it, from the separator at b[i]. It stops at
// the first other key (or the end), returning the separator there and the
// fields seen; false when a value is bad. Reading the usual report
// straight through spares a dispatch on every key.
func execInOrder(b []byte, i, depth int, x *ExecView, contract bool) (int, uint32, bool) {
	var seen uint32
	var ok bool
	if !keyIs(b, i, 'E') {
		return i, seen, true
	}
	if x.EventTime, i, ok = timeAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needE
	if !keyIs(b, i, 's') {
		return i, seen, true
	}
	if x.Symbol, i, ok = strAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needS
	if !keyIs(b, i, 'c') {
		return i, seen, true
	}
	if x.ClientOrderID, i, ok = literalAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needC
	if !keyIs(b, i, 'S') {
		return i, seen, true
	}
	if x.Side, i, ok = strAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needSide
	if !keyIs(b, i, 'o') {
		return i, seen, true
	}
	if x.Type, i, ok = strAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needO
	if !keyIs(b, i, 'f') {
		return i, seen, true
	}
	if x.TimeInForce, i, ok = strAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needF
	if !keyIs(b, i, 'q') {
		return i, seen, true
	}
	if x.Quantity, i, ok = decAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needQ
	if !keyIs(b, i, 'p') {
		return i, seen, true
	}
	if x.Price, i, ok = decAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needP
	if !keyIs(b, i, 'X') {
		return i, seen, true
	}
	if x.Status, i, ok = strAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needX
	if !keyIs(b, i, 'i') {
		return i, seen, true
	}
	if x.OrderID, i, ok = idAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needI
	if !keyIs(b, i, 'l') {
		return i, seen, true
	}
	if x.LastQty, i, ok = rawAt(b, i+5, depth); !ok {
		return i, seen, false
	}
	if !keyIs(b, i, 'z') {
		return i, seen, true
	}
	if x.CumQty, i, ok = decAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needZ
	if !keyIs(b, i, 'L') {
		return i, seen, true
	}
	if x.LastPrice, i, ok = rawAt(b, i+5, depth); !ok {
		return i, seen, false
	}
	if !keyIs(b, i, 'n') {
		return i, seen, true
	}
	if x.Commission, i, ok = rawAt(b, i+5, depth); !ok {
		return i, seen, false
	}
	if !keyIs(b, i, 'N') {
		return i, seen, true
	}
	if x.CommissionAsset, i, ok = rawAt(b, i+5, depth); !ok {
		return i, seen, false
	}
	if !keyIs(b, i, 'u') {
		return i, seen, true
	}
	if i, ok = skipAt(b, i+5, depth); !ok {
		return i, seen, false
	}
	if !keyIs(b, i, 'w') {
		return i, seen, true
	}
	if x.Working, i, ok = boolAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needW
	if !keyIs(b, i, 'm') {
		return i, seen, true
	}
	if x.Maker, i, ok = boolAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needM
	if !keyIs(b, i, 'O') {
		return i, seen, true
	}
	if x.Created, i, ok = timeAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needCreated
	if !keyIs(b, i, 'Z') {
		return i, seen, true
	}
	if x.CumQuote, i, ok = decAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needQuote
	if !contract || !keyIs(b, i, 'C') {
		return i, seen, true
	}
	if x.Close, i, ok = boolAt(b, i+5); !ok {
		return i, seen, false
	}
	seen |= needClose
	if !keyIs(b, i, 'v') {
		return i, seen, true
	}
	if x.Leverage, i, ok = decAt(b, i+5); !ok {
		return i, seen, false
	}
	return i, seen | needLev, true
}

// keyIs reports whether b[i:] starts with `,"k":` (and a value byte).
func keyIs(b []byte, i int, k byte) bool {
	return i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0xFF_FFFF_FFFF == ','|'"'<<8|uint64(k)<<16|'"'<<24|':'<<32
}

// keyAt reads `"k":` at b[i], k one plain byte, with a value byte after.
func keyAt(b []byte, i int) (byte, bool) {
	if i+5 > len(b) {
		return 0, false
	}
	kw := binary.LittleEndian.Uint32(b[i:])
	k := byte(kw >> 8)
	// `""":` is no key
	return k, kw&0xFFFF00FF == 0x3A220022 && strPlain[k]
}

// The fields of an execution report kept as written (ExecView's
// unvalidated ones), by key; a contract report keeps only the first
// execRawShared, its others stay nil.
const (
	execRawKeys   = "lLnNTtxrPF"
	execRawShared = 6
)

// execRaws returns where each of execRawKeys goes in x.
func execRaws(x *ExecView) [len(execRawKeys)]*[]byte {
	return [...]*[]byte{&x.LastQty, &x.LastPrice, &x.Commission, &x.CommissionAsset, &x.TradeTime,
		&x.TradeID, &x.ExecType, &x.RejectReason, &x.StopPrice, &x.IcebergQty}
}

var execRawIndex = keyIndex(execRawKeys)

// execRawKept says whether a report (contract or spot) keeps raw field n.
func execRawKept(n int, contract bool) bool { return n < execRawShared || !contract }

func hasAt(b []byte, i int, s string) bool {
	return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

// SWAR constants: a byte repeated in each of eight lanes.
const (
	lanes1   = 0x0101010101010101
	lanesTop = 0x8080808080808080
)

// stopMask marks (top bit of the lane) the bytes of eight that end plain
// string text: a quote, a backslash or a control character. Only the
// lowest mark is exact; that is the one used.
func stopMask(v uint64) uint64 {
	q := v ^ ('"' * lanes1)
	e := v ^ ('\\' * lanes1)
	return ((q-lanes1)&^q | (e-lanes1)&^e | (v-0x20*lanes1)&^v) & lanesTop
}

// strAt reads a plain string value at b[i] (inlined: a call less per
// string); the text and index returned mean nothing when it is not one
// (false).
func strAt(b []byte, i int) ([]byte, int, bool) {
	j, ok := quotedEnd(b, i)
	return b[i+1 : j], j + 1, ok
}

// quotedEnd returns the index of the quote ending the string value at
// b[i], and false when b[i] is no quote (then i+1) or the text holds an
// escape or a control character or is not closed.
func quotedEnd(b []byte, i int) (int, bool) {
	if b[i] != '"' {
		return i + 1, false
	}
	i++
	for i+8 <= len(b) {
		if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			return i, b[i] == '"'
		}
		i += 8
	}
	for i < len(b) && strPlain[b[i]] {
		i++
	}
	return i, i < len(b) && b[i] == '"'
}

// digitsEnd returns the end of the run of digits from i, eight bytes at
// a time while there are.
func digitsEnd(b []byte, i int) int {
	for i+8 <= len(b) {
		if m := nonDigits(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// uintAt reads an unsigned JSON integer at b[i] (no leading zero).
func uintAt(b []byte, i int) ([]byte, int, bool) {
	j := digitsEnd(b, i)
	return b[i:j], j, j > i && (b[i] != '0' || j == i+1)
}

// timeAt reads a time: a JSON integer or a string of digits, of at most
// 18 digits (negative or longer ones go the generic way).
func timeAt(b []byte, i int) (int64, int, bool) {
	quoted := b[i] == '"'
	if quoted {
		i++
	}
	j := i
	var n uint64
	for j+8 <= len(b) { // eight digits at a time while there are
		v := binary.LittleEndian.Uint64(b[j:])
		if !eightDigits(v) {
			break
		}
		n = n*1e8 + parseEight(v)
		j += 8
	}
	for j < len(b) && isDigit(b[j]) {
		n = n*10 + uint64(b[j]-'0')
		j++
	}
	switch {
	case j == i || j-i > 18:
		return 0, j, false
	case quoted:
		return int64(n), j + 1, j < len(b) && b[j] == '"'
	}
	return int64(n), j, b[i] != '0' || j == i+1
}

// eightDigits reports whether the eight bytes of v (little endian) are
// all ASCII digits.
func eightDigits(v uint64) bool { return nonDigits(v) == 0 }

// nonDigits marks (top bit of the lane) the bytes of eight (little
// endian) that are no ASCII digit; only the lowest mark is exact (a
// carry or borrow goes up from a marked lane), and the one used.
func nonDigits(v uint64) uint64 {
	return ((v + 0x4646464646464646) | (v - 0x3030303030303030)) & lanesTop
}

// Digits8 is the number eight ASCII digits (little endian: the first in
// the low byte) write; false when a byte is no digit.
func Digits8(v uint64) (uint64, bool) {
	if !eightDigits(v) {
		return 0, false
	}
	return parseEight(v), true
}

// parseEight is the number the eight ASCII digits of v (little endian:
// the first digit in the low byte) write: pairs, then fours, then all.
func parseEight(v uint64) uint64 {
	v -= 0x3030303030303030
	v = v*10 + v>>8 // each even byte: two digits
	v = ((v&0x000000FF000000FF)*(100+1000000<<32) + (v>>16&0x000000FF000000FF)*(1+10000<<32)) >> 32
	return v
}

// idAt reads an order id: digits as a JSON integer or a string.
func idAt(b []byte, i int) ([]byte, int, bool) {
	if b[i] != '"' {
		return uintAt(b, i)
	}
	t, j, ok := strAt(b, i)
	return t, j, ok && IsDigits(t)
}

// literalAt reads a client order id: any plain string, or a JSON integer.
func literalAt(b []byte, i int) ([]byte, int, bool) {
	if b[i] != '"' {
		return uintAt(b, i)
	}
	return strAt(b, i)
}

// decAt reads a decimal: a JSON number, or a string holding a decimal
// literal.
func decAt(b []byte, i int) ([]byte, int, bool) {
	switch c := b[i]; {
	case c == '"':
		// The usual quoted decimal, digits and an optional fraction, is
		// read in one pass; any other text is scanned, then checked.
		if j := digitsEnd(b, i+1); j > i+1 && j < len(b) {
			if b[j] == '.' {
				k := digitsEnd(b, j+1)
				if k > j+1 && k < len(b) && b[k] == '"' {
					return b[i+1 : k], k + 1, true
				}
			} else if b[j] == '"' {
				return b[i+1 : j], j + 1, true
			}
		}
		t, j, ok := strAt(b, i)
		return t, j, ok && IsDecimal(t)
	case c == '-' || isDigit(c):
		j, ok := scanNumber(b, i)
		return b[i:j], j, ok
	}
	return nil, i, false
}

// boolAt reads true or false.
func boolAt(b []byte, i int) (bool, int, bool) {
	switch {
	case hasAt(b, i, "true"):
		return true, i + 4, true
	case hasAt(b, i, "false"):
		return false, i + 5, true
	}
	return false, i, false
}

// rawAt reads a field kept as written: a plain string's text, or another
// value's JSON text.
func rawAt(b []byte, i, depth int) ([]byte, int, bool) {
	if b[i] == '"' {
		return strAt(b, i)
	}
	j, ok := skipAt(b, i, depth)
	return b[i:j], j, ok
}

// skipAt checks the value at b[i] and returns its end.
func skipAt(b []byte, i, depth int) (int, bool) {
	switch c := b[i]; {
	case c == '"':
		end, _, ok := scanStr(b, i+1)
		return end + 1, ok
	case c == '-' || isDigit(c):
		return scanNumber(b, i)
	case c == 'n' && hasAt(b, i, "null"):
		return i + 4, true
	case c == 't' || c == 'f':
		_, j, ok := boolAt(b, i)
		return j, ok
	case c == '{' || c == '[':
		s := scanner{b: b, i: i}
		s.value(depth)
		return s.i, !s.bad
	}
	return i, false // white space or not JSON
}
