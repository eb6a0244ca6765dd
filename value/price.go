package value

import (
	"iter"
	"slices"
	"unsafe"

	"github.com/shopspring/decimal"

	"bhtop/market"
)

// sigDigits is the precision of every division (DESIGN.md 'Market
// context'): quotients keep 18 significant digits, rounded half away from
// zero.
const sigDigits = 18

// bridgeFirst is the bridge asset tried before any other.
const bridgeFirst = "BTC"

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
// 128-bit integer arithmetic (divMag). ok is false when the operands
// do not fit it.
func divSmall(a, b decimal.Decimal) (decimal.Decimal, bool) {
	if a.NumDigits() > 18 || b.NumDigits() > 18 {
		return decimal.Decimal{}, false
	}
	na, nb := numOf(a), numOf(b)
	q, ok := divMag(0, na.lo, nb.lo, na.e, nb.e)
	if !ok {
		return decimal.Decimal{}, false
	}
	q.neg = na.neg != nb.neg
	return q.dec(), true
}

// roundSig rounds d to n significant digits, half away from zero.
func roundSig(d decimal.Decimal, n int) decimal.Decimal {
	extra := d.NumDigits() - n
	if extra <= 0 {
		return d
	}
	return d.Round(-d.Exponent() - int32(extra))
}

// parseSmallCoef reads [-]digits[.digits] with at most 18 digits in all
// as coefficient × 10^exp.
func parseSmallCoef(s string) (coef int64, exp int32, ok bool) {
	i, neg := 0, false
	if s[0] == '-' {
		i, neg = 1, true
	}
	var v int64
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if digits++; digits > 18 {
				return 0, 0, false
			}
			v = v*10 + int64(c-'0')
			if dot {
				exp--
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, 0, false
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if neg {
		v = -v
	}
	return v, exp, true
}

// dep is a quote a price route read: its symbol and the last price it
// had ("" when unknown). A route that reads the same last prices again
// gives the same price.
type dep struct{ sym, last string }

// lastOf is the last price of the symbol base+quote in m; ok is false
// when unknown or not positive (a zero last price routes nothing). The
// symbol is spelled in buf, so looking it up does not allocate. When tr
// is not nil, the quote read is appended to it.
func lastOf(m *market.Snapshot, base, quote string, tr *[]dep) (num, bool) {
	var buf [64]byte
	sym := append(append(buf[:0], base...), quote...)
	// An unknown symbol reads as Last "", which does not parse.
	last := m.Quotes[string(sym)].Last
	if tr != nil {
		// A route read again mostly reads the same symbols: the one
		// spelled here before is kept rather than spelled anew.
		d := *tr
		if n := len(d); n < cap(d) && d[:n+1][n].sym == string(sym) {
			*tr = append(d, dep{d[:n+1][n].sym, last})
		} else {
			*tr = append(d, dep{string(sym), last})
		}
	}
	d, ok := parseNum(last)
	if !ok || d.sign() <= 0 {
		return num{}, false
	}
	return d, true
}

// numOne is 1.
var numOne = num{lo: 1}

// direct prices asset in in by one symbol: last of asset+in, else
// 1 / last of in+asset.
func direct(m *market.Snapshot, asset, in string, tr *[]dep) (num, bool) {
	if asset == in {
		return numOne, true
	}
	if p, ok := lastOf(m, asset, in, tr); ok {
		return p, true
	}
	if p, ok := lastOf(m, in, asset, tr); ok {
		return numOne.quo(p)
	}
	return num{}, false
}

// Price is the price of one unit of asset in asset in, by the routes of
// DESIGN.md: in itself is 1; else last of asset+in; else 1 / last of
// in+asset; else through one bridge asset (BTC first, then any) by the same
// two rules. ok is false when there is no route.
func Price(m *market.Snapshot, asset, in string) (price decimal.Decimal, ok bool) {
	var ix pairIndex
	p, ok := priceNum(m, asset, in, nil, &ix)
	if !ok {
		return decimal.Decimal{}, false
	}
	return p.dec(), true
}

// priceNum is Price as a num, the bridges found in ix (built on first
// use). When tr is not nil, every quote the route read is appended to it
// (see Valuer); a route through a bridge other than BTC also depends on
// m's instruments.
func priceNum(m *market.Snapshot, asset, in string, tr *[]dep, ix *pairIndex) (num, bool) {
	if m == nil {
		if asset == in {
			return numOne, true
		}
		return num{}, false
	}
	if p, ok := direct(m, asset, in, tr); ok {
		return p, true
	}
	for b := range ix.bridges(m, asset, in) {
		if p, ok := bridged(m, asset, b, in, tr); ok {
			return p, true
		}
	}
	return num{}, false
}

// bridged prices asset in in through the bridge asset b.
func bridged(m *market.Snapshot, asset, b, in string, tr *[]dep) (num, bool) {
	if b == asset || b == in {
		return num{}, false
	}
	p1, ok := direct(m, asset, b, tr)
	if !ok {
		return num{}, false
	}
	p2, ok := direct(m, b, in, tr)
	if !ok {
		return num{}, false
	}
	return p1.mul(p2), true
}

// pairIndex is a market's spot instruments indexed by asset: each
// asset's partners (the other asset of every spot symbol it is in),
// sorted, without repeats. It is built on first use from the
// instruments of the snapshot asked about, and again only when another
// instruments map is asked about (the market store hands one map on
// from snapshot to snapshot): a valuation looks each asset's bridges up
// instead of scanning every instrument for each asset it cannot price
// directly. The zero value is ready.
type pairIndex struct {
	ins   unsafe.Pointer // the instruments map pairs was built from
	pairs map[string][]string
}

// bridges are the bridge assets a price route of asset in in may pass
// through, in the order they are tried: BTC, then every asset paired
// with asset by a spot instrument (but asset, in and BTC), sorted.
func (x *pairIndex) bridges(m *market.Snapshot, asset, in string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !yield(bridgeFirst) {
			return
		}
		for _, b := range x.partners(m.Instruments)[asset] {
			if b != bridgeFirst && b != asset && b != in && !yield(b) {
				return
			}
		}
	}
}

// partners is the index of ins, built now unless it was built from ins.
func (x *pairIndex) partners(ins map[string]market.Instrument) map[string][]string {
	if id := mapID(ins); x.pairs == nil || x.ins != id {
		pairs := make(map[string][]string)
		for _, i := range ins {
			if !i.Contract {
				pairs[i.Base] = append(pairs[i.Base], i.Quote)
				pairs[i.Quote] = append(pairs[i.Quote], i.Base)
			}
		}
		for a, ps := range pairs {
			slices.Sort(ps)
			pairs[a] = slices.Compact(ps)
		}
		x.ins, x.pairs = id, pairs
	}
	return x.pairs
}

// RouteSymbol is the symbol the route of Price(m, asset, in) starts
// with: asset+in or in+asset, else its first hop through the bridge it
// takes (asset+bridge or bridge+asset). ok is false when in is asset or
// there is no route.
func RouteSymbol(m *market.Snapshot, asset, in string) (string, bool) {
	if m == nil || asset == in {
		return "", false
	}
	hop := func(a, b string) (string, bool) {
		if _, ok := lastOf(m, a, b, nil); ok {
			return a + b, true
		}
		if _, ok := lastOf(m, b, a, nil); ok {
			return b + a, true
		}
		return "", false
	}
	if s, ok := hop(asset, in); ok {
		return s, true
	}
	var ix pairIndex
	for b := range ix.bridges(m, asset, in) {
		if _, ok := bridged(m, asset, b, in, nil); ok {
			return hop(asset, b)
		}
	}
	return "", false
}
