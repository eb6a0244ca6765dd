package state

import (
	"slices"
	"testing"
)

// TestTakeNewSymbols: an order that opens, a position or a balance that
// appears is noted once (the market client asks whether it follows
// them); updates of what is known, and closings, are not.
func TestTakeNewSymbols(t *testing.T) {
	s := NewStore()
	take := func(what string, wantSyms, wantAssets []string) {
		t.Helper()
		syms, assets := s.TakeNewSymbols()
		if !slices.Equal(syms, wantSyms) || !slices.Equal(assets, wantAssets) {
			t.Errorf("%s: noted %q and %q, want %q and %q", what, syms, assets, wantSyms, wantAssets)
		}
	}
	take("nothing yet", nil, nil)
	fold(s, spot("1", 10, "NEW", "0", "0"), spot("2", 11, "NEW", "0", "0"))
	take("two new orders on ETHBTC", []string{"ETHBTC"}, nil)
	fold(s, spot("1", 12, "PARTIALLY_FILLED", "0.5", "0.05"), spot("2", 13, "CANCELED", "0", "0"))
	take("updates and a closing", []string{}, []string{})
	fold(s, spot("2", 14, "NEW", "0", "0"))
	take("a closed order reopened", []string{"ETHBTC"}, []string{})
	fold(s, spot("3", 15, "FILLED", "1", "0.1"))
	take("an order closed at once", []string{}, []string{})
	fold(s, contract("4", 16, "NEW", "0", "0"), pos("7", "BTC-PERP-REV", "SHORT", "10"), pos("7", "BTC-PERP-REV", "SHORT", "11"))
	take("a contract order and its new position", []string{"BTC-PERP-REV"}, []string{})
	fold(s, acct(17, true, "ETH", "1", "0", "BTC", "2", "0"), acct(18, true, "ETH", "2", "0"))
	take("two new balances, then a change", []string{}, []string{"ETH", "BTC"})
	for i := range 40 {
		fold(s, pos("7", "S"+string(rune('A'+i)), "LONG", "1"))
	}
	if syms, _ := s.TakeNewSymbols(); len(syms) != maxNotes {
		t.Errorf("40 new positions noted %d symbols, want the first %d", len(syms), maxNotes)
	}
}
