package state

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"bhtop/event"
)

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
			snap := s.Snapshot()
			rows := snap.Orders.Slice(0, snap.Orders.Len())
			if len(rows) != len(ref) {
				t.Fatalf("seed %d store %d: %d orders, want %d", seed, i, len(rows), len(ref))
			}
			for _, o := range rows {
				w := ref[strconv.FormatBool(o.Market == MarketContract)+o.OrderID]
				lev := ""
				if o.Leverage != nil {
					lev = *o.Leverage
				}
				got := [...]string{o.Symbol, o.Side, o.Type, o.TimeInForce, lev, o.Status, strconv.FormatInt(o.Updated, 10)}
				want := [...]string{w.Symbol, w.Side, w.Type, w.TimeInForce, w.Leverage, w.Status, strconv.FormatInt(w.EventTime, 10)}
				if got != want {
					t.Fatalf("seed %d store %d: order %s %s\n got %q\nwant %q", seed, i, o.Market, o.OrderID, got, want)
				}
			}
		}
	}
}
