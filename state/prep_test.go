package state

import (
	"bytes"
	"reflect"
	"testing"
	"unsafe"

	"bhtop/event"
	"bhtop/gen"
	"bhtop/journal"
)

// applyPrepared folds frame as the parallel pipeline does: decoded and
// prepared apart (PrepareEvents), then ApplyPrepared.
func applyPrepared(s *Store, d *event.Decoder, frame []byte, onPing func([]byte)) {
	evs := d.Decode(frame)
	s.ApplyPrepared(evs, PrepareEvents(evs, nil), onPing)
}

// TestPreparedAgrees: events prepared apart (PrepareEvents, then
// ApplyPrepared) fold to the state ApplyFrame gives, on a gen corpus
// with duplicates, reordering and dropped orders; aux of another length
// is ignored.
func TestPreparedAgrees(t *testing.T) {
	frames := gen.Frames(gen.Options{Events: 30000, Seed: 5, OpenOrders: 200})
	a, b, c := NewStore(WithRetention(50)), NewStore(WithRetention(50)), NewStore(WithRetention(50))
	var d event.Decoder
	for i, f := range frames {
		a.ApplyFrame(f.Data, nil)
		applyPrepared(b, &d, f.Data, nil)
		c.ApplyPrepared(d.Decode(f.Data), make([]uint64, 1), nil)
		if i%101 == 0 {
			b.Snapshot()
		}
	}
	want := finalState(a)
	for name, s := range map[string]*Store{"prepared": b, "aux of another length": c} {
		if got := finalState(s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: state differs from ApplyFrame's", name)
		}
	}
}

// TestPrepFill: what prepFill derives of an update.
func TestPrepFill(t *testing.T) {
	for _, c := range []struct {
		id, l, z  string
		lPos, z19 bool
		sig       uint64
		exp       int32
	}{
		{"7", "1.5", "3.50", true, true, 35, 1},
		{"7", "0", "3", false, false, 0, 0},
		{"7", "0.000", "3", false, false, 0, 0},
		{"7", "2", "0.0012", true, true, 12, -2},
		{"7", "2", "12345678901234567891", true, false, 0, 0}, // 20 significant digits
		{"007", "2", "1", true, false, 0, 0},                  // not a plain number: the text key
		{"7", "2", "1e3", true, true, 1, 4},
	} {
		x := event.ExecView{OrderID: []byte(c.id), LastQty: []byte(c.l), CumQty: []byte(c.z), Status: []byte("FILLED")}
		var p prep
		p.prepOrder(&x)
		p.prepFill(&x)
		if p.rank() != 2 || p.idKey != numKey(x.OrderID) {
			t.Fatalf("%+v: prep %+v", c, p)
		}
		if got := p.flags&prepLPos != 0; got != c.lPos {
			t.Errorf("%+v: l > 0 = %v", c, got)
		}
		if got := p.flags&prepZ != 0; got != c.z19 || got && (p.zSig != c.sig || p.zExp != c.exp) {
			t.Errorf("%+v: z by value %v (%d, %d)", c, got, p.zSig, p.zExp)
		}
		if c.z19 { // the key is zKey's either way
			var b fillBook
			if b.zKeyOfPrep(mSpot, &p, x.OrderID, x.CumQty) != b.zKey(mSpot, x.OrderID, x.CumQty) {
				t.Errorf("%+v: z key differs from zKey's", c)
			}
		}
	}
}

// TestPrepareEventsWords: PrepareEvents appends each event's words
// after what aux held, an order update's literals packed as packOrder
// and packAt pack them.
func TestPrepareEventsWords(t *testing.T) {
	var d event.Decoder
	evs := d.Decode([]byte(`[{"e":"x"},` + string(execFill(MarketSpot, "7", 11, "2", "0.05", "2.5", "")) + `,{"ping":1}]`))
	aux := PrepareEvents(evs, []uint64{42})
	at := 1
	for i := range evs {
		if evs[i].Kind != event.KindExecution {
			if aux[at] != 1 {
				t.Fatalf("event %d (%v): prep word %#x", i, evs[i].Kind, aux[at])
			}
			at++
			continue
		}
		p := (*prep)(unsafe.Pointer(&aux[at]))
		at += int(p.words)
		x := &evs[i].Exec
		var o order
		var f fill
		var slab litSlab
		slab.packOrder(&o.lits, &o.ends, x)
		f.lits = slab.packAt(nil, f.ends[:flTrade], unsafe.Pointer(x), execFillOffs[:])
		got := slab.packedLits(nil, p.orderLits(), int(p.orderLen))
		if p.flags&prepPacked == 0 || string(got) != string(o.lits) || p.orderEnds != o.ends {
			t.Errorf("order literals %q %v, want %q %v", got, p.orderEnds, o.lits, o.ends)
		}
		got = slab.packedLits(nil, p.fillLits(), int(p.fillLen))
		if string(got) != string(f.lits) || p.fillEnds != [flTrade]int32(f.ends[:flTrade]) {
			t.Errorf("fill literals %q %v, want %q %v", got, p.fillEnds, f.lits, f.ends[:flTrade])
		}
	}
	if aux[0] != 42 || at != len(aux) {
		t.Fatalf("aux of %d words, its events' %d", len(aux), at)
	}
}

// TestScanPreparedAgrees: a journal scanned on three goroutines, its
// events prepared by the decoding ones (journal.ScanDecodedPrep,
// PrepareEvents; the blocks the folder decodes itself go without), folds
// to the state ApplyFrame gives.
func TestScanPreparedAgrees(t *testing.T) {
	var j bytes.Buffer
	if err := gen.Write(&j, gen.Options{Events: 30000, Seed: 6, OpenOrders: 300}); err != nil {
		t.Fatal(err)
	}
	a, b := NewStore(WithRetention(40)), NewStore(WithRetention(40))
	if err := journal.Scan(bytes.NewReader(j.Bytes()), func(rec journal.Record) {
		if !rec.Bad {
			a.ApplyFrame(rec.Frame, nil)
		}
	}); err != nil {
		t.Fatal(err)
	}
	prepared := 0
	if err := journal.ScanDecodedPrep(bytes.NewReader(j.Bytes()), 3, PrepareEvents, func(d *journal.Decoded) {
		if d.Aux != nil {
			prepared++
		}
		if !d.Bad {
			b.ApplyPrepared(d.Events, d.Aux, nil)
		}
	}); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d records prepared apart", prepared)
	if !reflect.DeepEqual(finalState(b), finalState(a)) {
		t.Errorf("state folded from the prepared scan differs from ApplyFrame's")
	}
}

// TestPrepareMovesTexts: PrepareEvents points an update's texts at
// copies next to its prep (moveTexts): the same bytes, capacity their
// length, inside aux; an absent one stays absent.
func TestPrepareMovesTexts(t *testing.T) {
	frame := []byte(`{"e":"contractExecutionReport","E":5,"s":"BTCUSDT","c":"x1","S":"BUY","o":"LIMIT","f":"GTC","q":"2","p":"10","X":"PARTIALLY_FILLED","i":77,"l":"1","z":"1","L":"10","n":"0.01","N":"USDT","T":5,"t":-1,"w":true,"m":false,"O":4,"Z":"10","C":false,"v":"20"}`)
	var d event.Decoder
	evs := d.Decode(frame)
	if len(evs) != 1 || evs[0].Kind != event.KindContractExecution {
		t.Fatalf("decoded %+v", evs)
	}
	x := &evs[0].Exec
	var want [len(textOffs)]string
	for k, off := range textOffs {
		want[k] = string(*(*[]byte)(unsafe.Add(unsafe.Pointer(x), off)))
	}
	aux := PrepareEvents(evs, nil)
	lo, hi := uintptr(unsafe.Pointer(&aux[0])), uintptr(unsafe.Pointer(&aux[len(aux)-1]))+8
	for k, off := range textOffs {
		f := *(*[]byte)(unsafe.Add(unsafe.Pointer(x), off))
		if string(f) != want[k] || cap(f) != len(f) || want[k] == "" {
			t.Errorf("text %d: %q (cap %d), want %q", k, f, cap(f), want[k])
		}
		if a := uintptr(unsafe.Pointer(unsafe.SliceData(f))); a < lo || a+uintptr(len(f)) > hi {
			t.Errorf("text %d (%q) is not in aux", k, f)
		}
	}
	evs = d.Decode([]byte(`{"e":"executionReport","E":5,"s":"BTCUSDT","c":"x1","S":"BUY","o":"LIMIT","f":"GTC","q":"2","p":"10","X":"NEW","i":77,"l":"0","z":"0","L":"0","n":"0","N":null,"w":true,"m":false,"O":4,"Z":"0"}`))
	PrepareEvents(evs, nil)
	if evs[0].Exec.Leverage != nil {
		t.Errorf("absent v: %q", evs[0].Exec.Leverage)
	}
}
