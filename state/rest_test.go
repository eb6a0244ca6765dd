package state

import (
	"fmt"
	"testing"
)

func rec(market, id string, update int64, status, z, quote string) OrderSnap {
	return OrderSnap{Market: market, Symbol: "ETHBTC", OrderID: id, ClientOrderID: "c" + id, Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Price: "0.1", Quantity: "1", ExecutedQty: z, CumulativeQuoteQty: quote, Status: status,
		Working: true, Time: 1, UpdateTime: update}
}

// TestSnapshotNeverOverwritesNewer: a REST record applies as an update
// with E = updateTime under the ordering rules.
func TestSnapshotNeverOverwritesNewer(t *testing.T) {
	s := fold(NewStore(), spot("1", 20, "PARTIALLY_FILLED", "0.5", "0.05"), spot("2", 20, "NEW", "0", "0"))
	missing := s.ApplySnapshot(RESTSnapshot{HaveSpotOrders: true, SpotOpenOrders: []OrderSnap{
		rec(MarketSpot, "1", 19, "NEW", "0", "0"),                   // older: ignored
		rec(MarketSpot, "3", 0, "NEW", "0", "0"),                    // updateTime 0: E = time
		rec(MarketSpot, "2", 21, "PARTIALLY_FILLED", "0.3", "0.03"), // newer: applies
	}})
	snap := s.Snapshot()
	if o := findOrder(snap, MarketSpot, "1"); o.Status != "PARTIALLY_FILLED" || o.Updated != 20 {
		t.Errorf("order 1 = %+v, want the newer event kept", o)
	}
	if o := findOrder(snap, MarketSpot, "2"); o.Status != "PARTIALLY_FILLED" || o.Updated != 21 || *o.AvgPrice != "0.1" {
		t.Errorf("order 2 = %+v, want the snapshot applied", o)
	}
	if o := findOrder(snap, MarketSpot, "3"); o == nil || o.Updated != 1 {
		t.Errorf("order 3 = %+v, want E = time", o)
	}
	if len(missing) != 0 {
		t.Errorf("missing = %v, want none", missing)
	}
	if st := s.Stats(); st.Events != 2 {
		t.Errorf("stats = %+v: snapshots are not events", st)
	}
}

// TestSnapshotMissingOrders: open orders absent from the snapshot are
// returned for a query; the queried record settles them.
func TestSnapshotMissingOrders(t *testing.T) {
	s := fold(NewStore(), spot("7", 10, "NEW", "0", "0"), spot("8", 10, "FILLED", "1", "0.1"),
		contract("469961015902208001", 10, "NEW", "0", "0"), spot("5", 10, "PARTIALLY_FILLED", "0.1", "0.01"))
	missing := s.ApplySnapshot(RESTSnapshot{HaveSpotOrders: true, SpotOpenOrders: []OrderSnap{rec(MarketSpot, "5", 10, "PARTIALLY_FILLED", "0.1", "0.01")}})
	if fmt.Sprint(missing) != "[{spot 7 c7}]" {
		t.Errorf("missing = %v, want spot 7 only (contract orders not fetched)", missing)
	}
	missing = s.ApplySnapshot(RESTSnapshot{HaveContractOrders: true})
	if fmt.Sprint(missing) != "[{contract 469961015902208001 k469961015902208001}]" {
		t.Errorf("missing = %v, want the contract order", missing)
	}
	s.ApplyOrderRecord(rec(MarketSpot, "7", 12, "CANCELED", "0", "0"))
	if o := findOrder(s.Snapshot(), MarketSpot, "7"); o.Status != "CANCELED" {
		t.Errorf("queried order = %+v, want CANCELED", o)
	}
}

// TestContractRecords: REST sides BUY_OPEN.. become BUY/SELL with close,
// and Z = executedQty × avgPrice when the record has none.
func TestContractRecords(t *testing.T) {
	s := NewStore()
	r := rec(MarketContract, "469961015902208000", 5, "PARTIALLY_FILLED", "3", "")
	r.Side, r.AvgPrice, r.Leverage = "SELL_CLOSE", "8183.11", "20"
	s.ApplySnapshot(RESTSnapshot{HaveContractOrders: true, ContractOpenOrders: []OrderSnap{r}})
	o := findOrder(s.Snapshot(), MarketContract, "469961015902208000")
	if o == nil || o.Side != "SELL" || o.Close == nil || !*o.Close || o.CumulativeQuoteQty != "24549.33" || *o.AvgPrice != "8183.11" || *o.Leverage != "20" {
		t.Errorf("contract record = %+v", o)
	}
	r.Side, r.UpdateTime = "BUY_OPEN", 6
	s.ApplyOrderRecord(r)
	if o := findOrder(s.Snapshot(), MarketContract, "469961015902208000"); o.Side != "BUY" || *o.Close {
		t.Errorf("contract record = %+v, want BUY open", o)
	}
}

func TestSnapshotAccount(t *testing.T) {
	s := fold(NewStore(), acct(10, true, "BTC", "1", "0"))
	s.ApplySnapshot(RESTSnapshot{Account: &AccountSnap{CanTrade: false, UpdateTime: 9, Balances: []Balance{{Asset: "BTC", Free: "5", Locked: "0"}, {Asset: "USDT", Free: "3", Locked: "1"}}}})
	snap := s.Snapshot()
	if snap.Account.CanTrade != true || balanceOf(snap, "BTC") != "1/0@10" || balanceOf(snap, "USDT") != "3/1@9" {
		t.Errorf("after older account snapshot: %+v %+v", snap.Account, snap.Balances)
	}
	s.ApplySnapshot(RESTSnapshot{Account: &AccountSnap{CanTrade: false, UpdateTime: 11}})
	if a := s.Snapshot().Account; a.CanTrade || a.Updated != 11 {
		t.Errorf("after newer account snapshot: %+v", a)
	}
}

// TestPending: a report with the pending clientOrderId settles it; a
// status change is kept; NOT_PLACED stays listed.
func TestPending(t *testing.T) {
	s := NewStore()
	s.AddPending(Pending{ClientOrderID: "bh-1", Symbol: "ETHBTC", Side: "BUY", Status: PendingSent, Since: 100})
	s.AddPending(Pending{ClientOrderID: "bh-2", Symbol: "ETHBTC", Side: "SELL", Status: PendingSent, Since: 50})
	s.AddPending(Pending{ClientOrderID: "bh-3", Symbol: "ETHBTC", Side: "SELL", Status: PendingSent, Since: 60})
	s.SetPendingStatus("bh-2", PendingUnknown, "HTTP 504")
	snap := s.Snapshot()
	if len(snap.Pending) != 3 || snap.Pending[0].ClientOrderID != "bh-2" || snap.Pending[0].Status != PendingUnknown || snap.Pending[0].Reason != "HTTP 504" {
		t.Fatalf("pending = %+v", snap.Pending)
	}
	r := spot("11", 10, "NEW", "0", "0")
	fold(s, []byte(string(r[:len(r)-1])+`,"c":"bh-1"}`))
	o := rec(MarketSpot, "12", 10, "FILLED", "1", "0.1")
	o.ClientOrderID = "bh-2"
	s.ApplyOrderRecord(o)
	s.SetPendingStatus("bh-3", PendingNotPlaced, "-2013 NO_SUCH_ORDER")
	snap2 := s.Snapshot()
	if len(snap2.Pending) != 1 || snap2.Pending[0].Status != PendingNotPlaced {
		t.Errorf("pending = %+v, want only bh-3 NOT_PLACED", snap2.Pending)
	}
	if len(snap.Pending) != 3 {
		t.Errorf("an earlier snapshot changed: %+v", snap.Pending)
	}
	s.AddPending(Pending{ClientOrderID: "bh-1", Status: PendingSent})
	if n := len(s.Snapshot().Pending); n != 1 {
		t.Errorf("pending = %d: an order already reported is not pending", n)
	}
}

// TestRefusedPendingStays: a send refused outright is listed as NOT_PLACED
// even when its clientOrderId is a known order's (a duplicate), and a
// later report of that order does not settle it away.
func TestRefusedPendingStays(t *testing.T) {
	s := NewStore()
	r := spot("11", 10, "NEW", "0", "0")
	dup := []byte(string(r[:len(r)-1]) + `,"c":"bh-9"}`)
	fold(s, dup)
	p := Pending{ClientOrderID: "bh-9", Symbol: "ETHBTC", Side: "BUY", Status: PendingSent, Since: 20}
	s.AddPending(p) // known order: not listed
	s.RefusePending(p, "-1141 Duplicate order sent.")
	r2 := spot("11", 30, "PARTIALLY_FILLED", "0.5", "0.05")
	fold(s, []byte(string(r2[:len(r2)-1])+`,"c":"bh-9"}`))
	got := s.Snapshot().Pending
	if len(got) != 1 || got[0].Status != PendingNotPlaced || got[0].Reason != "-1141 Duplicate order sent." || got[0].Since != 20 {
		t.Errorf("pending = %+v, want bh-9 NOT_PLACED -1141", got)
	}
	s.AddPending(Pending{ClientOrderID: "bh-8", Status: PendingSent, Since: 40})
	s.AddPending(Pending{ClientOrderID: "bh-8", Status: PendingSent, Since: 41})
	s.RefusePending(Pending{ClientOrderID: "bh-8"}, "-2010 insufficient balance")
	if got := s.Snapshot().Pending; len(got) != 2 || got[1].Since != 41 || got[1].Status != PendingNotPlaced {
		t.Errorf("pending = %+v, want bh-8 refused in place", got)
	}
}
