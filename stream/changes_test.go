package stream

import (
	"slices"
	"strings"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
	"bhtop/state"
)

func order(market, id, status, executed string) *state.Order {
	return &state.Order{Market: market, Symbol: "ETHUSDT", OrderID: id, Side: "BUY", Type: "LIMIT",
		Price: "3000", Quantity: "1", ExecutedQty: executed, Status: status}
}

func withAvg(o *state.Order, avg string) *state.Order {
	o.AvgPrice = &avg
	return o
}

// TestOrderNotes: comparing a snapshot's orders with the previous one's
// (a side-by-side walk in dump order) notes new orders, fills, cancels and
// rejects, and nothing for orders that did not change or were dropped.
func TestOrderNotes(t *testing.T) {
	base := []*state.Order{
		order("contract", "9", "NEW", "0"),
		order("contract", "10", "NEW", "0"),
		order("spot", "5", "NEW", "0"),
		order("spot", "100", "PARTIALLY_FILLED", "0.5"),
	}
	tests := []struct {
		name string
		next []*state.Order
		want []string // one substring per note, in order
	}{
		{"nothing changed", base, nil},
		{"a fill", []*state.Order{base[0], base[1], base[2], order("spot", "100", "FILLED", "1")},
			[]string{"fill BUY 1 ETHUSDT LIMIT @ 3000 (order 100): executed 1, FILLED"}},
		// QA: a marketable order filled below its limit read "fill BUY 4
		// BTC-PERP-REV LIMIT @ 64296.5 … executed 4", as if filled at its
		// limit; the note now says the average price it filled at.
		{"a fill below the limit", []*state.Order{base[0], base[1], base[2], withAvg(order("spot", "100", "FILLED", "1"), "2990.5")},
			[]string{"fill BUY 1 ETHUSDT LIMIT @ 3000 (order 100): executed 1 at avg 2990.5, FILLED"}},
		// An average that does not divide evenly read "at avg
		// 100.333333333333333333": it is rounded for reading (the dump's
		// avgPrice keeps every digit), to the price's decimals + 2 and at
		// least 8 significant digits.
		{"an inexact average", []*state.Order{base[0], base[1], base[2], withAvg(order("spot", "100", "FILLED", "3"), "100.333333333333333333")},
			[]string{"executed 3 at avg 100.33333, FILLED"}},
		{"a small inexact average", []*state.Order{base[0], base[1], base[2], withAvg(order("spot", "100", "FILLED", "3"), "0.0001234566666666666666667")},
			[]string{"executed 3 at avg 0.00012345667, FILLED"}},
		{"an exact average", []*state.Order{base[0], base[1], base[2], withAvg(order("spot", "100", "FILLED", "3"), "2990.25")},
			[]string{"executed 3 at avg 2990.25, FILLED"}},
		{"a cancel and a reject", []*state.Order{order("contract", "9", "CANCELED", "0"), base[1], order("spot", "5", "REJECTED", "0"), base[3]},
			[]string{"cancelled BUY 1 ETHUSDT LIMIT @ 3000 (order 9)", "rejected BUY 1 ETHUSDT LIMIT @ 3000 (order 5)"}},
		{"new orders between and after known ones", []*state.Order{base[0], order("contract", "11", "NEW", "0"), base[2], order("spot", "99", "NEW", "0"), base[3], order("spot", "1000", "NEW", "0")},
			[]string{"(order 11)", "(order 99)", "(order 1000)"}},
		{"dropped orders make no note", []*state.Order{base[1], base[3]}, nil},
		{"a known id in the other market is new", []*state.Order{base[0], base[1], base[2], order("spot", "10", "NEW", "0"), base[3]},
			[]string{"new BUY 1 ETHUSDT LIMIT @ 3000 (order 10)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(Config{REST: rest.New("http://127.0.0.1:1"), WSURL: "ws://127.0.0.1:1",
				Clock: clock.NewFake(time.Unix(1700000000, 0))})
			if err != nil {
				t.Fatal(err)
			}
			s.notePublished(&state.Snapshot{Orders: state.NewOrderRows(base...)})
			_, seq := s.notes.Since(0)
			s.notePublished(&state.Snapshot{Orders: state.NewOrderRows(tt.next...)})
			notes, _ := s.notes.Since(seq)
			var got []string
			for _, n := range notes {
				got = append(got, n.Text)
			}
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.Contains(got[i], tt.want[i])
			}
			if !ok {
				t.Errorf("notes(%s) = %q, want %q", tt.name, got, tt.want)
			}
			if !slices.Equal(s.prevOrders.Slice(0, s.prevOrders.Len()), tt.next) {
				t.Errorf("baseline after the comparison = %v, want the new orders", s.prevOrders)
			}
		})
	}
}

// TestPublishGap: eager publishing waits PublishEvery/10, or twenty times
// the last snapshot's cost when that is longer, and PublishEvery at most.
func TestPublishGap(t *testing.T) {
	tests := []struct {
		cost, want time.Duration
	}{
		{0, 5 * time.Millisecond},
		{100 * time.Microsecond, 5 * time.Millisecond},
		{time.Millisecond, 20 * time.Millisecond},
		{2 * time.Millisecond, 40 * time.Millisecond},
		{5 * time.Millisecond, 50 * time.Millisecond},
		{time.Second, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.cost.String(), func(t *testing.T) {
			s := &Session{cfg: Config{PublishEvery: 50 * time.Millisecond}}
			w := &writer{s: s, snapCost: tt.cost}
			if got := w.publishGap(); got != tt.want {
				t.Errorf("publishGap(cost %v) = %v, want %v", tt.cost, got, tt.want)
			}
		})
	}
}
