package market

// shownSet is the symbols the client shows now, with the instruments and
// valuation asset they were computed with, for Wants.
type shownSet struct {
	symbols     map[string]bool
	instruments map[string]Instrument
	valueIn     string
}

// follow makes symbols the ones followed and shown (the loop's).
func (c *Client) follow(symbols []string) {
	c.symbols = symbols
	set := &shownSet{symbols: make(map[string]bool, len(symbols)), instruments: c.store.Instruments(), valueIn: c.cfg.ValueIn}
	for _, s := range symbols {
		set.symbols[s] = true
		c.store.Expect(s) // dropped once: its pushes are taken again
	}
	c.shown.Store(set)
}

// Wants reports whether the client would follow, or show again, a
// symbol of symbols (of orders that opened, of positions that appeared)
// or a symbol pricing an asset of assets (of balances that appeared): the
// account's symbols grew, and Recheck, once the state that holds them is
// published, follows them at once. A symbol brokerInfo does not list is
// not wanted, nor anything before the first session. Cheap and safe for
// concurrent use: the stream's writer asks it (state.Store.TakeNewSymbols).
func (c *Client) Wants(symbols, assets []string) bool {
	set := c.shown.Load()
	if set == nil {
		return false // the session's start reads the state
	}
	wanted := func(sym string) bool {
		_, listed := set.instruments[sym]
		return listed && !set.symbols[sym]
	}
	for _, s := range symbols {
		if wanted(s) {
			return true
		}
	}
	for _, a := range assets {
		if a == set.valueIn || set.symbols[a+set.valueIn] || set.symbols[set.valueIn+a] {
			continue
		}
		// Priced directly by a symbol not shown, or through a bridge:
		// Touched decides.
		return true
	}
	return false
}

// Recheck asks the client to look at the account's latest state at once
// rather than at its next RecheckEvery, after Wants answered true and
// the state was published. It never blocks; a recheck already asked
// for reads the newest state.
func (c *Client) Recheck() {
	select {
	case c.recheckWake <- struct{}{}:
	default:
	}
}
