package value

import "github.com/shopspring/decimal"

var hundred = decimal.NewFromInt(100)

// Unrealized is the unrealized PnL of a position with total qty, average
// price avg, mark price mark and multiplier mult: linear LONG (M−P)·Q·K,
// SHORT (P−M)·Q·K; inverse LONG Q·K·(1/P−1/M), SHORT Q·K·(1/M−1/P). ok is
// false when a price is zero or the side is neither LONG nor SHORT.
//
// The inverse formula is computed as Q·K·(M−P) / (P·M), one division to
// 18 significant digits of the exact result (two rounded reciprocals
// would lose digits to cancellation when M is close to P).
func Unrealized(side string, qty, avg, mark, mult decimal.Decimal, inverse bool) (pnl decimal.Decimal, ok bool) {
	if avg.IsZero() || mark.IsZero() {
		return decimal.Decimal{}, false
	}
	var move decimal.Decimal // the price change in the position's favour
	switch side {
	case "LONG":
		move = mark.Sub(avg)
	case "SHORT":
		move = avg.Sub(mark)
	default:
		return decimal.Decimal{}, false
	}
	size := qty.Mul(mult)
	if !inverse {
		return move.Mul(size), true
	}
	return div(size.Mul(move), avg.Mul(mark))
}

// DistancePct is how far, in % of from, the market must move from from to
// reach to: (to − from) / from × 100, signed. ok is false when from is 0.
func DistancePct(from, to decimal.Decimal) (pct decimal.Decimal, ok bool) {
	return div(to.Sub(from).Mul(hundred), from)
}
