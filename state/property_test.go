package state

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"bhtop/event"
	"bhtop/gen"
)

// propertyEvents returns event objects, in E order, whose final state does
// not depend on delivery order: each order's updates are strictly
// increasing in (E, status rank, z), account events have distinct E, and
// each position key gets one event (positions are last-arrival-wins).
func propertyEvents(r *rand.Rand, orders int) [][]byte {
	var out [][]byte
	e := int64(1_000)
	for i := 0; i < orders; i++ {
		contract := r.IntN(3) == 0
		id := strconv.Itoa(4293153 + i)
		if contract {
			id = "4699610159022080" + strconv.Itoa(10+i)
		}
		rep := event.ExecutionReport{Contract: contract, Symbol: "ETHBTC", ClientOrderID: "c" + id, Side: "BUY", Type: "LIMIT",
			TimeInForce: "GTC", Quantity: "100", Price: "0.25", OrderID: id, LastQty: "0", LastPrice: "0", Commission: "0",
			Created: e, Leverage: "5"}
		filled := 0
		steps := 1 + r.IntN(5)
		for k := 0; k < steps; k++ {
			if r.IntN(3) != 0 { // else: same E, further along
				e += 1 + r.Int64N(3)
			}
			rep.EventTime = e
			switch {
			case k == 0:
				rep.Status = "NEW"
			case k == steps-1 && r.IntN(2) == 0:
				rep.Status = []string{"FILLED", "CANCELED", "EXPIRED"}[r.IntN(3)]
			default:
				rep.Status = "PARTIALLY_FILLED"
				filled += 1 + r.IntN(10)
			}
			if rep.Status == "FILLED" {
				filled = 100
			}
			rep.CumQty = strconv.Itoa(filled)
			rep.CumQuote = strconv.Itoa(filled) + ".5"
			rep.Maker = r.IntN(2) == 0
			rep.Working = r.IntN(5) != 0
			rep.Close = r.IntN(2) == 0
			out = append(out, event.AppendExecution(nil, &rep, event.EncodeOptions{Optional: r.IntN(4) == 0}))
		}
		if r.IntN(4) == 0 {
			e++
			a := event.AccountInfo{EventTime: e, CanTrade: r.IntN(2) == 0, CanWithdraw: true, CanDeposit: r.IntN(2) == 0}
			for _, asset := range []string{"BTC", "ETH", "USDT"}[:1+r.IntN(3)] {
				a.Balances = append(a.Balances, event.BalanceChange{Asset: asset, Free: strconv.Itoa(r.IntN(1000)), Locked: "0"})
			}
			out = append(out, event.AppendAccount(nil, &a, event.EncodeOptions{}))
		}
	}
	for _, sym := range []string{"BTC-PERP-REV", "ETH-PERP-REV"} {
		for _, side := range []string{"LONG", "SHORT"} {
			out = append(out, pos("1", sym, side, strconv.Itoa(r.IntN(3))))
		}
	}
	return out
}

// deliver shuffles objs, duplicates some, and packs some into arrays,
// adding heartbeats and malformed frames that must change nothing.
func deliver(r *rand.Rand, objs [][]byte) [][]byte {
	d := append([][]byte(nil), objs...)
	for i := range objs {
		if r.IntN(5) == 0 {
			d = append(d, objs[i])
		}
	}
	r.Shuffle(len(d), func(i, j int) { d[i], d[j] = d[j], d[i] })
	var frames [][]byte
	for i := 0; i < len(d); {
		n := 1 + r.IntN(3)*r.IntN(2)
		n = min(n, len(d)-i)
		if n == 1 {
			frames = append(frames, d[i])
		} else {
			f := []byte{'['}
			for k := 0; k < n; k++ {
				f = append(append(f, d[i+k]...), ',')
			}
			frames = append(frames, append(f, `{"ping":1},7]`...))
		}
		i += n
		if r.IntN(20) == 0 {
			frames = append(frames, []byte(`{"e":"executionReport","E":1}`))
		}
	}
	return frames
}

func finalState(s *Store) Snapshot {
	snap := flatRows(*s.Snapshot())
	snap.Version, snap.Stats, snap.LastEventTime = 0, Stats{}, 0
	return snap
}

// flatRows returns snap with its order rows in full chunks, as a
// snapshot built at once would hold them, so that reflect.DeepEqual
// compares rows, not how the chunks came to be.
func flatRows(snap Snapshot) Snapshot {
	snap.Orders = NewOrderRows(snap.Orders.Slice(0, snap.Orders.Len())...)
	return snap
}

// TestAnyDeliveryOrder: every delivery order of the same events, with
// duplicates, folds to the state of in-order delivery.
func TestAnyDeliveryOrder(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		objs := propertyEvents(r, 60)
		want := finalState(fold(NewStore(), objs...))
		for k := 0; k < 10; k++ {
			s := NewStore()
			for i, f := range deliver(r, objs) {
				s.ApplyFrame(f, nil)
				if k%2 == 1 && i%7 == 0 {
					s.Snapshot() // snapshots in between reuse rows: same result
				}
			}
			st := s.Stats()
			if st.Events != st.Applied+st.Stale {
				t.Fatalf("seed %d: stats %+v", seed, st)
			}
			if got := finalState(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d permutation %d: state differs from in-order delivery\n got %+v\nwant %+v", seed, k, got, want)
			}
		}
	}
}

// TestSnapshotReuseMatchesRebuild: snapshots taken along the way (which
// reuse rows and recycle dropped orders) end in the same state as one
// snapshot at the end, with a small retention so orders are dropped.
func TestSnapshotReuseMatchesRebuild(t *testing.T) {
	frames := gen.Frames(gen.Options{Events: 20000, Seed: 9, OpenOrders: 50})
	a, b := NewStore(WithRetention(30)), NewStore(WithRetention(30))
	for i, f := range frames {
		a.ApplyFrame(f.Data, nil)
		b.ApplyFrame(f.Data, nil)
		if i%13 == 0 {
			a.Snapshot()
		}
	}
	sa, sb := flatRows(*a.Snapshot()), flatRows(*b.Snapshot())
	sa.Version, sb.Version = 0, 0
	if !reflect.DeepEqual(sa, sb) {
		t.Errorf("state with snapshots along the way differs from one snapshot at the end")
	}
	if sa.Orders.Len() > 30+50+5 {
		t.Errorf("orders = %d, want retention to bound them", sa.Orders.Len())
	}
}
