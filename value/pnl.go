package value

import "github.com/shopspring/decimal"

// numHundred is 100.
var numHundred = num{lo: 100}

// Unrealized is the unrealized PnL of a position with total qty, average
// price avg, mark price mark and multiplier mult: linear LONG (M−P)·Q·K,
// SHORT (P−M)·Q·K; inverse LONG Q·K·(1/P−1/M), SHORT Q·K·(1/M−1/P). ok is
// false when a price is zero or the side is neither LONG nor SHORT.
//
// The inverse formula is computed as Q·K·(M−P) / (P·M), one division to
// 18 significant digits of the exact result (two rounded reciprocals
// would lose digits to cancellation when M is close to P).
func Unrealized(side string, qty, avg, mark, mult decimal.Decimal, inverse bool) (pnl decimal.Decimal, ok bool) {
	p, ok := unrealized(side, numOf(qty), numOf(avg), numOf(mark), numOf(mult), inverse)
	if !ok {
		return decimal.Decimal{}, false
	}
	return p.dec(), true
}

// unrealized is Unrealized on nums.
func unrealized(side string, qty, avg, mark, mult num, inverse bool) (num, bool) {
	if avg.isZero() || mark.isZero() {
		return num{}, false
	}
	var move num // the price change in the position's favour
	switch side {
	case "LONG":
		move = mark.sub(avg)
	case "SHORT":
		move = avg.sub(mark)
	default:
		return num{}, false
	}
	size := qty.mul(mult)
	if !inverse {
		return move.mul(size), true
	}
	return size.mul(move).quo(avg.mul(mark))
}

// DistancePct is how far, in % of from, the market must move from from to
// reach to: (to − from) / from × 100, signed. ok is false when from is 0.
func DistancePct(from, to decimal.Decimal) (pct decimal.Decimal, ok bool) {
	p, ok := distancePct(numOf(from), numOf(to))
	if !ok {
		return decimal.Decimal{}, false
	}
	return p.dec(), true
}

// distancePct is DistancePct on nums.
func distancePct(from, to num) (num, bool) {
	return to.sub(from).mul(numHundred).quo(from)
}
