package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"bhtop/event"
)

// spot returns an executionReport frame for order id at time e.
func spot(id string, e int64, status, z, cumQuote string) []byte {
	r := event.ExecutionReport{EventTime: e, Symbol: "ETHBTC", ClientOrderID: "c" + id, Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "1", Price: "0.1", Status: status, OrderID: id, LastQty: "0", CumQty: z,
		LastPrice: "0", Commission: "0", Working: true, Created: 1, CumQuote: cumQuote}
	return event.AppendExecution(nil, &r, event.EncodeOptions{})
}

func contract(id string, e int64, status, z, cumQuote string) []byte {
	r := event.ExecutionReport{Contract: true, EventTime: e, Symbol: "BTC-PERP-REV", ClientOrderID: "k" + id, Side: "SELL",
		Type: "LIMIT", TimeInForce: "IOC", Quantity: "10", Price: "8000", Status: status, OrderID: id, LastQty: "0",
		CumQty: z, LastPrice: "0", Commission: "0", CommissionAsset: "BTC", Working: true, Created: 1, CumQuote: cumQuote,
		Close: true, Leverage: "20"}
	return event.AppendExecution(nil, &r, event.EncodeOptions{})
}

func fold(s *Store, frames ...[]byte) *Store {
	for _, f := range frames {
		s.ApplyFrame(f, nil)
	}
	return s
}

func findOrder(snap *Snapshot, market, id string) *Order {
	for _, o := range snap.Orders.All() {
		if o.Market == market && o.OrderID == id {
			return o
		}
	}
	return nil
}

// TestOrderingRules walks every branch of the order rule: no earlier
// update, greater E, smaller E, equal E with a greater or smaller rank,
// equal E and rank with a greater, equal or smaller z.
func TestOrderingRules(t *testing.T) {
	cases := []struct {
		name       string
		frames     [][]byte
		wantStatus string
		wantZ      string
		applied    int64
		stale      int64
	}{
		{"first update applies", [][]byte{spot("1", 10, "NEW", "0", "0")}, "NEW", "0", 1, 0},
		{"greater E applies", [][]byte{spot("1", 10, "NEW", "0", "0"), spot("1", 11, "PARTIALLY_FILLED", "0.5", "0.05")}, "PARTIALLY_FILLED", "0.5", 2, 0},
		{"greater E applies even going back in rank", [][]byte{spot("1", 10, "FILLED", "1", "0.1"), spot("1", 11, "NEW", "0", "0")}, "NEW", "0", 2, 0},
		{"smaller E is stale", [][]byte{spot("1", 11, "PARTIALLY_FILLED", "0.5", "0.05"), spot("1", 10, "NEW", "0", "0")}, "PARTIALLY_FILLED", "0.5", 1, 1},
		{"smaller E stale even if further along", [][]byte{spot("1", 11, "NEW", "0", "0"), spot("1", 10, "FILLED", "1", "0.1")}, "NEW", "0", 1, 1},
		{"equal E greater rank applies", [][]byte{spot("1", 10, "NEW", "0", "0"), spot("1", 10, "FILLED", "1", "0.1")}, "FILLED", "1", 2, 0},
		{"equal E smaller rank is stale", [][]byte{spot("1", 10, "FILLED", "1", "0.1"), spot("1", 10, "PARTIALLY_FILLED", "0.5", "0.05")}, "FILLED", "1", 1, 1},
		{"equal E rank greater z applies", [][]byte{spot("1", 10, "PARTIALLY_FILLED", "0.5", "0.05"), spot("1", 10, "PARTIALLY_FILLED", "0.7", "0.07")}, "PARTIALLY_FILLED", "0.7", 2, 0},
		{"equal E rank smaller z is stale", [][]byte{spot("1", 10, "PARTIALLY_FILLED", "0.7", "0.07"), spot("1", 10, "PARTIALLY_FILLED", "0.5", "0.05")}, "PARTIALLY_FILLED", "0.7", 1, 1},
		{"duplicate is stale", [][]byte{spot("1", 10, "NEW", "0", "0"), spot("1", 10, "NEW", "0", "0")}, "NEW", "0", 1, 1},
		{"equal z by value is stale", [][]byte{spot("1", 10, "PARTIALLY_FILLED", "0.5", "0.05"), spot("1", 10, "PARTIALLY_FILLED", "0.50", "0.050")}, "PARTIALLY_FILLED", "0.5", 1, 1},
		{"z compared by value not text", [][]byte{spot("1", 10, "PARTIALLY_FILLED", "9", "0.9"), spot("1", 10, "PARTIALLY_FILLED", "10", "1")}, "PARTIALLY_FILLED", "10", 2, 0},
		{"canceled ranks with filled", [][]byte{spot("1", 10, "FILLED", "1", "0.1"), spot("1", 10, "CANCELED", "1", "0.1")}, "FILLED", "1", 1, 1},
		{"unknown status ranks 2", [][]byte{spot("1", 10, "PARTIALLY_FILLED", "1", "0.1"), spot("1", 10, "EXPIRED", "1", "0.1")}, "EXPIRED", "1", 2, 0},
		{"rejected ranks 2 over new", [][]byte{spot("1", 10, "NEW", "0", "0"), spot("1", 10, "REJECTED", "0", "0")}, "REJECTED", "0", 2, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := fold(NewStore(), c.frames...)
			o := findOrder(s.Snapshot(), MarketSpot, "1")
			st := s.Stats()
			if o == nil || o.Status != c.wantStatus || o.ExecutedQty != c.wantZ || st.Applied != c.applied || st.Stale != c.stale {
				t.Errorf("fold = %+v stats %+v, want status %s z %s applied %d stale %d", o, st, c.wantStatus, c.wantZ, c.applied, c.stale)
			}
			if st.Events != st.Applied+st.Stale {
				t.Errorf("events %d != applied %d + stale %d", st.Events, st.Applied, st.Stale)
			}
		})
	}
}

// TestMarketsAreSeparate: the same orderId in spot and contract are two
// orders; contract rows carry leverage and close, spot rows null.
func TestMarketsAreSeparate(t *testing.T) {
	s := fold(NewStore(), spot("469961015902208000", 5, "NEW", "0", "0"), contract("469961015902208000", 4, "FILLED", "10", "80000"))
	snap := s.Snapshot()
	if snap.Orders.Len() != 2 || snap.Orders.At(0).Market != MarketContract || snap.Orders.At(1).Market != MarketSpot {
		t.Fatalf("orders = %+v", snap.Orders)
	}
	c, sp := snap.Orders.At(0), snap.Orders.At(1)
	if c.Leverage == nil || *c.Leverage != "20" || c.Close == nil || !*c.Close || c.AvgPrice == nil || *c.AvgPrice != "8000" {
		t.Errorf("contract row = %+v", c)
	}
	if sp.Leverage != nil || sp.Close != nil || sp.AvgPrice != nil {
		t.Errorf("spot row = %+v, want null leverage, close and avgPrice", sp)
	}
}

func TestOrdersSortedByNumericID(t *testing.T) {
	ids := []string{"100", "9", "469961015902208000", "9007199254740993", "10", "123456789012345678901234567890"}
	s := NewStore()
	for _, id := range ids {
		fold(s, spot(id, 1, "NEW", "0", "0"))
	}
	var got []string
	for _, o := range s.Snapshot().Orders.All() {
		got = append(got, o.OrderID)
	}
	want := []string{"9", "10", "100", "9007199254740993", "469961015902208000", "123456789012345678901234567890"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order ids = %v, want %v", got, want)
	}
	// added between snapshots: merged in order
	fold(s, spot("50", 1, "NEW", "0", "0"), contract("1", 1, "NEW", "0", "0"))
	got = got[:0]
	for _, o := range s.Snapshot().Orders.All() {
		got = append(got, o.Market+":"+o.OrderID)
	}
	if got[0] != "contract:1" || got[3] != "spot:50" || len(got) != 8 {
		t.Errorf("after adding = %v", got)
	}
}

// TestRetention: beyond the limit the earliest-closed order is dropped
// (both markets together), leaving a tombstone; a late update of it is
// stale, a newer one applies.
func TestRetention(t *testing.T) {
	s := NewStore(WithRetention(2))
	fold(s,
		spot("1", 10, "NEW", "0", "0"),
		spot("2", 10, "NEW", "0", "0"),
		contract("3", 10, "CANCELED", "0", "0"), // closes first
		spot("2", 11, "FILLED", "1", "0.1"),     // closes second
		spot("1", 12, "CANCELED", "0", "0"),     // closes third: 3 is dropped
	)
	snap := s.Snapshot()
	if findOrder(snap, MarketContract, "3") != nil || snap.Orders.Len() != 2 {
		t.Fatalf("orders after retention = %+v, want 1 and 2 only", snap.Orders)
	}
	fold(s, contract("3", 10, "NEW", "0", "0"))
	if st := s.Stats(); st.Stale != 1 || findOrder(s.Snapshot(), MarketContract, "3") != nil {
		t.Errorf("late update of a dropped order: stats %+v, want stale (no phantom)", st)
	}
	fold(s, contract("3", 9, "FILLED", "10", "1"))
	if st := s.Stats(); st.Stale != 2 {
		t.Errorf("older update of a dropped order: stats %+v, want stale", st)
	}
	fold(s, contract("3", 11, "NEW", "0", "0"))
	if o := findOrder(s.Snapshot(), MarketContract, "3"); o == nil || o.Status != "NEW" {
		t.Errorf("newer update of a dropped order = %+v, want it applied", o)
	}
}

// TestRetentionClosesTwice: an order closing twice keeps its place from
// the first closing; a reopened order is never dropped while open.
func TestRetentionClosesTwice(t *testing.T) {
	s := NewStore(WithRetention(2))
	fold(s,
		spot("1", 10, "FILLED", "1", "0.1"), // first closed
		spot("2", 10, "FILLED", "1", "0.1"),
		spot("1", 11, "CANCELED", "1", "0.1"), // closes again: keeps first place
		spot("3", 12, "FILLED", "1", "0.1"),   // drops 1
	)
	snap := s.Snapshot()
	if findOrder(snap, MarketSpot, "1") != nil || findOrder(snap, MarketSpot, "2") == nil {
		t.Fatalf("orders = %+v, want 1 dropped", snap.Orders)
	}
	fold(s,
		spot("2", 11, "NEW", "0", "0"),      // reopened (odd, but the rules allow it)
		spot("4", 12, "FILLED", "1", "0.1"), // closed: 3 and 4
		spot("5", 12, "FILLED", "1", "0.1"), // 2 heads the list but is open: 3 is dropped
	)
	snap = s.Snapshot()
	var ids []string
	for _, o := range snap.Orders.All() {
		ids = append(ids, o.OrderID)
	}
	if fmt.Sprint(ids) != "[2 4 5]" {
		t.Errorf("orders = %v, want [2 4 5]", ids)
	}
	fold(s, spot("2", 13, "FILLED", "1", "0.1")) // closes again at its first place: dropped first
	ids = ids[:0]
	for _, o := range s.Snapshot().Orders.All() {
		ids = append(ids, o.OrderID)
	}
	if fmt.Sprint(ids) != "[4 5]" {
		t.Errorf("orders = %v, want [4 5]", ids)
	}
}

func TestTombstoneRing(t *testing.T) {
	s := NewStore(WithRetention(0), WithTombstones(0))
	if s.tombCap != MinTombstones {
		t.Fatalf("tombCap = %d, want %d", s.tombCap, MinTombstones)
	}
	s.tombCap = 3 // shrink for the test
	for i := 1; i <= 5; i++ {
		fold(s, spot(strconv.Itoa(i), 10, "FILLED", "1", "0.1"))
	}
	if n := s.markets[mSpot].tomb.len(); n != 3 {
		t.Errorf("tombstones = %d, want 3", n)
	}
	fold(s, spot("1", 10, "FILLED", "1", "0.1"), spot("5", 10, "FILLED", "1", "0.1"))
	if st := s.Stats(); st.Applied != 6 || st.Stale != 1 {
		t.Errorf("stats = %+v: a forgotten tombstone lets 1 back, 5 is stale", st)
	}
}

func TestAvgPrice(t *testing.T) {
	cases := []struct{ quote, qty, want string }{
		{"0.05132205", "0.5", "0.1026441"},
		{"1", "3", "0.3333333333333333333333"},
		{"2", "3", "0.6666666666666666666667"},
		{"0", "5", "0"},
		{"5", "0", "null"},
		{"5", "0.000", "null"},
		{"-1", "3", "-0.3333333333333333333333"},
		{"1e3", "1e-2", "100000"},
		{"81831.1", "10", "8183.11"},
		{"1", "7e40", "0.00000000000000000000000000000000000000001428571428571428571429"},
		{"1", "7e60", "1.428571428571428571429E-61"},
		{"123456789012345678901234567890", "1", "123456789012345678901234567890"},
	}
	for _, c := range cases {
		got := "null"
		if p := AvgPrice(c.quote, c.qty); p != nil {
			got = *p
		}
		if got != c.want {
			t.Errorf("AvgPrice(%s, %s) = %s, want %s", c.quote, c.qty, got, c.want)
		}
	}
}

// TestForgetOpen: an open order the service no longer knows is dropped
// (with its row, also when reopened from the retention list) and leaves
// a tombstone: an update no newer is stale, a newer one applies as for
// an evicted order. A closed order is not dropped; the dump stays valid.
func TestForgetOpen(t *testing.T) {
	s := NewStore(WithRetention(10))
	fold(s,
		spot("7", 100, "NEW", "0", "0"),
		spot("8", 100, "FILLED", "1", "0.1"),
		spot("9", 100, "FILLED", "1", "0.1"),
		spot("9", 101, "NEW", "0", "0"), // reopened: in the retention list, open
	)
	_ = s.Snapshot() // the rows are shown: dropping must delete them
	for _, id := range []string{"7", "9"} {
		if !s.ForgetOpen(OrderKey{Market: MarketSpot, OrderID: id}) {
			t.Fatalf("ForgetOpen(%s) = false, want an open order dropped", id)
		}
	}
	if s.ForgetOpen(OrderKey{Market: MarketSpot, OrderID: "8"}) || s.ForgetOpen(OrderKey{Market: MarketSpot, OrderID: "7"}) ||
		s.ForgetOpen(OrderKey{Market: MarketContract, OrderID: "8"}) {
		t.Error("ForgetOpen of a closed, dropped or unknown order = true, want false")
	}
	snap := s.Snapshot()
	if findOrder(snap, MarketSpot, "7") != nil || findOrder(snap, MarketSpot, "9") != nil || findOrder(snap, MarketSpot, "8") == nil {
		t.Fatalf("orders = %+v, want 7 and 9 dropped, 8 kept", snap.Orders.All())
	}
	var buf bytes.Buffer
	if err := s.Dump(&buf); err != nil || !json.Valid(buf.Bytes()) || bytes.Contains(buf.Bytes(), []byte(`"7"`)) {
		t.Errorf("dump after ForgetOpen: err %v, valid %v:\n%s", err, json.Valid(buf.Bytes()), buf.Bytes())
	}
	before := s.Stats()
	fold(s, spot("7", 100, "PARTIALLY_FILLED", "0.5", "0.05"))
	if findOrder(s.Snapshot(), MarketSpot, "7") != nil || s.Stats().Stale != before.Stale+1 {
		t.Error("an update of a forgotten order no newer than its last: applied, want stale")
	}
	fold(s, spot("7", 102, "CANCELED", "0", "0"))
	if o := findOrder(s.Snapshot(), MarketSpot, "7"); o == nil || o.Status != "CANCELED" {
		t.Errorf("a newer update of a forgotten order = %+v, want it applied", o)
	}
	// Retention still counts right: 8 and 7 closed, then 8 more closings keep 10.
	for i := range 9 {
		fold(s, spot(strconv.Itoa(20+i), 103, "FILLED", "1", "0.1"))
	}
	if n := s.Snapshot().Orders.Len(); n != 10 {
		t.Errorf("orders kept = %d, want the retention (10)", n)
	}
}
