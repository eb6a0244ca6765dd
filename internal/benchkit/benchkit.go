// Package benchkit builds the priced accounts that benchmarks of several
// packages (alert, metrics) measure against, so each measures the same
// account.
package benchkit

import (
	"fmt"

	"bhtop/market"
	"bhtop/state"
)

// Account adds to st n balances A0..A(n-1), each priced in mk by a
// AiUSDT quote, and p long positions C0-PERP..C(p-1)-PERP, each with a
// mark and a contract instrument. mk's maps must be made.
func Account(st *state.Snapshot, mk *market.Snapshot, n, p int) {
	for i := range n {
		a := fmt.Sprintf("A%d", i)
		st.Balances = append(st.Balances, state.Balance{Asset: a, Free: "10", Locked: "1"})
		mk.Quotes[a+"USDT"] = market.Quote{Symbol: a + "USDT", Last: "1.5"}
	}
	for i := range p {
		s := fmt.Sprintf("C%d-PERP", i)
		st.Positions = append(st.Positions, state.Position{Symbol: s, Side: "LONG", AvgPrice: "100", Total: "3", LiquidationPrice: "80"})
		mk.Quotes[s] = market.Quote{Symbol: s, Mark: "101"}
		mk.Instruments[s] = market.Instrument{Symbol: s, Quote: "USDT", Contract: true, Multiplier: "1"}
	}
}
