package state

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"bhtop/event"
)

// FuzzApplyFrame: folding any lines never panics, keeps events = applied
// + stale, and the dump stays valid JSON, the same with the events
// prepared apart (PrepareEvents, ApplyPrepared). Each input line is one
// frame.
func FuzzApplyFrame(f *testing.F) {
	f.Add([]byte(string(spot("1", 10, "NEW", "0", "0")) + "\n" + string(spot("1", 11, "FILLED", "1", "0.1"))))
	f.Add([]byte(string(contract("469961015902208000", 5, "PARTIALLY_FILLED", "1e3", "2E-2")) + "\n" + string(pos("1", "X", "LONG", "0"))))
	f.Add([]byte(string(acct(3, true, "BTC", "-0", "1e-9")) + "\n[]\n{\"ping\":1}"))
	// an update with no literals, then one with l > 0 and nothing else (prepared: nothing packed)
	f.Add([]byte(`{"e":"executionReport","E":5,"i":7,"X":"NEW","s":"A"}` + "\n" + `[{"e":"executionReport","E":6,"i":7,"X":"FILLED","l":"1","z":"1","n":"0"},{"e":"x"}]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		s, p := NewStore(WithRetention(2)), NewStore(WithRetention(2)) // p: the events prepared apart
		var d event.Decoder
		for i, line := range bytes.Split(in, []byte("\n")) {
			s.ApplyFrame(line, func([]byte) {})
			applyPrepared(p, &d, line, func([]byte) {})
			if i%2 == 1 {
				s.Snapshot() // exercises row reuse between snapshots
				p.Snapshot()
			}
			if st := s.Stats(); st.Events != st.Applied+st.Stale {
				t.Fatalf("stats %+v after %q", st, line)
			}
		}
		var buf, pbuf bytes.Buffer
		if err := s.Dump(&buf); err != nil || !json.Valid(buf.Bytes()) {
			t.Fatalf("dump failed (%v): %s", err, buf.Bytes())
		}
		if err := p.Dump(&pbuf); err != nil || !bytes.Equal(pbuf.Bytes(), buf.Bytes()) {
			t.Fatalf("dump of the events prepared apart (%v):\n%s\nwant\n%s", err, pbuf.Bytes(), buf.Bytes())
		}
	})
}

// FuzzFills: any mix of order events and myTrades records (lines
// "R market tradeId orderId qty price") folds without panicking into
// fills that each have a positive quantity, never two with the same
// (market, trade id), and a dump that is valid JSON; indexing event
// fills for pairing lazily, adding the usual event fill straight from
// its update (addExecFill), and events prepared apart (PrepareEvents),
// change nothing.
func FuzzFills(f *testing.F) {
	f.Add([]byte(string(execFill(MarketSpot, "7", 11, "2", "0.05", "2", "101")) + "\nR spot 101 7 2 0.05\n" +
		string(execFill(MarketContract, "9", 12, "1", "3000", "1", "")) + "\nR contract 555 9 1.0 3000.0"))
	f.Add([]byte(string(execFill(MarketSpot, "7", 11, "2", "0.05", "2", "-1")) + "\n" + string(execFill(MarketSpot, "7", 11, "2", "0.05", "2.0", "")) +
		"\nR spot 0 7 2 0.05\nR spot 00101 7 1e0 5e-2"))
	f.Add([]byte(string(execFill(MarketSpot, "7", 11, "2", "0.05", "2", "")) + "\n" + string(execFill(MarketSpot, "7", 12, "1", "0.05", "3", "")) +
		"\n" + string(execFill(MarketSpot, "7", 12, "1", "0.05", "3.0", "")) + "\n" + string(execFill(MarketSpot, "8", 13, "1", "0.05", "1", "-1")) +
		"\nR spot 5 7 1 0.05\n" + string(execFill(MarketSpot, "7", 14, "1", "0.05", "4", ""))))
	f.Fuzz(func(t *testing.T, in []byte) {
		s, eager, prepared := NewStore(WithFillRetention(3)), NewStore(WithFillRetention(3)), NewStore(WithFillRetention(3))
		eager.fills.eager = true
		collide := collidingStore(3, 3) // fill keys of 2 bits: most shared
		var d event.Decoder
		for i, line := range bytes.Split(in, []byte("\n")) {
			for _, s := range []*Store{s, eager, prepared, collide} {
				if r, ok := bytes.CutPrefix(line, []byte("R ")); ok {
					w := strings.Fields(string(r))
					for len(w) < 5 {
						w = append(w, "")
					}
					s.ApplyTrades([]TradeSnap{{Market: w[0], TradeID: w[1], OrderID: w[2], Qty: w[3], Price: w[4]}})
				} else if s == prepared {
					applyPrepared(s, &d, line, nil)
				} else {
					s.ApplyFrame(line, nil)
				}
				if i%2 == 1 {
					s.Snapshot()
				}
			}
		}
		snap := s.Snapshot()
		// Event fills join their match chains when a record first looks:
		// the same fills as joining each at its arrival.
		if e := eager.Snapshot(); !reflect.DeepEqual(e.Fills, snap.Fills) {
			t.Fatalf("fills with lazy match chains %+v, eager %+v", snap.Fills, e.Fills)
		}
		// Fill keys shared by chance never make a fill taken for another.
		if c := collide.Snapshot(); !reflect.DeepEqual(c.Fills, snap.Fills) {
			t.Fatalf("fills with keys colliding %+v, want %+v", c.Fills, snap.Fills)
		}
		// Events prepared apart (as the parallel pipeline does) fold alike.
		if p := prepared.Snapshot(); !reflect.DeepEqual(p.Fills, snap.Fills) || !reflect.DeepEqual(flatRows(*p).Orders, flatRows(*snap).Orders) {
			t.Fatalf("fills of the events prepared apart %+v, want %+v", p.Fills, snap.Fills)
		}
		// The rows kept from snapshot to snapshot are the rows placed anew.
		s.fills.dirty, s.fills.rebuild = true, true
		if again := s.Snapshot(); !reflect.DeepEqual(again.Fills, snap.Fills) {
			t.Fatalf("fills kept across snapshots %+v, placed anew %+v", snap.Fills, again.Fills)
		}
		seen := map[string]bool{}
		for _, fl := range snap.Fills {
			if !positiveDecimal([]byte(fl.Qty)) {
				t.Fatalf("fill with quantity %q", fl.Qty)
			}
			// one fill per (market, order, trade): a self-trade's two sides
			// share the trade id and are two fills. Ids compare as the store
			// compares them (trimID: leading zeros dropped, "0" stays "0" —
			// a trade id of digits is a trade id, 0 included); a fill without
			// a trade id has no such key, so it can never clash with one
			// (trimming "0" to "" once made a record of trade 0 clash with an
			// event fill of the same order lacking t: corpus 3066cfa951b2f1e9).
			if fl.TradeID == "" {
				continue
			}
			k := fl.Market + "/" + string(trimID([]byte(fl.OrderID))) + "/" + string(trimID([]byte(fl.TradeID)))
			if seen[k] {
				t.Fatalf("two fills of trade %s: %+v", k, snap.Fills)
			}
			seen[k] = true
		}
		var buf bytes.Buffer
		if err := WriteDump(&buf, snap, ""); err != nil || !json.Valid(buf.Bytes()) {
			t.Fatalf("dump failed (%v): %s", err, buf.Bytes())
		}
	})
}
