package event

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// Reading a frame eight bytes at a time (SWAR: the eight lanes of a
// uint64, little endian, b[i] in the low byte). load8 reads past the end
// of a frame as zero bytes, control characters that neither string text
// nor digits nor any literal admit: so a scan needs no length check of
// its own, it stops at the end as at any other byte it does not accept.

// SWAR constants: a byte repeated in each of eight lanes.
const (
	lanes1   = 0x0101010101010101
	lanesTop = 0x8080808080808080
)

// load8 returns the eight bytes of b from i (i >= 0), those past its end
// as 0.
func load8(b []byte, i int) uint64 {
	if uint(i)+8 <= uint(len(b)) {
		return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))[:])
	}
	return loadTail(b, i)
}

// loadTail is load8 near the end of b: the last eight bytes shifted
// down, or byte by byte in a frame shorter than eight. (Not inlined: it
// would take registers in the loops load8 is in.)
//
//go:noinline
func loadTail(b []byte, i int) uint64 {
	if n := len(b); n >= 8 && i < n {
		return load8(b, n-8) >> (8 * (i + 8 - n))
	}
	var v uint64
	for k := len(b) - 1; k >= i; k-- {
		v = v<<8 | uint64(b[k])
	}
	return v
}

// zeroLanes marks (top bit of the lane) the zero bytes of v. Only the
// lowest mark is exact (a borrow goes up from a zero lane): callers use
// that one, or ask whether there is any.
func zeroLanes(v uint64) uint64 { return (v - lanes1) &^ v & lanesTop }

// quoteLanes marks the quotes of v, as zeroLanes does.
func quoteLanes(v uint64) uint64 { return zeroLanes(v ^ '"'*lanes1) }

// stopMask marks the bytes of eight that end plain string text: a quote,
// a backslash or a control character (as zeroLanes does: the lowest mark
// is exact).
func stopMask(v uint64) uint64 {
	e := v ^ ('\\' * lanes1)
	return quoteLanes(v) | ((e-lanes1)&^e|(v-0x20*lanes1)&^v)&lanesTop
}

// openQuote is v, whose low lane is a string's opening quote, with that
// lane made plain text: no stop, and no borrow that would mark the lane
// after it (with the quote itself there, a '#' next to it, the quote's
// successor, would be marked as a stop).
func openQuote(v uint64) uint64 { return v ^ ('"' ^ 'a') }

// laneByte is the byte in lane n (0..7) of v.
func laneByte(v uint64, n int) byte { return byte(v >> (8 * uint(n) & 63)) }

// lowLane is the index of the lane of the lowest mark of m (m != 0).
func lowLane(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// strAt reads a plain string value at b[i] (i < len(b)); the text and
// index returned mean nothing when it is not one (false). Inlined: a call
// less per string.
func strAt(b []byte, i int) ([]byte, int, bool) {
	j, ok := quotedEnd(b, i) // i+1 <= j <= len(b) for i < len(b)
	return b[i+1 : j], j + 1, ok
}

// sub is b[i:j:j] for 0 <= i <= j <= len(b), which the caller has
// made sure of: without the checks of a slice expression.
func sub(b []byte, i, j int) []byte {
	return *(*[]byte)(unsafe.Pointer(&sliceHeader{unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i), j - i, j - i}))
}

// sliceHeader is how a slice is laid out.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// quotedEnd returns the index of the quote ending the string value at
// b[i], and false when b[i] is no quote (then i+1) or the text holds an
// escape or a control character or is not closed.
func quotedEnd(b []byte, i int) (int, bool) {
	v := load8(b, i)
	if byte(v) != '"' {
		return i + 1, false
	}
	// the first eight bytes hold the whole of nearly every value
	if m := stopMask(openQuote(v)); m != 0 {
		j := lowLane(m)
		return i + j, byte(v>>(8*j)) == '"'
	}
	return quotedEndLong(b, i+8)
}

// quotedEndLong is quotedEnd for text from b[i] on.
func quotedEndLong(b []byte, i int) (int, bool) {
	for {
		v := load8(b, i)
		if m := stopMask(v); m != 0 {
			j := lowLane(m)
			return i + j, byte(v>>(8*j)) == '"'
		}
		i += 8
	}
}

// digitsEnd returns the end of the run of digits from i (<= len(b)).
func digitsEnd(b []byte, i int) int {
	for {
		if m := nonDigits(load8(b, i)); m != 0 {
			return i + lowLane(m)
		}
		i += 8
	}
}

// nonDigits marks (top bit of the lane) the bytes of eight that are no
// ASCII digit; only the lowest mark is exact (a carry or borrow goes up
// from a marked lane), and the one used.
func nonDigits(v uint64) uint64 {
	return ((v + 0x4646464646464646) | (v - 0x3030303030303030)) & lanesTop
}

// eightDigits reports whether the eight bytes of v are all ASCII digits.
func eightDigits(v uint64) bool { return nonDigits(v) == 0 }

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

// parseFirst is the number the first n (0..8) lanes of v, ASCII digits,
// write: they are moved to the top and '0's put below them.
func parseFirst(v uint64, n int) uint64 {
	return parseEight(v<<(64-8*n) | '0'*lanes1>>(8*n))
}

// pow10 holds 10^n for n up to 8.
var pow10 = [9]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

// uintAt reads an unsigned JSON integer at b[i] (no leading zero).
func uintAt(b []byte, i int) ([]byte, int, bool) {
	j := digitsEnd(b, i)
	if j == i || (j > i+1 && b[i] == '0') {
		return nil, j, false
	}
	return sub(b, i, j), j, true
}

// timeAt reads a time: a JSON integer or a string of digits, of at most
// 18 digits (negative or longer ones go the generic way).
func timeAt(b []byte, i int) (int64, int, bool) {
	v := load8(b, i)
	quoted := byte(v) == '"'
	if quoted {
		i++
		v = load8(b, i)
	}
	first := byte(v)
	m := nonDigits(v)
	var n uint64
	var r int // digits in v
	if m == 0 {
		n, v = parseEight(v), load8(b, i+8)
		if m = nonDigits(v); m == 0 {
			return timeAtLong(b, i, quoted)
		}
		r = lowLane(m)
		n = n*pow10[r] + parseFirst(v, r)
		r += 8
	} else if r = lowLane(m); r == 0 {
		return 0, i, false
	} else {
		n = parseFirst(v, r)
	}
	j := i + r
	// the byte after the digits is lane r&7 of v
	next := byte(v >> (8 * (r & 7)))
	if quoted {
		return int64(n), j + 1, next == '"'
	}
	return int64(n), j, first != '0' || r == 1 // no leading zero
}

// timeAtLong is timeAt for a time of 16 digits or more from b[i] (after
// its quote when quoted).
func timeAtLong(b []byte, i int, quoted bool) (int64, int, bool) {
	j := digitsEnd(b, i)
	if j-i > 18 {
		return 0, j, false
	}
	var n uint64
	for _, c := range b[i:j] {
		n = n*10 + uint64(c-'0')
	}
	if quoted {
		return int64(n), j + 1, at(b, j) == '"'
	}
	return int64(n), j, b[i] != '0'
}
