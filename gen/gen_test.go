package gen

import (
	"bytes"
	"testing"

	"bhtop/event"
)

func TestDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	o := Options{Events: 3000, Seed: 7}
	if err := Write(&a, o); err != nil {
		t.Fatal(err)
	}
	_ = Write(&b, o)
	o.Seed = 8
	_ = Write(&c, o)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("same seed wrote different journals")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("different seeds wrote the same journal")
	}
}

// TestMix: the corpus holds exactly N event objects of all four types,
// all valid, contract ids beyond 2^53, arrays, heartbeats and repeats.
func TestMix(t *testing.T) {
	const n = 20001
	var d event.Decoder
	kinds := map[event.Kind]int{}
	arrays, big := 0, 0
	seen := map[string]int{}
	for _, f := range Frames(Options{Events: n, Seed: 1}) {
		if f.Data[0] == '[' {
			arrays++
		}
		for _, ev := range d.Decode(f.Data) {
			kinds[ev.Kind]++
			if ev.Kind == event.KindContractExecution && event.CompareIDs(string(ev.Exec.OrderID), "9007199254740993") > 0 {
				big++
			}
			if ev.Kind != event.KindPing {
				seen[string(ev.Raw)]++
			}
		}
	}
	total := kinds[event.KindAccount] + kinds[event.KindExecution] + kinds[event.KindContractExecution] + kinds[event.KindPosition]
	if total != n || kinds[event.KindMalformed] != 0 || kinds[event.KindUnknown] != 0 {
		t.Errorf("kinds = %v, want %d events and nothing malformed", kinds, n)
	}
	for _, k := range []event.Kind{event.KindAccount, event.KindExecution, event.KindContractExecution, event.KindPosition, event.KindPing} {
		if kinds[k] < n/200 {
			t.Errorf("kind %v appears %d times: not a realistic mix", k, kinds[k])
		}
	}
	dups := 0
	for _, c := range seen {
		dups += c - 1
	}
	if arrays == 0 || big == 0 || dups == 0 {
		t.Errorf("arrays %d, contract ids > 2^53 %d, duplicates %d: want some of each", arrays, big, dups)
	}
}

func TestInOrder(t *testing.T) {
	var d event.Decoder
	last := int64(0)
	for _, f := range Frames(Options{Events: 5000, Seed: 3, InOrder: true}) {
		evs := d.Decode(f.Data)
		if len(evs) != 1 {
			t.Fatalf("in-order frame holds %d elements", len(evs))
		}
		var e int64
		switch ev := evs[0]; ev.Kind {
		case event.KindExecution, event.KindContractExecution:
			e = ev.Exec.EventTime
		case event.KindAccount:
			e = ev.Account.EventTime
		default:
			continue
		}
		if e <= last {
			t.Fatalf("E %d after %d", e, last)
		}
		last = e
	}
}
