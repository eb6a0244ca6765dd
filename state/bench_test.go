package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"bhtop/event"
	"bhtop/gen"
	"bhtop/internal/testkit"
	"bhtop/journal"
)

// benchEvents is the size of the mixed corpus the ingest benchmarks fold.
const benchEvents = 200_000

var corpus = sync.OnceValue(func() [][]byte {
	var out [][]byte
	for _, f := range gen.Frames(gen.Options{Events: benchEvents, Seed: 1}) {
		out = append(out, f.Data)
	}
	return out
})

// reportPerEvent turns per-op figures (one op = the whole corpus) into
// per-event ones. Besides wall time it reports the process CPU time per
// event (GC workers included), which a machine shared with other busy
// processes does not inflate.
func reportPerEvent(b *testing.B, events int, mallocs uint64, cpu0 time.Duration) {
	total := float64(b.N) * float64(events)
	wall := float64(b.Elapsed().Nanoseconds()) / total
	cpu := float64(testkit.CPUTime()-cpu0) / total
	b.ReportMetric(wall, "ns/event")
	b.ReportMetric(1e9/wall, "events/s")
	b.ReportMetric(cpu, "cpu-ns/event")
	b.ReportMetric(1e9/cpu, "cpu-events/s")
	b.ReportMetric(float64(mallocs)/total, "allocs/event")
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// BenchmarkIngest decodes and folds a mixed gen corpus (the four event
// types, order lifecycles, out-of-order and duplicate delivery, arrays and
// pings) into a fresh Store per op.
func BenchmarkIngest(b *testing.B) {
	frames := corpus()
	benchIngest(b, func(s *Store) {
		for _, f := range frames {
			s.ApplyFrame(f, nil)
		}
	})
}

// benchIngest measures fold, given a fresh Store per op, per event of the
// benchmark corpus.
func benchIngest(b *testing.B, fold func(s *Store)) {
	b.ReportAllocs()
	b.ResetTimer()
	m0, c0 := mallocs(), testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		fold(NewStore())
	}
	reportPerEvent(b, benchEvents, mallocs()-m0, c0)
}

// journalText is the benchmark corpus as a journal (one record a line).
var journalText = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	if err := gen.Write(&buf, gen.Options{Events: benchEvents, Seed: 1}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// BenchmarkIngestParallel is replay --dump's ingest in-process: the same
// corpus as a journal, its lines parsed, decoded and prepared on every
// core (journal.ScanDecodedPrep, PrepareEvents) and folded in order into
// a fresh Store per op (ApplyPrepared).
func BenchmarkIngestParallel(b *testing.B) { benchParallel(b, false) }

// BenchmarkIngestParallelWriter is BenchmarkIngestParallel with the
// folding goroutine (the benchmark's) locked to its thread, to report
// writer-cpu-ns/event, that goroutine's CPU time: one writer folds every
// event, so 1e9 / writer-cpu-ns/event bounds events/s whatever the number
// of cores. The lock makes each wake-up of the writer a thread switch, so
// its other figures are BenchmarkIngestParallel's, a little slower.
func BenchmarkIngestParallelWriter(b *testing.B) { benchParallel(b, true) }

func benchParallel(b *testing.B, writer bool) {
	text := journalText()
	if writer {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	var folder time.Duration
	benchIngest(b, func(s *Store) {
		w0 := testkit.ThreadCPUTime()
		err := journal.ScanDecodedPrep(bytes.NewReader(text), runtime.GOMAXPROCS(0), PrepareEvents, func(d *journal.Decoded) {
			if d.Bad {
				s.CountMalformed()
				return
			}
			s.ApplyPrepared(d.Events, d.Aux, nil)
		})
		folder += testkit.ThreadCPUTime() - w0
		if err != nil {
			b.Fatal(err)
		}
	})
	if writer {
		b.ReportMetric(float64(folder.Nanoseconds())/float64(b.N)/benchEvents, "writer-cpu-ns/event")
	}
}

// BenchmarkIngestBaselineEncodingJSON folds the same corpus, decoding each
// frame with encoding/json into structs (which, unlike event, matches keys
// case-insensitively and so is not even correct).
func BenchmarkIngestBaselineEncodingJSON(b *testing.B) {
	frames := corpus()
	benchIngest(b, func(s *Store) {
		for _, f := range frames {
			baselineApply(s, f)
		}
	})
}

type baseProbe struct {
	E    *string         `json:"e"`
	Ping json.RawMessage `json:"ping"`
}

type baseExec struct {
	E  json.Number     `json:"E"`
	S  string          `json:"s"`
	C  json.RawMessage `json:"c"`
	D  string          `json:"S"`
	O  string          `json:"o"`
	F  string          `json:"f"`
	Q  string          `json:"q"`
	P  string          `json:"p"`
	X  string          `json:"X"`
	I  json.Number     `json:"i"`
	Z  string          `json:"z"`
	W  bool            `json:"w"`
	M  bool            `json:"m"`
	T  json.Number     `json:"O"`
	Q2 string          `json:"Z"`
	Cl bool            `json:"C"`
	V  string          `json:"v"`
}

type baseAccount struct {
	E json.Number `json:"E"`
	T bool        `json:"T"`
	W bool        `json:"W"`
	D bool        `json:"D"`
	B []struct {
		A string `json:"a"`
		F string `json:"f"`
		L string `json:"l"`
	} `json:"B"`
}

type basePosition struct {
	A string `json:"A"`
	S string `json:"s"`
	D string `json:"S"`
	P string `json:"p"`
	T string `json:"P"`
	V string `json:"a"`
	F string `json:"f"`
	M string `json:"m"`
	R string `json:"r"`
}

func baselineApply(s *Store, f []byte) {
	var elems []json.RawMessage
	if len(f) > 0 && f[0] == '[' {
		if json.Unmarshal(f, &elems) != nil {
			s.stats.Malformed++
			return
		}
	} else {
		elems = []json.RawMessage{f}
	}
	for _, el := range elems {
		var p baseProbe
		if json.Unmarshal(el, &p) != nil || p.E == nil {
			if p.Ping == nil {
				s.stats.Malformed++
			}
			continue
		}
		s.stats.Events++
		ok := false
		switch *p.E {
		case event.TypeExecution, event.TypeContractExecution:
			var x baseExec
			if json.Unmarshal(el, &x) != nil {
				s.stats.Malformed++
				continue
			}
			e, _ := strconv.ParseInt(x.E.String(), 10, 64)
			o, _ := strconv.ParseInt(x.T.String(), 10, 64)
			c := string(x.C)
			if len(c) > 0 && c[0] == '"' {
				c, _ = strconv.Unquote(c)
			}
			v := event.ExecView{EventTime: e, Created: o, Symbol: []byte(x.S), ClientOrderID: []byte(c), Side: []byte(x.D),
				Type: []byte(x.O), TimeInForce: []byte(x.F), Quantity: []byte(x.Q), Price: []byte(x.P), Status: []byte(x.X),
				OrderID: []byte(x.I.String()), CumQty: []byte(x.Z), CumQuote: []byte(x.Q2), Working: x.W, Maker: x.M,
				Close: x.Cl, Leverage: []byte(x.V)}
			m := uint8(mSpot)
			if *p.E == event.TypeContractExecution {
				m = mContract
			}
			ok = s.applyOrder(m, &v, false)
		case event.TypeAccount:
			var a baseAccount
			if json.Unmarshal(el, &a) != nil {
				s.stats.Malformed++
				continue
			}
			e, _ := strconv.ParseInt(a.E.String(), 10, 64)
			v := event.AccountView{EventTime: e, CanTrade: a.T, CanWithdraw: a.W, CanDeposit: a.D}
			for _, bal := range a.B {
				v.Balances = append(v.Balances, event.BalanceView{Asset: []byte(bal.A), Free: []byte(bal.F), Locked: []byte(bal.L)})
			}
			ok = s.applyAccount(&v)
		case event.TypePosition:
			var q basePosition
			if json.Unmarshal(el, &q) != nil {
				s.stats.Malformed++
				continue
			}
			s.applyPosition(&event.PositionView{AccountID: []byte(q.A), Symbol: []byte(q.S), Side: []byte(q.D),
				AvgPrice: []byte(q.P), Total: []byte(q.T), Available: []byte(q.V), LiquidationPrice: []byte(q.F),
				Margin: []byte(q.M), RealizedPnl: []byte(q.R)})
			ok = true
		}
		if ok {
			s.stats.Applied++
		} else {
			s.stats.Stale++
		}
	}
}

// knownOrders returns a store holding n open orders (a quarter contract)
// and, per order, rounds update frames (partial fills with growing E, z
// and Z) that all apply.
func knownOrders(n, rounds int) (*Store, [][]byte) {
	s := NewStore()
	reports := make([]event.ExecutionReport, n)
	var buf []byte
	for i := range reports {
		r := &reports[i]
		*r = event.ExecutionReport{EventTime: 1_000, Symbol: "ETHBTC", ClientOrderID: strconv.Itoa(1000 + i), Side: "BUY",
			Type: "LIMIT", TimeInForce: "GTC", Quantity: "1000000", Price: "0.1026441", Status: "NEW",
			OrderID: strconv.Itoa(4293153 + i), LastQty: "0", CumQty: "0", LastPrice: "0", Commission: "0",
			Working: true, Created: 1_000, CumQuote: "0"}
		if i%4 == 0 {
			r.Contract, r.Symbol, r.OrderID, r.Leverage, r.CommissionAsset = true, "BTC-PERP-REV", strconv.Itoa(469961015902208000+i), "10", "USDT"
		}
		buf = event.AppendExecution(buf[:0], r, event.EncodeOptions{})
		s.ApplyFrame(buf, nil)
	}
	var frames [][]byte
	for k := 1; k <= rounds; k++ {
		for i := range reports {
			r := &reports[i]
			r.EventTime += 7
			r.Status = "PARTIALLY_FILLED"
			r.LastQty = "1.5"
			r.CumQty = strconv.Itoa(k) + ".5"
			r.CumQuote = strconv.Itoa(k) + ".15396615"
			frames = append(frames, event.AppendExecution(nil, r, event.EncodeOptions{Optional: k%5 == 0}))
		}
	}
	return s, frames
}

// BenchmarkIngestKnownOrders folds updates of orders the store already
// holds (10,000 open): one op is one frame; the goal is 0 allocs/op.
func BenchmarkIngestKnownOrders(b *testing.B) {
	benchKnownOrders(b, func(frames [][]byte) func(s *Store, k int) {
		return func(s *Store, k int) { s.ApplyFrame(frames[k], nil) }
	})
}

// benchKnownOrders times fold(s, k), which folds update k of
// knownOrders' frames into s (made for its frames), per update.
func benchKnownOrders(b *testing.B, prepare func(frames [][]byte) func(s *Store, k int)) {
	const n, rounds = 10_000, 20
	s, frames := knownOrders(n, rounds)
	fold := prepare(frames)
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	var setup time.Duration
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		if k == len(frames) {
			b.StopTimer()
			t0 := testkit.CPUTime()
			s, _ = knownOrders(n, 0)
			setup += testkit.CPUTime() - t0
			k = 0
			b.StartTimer()
		}
		fold(s, k)
		k++
	}
	wall := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	cpu := float64(testkit.CPUTime()-c0-setup) / float64(b.N)
	b.ReportMetric(wall, "ns/event")
	b.ReportMetric(1e9/wall, "events/s")
	b.ReportMetric(cpu, "cpu-ns/event")
	b.ReportMetric(1e9/cpu, "cpu-events/s")
	if s.Stats().Stale != 0 {
		b.Fatalf("stale = %d, want 0", s.Stats().Stale)
	}
}

// BenchmarkSnapshot takes a snapshot after 1 and after 100 order updates,
// with 10,000 open and 10,000 closed orders held. cpu-ns/snapshot and
// ns/snapshot (wall) leave out the updates: they are the snapshot's fixed
// cost plus building the changed rows (each an order and its fill).
func BenchmarkSnapshot(b *testing.B) {
	for _, changes := range []int{1, 100} {
		b.Run(fmt.Sprintf("changes=%d", changes), func(b *testing.B) { benchSnapshot(b, changes) })
	}
}

func benchSnapshot(b *testing.B, changes int) {
	s := twentyThousandOrders()
	var c orderChanger
	b.ReportAllocs()
	b.ResetTimer()
	var applying, applyingWall time.Duration
	c0 := testkit.CPUTime()
	for i := 0; i < b.N; i++ {
		t0, w0 := testkit.CPUTime(), time.Now()
		for range changes {
			c.change(s, i)
		}
		applying += testkit.CPUTime() - t0
		applyingWall += time.Since(w0)
		if snap := s.Snapshot(); snap.Orders.Len() != 20_000 {
			b.Fatalf("orders = %d, want 20000", snap.Orders.Len())
		}
	}
	b.ReportMetric(float64(testkit.CPUTime()-c0-applying)/float64(b.N), "cpu-ns/snapshot")
	b.ReportMetric(float64(b.Elapsed()-applyingWall)/float64(b.N), "ns/snapshot")
	if st := s.Stats(); st.Stale != 0 {
		b.Fatalf("stats = %+v: updates were stale", st)
	}
}

// decodedAll decodes frames with one Decoder, keeping every event (the
// fold benchmarks time the writer alone, as in BenchmarkIngestParallel).
func decodedAll(frames [][]byte) [][]event.Event {
	var d event.Decoder
	out := make([][]event.Event, len(frames))
	for i, f := range frames {
		out[i] = d.DecodeKeep(f)
	}
	return out
}

// preparedAll is PrepareEvents of each of evs, in one array as a
// journal block keeps them.
func preparedAll(evs [][]event.Event) [][]uint64 {
	var all []uint64
	ends := make([]int, len(evs))
	for i, e := range evs {
		all = PrepareEvents(e, all)
		ends[i] = len(all)
	}
	aux := make([][]uint64, len(evs))
	for i := range evs {
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		aux[i] = all[start:ends[i]:ends[i]]
	}
	return aux
}

// BenchmarkFold folds the pre-decoded events of BenchmarkIngest's corpus
// into a fresh Store per op: the writer's share of BenchmarkIngestParallel.
func BenchmarkFold(b *testing.B) {
	evs := decodedAll(corpus())
	benchIngest(b, func(s *Store) {
		for _, e := range evs {
			s.ApplyEvents(e, nil)
		}
	})
}

// BenchmarkFoldPrepared is BenchmarkFold with the events prepared
// beforehand too (PrepareEvents): the writer's share of
// BenchmarkIngestParallel, which prepares them on the decoding cores.
func BenchmarkFoldPrepared(b *testing.B) {
	evs := decodedAll(corpus())
	aux := preparedAll(evs)
	benchIngest(b, func(s *Store) {
		for i, e := range evs {
			s.ApplyPrepared(e, aux[i], nil)
		}
	})
}

// BenchmarkFoldKnownOrders is BenchmarkIngestKnownOrders with the frames
// decoded beforehand: the fold of an update of a known order alone.
func BenchmarkFoldKnownOrders(b *testing.B) {
	benchKnownOrders(b, func(frames [][]byte) func(s *Store, k int) {
		evs := decodedAll(frames)
		return func(s *Store, k int) { s.ApplyEvents(evs[k], nil) }
	})
}

// BenchmarkFoldKnownOrdersPrepared is BenchmarkFoldKnownOrders with the
// updates prepared beforehand too (PrepareEvents): the writer's share of
// a known order's update in the parallel pipeline.
func BenchmarkFoldKnownOrdersPrepared(b *testing.B) {
	benchKnownOrders(b, func(frames [][]byte) func(s *Store, k int) {
		evs := decodedAll(frames)
		aux := preparedAll(evs)
		return func(s *Store, k int) { s.ApplyPrepared(evs[k], aux[k], nil) }
	})
}
