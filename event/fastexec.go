package event

import "encoding/binary"

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
// the generic path must decode it (ev then holds leftovers). line: try
// execLine first (tests compare with and without).
func fastExec(b []byte, start, depth int, ev *Event, line bool) (int, bool) {
	x := &ev.Exec
	// The fields in the service's order and forms first (execLine, all or
	// nothing), then those in its order (execInOrder), then any others by
	// key.
	var i int
	var seen uint32
	var contract, ok bool
	if line {
		if i, contract, ok = execLine(b, start, x); ok {
			seen = needContract // all (a spot report needs fewer)
			if i < len(b) && b[i] != '}' {
				x.IDNum, x.ZScale = 0, 0 // other keys follow: i or z may come again
			}
		}
	}
	if !ok {
		// execRawKeys' fields, Close and Leverage (stores, not a loop
		// through pointers to them: this runs once per report)
		x.LastQty, x.LastPrice, x.Commission, x.CommissionAsset, x.TradeTime = nil, nil, nil, nil, nil
		x.TradeID, x.ExecType, x.RejectReason, x.StopPrice, x.IcebergQty = nil, nil, nil, nil, nil
		x.Close, x.Leverage, x.IDNum, x.ZScale = false, nil, 0, 0
		i, contract = start+len(headSpot), false
		switch {
		case hasAt(b, start, headSpot):
		case hasAt(b, start, headContract):
			i, contract = start+len(headContract), true
		default:
			return 0, false
		}
		// i-1 is the head's comma
		i, seen = execInOrder(b, i-1, x, contract, 0)
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
		// after other keys (the optional fields), the service's order
		// again
		if n := int(orderIndex[at(b, i+2)]); n > 0 {
			if j, s := execInOrder(b, i, x, contract, n-1); j != i {
				i, seen = j, seen|s
				continue
			}
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

// at is b[i], or 0 past its end.
func at(b []byte, i int) byte {
	if uint(i) < uint(len(b)) {
		return b[i]
	}
	return 0
}

// idAt reads an order id: digits as a JSON integer or a string.
func idAt(b []byte, i int) ([]byte, int, bool) {
	if at(b, i) != '"' {
		return uintAt(b, i)
	}
	t, j, ok := strAt(b, i)
	return t, j, ok && IsDigits(t)
}

// literalAt reads a client order id: any plain string, or a JSON integer.
func literalAt(b []byte, i int) ([]byte, int, bool) {
	if at(b, i) != '"' {
		return uintAt(b, i)
	}
	return strAt(b, i)
}

// decAt reads a decimal: a JSON number, or a string holding a decimal
// literal.
func decAt(b []byte, i int) ([]byte, int, bool) {
	if at(b, i) != '"' {
		return numberAt(b, i)
	}
	// The usual quoted decimal, digits and an optional fraction, is read
	// in one pass; any other text is scanned, then checked.
	j := i + 1
	v := load8(b, j)
	for ; nonDigits(v) == 0; v = load8(b, j) {
		j += 8
	}
	lane := lowLane(nonDigits(v))
	if j += lane; j > i+1 {
		switch laneByte(v, lane) {
		case '"':
			return sub(b, i+1, j), j + 1, true
		case '.':
			k := j + 1
			for v = load8(b, k); nonDigits(v) == 0; v = load8(b, k) {
				k += 8
			}
			lane = lowLane(nonDigits(v))
			if k += lane; k > j+1 && laneByte(v, lane) == '"' {
				return sub(b, i+1, k), k + 1, true
			}
		}
	}
	t, j, ok := strAt(b, i)
	return t, j, ok && IsDecimal(t)
}

// numberAt reads a JSON number at b[i].
func numberAt(b []byte, i int) ([]byte, int, bool) {
	if c := at(b, i); c == '-' || isDigit(c) {
		j, ok := scanNumber(b, i)
		return b[i:j], j, ok
	}
	return nil, i, false
}

// The JSON words, as the low bytes of eight.
const (
	wordTrue  = 't' | 'r'<<8 | 'u'<<16 | 'e'<<24
	wordFalse = 'f' | 'a'<<8 | 'l'<<16 | 's'<<24 | 'e'<<32
	wordNull  = 'n' | 'u'<<8 | 'l'<<16 | 'l'<<24
)

// boolAt reads true or false.
func boolAt(b []byte, i int) (bool, int, bool) {
	v := load8(b, i)
	switch {
	case uint32(v) == wordTrue:
		return true, i + 4, true
	case v&0xFF_FFFF_FFFF == wordFalse:
		return false, i + 5, true
	}
	return false, i, false
}

// rawAt reads a field kept as written: a plain string's text, or another
// value's JSON text.
func rawAt(b []byte, i, depth int) ([]byte, int, bool) {
	if at(b, i) == '"' {
		return strAt(b, i)
	}
	j, ok := skipAt(b, i, depth)
	return b[i:j], j, ok
}

// skipAt checks the value at b[i] and returns its end.
func skipAt(b []byte, i, depth int) (int, bool) {
	switch c := at(b, i); {
	case c == '"':
		end, _, ok := scanStr(b, i+1)
		return end + 1, ok
	case c == '-' || isDigit(c):
		return scanNumber(b, i)
	case c == 'n' && uint32(load8(b, i)) == wordNull:
		return i + 4, true // (not i+4 when false: rawAt slices to the end returned)
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
