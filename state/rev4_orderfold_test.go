package state

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"bhtop/event"
)

// rev4Statuses are every status, the open ones repeated (runs of
// NEW→NEW and PARTIALLY_FILLED→PARTIALLY_FILLED take the status-skip).
var rev4Statuses = []string{"NEW", "PARTIALLY_FILLED", "FILLED", "CANCELED", "EXPIRED", "REJECTED", "PENDING_NEW",
	"EXPIRED_IN_MATCH", "PENDING_CANCEL", "NEW", "PARTIALLY_FILLED", "PARTIALLY_FILLED"}

// rev4Dec is a decimal literal of n ≥ 1 bytes.
func rev4Dec(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	if n > 2 && r.IntN(2) == 0 {
		b[1+r.IntN(n-2)] = '.'
	}
	return string(b)
}

// TestOrderFoldAgainstReference folds random updates of a few ids (every
// status in every order, equal E, literals of 1 to 40 bytes in each of p,
// q, z, Z and 0 to 40 in c, leverages of every length) by ApplyFrame and
// prepared apart, and compares each order with a plain reference fold:
// per id the update with the greatest (E, status rank, z), the first to
// arrive winning a tie. No retention limit: nothing is dropped.
func TestOrderFoldAgainstReference(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		r := rand.New(rand.NewPCG(seed, 4))
		s, p := NewStore(), NewStore()
		var d event.Decoder
		ref := map[string]event.ExecutionReport{}
		e := int64(1000)
		for range 600 {
			contract := r.IntN(3) == 0
			id := strconv.Itoa(100 + r.IntN(12))
			if contract {
				id = "4699610159022080" + id
			}
			if r.IntN(3) != 0 {
				e += int64(r.IntN(3))
			}
			ln := func() int { return 1 + r.IntN(40) }
			if r.IntN(2) == 0 { // mostly short: the unrolled path
				ln = func() int { return 1 + r.IntN(16) }
			}
			rep := event.ExecutionReport{Contract: contract, EventTime: e - int64(r.IntN(2)), Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT",
				TimeInForce: "GTC", Quantity: rev4Dec(r, ln()), Price: rev4Dec(r, ln()), Status: rev4Statuses[r.IntN(len(rev4Statuses))],
				OrderID: id, LastQty: "0", LastPrice: "0", Commission: "0", CumQty: rev4Dec(r, ln()), CumQuote: rev4Dec(r, ln()),
				Created: int64(r.IntN(5)), Working: r.IntN(2) == 0, Maker: r.IntN(2) == 0}
			if n := r.IntN(41); n > 0 {
				rep.ClientOrderID = rev4Dec(r, n)
			}
			if contract {
				rep.Leverage, rep.Close = rev4Dec(r, 1+r.IntN(20)), r.IntN(2) == 0
				if r.IntN(2) == 0 {
					rep.Leverage = []string{"1", "5", "10", "125"}[r.IntN(4)]
				}
			}
			f := event.AppendExecution(nil, &rep, event.EncodeOptions{})
			s.ApplyFrame(f, nil)
			applyPrepared(p, &d, f, nil)
			k := strconv.FormatBool(contract) + id
			if old, ok := ref[k]; !ok || rev4Newer(&rep, &old) {
				ref[k] = rep
			}
			if r.IntN(50) == 0 {
				s.Snapshot()
			}
		}
		for name, st := range map[string]*Store{"ApplyFrame": s, "prepared": p} {
			snap := st.Snapshot()
			rows := snap.Orders.Slice(0, snap.Orders.Len())
			if len(rows) != len(ref) {
				t.Fatalf("seed %d %s: %d orders, want %d", seed, name, len(rows), len(ref))
			}
			for _, o := range rows {
				w := ref[strconv.FormatBool(o.Market == MarketContract)+o.OrderID]
				lev := ""
				if o.Leverage != nil {
					lev = *o.Leverage
				}
				got := [...]string{o.Price, o.Quantity, o.ClientOrderID, o.ExecutedQty, o.CumulativeQuoteQty, o.Status, lev,
					strconv.FormatInt(o.Updated, 10), strconv.FormatInt(o.Created, 10), strconv.FormatBool(o.Working)}
				want := [...]string{w.Price, w.Quantity, w.ClientOrderID, w.CumQty, w.CumQuote, w.Status, w.Leverage,
					strconv.FormatInt(w.EventTime, 10), strconv.FormatInt(w.Created, 10), strconv.FormatBool(w.Working)}
				if got != want {
					t.Fatalf("seed %d %s: order %s\n got %q\nwant %q", seed, name, o.OrderID, got, want)
				}
			}
		}
	}
}

// rev4Newer is the ordering rule, written plainly: a greater E, or an
// equal E and a greater (status rank, z).
func rev4Newer(x, o *event.ExecutionReport) bool {
	if x.EventTime != o.EventTime {
		return x.EventTime > o.EventTime
	}
	rk := func(s string) int {
		switch s {
		case "NEW":
			return 0
		case "PARTIALLY_FILLED":
			return 1
		}
		return 2
	}
	if rk(x.Status) != rk(o.Status) {
		return rk(x.Status) > rk(o.Status)
	}
	return event.CompareDecimal([]byte(x.CumQty), []byte(o.CumQty)) > 0
}

// TestReusedOrderStatus: orders dropped (evicted closed, or forgotten
// while open, PARTIALLY_FILLED) are recycled, and a new id folded into
// one takes each update's status and literals, the same status twice
// (the status-skip) included, by ApplyFrame and prepared apart.
func TestReusedOrderStatus(t *testing.T) {
	for _, prepared := range []bool{false, true} {
		s := NewStore(WithRetention(1))
		var d event.Decoder
		apply := func(f []byte) {
			if prepared {
				applyPrepared(s, &d, f, nil)
			} else {
				s.ApplyFrame(f, nil)
			}
		}
		for i := range 1100 { // closed and evicted: over 1024 dropped, recycled
			id := strconv.Itoa(5000 + i)
			apply(spot(id, 10, "NEW", "0", "0"))
			apply(spot(id, 11, []string{"FILLED", "PARTIALLY_FILLED"}[i%2], "1", "0.1"))
			if i%2 == 1 {
				s.ForgetOpen(OrderKey{Market: MarketSpot, OrderID: id})
			}
		}
		s.Snapshot()
		if len(s.free) == 0 {
			t.Fatal("no dropped order to reuse")
		}
		steps := [][]string{{"NEW", "NEW"}, {"PARTIALLY_FILLED", "PARTIALLY_FILLED"}, {"NEW", "PARTIALLY_FILLED", "PARTIALLY_FILLED"},
			{"PARTIALLY_FILLED"}, {"NEW"}, {"PENDING_NEW", "NEW", "NEW"}, {"NEW", "EXPIRED_IN_MATCH"}}
		for j, st := range steps {
			id := strconv.Itoa(90000 + j)
			free := len(s.free)
			for k, status := range st {
				z := strconv.Itoa(k) + ".5"
				apply(spot(id, int64(100+k), status, z, z+"7"))
			}
			if j < 5 && len(s.free) != free-1 {
				t.Fatalf("%v: free %d → %d, want one reused", st, free, len(s.free))
			}
			snap := s.Snapshot()
			var o *Order
			for _, row := range snap.Orders.Slice(0, snap.Orders.Len()) {
				if row.OrderID == id {
					o = row
				}
			}
			last := len(st) - 1
			if z := strconv.Itoa(last) + ".5"; o == nil || o.Status != st[last] || o.ExecutedQty != z || o.CumulativeQuoteQty != z+"7" || o.ClientOrderID != "c"+id {
				t.Fatalf("prepared %v, %v: order %+v", prepared, st, o)
			}
		}
	}
}

// TestStatusRuns: a new order's status runs (the same open status again
// skips setting it), by ApplyFrame and prepared apart, in both markets.
func TestStatusRuns(t *testing.T) {
	for _, st := range [][]string{{"NEW"}, {"PARTIALLY_FILLED"}, {"NEW", "NEW"}, {"PARTIALLY_FILLED", "PARTIALLY_FILLED"},
		{"NEW", "PARTIALLY_FILLED", "PARTIALLY_FILLED"}, {"PENDING_NEW", "NEW"}, {"NEW", "PENDING_CANCEL"},
		{"EXPIRED_IN_MATCH", "EXPIRED"}, {"PARTIALLY_FILLED", "FILLED"}} {
		for _, mk := range []func(string, int64, string, string, string) []byte{spot, contract} {
			var frames []string
			for k, status := range st {
				frames = append(frames, string(mk("7", int64(10+k), status, strconv.Itoa(k), "1")))
			}
			for _, prepared := range []bool{false, true} {
				s := NewStore()
				var d event.Decoder
				for _, f := range frames {
					if prepared {
						applyPrepared(s, &d, []byte(f), nil)
					} else {
						s.ApplyFrame([]byte(f), nil)
					}
				}
				snap := s.Snapshot()
				if snap.Orders.Len() != 1 || snap.Orders.Slice(0, 1)[0].Status != st[len(st)-1] {
					t.Fatalf("prepared %v, %v: %+v", prepared, st, snap.Orders.Slice(0, snap.Orders.Len()))
				}
			}
		}
	}
}
