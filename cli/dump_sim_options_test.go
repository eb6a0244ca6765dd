package cli

import "bhtop/sim"

// noMarketData is a simulator without market data (every quote endpoint
// answers 404, the quote socket is refused).
func noMarketData() sim.Options { return sim.Options{NoMarketData: true} }
