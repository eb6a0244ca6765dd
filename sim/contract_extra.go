package sim

import (
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// The contract trading extras of API-FACTS.md: batch cancel, the contract
// account and margin changes.

// handleBatchCancel cancels every open contract order of the symbols sent
// (a comma list; none: all), STOP orders included.
func (s *Server) handleBatchCancel(c *call) (any, *apiError) {
	want := map[string]bool{}
	if v, ok := c.p.str("symbol"); ok {
		for _, name := range strings.Split(v, ",") {
			name = strings.TrimSpace(name)
			if sym := s.symbols[name]; sym == nil || !sym.contract {
				return nil, badParam(codeBadSymbol, "Invalid symbol.")
			}
			want[name] = true
		}
	}
	now := c.now.UnixMilli()
	for _, o := range s.openOrders(c.key.account) {
		if o.sym.contract && (len(want) == 0 || want[o.sym.name]) {
			s.cancel(o, now)
		}
	}
	s.flushAccounts(now)
	return map[string]any{"message": "success", "timestamp": now}, nil
}

type marginAccount struct {
	Total           string `json:"total"`
	AvailableMargin string `json:"availableMargin"`
	PositionMargin  string `json:"positionMargin"`
	OrderMargin     string `json:"orderMargin"`
}

// handleContractAccount reports each margin asset: total (free and
// locked), what is free, what positions hold and what open orders hold.
func (s *Server) handleContractAccount(c *call) (any, *apiError) {
	a := c.key.account
	out := map[string]marginAccount{}
	assets := map[string]bool{}
	for _, sym := range s.symbolList {
		if sym.contract {
			assets[sym.marginAsset] = true
		}
	}
	for _, asset := range slices.Sorted(maps.Keys(assets)) {
		var pos, ord decimal.Decimal
		for _, p := range a.positions {
			if p.sym.marginAsset == asset {
				pos = pos.Add(p.margin)
			}
		}
		for _, o := range s.openOrders(a) {
			if o.sym.contract && o.lockAsset == asset {
				ord = ord.Add(o.locked)
			}
		}
		var free, locked decimal.Decimal
		if b := a.balances[asset]; b != nil {
			free, locked = b.free, b.locked
		}
		out[asset] = marginAccount{free.Add(locked).String(), free.String(), pos.String(), ord.String()}
	}
	return out, nil
}

// handleModifyMargin adds margin to a position from the free balance (a
// negative amount takes it back, never below what the position's value
// needs at 100x).
func (s *Server) handleModifyMargin(c *call) (any, *apiError) {
	sym, e := s.symbol(c.p, true)
	if e != nil {
		return nil, e
	}
	side, e := c.p.oneOf("side", "", codeInvalidSide, "Invalid side.", "LONG", "SHORT")
	if e != nil {
		return nil, e
	}
	if side == "" {
		return nil, errMandatory("side")
	}
	raw, e := c.p.required("amount")
	if e != nil {
		return nil, e
	}
	amount, err := decimal.NewFromString(raw)
	if err != nil || amount.IsZero() || !decimalRe.MatchString(strings.TrimPrefix(raw, "-")) {
		return nil, badParam(codeIllegalChars, "Illegal characters found in parameter 'amount'.")
	}
	a := c.key.account
	p := a.positions[posKey(sym.name, side)]
	if p == nil || !p.total.IsPositive() {
		return nil, badParam(codeNewOrderRejected, "No position to change the margin of.")
	}
	b := a.bal(sym.marginAsset)
	floor := notional(sym, p.total, p.avg).DivRound(decimal.NewFromInt(100), 8)
	switch {
	case amount.IsPositive() && b.free.LessThan(amount):
		return nil, errInsufficient()
	case amount.IsNegative() && p.margin.Add(amount).LessThan(floor):
		return nil, badParam(codeNewOrderRejected, "Margin would fall below the minimum.")
	}
	p.margin = p.margin.Add(amount)
	b.free = b.free.Sub(amount)
	b.locked = b.locked.Add(amount)
	now := c.now.UnixMilli()
	s.publishPosition(a, sym, side, now)
	s.flushAccounts(now)
	return map[string]any{"symbol": sym.name, "margin": p.margin.String(), "timestamp": now}, nil
}
