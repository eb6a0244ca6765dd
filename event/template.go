package event

import "unsafe"

// The fields of an execution report in the order the service writes
// them (AppendExecution without the optional fields), each with how its
// value is read and where it goes: execInOrder reads a report written so
// in one loop over this table, each key checked with the comma before it
// in one load, the usual values (plain strings, quoted decimals, the
// words) read inline, and only the others through the helpers fastExec
// uses, so the usual report takes no call but for its two times.

// How a field's value is read (the helper of fastExec's loop).
const (
	kindStr     uint8 = iota // strAt
	kindLiteral              // literalAt
	kindID                   // idAt
	kindRaw                  // rawAt
	kindDec                  // decAt
	kindTime                 // timeAt
	kindBool                 // boolAt
	kindSkip                 // skipAt
)

// orderedField is one field of the service's order.
type orderedField struct {
	key  uint64  // `,"k":` as the low five bytes of eight
	off  uintptr // where the value goes in ExecView
	need uint32  // its bit in the fields seen
	kind uint8
}

func ordered(k byte, off uintptr, kind uint8, need uint32) orderedField {
	return orderedField{key: ',' | '"'<<8 | uint64(k)<<16 | '"'<<24 | ':'<<32, off: off, need: need, kind: kind}
}

var (
	x0 ExecView

	// execOrder is a contract report's order; a spot report's stops
	// before C.
	execOrder = [...]orderedField{
		ordered('E', unsafe.Offsetof(x0.EventTime), kindTime, needE),
		ordered('s', unsafe.Offsetof(x0.Symbol), kindStr, needS),
		ordered('c', unsafe.Offsetof(x0.ClientOrderID), kindLiteral, needC),
		ordered('S', unsafe.Offsetof(x0.Side), kindStr, needSide),
		ordered('o', unsafe.Offsetof(x0.Type), kindStr, needO),
		ordered('f', unsafe.Offsetof(x0.TimeInForce), kindStr, needF),
		ordered('q', unsafe.Offsetof(x0.Quantity), kindDec, needQ),
		ordered('p', unsafe.Offsetof(x0.Price), kindDec, needP),
		ordered('X', unsafe.Offsetof(x0.Status), kindStr, needX),
		ordered('i', unsafe.Offsetof(x0.OrderID), kindID, needI),
		ordered('l', unsafe.Offsetof(x0.LastQty), kindRaw, 0),
		ordered('z', unsafe.Offsetof(x0.CumQty), kindDec, needZ),
		ordered('L', unsafe.Offsetof(x0.LastPrice), kindRaw, 0),
		ordered('n', unsafe.Offsetof(x0.Commission), kindRaw, 0),
		ordered('N', unsafe.Offsetof(x0.CommissionAsset), kindRaw, 0),
		ordered('u', 0, kindSkip, 0),
		ordered('w', unsafe.Offsetof(x0.Working), kindBool, needW),
		ordered('m', unsafe.Offsetof(x0.Maker), kindBool, needM),
		ordered('O', unsafe.Offsetof(x0.Created), kindTime, needCreated),
		ordered('Z', unsafe.Offsetof(x0.CumQuote), kindDec, needQuote),
		ordered('C', unsafe.Offsetof(x0.Close), kindBool, needClose),
		ordered('v', unsafe.Offsetof(x0.Leverage), kindDec, needLev),
	}
	spotOrder = len(execOrder) - 2

	// orderIndex numbers the keys of execOrder from 1 (0: none).
	orderIndex = func() (ix [256]uint8) {
		for n, f := range execOrder {
			ix[byte(f.key>>16)] = uint8(n + 1)
		}
		return ix
	}()
)

// execInOrder reads the fields of an execution report that come in the
// order the service writes them, from its field from on, each value as
// fastExec checks it, from the separator at b[i]. It stops at the first
// other key, or the first value not written the usual way (which
// fastExec's loop then reads again), or the end, returning the separator
// there and the fields seen. It calls nothing but digitsTime, so that the
// loop keeps its values in registers.
func execInOrder(b []byte, i int, x *ExecView, contract bool, from int) (int, uint32) {
	fields := execOrder[:spotOrder]
	if contract {
		fields = execOrder[:]
	}
	if from < len(fields) {
		fields = fields[from:]
	} else {
		fields = nil
	}
	var seen uint32
	for n := range fields {
		f := &fields[n]
		if load8(b, i)&0xFF_FFFF_FFFF != f.key {
			break
		}
		dst := unsafe.Add(unsafe.Pointer(x), f.off)
		v := load8(b, i+5)
		var j int // the separator after the value
		switch c := byte(v); {
		case c == '"' && f.kind <= kindRaw:
			// a plain string: its end is the first stop, a quote
			m := stopMask(openQuote(v))
			for j = i + 5; m == 0; m = stopMask(v) {
				j += 8
				v = load8(b, j)
			}
			lane := lowLane(m)
			if j += lane; byte(v>>(8*lane)) != '"' {
				return i, seen
			}
			if f.kind == kindID && (j == i+6 || !digitsOnly(b, i+6, j)) {
				return i, seen
			}
			*(*[]byte)(dst) = sub(b, i+6, j)
			j++
		case c == '"' && f.kind == kindDec:
			// digits, then the quote or '.', digits and the quote
			j = i + 6
			for v = load8(b, j); nonDigits(v) == 0; v = load8(b, j) {
				j += 8
			}
			lane := lowLane(nonDigits(v))
			if j += lane; j == i+6 {
				return i, seen
			}
			if c := byte(v >> (8 * lane)); c == '.' {
				k := j + 1
				for v = load8(b, k); nonDigits(v) == 0; v = load8(b, k) {
					k += 8
				}
				lane = lowLane(nonDigits(v))
				if k += lane; k == j+1 || byte(v>>(8*lane)) != '"' {
					return i, seen
				}
				j = k
			} else if c != '"' {
				return i, seen
			}
			*(*[]byte)(dst) = sub(b, i+6, j)
			j++
		case isDigit(c) && (f.kind == kindLiteral || f.kind == kindID):
			// an integer literal (c or i) without a leading zero
			for j = i + 5; nonDigits(v) == 0; v = load8(b, j) {
				j += 8
			}
			if j += lowLane(nonDigits(v)); c == '0' && j > i+6 {
				return i, seen
			}
			*(*[]byte)(dst) = sub(b, i+5, j)
		case f.kind == kindTime:
			// up to 15 digits, quoted or not
			quoted := c == '"'
			if j = i + 5; quoted {
				j++
			}
			t, k := digitsTime(b, j, !quoted)
			if k < 0 || (quoted && at(b, k) != '"') {
				return i, seen
			}
			if j = k; quoted {
				j++
			}
			*(*int64)(dst) = t
		case f.kind == kindBool && uint32(v) == wordTrue:
			*(*bool)(dst), j = true, i+9
		case f.kind == kindBool && v&0xFF_FFFF_FFFF == wordFalse:
			*(*bool)(dst), j = false, i+10
		case f.kind == kindSkip && uint32(v) == wordTrue:
			j = i + 9
		case f.kind == kindRaw && uint32(v) == wordNull:
			*(*[]byte)(dst), j = sub(b, i+5, i+9), i+9
		default:
			return i, seen
		}
		i = j
		seen |= f.need
	}
	return i, seen
}

// digitsOnly reports whether b[i:j] (i < j <= len(b)) is all ASCII
// digits, eight at a time.
func digitsOnly(b []byte, i, j int) bool {
	for ; i < j; i += 8 {
		if m := nonDigits(load8(b, i)); m != 0 && i+lowLane(m) < j {
			return false
		}
	}
	return true
}
