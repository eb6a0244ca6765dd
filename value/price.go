package value

import (
	"math/bits"
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/market"
)

// sigDigits is the precision of every division (DESIGN.md 'Market
// context'): quotients keep 18 significant digits, rounded half away from
// zero.
const sigDigits = 18

// bridgeFirst is the bridge asset tried before any other.
const bridgeFirst = "BTC"

var one = decimal.NewFromInt(1)

// div is a / b to 18 significant digits. ok is false when b is zero.
func div(a, b decimal.Decimal) (decimal.Decimal, bool) {
	if b.IsZero() {
		return decimal.Decimal{}, false
	}
	if a.IsZero() {
		return decimal.Zero, true
	}
	if q, ok := divSmall(a, b); ok {
		return q, true
	}
	// lead is the exponent of a number's leading digit.
	lead := func(d decimal.Decimal) int64 { return int64(d.NumDigits()) - 1 + int64(d.Exponent()) }
	// The quotient's leading digit is at lead(a)-lead(b) or one below;
	// truncating at this precision keeps at least 19 digits.
	prec := sigDigits + 1 - (lead(a) - lead(b))
	q, _ := a.QuoRem(b, int32(prec))
	// q is truncated toward zero, so rounding its own extra digits half
	// away from zero rounds the exact quotient the same way.
	return roundSig(q, sigDigits), true
}

// pow10 are the powers of ten that fit in a uint64.
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// divSmall is div for coefficients of at most 18 digits, in 64-bit and
// 128-bit integer arithmetic: the quotient truncated to 19 digits, then
// rounded half away from zero to 18 (as div does). ok is false when the
// operands do not fit it.
func divSmall(a, b decimal.Decimal) (decimal.Decimal, bool) {
	da, db := a.NumDigits(), b.NumDigits()
	if da > 18 || db > 18 {
		return decimal.Decimal{}, false
	}
	ca, cb := a.CoefficientInt64(), b.CoefficientInt64()
	neg := (ca < 0) != (cb < 0)
	ua, ub := uint64(ca), uint64(cb)
	if ca < 0 {
		ua = uint64(-ca)
	}
	if cb < 0 {
		ub = uint64(-cb)
	}
	k := 18 + db - da // the quotient ua·10^k / ub is in (10^17, 10^19)
	quo := func(k int) (uint64, bool) {
		if k < 0 || k >= len(pow10) {
			return 0, false
		}
		hi, lo := bits.Mul64(ua, pow10[k])
		if hi >= ub {
			return 0, false
		}
		q, _ := bits.Div64(hi, lo, ub)
		return q, true
	}
	q, ok := quo(k)
	if ok && q < pow10[18] {
		k++
		q, ok = quo(k)
	}
	if !ok || q < pow10[18] {
		return decimal.Decimal{}, false
	}
	// q has 19 digits, truncated toward zero: rounding its last digit
	// half up rounds the exact quotient.
	last := q % 10
	q /= 10
	if last >= 5 {
		q++
	}
	v := int64(q)
	if neg {
		v = -v
	}
	return decimal.New(v, a.Exponent()-b.Exponent()-int32(k)+1), true
}

// roundSig rounds d to n significant digits, half away from zero.
func roundSig(d decimal.Decimal, n int) decimal.Decimal {
	extra := d.NumDigits() - n
	if extra <= 0 {
		return d
	}
	return d.Round(-d.Exponent() - int32(extra))
}

// parse reads a decimal literal; ok is false for "" and malformed text.
// Plain literals of up to 18 digits (the usual case) skip the big-number
// parser.
func parse(s string) (decimal.Decimal, bool) {
	switch s {
	case "":
		return decimal.Decimal{}, false
	case "0":
		return decimal.Zero, true
	}
	if d, ok := parseSmall(s); ok {
		return d, true
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// parseSmall reads [-]digits[.digits] with at most 18 digits in all.
func parseSmall(s string) (decimal.Decimal, bool) {
	i, neg := 0, false
	if s[0] == '-' {
		i, neg = 1, true
	}
	var v int64
	digits, exp, dot := 0, int32(0), false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if digits++; digits > 18 {
				return decimal.Decimal{}, false
			}
			v = v*10 + int64(c-'0')
			if dot {
				exp--
			}
		case c == '.' && !dot:
			dot = true
		default:
			return decimal.Decimal{}, false
		}
	}
	if digits == 0 {
		return decimal.Decimal{}, false
	}
	if neg {
		v = -v
	}
	return decimal.New(v, exp), true
}

// lastOf is the last price of symbol in m; ok is false when unknown or
// not positive (a zero last price routes nothing).
func lastOf(m *market.Snapshot, symbol string) (decimal.Decimal, bool) {
	q, found := m.Quotes[symbol]
	if !found {
		return decimal.Decimal{}, false
	}
	d, ok := parse(q.Last)
	if !ok || !d.IsPositive() {
		return decimal.Decimal{}, false
	}
	return d, true
}

// direct prices asset in in by one symbol: last of asset+in, else
// 1 / last of in+asset.
func direct(m *market.Snapshot, asset, in string) (decimal.Decimal, bool) {
	if asset == in {
		return one, true
	}
	if p, ok := lastOf(m, asset+in); ok {
		return p, true
	}
	if p, ok := lastOf(m, in+asset); ok {
		return div(one, p)
	}
	return decimal.Decimal{}, false
}

// Price is the price of one unit of asset in asset in, by the routes of
// DESIGN.md: in itself is 1; else last of asset+in; else 1 / last of
// in+asset; else through one bridge asset (BTC first, then any) by the same
// two rules. ok is false when there is no route.
func Price(m *market.Snapshot, asset, in string) (price decimal.Decimal, ok bool) {
	if m == nil {
		if asset == in {
			return one, true
		}
		return decimal.Decimal{}, false
	}
	if p, ok := direct(m, asset, in); ok {
		return p, true
	}
	if p, ok := bridged(m, asset, bridgeFirst, in); ok {
		return p, true
	}
	for _, b := range bridges(m, asset, in) {
		if p, ok := bridged(m, asset, b, in); ok {
			return p, true
		}
	}
	return decimal.Decimal{}, false
}

// bridged prices asset in in through the bridge asset b.
func bridged(m *market.Snapshot, asset, b, in string) (decimal.Decimal, bool) {
	if b == asset || b == in {
		return decimal.Decimal{}, false
	}
	p1, ok := direct(m, asset, b)
	if !ok {
		return decimal.Decimal{}, false
	}
	p2, ok := direct(m, b, in)
	if !ok {
		return decimal.Decimal{}, false
	}
	return p1.Mul(p2), true
}

// bridges are the assets other than BTC that a price route may pass
// through: every asset paired with asset by a spot instrument, sorted.
func bridges(m *market.Snapshot, asset, in string) []string {
	var others []string
	for _, ins := range m.Instruments {
		if ins.Contract {
			continue
		}
		var b string
		switch asset {
		case ins.Base:
			b = ins.Quote
		case ins.Quote:
			b = ins.Base
		default:
			continue
		}
		if b != bridgeFirst && b != asset && b != in && !slices.Contains(others, b) {
			others = append(others, b)
		}
	}
	slices.Sort(others)
	return others
}
