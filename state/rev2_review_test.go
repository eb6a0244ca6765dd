package state

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"bhtop/event"
)

// TestFillCoverOrderDroppedInItsFold: with retention 0 an order that
// closes is dropped inside its own fold (evict), before its fill is
// folded: that fill is kept while no order covers it any more, so a
// repeat of it (an update with a greater E, which makes the order again)
// must still be looked up. Against the store that looks every fill up
// (eager), by ApplyFrame and prepared apart.
func TestFillCoverOrderDroppedInItsFold(t *testing.T) {
	frames := [][]byte{
		execFill(MarketSpot, "5", 1, "1", "0.05", "1", ""), // any fill first (the book's seed set)
		filled(MarketSpot, "7", 10, "1", "0.05", "1"),      // made and dropped in one fold, its fill kept
		filled(MarketSpot, "7", 11, "1", "0.05", "1"),      // E above the tombstone's: made again, the same fill
		execFill(MarketContract, "9", 12, "1", "3000", "2", ""),
		filled(MarketContract, "9", 13, "1", "3000", "2"), // applied and dropped: a repeat of z 2
		filled(MarketContract, "9", 14, "1", "3000", "2"),
	}
	for _, prepared := range []bool{false, true} {
		for _, limit := range []int{3, 100} {
			s := NewStore(WithRetention(0), WithFillRetention(limit))
			eager := NewStore(WithRetention(0), WithFillRetention(limit))
			eager.fills.eager = true
			var d event.Decoder
			for i, f := range frames {
				if prepared {
					applyPrepared(s, &d, f, nil)
				} else {
					s.ApplyFrame(f, nil)
				}
				eager.ApplyFrame(f, nil)
				if got, want := fillsOf(s), fillsOf(eager); !reflect.DeepEqual(got, want) {
					t.Fatalf("prepared %v, fill retention %d, after %d frames: fills %+v, looked up %+v", prepared, limit, i+1, got, want)
				}
			}
			if n := len(fillsOf(s)); n != min(limit, 3) {
				t.Errorf("prepared %v, fill retention %d: %d fills, want %d", prepared, limit, n, min(limit, 3))
			}
		}
	}
}

// rev2Frame is an order event of order id in market mkt with l, L, z, t
// (t "" leaves it out) and status st, written plainly (fmt: no line
// path) or by AppendExecution (the line paths).
func rev2Frame(mkt, id string, e int64, st, l, price, z, t string, plain bool) []byte {
	if plain {
		b := execFill(mkt, id, e, l, price, z, t)
		return bytes.Replace(b, []byte("PARTIALLY_FILLED"), []byte(st), 1)
	}
	r := event.ExecutionReport{Contract: mkt == MarketContract, EventTime: e, Symbol: "ETHBTC", ClientOrderID: "c" + id, Side: "BUY",
		Type: "LIMIT", TimeInForce: "GTC", Quantity: "10", Price: price, Status: st, OrderID: id, LastQty: l, LastPrice: price,
		Commission: "0.01", CommissionAsset: "BTC", CumQty: z, CumQuote: "0", Working: true, Created: 1, TradeID: t}
	if r.Contract {
		r.Leverage = "20"
	}
	return event.AppendExecution(nil, &r, event.EncodeOptions{})
}

// TestFillCoverRandom folds random sequences that break the cover's
// argument if any can (z going down and up again, written apart, over 19
// digits, negative, zero; E going back; orders closed, dropped at once
// or by retention, forgotten while open, made again; myTrades records;
// REST snapshots of open orders; both markets with one id; ids with
// leading zeros) and compares the fills with the store that looks every
// fill up (eager) and with the events prepared apart.
func TestFillCoverRandom(t *testing.T) {
	zs := []string{"1", "1.0", "1.50", "1.5", "15e-1", "2", "2.000", "3", "0.5", "0", "0.0", "-1", "10", "1e1",
		"1.0000000000000000000001", "1.00000000000000000000", "12345678901234567890", "4", "5", "6"}
	ids := []string{"7", "8", "007", "12345678901234567890", "469961015902208007"}
	sts := []string{"NEW", "PARTIALLY_FILLED", "PARTIALLY_FILLED", "FILLED", "CANCELED"}
	n := 1000
	if testing.Short() {
		n = 300
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		ret, limit := r.IntN(3), 1+r.IntN(6)
		if r.IntN(4) == 0 {
			limit = 100
		}
		mk := func() *Store { return NewStore(WithRetention(ret), WithFillRetention(limit)) }
		s, eager, prep := mk(), mk(), mk()
		eager.fills.eager = true
		var d event.Decoder
		e := int64(100)
		var log []string
		for range 40 {
			mkt := MarketSpot
			if r.IntN(3) == 0 {
				mkt = MarketContract
			}
			id := ids[r.IntN(len(ids))]
			if r.IntN(2) == 0 {
				id = ids[r.IntN(2)]
			}
			e += int64(r.IntN(3)) - 0
			if r.IntN(6) == 0 {
				e -= int64(r.IntN(5))
			}
			switch k := r.IntN(20); {
			case k == 0: // a myTrades record
				rec := TradeSnap{Market: mkt, TradeID: strconv.Itoa(r.IntN(4)), OrderID: id, Qty: "1", Price: "0.05", Side: "BUY", Symbol: "ETHBTC"}
				log = append(log, "R "+mkt+" "+rec.TradeID+" "+id)
				for _, st := range []*Store{s, eager, prep} {
					st.ApplyTrades([]TradeSnap{rec})
				}
			case k == 1: // the order forgotten while open
				log = append(log, "forget "+mkt+" "+id)
				for _, st := range []*Store{s, eager, prep} {
					st.ForgetOpen(OrderKey{Market: mkt, OrderID: id})
				}
			case k == 2: // a REST snapshot of open orders
				z := zs[r.IntN(len(zs))]
				rec := OrderSnap{Symbol: "ETHBTC", OrderID: id, ClientOrderID: "c" + id, Price: "0.05", Quantity: "10", ExecutedQty: z,
					CumulativeQuoteQty: "0", Status: sts[r.IntN(2)], Type: "LIMIT", Side: "BUY", TimeInForce: "GTC", UpdateTime: e}
				log = append(log, "rest "+mkt+" "+id+" "+z)
				snap := RESTSnapshot{HaveSpotOrders: mkt == MarketSpot, HaveContractOrders: mkt == MarketContract}
				if mkt == MarketSpot {
					snap.SpotOpenOrders = []OrderSnap{rec}
				} else {
					snap.ContractOpenOrders = []OrderSnap{rec}
				}
				for _, st := range []*Store{s, eager, prep} {
					st.ApplySnapshot(snap)
				}
			default:
				z := zs[r.IntN(len(zs))]
				if r.IntN(3) == 0 {
					z = zs[r.IntN(6)]
				}
				tid := ""
				if r.IntN(5) == 0 {
					tid = strconv.Itoa(r.IntN(4))
				}
				l := "1"
				if r.IntN(8) == 0 {
					l = "0"
				}
				st := sts[r.IntN(len(sts))]
				f := rev2Frame(mkt, id, e, st, l, "0.05", z, tid, r.IntN(2) == 0)
				log = append(log, string(f))
				s.ApplyFrame(f, nil)
				eager.ApplyFrame(f, nil)
				applyPrepared(prep, &d, f, nil)
			}
			if r.IntN(4) == 0 {
				s.Snapshot()
				eager.Snapshot()
				prep.Snapshot()
			}
			want := fillsOf(eager)
			if got := fillsOf(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d (retention %d, fills %d): fills %+v\nlooked up %+v\nafter:\n%s", seed, ret, limit, got, want, strings.Join(log, "\n"))
			}
			if got := fillsOf(prep); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d (retention %d, fills %d): fills prepared %+v\nlooked up %+v\nafter:\n%s", seed, ret, limit, got, want, strings.Join(log, "\n"))
			}
		}
	}
}

// FuzzFillCover: FuzzFills' lines ("R market tradeId orderId qty price":
// a myTrades record; any other: a frame), and "F market orderId" (the
// order forgotten while open), folded with retention 0 and 1 (orders
// dropped in their own fold, or by the next to close) and a ring of 3
// fills: the fills are those of the store that looks every fill up
// (eager) and of the events prepared apart.
func FuzzFillCover(f *testing.F) {
	f.Add([]byte(string(execFill(MarketSpot, "5", 1, "1", "0.05", "1", "")) + "\n" + string(filled(MarketSpot, "7", 10, "1", "0.05", "1")) +
		"\n" + string(filled(MarketSpot, "7", 11, "1", "0.05", "1")) + "\nF spot 7\nR spot 3 7 1 0.05"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, ret := range []int{0, 1} {
			s, eager, prep := NewStore(WithRetention(ret), WithFillRetention(3)), NewStore(WithRetention(ret), WithFillRetention(3)), NewStore(WithRetention(ret), WithFillRetention(3))
			eager.fills.eager = true
			var d event.Decoder
			for _, line := range bytes.Split(in, []byte("\n")) {
				for _, st := range []*Store{s, eager, prep} {
					w := strings.Fields(string(line))
					switch {
					case len(w) > 0 && w[0] == "R":
						for len(w) < 6 {
							w = append(w, "")
						}
						st.ApplyTrades([]TradeSnap{{Market: w[1], TradeID: w[2], OrderID: w[3], Qty: w[4], Price: w[5]}})
					case len(w) == 3 && w[0] == "F":
						st.ForgetOpen(OrderKey{Market: w[1], OrderID: w[2]})
					case st == prep:
						applyPrepared(st, &d, line, nil)
					default:
						st.ApplyFrame(line, nil)
					}
				}
			}
			want := fillsOf(eager)
			if got := fillsOf(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("retention %d: fills %+v, looked up %+v", ret, got, want)
			}
			if got := fillsOf(prep); !reflect.DeepEqual(got, want) {
				t.Fatalf("retention %d: fills prepared apart %+v, looked up %+v", ret, got, want)
			}
		}
	})
}

// TestFillLastQtyNotDecimal: an update whose l is digits and then not a
// decimal ("1A": the decoder does not check l) makes no fill, by
// ApplyFrame as prepared apart (prepFill's positiveDecimal); one of a
// positive decimal written otherwise ("1e-5") makes one.
func TestFillLastQtyNotDecimal(t *testing.T) {
	for _, c := range []struct {
		l    string
		want int
	}{{"1A", 0}, {"1e", 0}, {"2-3", 0}, {"1.5x", 0}, {"1.", 0}, {"1e-5", 1}, {"0e5", 0}, {"-1", 0}, {"1", 1}} {
		f := execFill(MarketSpot, "7", 10, c.l, "0.05", "1", "")
		s, p := NewStore(), NewStore()
		var d event.Decoder
		s.ApplyFrame(f, nil)
		applyPrepared(p, &d, f, nil)
		if got, pgot := len(fillsOf(s)), len(fillsOf(p)); got != c.want || pgot != c.want {
			t.Errorf("l %q: %d fills, prepared apart %d, want %d", c.l, got, pgot, c.want)
		}
	}
}

// TestOrderTextsAgainstReference folds random updates of a few ids whose
// symbol, side, type, time in force and leverage are texts of 0 to 40
// bytes (mostly the order's last of the same length with one byte
// changed, often in the middle where two words meet, or the same again),
// E going back at times, by ApplyFrame, ApplyEvents and prepared apart,
// and compares the order's texts and literals after each update (a
// change missed would be mended by a later update of other lengths) with
// the update a plain reference fold keeps (rev4Newer), then the rows and
// the stats with the reference's (events, applied, stale, by type).
func TestOrderTextsAgainstReference(t *testing.T) {
	const alpha = "AB-_09az"
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		usual := [5][2]int{{4, 16}, {2, 7}, {4, 16}, {2, 7}, {2, 7}} // the lengths the words compare
		text := func(prev string, field int) string {
			if prev != "" && r.IntN(4) != 0 {
				if r.IntN(3) == 0 {
					return prev
				}
				b := []byte(prev)
				i := r.IntN(len(b))
				for c := b[i]; b[i] == c; {
					b[i] = alpha[r.IntN(len(alpha))]
				}
				return string(b)
			}
			n := r.IntN(41)
			switch u := usual[field]; r.IntN(4) {
			case 0, 1: // in the range
				n = u[0] + r.IntN(u[1]-u[0]+1)
			case 2: // at its ends, or just past them
				n = max(0, []int{u[0] - 1, u[0], u[1], u[1] + 1}[r.IntN(4)])
			}
			b := make([]byte, n)
			for i := range b {
				b[i] = alpha[r.IntN(len(alpha))]
			}
			return string(b)
		}
		stores := [3]*Store{NewStore(), NewStore(), NewStore()} // ApplyFrame, ApplyEvents, prepared
		var d, dk, dp event.Decoder
		ref := map[string]event.ExecutionReport{}
		last := map[string]*[5]string{} // each order's texts as last sent
		var events, applied, stale, byType [3]int64
		e := int64(1000)
		for range 500 {
			contract := r.IntN(2) == 0
			id := strconv.Itoa(100 + r.IntN(6))
			e += int64(r.IntN(3))
			ln := func() int { return 1 + r.IntN(40) }
			rep := event.ExecutionReport{Contract: contract, EventTime: e - int64(r.IntN(3)), Quantity: rev4Dec(r, ln()), Price: rev4Dec(r, ln()),
				Status: rev4Statuses[r.IntN(len(rev4Statuses))], OrderID: id, LastQty: "0", LastPrice: "0", Commission: "0",
				CumQty: rev4Dec(r, 1+r.IntN(3)), CumQuote: rev4Dec(r, ln()), ClientOrderID: rev4Dec(r, ln()), Created: 1}
			k := strconv.FormatBool(contract) + id
			if last[k] == nil {
				last[k] = new([5]string)
			}
			one := -1 // the one text changed (by a byte), or -1: each as text makes it
			if r.IntN(2) == 0 {
				one = r.IntN(5)
			}
			for j, p := range []*string{&rep.Symbol, &rep.Side, &rep.Type, &rep.TimeInForce, &rep.Leverage} {
				switch prev := last[k][j]; {
				case one < 0 || one == j && prev == "":
					*p = text(prev, j)
				case one == j:
					b := []byte(prev)
					i := r.IntN(len(b))
					if r.IntN(2) == 0 { // the middle, where two words meet
						i = min(len(b)-1, max(0, len(b)/2-1+r.IntN(3)))
					}
					b[i] = alpha[(strings.IndexByte(alpha, b[i])+1+r.IntN(len(alpha)-1))%len(alpha)]
					*p = string(b)
				default:
					*p = prev
				}
				last[k][j] = *p
			}
			if !contract {
				rep.Leverage = ""
			}
			f := event.AppendExecution(nil, &rep, event.EncodeOptions{Optional: r.IntN(4) == 0})
			evs := d.Decode(f)
			if len(evs) != 1 || (evs[0].Kind != event.KindExecution && evs[0].Kind != event.KindContractExecution) {
				continue // texts the decoder refuses (none expected)
			}
			stores[0].ApplyFrame(f, nil)
			dk.Reset()
			stores[1].ApplyEvents(dk.DecodeKeep(f), nil)
			applyPrepared(stores[2], &dp, f, nil)
			events[0]++
			byType[execMarket(evs[0].Kind)]++
			if old, ok := ref[k]; !ok || rev4Newer(&rep, &old) {
				ref[k] = rep
				applied[0]++
			} else {
				stale[0]++
			}
			w := ref[k] // each store's order now (a text missed is mended by a later update: look at once)
			for i, s := range stores {
				o := s.markets[execMarket(evs[0].Kind)].get([]byte(id))
				got := [...]string{o.symbol, o.side, o.typ, o.tif, o.leverage, o.status,
					string(o.lit(litPrice)), string(o.lit(litQty)), string(o.lit(litClient)), string(o.lit(litZ)), string(o.lit(litCumQuote))}
				want := [...]string{w.Symbol, w.Side, w.Type, w.TimeInForce, w.Leverage, w.Status, w.Price, w.Quantity, w.ClientOrderID, w.CumQty, w.CumQuote}
				if got != want {
					t.Fatalf("seed %d store %d: order %s after %s\n got %q\nwant %q", seed, i, k, f, got, want)
				}
			}
			if r.IntN(40) == 0 {
				for _, s := range stores {
					s.Snapshot()
				}
			}
		}
		for i, s := range stores {
			st := s.Stats()
			if st.Events != events[0] || st.Applied != applied[0] || st.Stale != stale[0] || st.ByType[1] != byType[mSpot] || st.ByType[2] != byType[mContract] {
				t.Fatalf("seed %d store %d: stats %+v, want events %d applied %d stale %d spot %d contract %d", seed, i, st,
					events[0], applied[0], stale[0], byType[mSpot], byType[mContract])
			}
			got, want := map[string][7]string{}, map[string][7]string{}
			for _, o := range s.Snapshot().Orders.All() {
				lev := ""
				if o.Leverage != nil {
					lev = *o.Leverage
				}
				got[strconv.FormatBool(o.Market == MarketContract)+o.OrderID] = [...]string{o.Symbol, o.Side, o.Type, o.TimeInForce, lev, o.Status, strconv.FormatInt(o.Updated, 10)}
			}
			for k, w := range ref {
				want[k] = [...]string{w.Symbol, w.Side, w.Type, w.TimeInForce, w.Leverage, w.Status, strconv.FormatInt(w.EventTime, 10)}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d store %d: rows %q\nwant %q", seed, i, got, want)
			}
		}
	}
}
