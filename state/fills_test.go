package state

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"bhtop/event"
	"bhtop/gen"
	"bhtop/internal/testkit"

	"github.com/shopspring/decimal"
)

// execFill is an order event reporting one execution: l at L, z after it,
// with trade id t (t "" leaves the field out, "-1" is "no trade").
func execFill(mkt, id string, e int64, l, price, z, t string) []byte {
	tf := ""
	if t != "" {
		tf = `,"t":` + t
	}
	if mkt == MarketContract {
		return fmt.Appendf(nil, `{"e":"contractExecutionReport","E":"%d","s":"ETH-PERP","c":"k%s","S":"BUY","o":"LIMIT","f":"GTC","q":"10","p":"%s","X":"PARTIALLY_FILLED","i":"%s","l":"%s","z":"%s","L":"%s","n":"0.01","N":"USDT","w":true,"m":true,"O":"1","Z":"0","C":false,"v":"10"%s}`,
			e, id, price, id, l, z, price, tf)
	}
	return fmt.Appendf(nil, `{"e":"executionReport","E":%d,"s":"ETHBTC","c":"c%s","S":"SELL","o":"LIMIT","f":"GTC","q":"10","p":"%s","X":"PARTIALLY_FILLED","i":%s,"l":"%s","z":"%s","L":"%s","n":"0.0001","N":"BTC","w":true,"m":false,"O":1,"Z":"0"%s}`,
		e, id, price, id, l, z, price, tf)
}

func fillsOf(s *Store) []Fill { return s.Snapshot().Fills }

func TestFillsFromEvents(t *testing.T) {
	s := fold(NewStore(),
		execFill(MarketSpot, "7", 10, "0", "0.05", "0", ""),          // l = 0: no fill
		execFill(MarketSpot, "7", 11, "2", "0.05", "2", "101"),       // fill 101
		execFill(MarketSpot, "7", 11, "2", "0.05", "2", "101"),       // duplicate delivery
		execFill(MarketSpot, "7", 13, "3", "0.051", "5", "103"),      // fill 103
		execFill(MarketSpot, "7", 12, "1", "0.05", "3", "102"),       // out of order: still a fill
		execFill(MarketContract, "7", 12, "1.5", "3000", "1.5", ""),  // no t: keyed by z
		execFill(MarketContract, "7", 12, "1.5", "3000", "1.50", ""), // same z by value: the same fill
		execFill(MarketContract, "7", 14, "1", "3000", "2.5", "-1"),  // t -1: no trade id
	)
	fills := fillsOf(s)
	if len(fills) != 5 {
		t.Fatalf("fills = %+v, want 5", fills)
	}
	want := []string{"101", "102", "", "103", ""} // time, then tradeId (ids before none)
	for i, f := range fills {
		if f.TradeID != want[i] {
			t.Errorf("fills[%d].tradeId = %q, want %q (%+v)", i, f.TradeID, want[i], f)
		}
	}
	spotSum := decimal.Zero
	for _, f := range fills {
		if f.Market == MarketSpot {
			spotSum = spotSum.Add(decimal.RequireFromString(f.Qty))
		}
	}
	if !spotSum.Equal(decimal.RequireFromString("6")) {
		t.Errorf("spot fills sum to %s, want 6", spotSum)
	}
	f := fills[3]
	if f.Market != MarketSpot || f.Side != "SELL" || f.Price != "0.051" || f.QuoteQty != "0.153" ||
		f.Commission != "0.0001" || f.CommissionAsset != "BTC" || f.Maker || f.Time != 13 || f.Symbol != "ETHBTC" {
		t.Errorf("fill 103 = %+v", f)
	}
	if c := fills[2]; c.Market != MarketContract || !c.Maker || c.CommissionAsset != "USDT" || c.QuoteQty != "4500" {
		t.Errorf("contract fill = %+v", c)
	}
}

func TestFillsEventAndRecordAreOne(t *testing.T) {
	s := NewStore()
	// A record first, then its event (with t), then the record again.
	rec := TradeSnap{Market: MarketSpot, Symbol: "ETHBTC", TradeID: "101", OrderID: "7", Side: "SELL", Price: "0.05",
		Qty: "2", Commission: "0.0001", CommissionAsset: "BTC", MakerKnown: true, Time: 11}
	s.ApplyTrades([]TradeSnap{rec})
	fold(s, execFill(MarketSpot, "7", 11, "2", "0.05", "2", "101"))
	s.ApplyTrades([]TradeSnap{rec})
	// An event without t, then the record of it (same order, qty, price).
	fold(s, execFill(MarketContract, "9", 20, "1", "3000", "1", ""))
	s.ApplyTrades([]TradeSnap{{Market: MarketContract, Symbol: "ETH-PERP", TradeID: "555", OrderID: "9", Side: "BUY",
		Price: "3000.0", Qty: "1.0", Commission: "0.3", CommissionAsset: "USDT", Time: 20, RealizedPnl: "0"}})
	// ...and the event again: known by z.
	fold(s, execFill(MarketContract, "9", 20, "1", "3000", "1", ""))
	// A record whose event never came.
	s.ApplyTrades([]TradeSnap{{Market: MarketContract, Symbol: "ETH-PERP", TradeID: "556", OrderID: "9", Side: "BUY",
		Price: "3000", Qty: "1", Time: 21}})
	// A record, then its event without t (same order, qty, price), twice.
	s.ApplyTrades([]TradeSnap{{Market: MarketSpot, Symbol: "ETHBTC", TradeID: "700", OrderID: "8", Side: "SELL",
		Price: "0.05", Qty: "1", Time: 30}})
	fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""), execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""))
	fills := fillsOf(s)
	if len(fills) != 4 || fills[3].TradeID != "700" || fills[3].CommissionAsset != "BTC" {
		t.Fatalf("fills = %+v, want 4, the last trade 700 completed by its event", fills)
	}
	if len(fills) != 4 {
		t.Fatalf("fills = %+v, want 3", fills)
	}
	if fills[1].TradeID != "555" || !fills[1].Maker || fills[1].RealizedPnl != "0" {
		t.Errorf("merged contract fill = %+v, want trade 555, maker from the event, pnl from the record", fills[1])
	}
}

func TestFillRetention(t *testing.T) {
	s := NewStore(WithFillRetention(100))
	for i := 1; i <= 250; i++ {
		fold(s, execFill(MarketSpot, "7", int64(i), "1", "0.05", strconv.Itoa(i), strconv.Itoa(i)))
	}
	fills := fillsOf(s)
	if len(fills) != 100 || fills[0].TradeID != "151" || fills[99].TradeID != "250" {
		t.Fatalf("kept %d fills, %s..%s; want the newest 100", len(fills), fills[0].TradeID, fills[len(fills)-1].TradeID)
	}
	// An evicted fill's keys are gone, the kept ones still deduplicate.
	fold(s, execFill(MarketSpot, "7", 250, "1", "0.05", "250", "250"))
	if n := len(fillsOf(s)); n != 100 {
		t.Errorf("a repeat of a kept fill made %d fills", n)
	}
}

// TestFillEvictedFromTheMiddle: the ring drops the fill that arrived
// first, which the rows may show after later ones (its time is later):
// the next snapshot must not keep its row.
func TestFillEvictedFromTheMiddle(t *testing.T) {
	s := NewStore(WithFillRetention(3))
	fold(s, execFill(MarketSpot, "7", 30, "1", "0.05", "1", "1"), // arrives first, shown last
		execFill(MarketSpot, "7", 10, "1", "0.05", "2", "2"),
		execFill(MarketSpot, "7", 20, "1", "0.05", "3", "3"))
	s.Snapshot()
	fold(s, execFill(MarketSpot, "7", 40, "1", "0.05", "4", "4")) // evicts trade 1
	var ids []string
	for _, f := range fillsOf(s) {
		ids = append(ids, f.TradeID)
	}
	if strings.Join(ids, ",") != "2,3,4" {
		t.Errorf("fills %v, want trades 2,3,4", ids)
	}
}

func TestFillsShareUnchangedSnapshots(t *testing.T) {
	s := fold(NewStore(), execFill(MarketSpot, "7", 1, "1", "0.05", "1", "1"))
	a := s.Snapshot()
	fold(s, execFill(MarketSpot, "7", 1, "1", "0.05", "1", "1")) // a repeat changes nothing
	if b := s.Snapshot(); &a.Fills[0] != &b.Fills[0] {
		t.Error("a repeated fill rebuilt the fills")
	}
	if fills := NewStore().Snapshot().Fills; fills == nil {
		t.Error("no fills is null, want []")
	}
}

// BenchmarkFoldFills folds order events each reporting a new execution of
// an order the store holds (with trade id), in steady state with the fill
// ring full: one op is one fill. The goal is >= 1 M fills/s and 0 allocs.
func BenchmarkFoldFills(b *testing.B) {
	const n = 20_000
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = execFill(MarketSpot, strconv.Itoa(1+i%100), int64(i+1), "1", "0.05", strconv.Itoa(i/100+1), strconv.Itoa(i+1))
	}
	s := NewStore()
	fold(s, frames...) // warm: the ring is full and every order known
	b.ReportAllocs()
	b.ResetTimer()
	c0, setup := testkit.CPUTime(), time.Duration(0)
	round := 1
	for i := 0; i < b.N; i++ {
		k := i % n
		if k == 0 {
			b.StopTimer() // new trade ids for the next pass
			t0 := testkit.CPUTime()
			round++
			for j := range frames {
				frames[j] = execFill(MarketSpot, strconv.Itoa(1+j%100), int64(round*n+j), "1", "0.05",
					strconv.Itoa(round*n+j/100), strconv.Itoa(round*n+j+1))
			}
			setup += testkit.CPUTime() - t0
			b.StartTimer()
		}
		s.ApplyFrame(frames[k], nil)
	}
	reportFills(b, testkit.CPUTime()-c0-setup)
}

// BenchmarkFoldFillRepeats folds repeats of fills already known (duplicate
// delivery): 0 allocs.
func BenchmarkFoldFillRepeats(b *testing.B) {
	frames := make([][]byte, 1000)
	for i := range frames {
		frames[i] = execFill(MarketSpot, "7", int64(i+1), "1", "0.05", strconv.Itoa(i+1), strconv.Itoa(i+1))
	}
	s := fold(NewStore(), frames...)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		s.ApplyFrame(frames[i%len(frames)], nil)
	}
	reportFills(b, testkit.CPUTime()-c0)
}

// BenchmarkFoldFillOnly is the fill fold alone (no frame decoding, no
// order update): new fills with trade ids, the ring full.
func BenchmarkFoldFillOnly(b *testing.B) {
	s := NewStore()
	ids := make([][]byte, 2*DefaultFillRetention)
	for i := range ids {
		ids[i] = []byte(strconv.Itoa(i + 1))
	}
	in := fillIn{v: [nFillLits][]byte{flOrder: []byte("42"), flPrice: []byte("0.05"), flQty: []byte("1"), flFee: []byte("0.001")},
		symbol: []byte("ETHBTC"), side: []byte("BUY"), asset: []byte("ETH"), makerKnown: true}
	for i := range ids {
		in.v[flTrade], in.v[flZ], in.time = ids[i], ids[i], int64(i)
		s.foldFill(&in)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		k := i % len(ids)
		in.v[flTrade], in.v[flZ], in.time = ids[k], ids[k], int64(k)
		s.foldFill(&in) // a trade evicted one round ago comes back: new again
	}
	reportFills(b, testkit.CPUTime()-c0)
}

// reportFills reports fills per second of wall and of process CPU time
// (which other processes on a shared machine do not inflate).
func reportFills(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "fills/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "cpu-fills/s")
	}
}

// TestFillRowsIncremental folds fills mostly in time order with some
// late ones, a small retention and snapshots at random points: every
// snapshot equals its fills sorted afresh, and no later snapshot changes
// an earlier one's rows.
func TestFillRowsIncremental(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	s := NewStore(WithFillRetention(50))
	type kept struct {
		snap *Snapshot
		copy []Fill
	}
	var snaps []kept
	for i := 1; i <= 2000; i++ {
		e := int64(i)
		if rnd.IntN(10) == 0 {
			e -= int64(rnd.IntN(40)) // late
		}
		fold(s, execFill(MarketSpot, strconv.Itoa(1+i%7), e, "1", "0.05", strconv.Itoa(i), strconv.Itoa(i)))
		if rnd.IntN(3) == 0 {
			snap := s.Snapshot()
			want := slices.Clone(snap.Fills)
			slices.SortStableFunc(want, func(a, b Fill) int {
				return cmp.Or(cmp.Compare(a.Time, b.Time), event.CompareIDs(a.TradeID, b.TradeID))
			})
			if !slices.Equal(snap.Fills, want) || len(want) != min(i, 50) {
				t.Fatalf("after %d fills: %d rows, not in order", i, len(snap.Fills))
			}
			snaps = append(snaps, kept{snap, slices.Clone(snap.Fills)})
		}
	}
	for _, k := range snaps {
		if !slices.Equal(k.snap.Fills, k.copy) {
			t.Fatal("a later snapshot changed an earlier one's fills")
		}
	}
}

// TestPositiveDecimal: the quick refusal of zeros agrees with parsing.
func TestPositiveDecimal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"", false}, {"0", false}, {"0.0000", false}, {".", false}, {"00.0", false}, {"0..0", false}, {"-0", false},
		{"0e5", false}, {"0.0001", true}, {"1", true}, {"1.5", true}, {"-1", false}, {"1e-5", true}, {"abc", false}, {"0x1", false},
	} {
		if got := positiveDecimal([]byte(c.in)); got != c.want {
			t.Errorf("positiveDecimal(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestExecFillAgrees: the gen corpus folded with the usual event fills
// added straight from their updates (addExecFill) and folded with every
// fill through foldFill (eager) keeps the same fills, at every retention
// and snapshot.
func TestExecFillAgrees(t *testing.T) {
	frames := gen.Frames(gen.Options{Events: 20000, Seed: 5})
	for _, keep := range []int{1, 7, 100, DefaultFillRetention} {
		s, eager := NewStore(WithFillRetention(keep)), NewStore(WithFillRetention(keep))
		eager.fills.eager = true
		for i, f := range frames {
			s.ApplyFrame(f.Data, nil)
			eager.ApplyFrame(f.Data, nil)
			if i%997 == 0 || i == len(frames)-1 {
				if a, b := s.Snapshot().Fills, eager.Snapshot().Fills; !reflect.DeepEqual(a, b) {
					t.Fatalf("retention %d, after %d frames: fills %+v, through foldFill %+v", keep, i+1, a, b)
				}
			}
		}
		if n := len(s.Snapshot().Fills); n == 0 {
			t.Fatalf("retention %d: no fills", keep)
		}
	}
}

// TestFillRingSmallSnapshots: rings of 1, 2 and 5 fills fed usual event
// fills (no t), repeats, fills with t and records, with snapshots taken
// at random points (between evictions, after more than a ring of adds):
// each snapshot's rows (kept from the last, seq-numbered adds) are the
// rows placed anew, and the newest fills are kept.
func TestFillRingSmallSnapshots(t *testing.T) {
	for _, limit := range []int{1, 2, 5} {
		r := rand.New(rand.NewPCG(uint64(limit), 9))
		for round := range 200 {
			s := NewStore(WithFillRetention(limit))
			var sent [][]byte
			for step := range 40 {
				var fr []byte
				id := strconv.Itoa(1 + r.IntN(3))
				z := strconv.Itoa(step + 1)
				switch k := r.IntN(10); {
				case k < 5:
					fr = execFill(MarketSpot, id, int64(r.IntN(20)), "1", "0.05", z, "")
				case k < 7 && len(sent) > 0:
					fr = sent[r.IntN(len(sent))]
				case k < 8:
					fr = execFill(MarketContract, id, int64(r.IntN(20)), "1", "3000", z, "")
				case k < 9:
					fr = execFill(MarketSpot, id, int64(r.IntN(20)), "1", "0.05", z, strconv.Itoa(100+step))
				default:
					s.ApplyTrades([]TradeSnap{{Market: MarketSpot, TradeID: strconv.Itoa(500 + step), OrderID: id, Qty: "1", Price: "0.05"}})
				}
				if fr != nil {
					sent = append(sent, fr)
					fold(s, fr)
				}
				if r.IntN(4) == 0 {
					snap := s.Snapshot()
					if len(snap.Fills) > limit {
						t.Fatalf("limit %d round %d: %d fills kept", limit, round, len(snap.Fills))
					}
					s.fills.dirty, s.fills.rebuild = true, true
					if again := s.Snapshot(); !reflect.DeepEqual(again.Fills, snap.Fills) {
						t.Fatalf("limit %d round %d step %d: kept rows %+v, placed anew %+v", limit, round, step, snap.Fills, again.Fills)
					}
				}
			}
		}
	}
}
