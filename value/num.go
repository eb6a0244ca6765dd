package value

import (
	"math/big"
	"math/bits"

	"github.com/shopspring/decimal"
)

// num is an exact decimal number, mag × 10^e with a sign, held in 128 bits
// while it fits (the usual case: prices and quantities of up to 18 digits
// and their products) and as a decimal.Decimal once it does not. Every
// operation is exact either way; only the 128-bit one avoids allocating.
// The zero value is 0.
type num struct {
	hi, lo uint64 // the magnitude, when big is nil
	e      int32
	neg    bool
	big    *decimal.Decimal // the value, once it no longer fits 128 bits
}

// bigNum holds d as a decimal.
func bigNum(d decimal.Decimal) num { return num{big: &d} }

// numOf holds d, in 128 bits when its coefficient has at most 18 digits.
func numOf(d decimal.Decimal) num {
	if d.NumDigits() <= 18 {
		c := d.CoefficientInt64()
		n := num{e: d.Exponent(), neg: c < 0, lo: uint64(c)}
		if c < 0 {
			n.lo = uint64(-c)
		}
		return n
	}
	return bigNum(d)
}

// small is a 128-bit num of the signed 64-bit coefficient c.
func small(c int64, e int32) num {
	if c < 0 {
		return num{lo: uint64(-c), e: e, neg: true}
	}
	return num{lo: uint64(c), e: e}
}

// dec is n as a decimal.Decimal (allocating; see decBlock for many).
func (n num) dec() decimal.Decimal {
	if n.big != nil {
		return *n.big
	}
	var z big.Int
	if bits.UintSize == 64 {
		z.SetBits([]big.Word{big.Word(n.lo), big.Word(n.hi)})
	} else {
		z.SetUint64(n.hi).Lsh(&z, 64).Or(&z, new(big.Int).SetUint64(n.lo))
	}
	if n.neg {
		z.Neg(&z)
	}
	return decimal.NewFromBigInt(&z, n.e)
}

// isZero reports whether n is 0.
func (n num) isZero() bool {
	if n.big != nil {
		return n.big.IsZero()
	}
	return n.hi == 0 && n.lo == 0
}

// sign is -1, 0 or 1.
func (n num) sign() int {
	switch {
	case n.big != nil:
		return n.big.Sign()
	case n.hi == 0 && n.lo == 0:
		return 0
	case n.neg:
		return -1
	}
	return 1
}

// negate is -n.
func (n num) negate() num {
	if n.big != nil {
		return bigNum(n.big.Neg())
	}
	if n.hi != 0 || n.lo != 0 {
		n.neg = !n.neg
	}
	return n
}

// mulPow10 is the magnitude hi:lo × 10^k; ok is false when it overflows
// 128 bits.
func mulPow10(hi, lo uint64, k int32) (uint64, uint64, bool) {
	for k > 0 {
		step := min(k, 19)
		p := pow10[step]
		h1, l1 := bits.Mul64(lo, p)
		h2, l2 := bits.Mul64(hi, p)
		if h2 != 0 {
			return 0, 0, false
		}
		var c uint64
		h1, c = bits.Add64(h1, l2, 0)
		if c != 0 {
			return 0, 0, false
		}
		hi, lo = h1, l1
		k -= step
	}
	return hi, lo, true
}

// add is a + b, exact; its exponent is the smaller of the two (as
// decimal.Decimal.Add).
func (a num) add(b num) num {
	if a.big != nil || b.big != nil {
		return bigNum(a.dec().Add(b.dec()))
	}
	e := min(a.e, b.e)
	ah, al, ok1 := mulPow10(a.hi, a.lo, a.e-e)
	bh, bl, ok2 := mulPow10(b.hi, b.lo, b.e-e)
	if !ok1 || !ok2 {
		return bigNum(a.dec().Add(b.dec()))
	}
	if a.neg == b.neg {
		lo, c := bits.Add64(al, bl, 0)
		hi, c := bits.Add64(ah, bh, c)
		if c != 0 {
			return bigNum(a.dec().Add(b.dec()))
		}
		return num{hi: hi, lo: lo, e: e, neg: a.neg && (hi != 0 || lo != 0)}
	}
	// Opposite signs: the larger magnitude minus the smaller, with its sign.
	neg := a.neg
	if ah < bh || ah == bh && al < bl {
		ah, al, bh, bl = bh, bl, ah, al
		neg = b.neg
	}
	lo, c := bits.Sub64(al, bl, 0)
	hi, _ := bits.Sub64(ah, bh, c)
	return num{hi: hi, lo: lo, e: e, neg: neg && (hi != 0 || lo != 0)}
}

// sub is a − b, exact.
func (a num) sub(b num) num { return a.add(b.negate()) }

// mul is a × b, exact; its exponent is the sum of theirs (as
// decimal.Decimal.Mul).
func (a num) mul(b num) num {
	if a.big != nil || b.big != nil || a.hi != 0 && b.hi != 0 {
		return bigNum(a.dec().Mul(b.dec()))
	}
	if b.hi != 0 {
		a, b = b, a
	}
	// (a.hi·2^64 + a.lo) × b.lo, kept when it fits 128 bits.
	h1, lo := bits.Mul64(a.lo, b.lo)
	h2, l2 := bits.Mul64(a.hi, b.lo)
	hi, c := bits.Add64(h1, l2, 0)
	if h2 != 0 || c != 0 {
		return bigNum(a.dec().Mul(b.dec()))
	}
	return num{hi: hi, lo: lo, e: a.e + b.e, neg: a.neg != b.neg && (hi != 0 || lo != 0)}
}

// digits is the number of decimal digits of u (1 for 0).
func digits(u uint64) int {
	d := 1
	for d < len(pow10) && u >= pow10[d] {
		d++
	}
	return d
}

// quo is a / b to 18 significant digits, rounded half away from zero, as
// div; ok is false when b is zero.
func (a num) quo(b num) (num, bool) {
	if b.isZero() {
		return num{}, false
	}
	if a.isZero() {
		return num{}, true
	}
	if a.big == nil && b.big == nil && b.hi == 0 {
		if q, ok := divMag(a.hi, a.lo, b.lo, a.e, b.e); ok {
			q.neg = a.neg != b.neg
			return q, true
		}
	}
	q, ok := div(a.dec(), b.dec())
	return numOf(q), ok
}

// digits128 is the number of decimal digits of hi:lo (1 for 0).
func digits128(hi, lo uint64) int {
	if hi == 0 {
		return digits(lo)
	}
	d := 20 // hi:lo >= 2^64 > 10^19
	for {
		ph, pl, ok := mulPow10(0, 1, int32(d))
		if !ok || hi < ph || hi == ph && lo < pl {
			return d
		}
		d++
	}
}

// divPow10 is hi:lo / 10^k, truncated.
func divPow10(hi, lo uint64, k int32) (uint64, uint64) {
	for k > 0 {
		step := min(k, 19)
		p := pow10[step]
		var r uint64
		hi, r = hi/p, hi%p
		lo, _ = bits.Div64(r, lo, p)
		k -= step
	}
	return hi, lo
}

// divMag is the quotient of magnitudes (ah:al)·10^ea / ub·10^eb in 128-bit
// integer arithmetic: truncated to 19 digits, then rounded half up to 18
// (as div). Truncating twice (by a power of ten, then by ub) truncates
// once. ok is false when the operands do not fit it.
func divMag(ah, al, ub uint64, ea, eb int32) (num, bool) {
	if ub == 0 {
		return num{}, false
	}
	k := 18 + digits(ub) - digits128(ah, al) // ua·10^k / ub is in (10^17, 10^19)
	quo := func(k int) (uint64, bool) {
		h, l := ah, al
		if k >= 0 {
			var ok bool
			if h, l, ok = mulPow10(h, l, int32(k)); !ok {
				return 0, false
			}
		} else {
			h, l = divPow10(h, l, int32(-k))
		}
		if h >= ub {
			return 0, false
		}
		q, _ := bits.Div64(h, l, ub)
		return q, true
	}
	q, ok := quo(k)
	if ok && q < pow10[18] {
		k++
		q, ok = quo(k)
	}
	if !ok || q < pow10[18] {
		return num{}, false
	}
	// q has 19 digits, truncated toward zero: rounding its last digit
	// half up rounds the exact quotient.
	last := q % 10
	q /= 10
	if last >= 5 {
		q++
	}
	return num{lo: q, e: ea - eb - int32(k) + 1}, true
}

// parseNum reads a decimal literal as parse does, without allocating for
// plain literals of up to 18 digits.
func parseNum(s string) (num, bool) {
	switch s {
	case "":
		return num{}, false
	case "0":
		return num{}, true
	}
	if c, e, ok := parseSmallCoef(s); ok {
		return small(c, e), true
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return num{}, false
	}
	return numOf(d), true
}
