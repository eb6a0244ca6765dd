package ui

import "bhtop/market"

// marketSource is where the dashboard reads the public market: the quote
// client's hub (nil when there is no market data at all, as with
// --no-market or a replay) and the asset the account is valued in.
type marketSource struct {
	hub     *market.Hub
	valueIn string
}

// WithMarket gives the dashboard the market hub to value the account
// against, in asset valueIn (DESIGN.md 'Market context'). Without it the
// dashboard shows the account alone.
func WithMarket(h *market.Hub, valueIn string) Option {
	return func(m *Model) { m.market = marketSource{hub: h, valueIn: valueIn} }
}
