// Package value prices an account against the market: its equity in one
// asset and the unrealized PnL of its contract positions. It is pure (a
// state snapshot and a market snapshot in, numbers out) and exact: decimals
// only, divisions to 18 significant digits (DESIGN.md 'Market context').
package value

import (
	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

// AssetValue is one balance valued in the valuation asset. Price and Value
// are nil when the asset has no price route: it is unpriced, never worth 0.
type AssetValue struct {
	Asset string
	Total decimal.Decimal  // free + locked
	Price *decimal.Decimal // of one unit, in the valuation asset
	Value *decimal.Decimal // Total × Price
	Share *decimal.Decimal // Value / Equity, 0..1; nil when unpriced or equity is 0
}

// PositionValue is one contract position against its mark price. Every
// pointer is nil when unknown (no mark, no instrument).
type PositionValue struct {
	AccountID string
	Symbol    string
	Side      string
	Mark      *decimal.Decimal
	Index     *decimal.Decimal
	// Unrealized is the PnL in PnLAsset: the quote asset of a linear
	// contract, the margin asset of an inverse one.
	Unrealized *decimal.Decimal
	PnLAsset   string
	// UnrealizedPct is Unrealized as a percentage of the position's margin.
	UnrealizedPct *decimal.Decimal
	// LiquidationPct is how far the mark must move, in %, to reach the
	// liquidation price.
	LiquidationPct *decimal.Decimal
}

// Valuation is an account valued in Asset. Equity sums the priced assets
// and the positions' unrealized PnL valued the same way; Unpriced lists,
// sorted, the assets with a balance but no price route.
type Valuation struct {
	Asset     string
	Equity    decimal.Decimal
	Unpriced  []string
	Assets    []AssetValue    // sorted by asset
	Positions []PositionValue // in the snapshot's order
}

// Of values the account s against the market m in asset in. It returns nil
// when m holds no market data at all (Version 0 or no quotes).
func Of(s *state.Snapshot, m *market.Snapshot, in string) *Valuation {
	panic("value.Of: not implemented yet")
}

// Price is the price of one unit of asset in asset in, by the routes of
// DESIGN.md: in itself is 1; else last of asset+in; else 1 / last of
// in+asset; else through one bridge asset (BTC first, then any) by the same
// two rules. ok is false when there is no route.
func Price(m *market.Snapshot, asset, in string) (price decimal.Decimal, ok bool) {
	panic("value.Price: not implemented yet")
}

// Unrealized is the unrealized PnL of a position with total qty, average
// price avg, mark price mark and multiplier mult: linear LONG (M−P)·Q·K,
// SHORT (P−M)·Q·K; inverse LONG Q·K·(1/P−1/M), SHORT Q·K·(1/M−1/P). ok is
// false when a price is zero or the side is neither LONG nor SHORT.
func Unrealized(side string, qty, avg, mark, mult decimal.Decimal, inverse bool) (pnl decimal.Decimal, ok bool) {
	panic("value.Unrealized: not implemented yet")
}

// DistancePct is how far, in % of from, the market must move from from to
// reach to: (to − from) / from × 100, signed. ok is false when from is 0.
func DistancePct(from, to decimal.Decimal) (pct decimal.Decimal, ok bool) {
	panic("value.DistancePct: not implemented yet")
}
