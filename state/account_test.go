package state

import (
	"fmt"
	"testing"

	"bhtop/event"
)

func acct(e int64, trade bool, bals ...string) []byte {
	a := event.AccountInfo{EventTime: e, CanTrade: trade, CanWithdraw: true, CanDeposit: true}
	for i := 0; i+3 <= len(bals); i += 3 {
		a.Balances = append(a.Balances, event.BalanceChange{Asset: bals[i], Free: bals[i+1], Locked: bals[i+2]})
	}
	return event.AppendAccount(nil, &a, event.EncodeOptions{Optional: e%2 == 0})
}

func pos(a, sym, side, total string) []byte {
	return event.AppendPosition(nil, &event.PositionInfo{AccountID: a, Symbol: sym, Side: side, AvgPrice: "1", Total: total,
		Available: total, LiquidationPrice: "0", Margin: "0", RealizedPnl: "0"}, event.EncodeOptions{})
}

func balanceOf(snap *Snapshot, asset string) string {
	for _, b := range snap.Balances {
		if b.Asset == asset {
			return fmt.Sprintf("%s/%s@%d", b.Free, b.Locked, b.Updated)
		}
	}
	return "none"
}

// TestAccountRules: balances per asset and the flags apply when E is at
// least their last E; an event is applied when any part was accepted.
func TestAccountRules(t *testing.T) {
	s := NewStore()
	if s.Snapshot().Account != nil {
		t.Fatal("account before any event is not null")
	}
	fold(s, acct(10, true, "BTC", "1", "0", "ETH", "2", "0"))
	fold(s, acct(9, false, "BTC", "5", "0"))                 // stale entirely
	fold(s, acct(10, false, "ETH", "3", "1"))                // equal E applies
	fold(s, acct(8, true, "LTC", "7", "0", "BTC", "9", "0")) // LTC is new: applied; flags and BTC stale
	snap := s.Snapshot()
	st := s.Stats()
	if st.Applied != 3 || st.Stale != 1 {
		t.Errorf("stats = %+v, want 3 applied 1 stale", st)
	}
	if a := snap.Account; a == nil || a.CanTrade || a.Updated != 10 {
		t.Errorf("account = %+v, want canTrade false at 10", a)
	}
	for asset, want := range map[string]string{"BTC": "1/0@10", "ETH": "3/1@10", "LTC": "7/0@8"} {
		if got := balanceOf(snap, asset); got != want {
			t.Errorf("balance %s = %s, want %s", asset, got, want)
		}
	}
	if snap.Balances[0].Asset != "BTC" || snap.Balances[2].Asset != "LTC" {
		t.Errorf("balances not sorted: %+v", snap.Balances)
	}
	fold(s, acct(11, true, "ETH", "0.000", "0"))
	if got := balanceOf(s.Snapshot(), "ETH"); got != "0.000/0@11" {
		t.Errorf("zero balance = %s, want kept", got)
	}
}

// TestPositions: last arrival wins per (A, s, S); zero totals are omitted;
// a REST row ("", s, S) is taken over by an event and given A.
func TestPositions(t *testing.T) {
	s := NewStore()
	fold(s, pos("1", "BTC-PERP-REV", "LONG", "5"), pos("1", "BTC-PERP-REV", "SHORT", "3"), pos("2", "BTC-PERP-REV", "LONG", "1"))
	fold(s, pos("1", "BTC-PERP-REV", "LONG", "7"), pos("1", "BTC-PERP-REV", "SHORT", "0.0"))
	snap := s.Snapshot()
	var got []string
	for _, p := range snap.Positions {
		got = append(got, p.AccountID+":"+p.Side+":"+p.Total)
	}
	if fmt.Sprint(got) != "[1:LONG:7 2:LONG:1]" {
		t.Errorf("positions = %v, want [1:LONG:7 2:LONG:1]", got)
	}
	if st := s.Stats(); st.Applied != 5 || st.Stale != 0 {
		t.Errorf("stats = %+v: position events always apply", st)
	}

	r := NewStore()
	r.ApplySnapshot(RESTSnapshot{HavePositions: true, Positions: []Position{{Symbol: "ETH-PERP-REV", Side: "LONG", Total: "2", AvgPrice: "1"}}})
	fold(r, pos("9", "ETH-PERP-REV", "LONG", "4"))
	snap = r.Snapshot()
	if len(snap.Positions) != 1 || snap.Positions[0].AccountID != "9" || snap.Positions[0].Total != "4" {
		t.Errorf("positions = %+v, want the REST row taken over by A=9", snap.Positions)
	}
}

// TestPositionsSnapshot: a positions snapshot updates rows by (symbol,
// side) keeping accountId and removes absent ones.
func TestPositionsSnapshot(t *testing.T) {
	s := fold(NewStore(), pos("1", "BTC-PERP-REV", "LONG", "5"), pos("1", "ETH-PERP-REV", "SHORT", "3"))
	s.ApplySnapshot(RESTSnapshot{HavePositions: true, Positions: []Position{
		{AccountID: "ignored", Symbol: "BTC-PERP-REV", Side: "LONG", Total: "6"},
		{Symbol: "XRP-PERP", Side: "LONG", Total: "1"},
	}})
	var got []string
	for _, p := range s.Snapshot().Positions {
		got = append(got, p.AccountID+":"+p.Symbol+":"+p.Total)
	}
	if fmt.Sprint(got) != "[1:BTC-PERP-REV:6 :XRP-PERP:1]" {
		t.Errorf("positions = %v", got)
	}
	s.ApplySnapshot(RESTSnapshot{}) // positions not fetched: unchanged
	if n := len(s.Snapshot().Positions); n != 2 {
		t.Errorf("positions = %d after a snapshot without them, want 2", n)
	}
}
