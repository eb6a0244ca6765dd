package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"bhtop/event"
	"bhtop/journal"
)

// foldJournal folds a journal file the way `bhtop replay --dump` does.
func foldJournal(t *testing.T, path string, opts ...Option) *Store {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := NewStore(opts...)
	err = journal.Scan(f, func(rec journal.Record) {
		if rec.Bad {
			s.ApplyFrame(nil, nil)
			return
		}
		s.ApplyFrame(rec.Frame, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsonEqual(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("dump is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("dump =\n%s\nwant\n%s", got, want)
	}
}

// TestSpecJournalDump folds a journal of SPEC.md's payloads (with stale,
// duplicate, malformed, unknown, heartbeat, blank and empty-array lines)
// and checks the dump against the expected state.
func TestSpecJournalDump(t *testing.T) {
	s := foldJournal(t, "testdata/spec.jsonl")
	var buf bytes.Buffer
	if err := s.Dump(&buf); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/spec.dump.json")
	if err != nil {
		t.Fatal(err)
	}
	jsonEqual(t, buf.Bytes(), want)
}

// TestDumpEmpty: a fresh store dumps null account and empty arrays.
func TestDumpEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDump(&buf, NewStore().Snapshot(), ""); err != nil {
		t.Fatal(err)
	}
	want := `{"account":null,"balances":[],"orders":[],"positions":[],"pending":[],"fills":[],"stats":{"events":0,"applied":0,"stale":0,"malformed":0,"unknownType":0}}` + "\n"
	if buf.String() != want {
		t.Errorf("dump = %s, want %s", buf.String(), want)
	}
}

// TestSnapshotsAreImmutable: later folds never change an earlier snapshot;
// unchanged parts are shared; Version grows.
func TestSnapshotsAreImmutable(t *testing.T) {
	s := fold(NewStore(), spot("1", 10, "NEW", "0", "0"), acct(10, true, "BTC", "1", "0"))
	a := s.Snapshot()
	b := s.Snapshot()
	if b.Version != a.Version+1 || !b.Orders.Same(a.Orders) {
		t.Errorf("unchanged snapshot: version %d→%d, orders shared %v", a.Version, b.Version, b.Orders.Same(a.Orders))
	}
	fold(s, spot("1", 11, "PARTIALLY_FILLED", "0.5", "0.05"), acct(11, false, "BTC", "2", "0"), pos("1", "X", "LONG", "1"))
	c := s.Snapshot()
	if a.Orders.At(0).Status != "NEW" || a.Balances[0].Free != "1" || !a.Account.CanTrade || len(a.Positions) != 0 {
		t.Errorf("an earlier snapshot changed: %+v", a)
	}
	if c.Orders.At(0).Status != "PARTIALLY_FILLED" || c.Balances[0].Free != "2" || c.Account.CanTrade || len(c.Positions) != 1 {
		t.Errorf("new snapshot = %+v", c)
	}
	if c.LastEventTime != 11 || c.Stats.Events != 5 {
		t.Errorf("LastEventTime = %d stats %+v", c.LastEventTime, c.Stats)
	}
}

// TestReportAndPing: malformed elements and unknown types reach the
// report hook with their reason; heartbeats reach onPing with N exactly;
// neither counts as an event.
func TestReportAndPing(t *testing.T) {
	var reports []string
	s := NewStore(WithReport(func(k event.Kind, reason string, raw []byte) {
		reports = append(reports, reason+": "+string(raw))
	}))
	var pings []string
	s.ApplyFrame([]byte(`[{"ping":"1.50"},{"e":"listStatus"},7,{"ping": 12 }]`), func(n []byte) { pings = append(pings, string(n)) })
	s.ApplyFrame(nil, nil)
	s.CountMalformed()
	want := []string{"unknown event type: {\"e\":\"listStatus\"}", "neither an object nor an array of objects: 7", "empty frame: "}
	if fmt.Sprint(reports) != fmt.Sprint(want) {
		t.Errorf("reports = %q, want %q", reports, want)
	}
	if fmt.Sprint(pings) != `["1.50" 12]` {
		t.Errorf("pings = %q", pings)
	}
	if st := s.Stats(); st != (Stats{Malformed: 3, UnknownType: 1}) {
		t.Errorf("stats = %+v", st)
	}
}
