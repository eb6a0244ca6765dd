package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"bhtop/dec"
	"bhtop/rest"
	"bhtop/state"
)

// CloseOrder builds the order that closes position p: SELL_CLOSE for a
// LONG, BUY_CLOSE for a SHORT, for qty ("" means the whole available
// quantity), priceType OPPONENT (the best opposite price), no leverage.
// It refuses a quantity that is not positive or exceeds what is available.
func CloseOrder(p state.Position, qty string) (rest.ContractOrderRequest, error) {
	var side string
	switch strings.ToUpper(p.Side) {
	case "LONG":
		side = "SELL_CLOSE"
	case "SHORT":
		side = "BUY_CLOSE"
	default:
		return rest.ContractOrderRequest{}, fmt.Errorf("position side %q: want LONG or SHORT", p.Side)
	}
	avail, err := decimal.NewFromString(p.Available)
	if err != nil {
		return rest.ContractOrderRequest{}, fmt.Errorf("position %s %s: available %q is not a decimal", p.Symbol, p.Side, p.Available)
	}
	if qty == "" {
		if !avail.IsPositive() {
			return rest.ContractOrderRequest{}, fmt.Errorf("position %s %s: nothing available to close (open closing orders hold it)", p.Symbol, p.Side)
		}
		qty = p.Available
	}
	q, ok := dec.Positive(qty)
	switch {
	case !ok:
		return rest.ContractOrderRequest{}, fmt.Errorf("quantity %q: want a positive decimal", qty)
	case q.GreaterThan(avail):
		return rest.ContractOrderRequest{}, fmt.Errorf("quantity %s exceeds the %s available of %s %s", qty, p.Available, p.Symbol, p.Side)
	}
	return rest.ContractOrderRequest{Symbol: p.Symbol, Side: side, OrderType: "LIMIT", Quantity: qty,
		PriceType: "OPPONENT", TimeInForce: "GTC"}, nil
}

// ErrNoPosition: the position to close is not open.
var ErrNoPosition = errors.New("no such open position")

// FindPosition is the open position (symbol, side) in positions.
func FindPosition(positions []state.Position, symbol, side string) (state.Position, error) {
	for _, p := range positions {
		if p.Symbol == symbol && strings.EqualFold(p.Side, side) {
			if t, ok := dec.Parse(p.Total); ok && t.IsPositive() {
				return p, nil
			}
		}
	}
	return state.Position{}, fmt.Errorf("%s %s: %w", symbol, strings.ToUpper(side), ErrNoPosition)
}

// ClosePosition sends the closing order of p for qty ("" the whole
// available quantity), once; outcomes as for rest.Trader.PlaceOrder.
func ClosePosition(ctx context.Context, tr *rest.Trader, p state.Position, qty string) (rest.OrderResult, error) {
	req, err := CloseOrder(p, qty)
	if err != nil {
		return rest.OrderResult{}, err
	}
	return tr.PlaceContractOrder(ctx, req), nil
}

// PositionOf turns a REST position record into the store's row (for
// callers without a stream, such as `bhtop order close`).
func PositionOf(r rest.PositionRecord) state.Position {
	return state.Position{Symbol: r.Symbol, Side: r.Side, AvgPrice: r.AvgPrice, Total: r.Position,
		Available: r.Available, LiquidationPrice: r.Flp, Margin: r.Margin, RealizedPnl: r.RealizedPnL}
}
