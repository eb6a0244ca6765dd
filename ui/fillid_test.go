package ui

import (
	"testing"

	"bhtop/state"
)

// TestFillRowID: the cursor follows a fill by its row's id, which must
// stay while the fill gains its trade id (a resync's myTrades record
// pairing with an event that had no t) and tell apart two executions of
// one order at one time without t (both are fills, DESIGN.md).
func TestFillRowID(t *testing.T) {
	f := state.Fill{Market: state.MarketSpot, OrderID: "8", Qty: "1", Time: 30, Seq: 1}
	twin := f
	twin.Seq = 2
	paired := f
	paired.TradeID = "700"
	id := func(f state.Fill) string { return (&item{fill: &f}).id() }
	if id(f) == id(twin) {
		t.Errorf("two fills, one id %q", id(f))
	}
	if id(f) != id(paired) {
		t.Errorf("the fill's id went from %q to %q when it gained its trade id", id(f), id(paired))
	}
}
