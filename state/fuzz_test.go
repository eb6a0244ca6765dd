package state

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzApplyFrame: folding any lines never panics, keeps events = applied
// + stale, and the dump stays valid JSON. Each input line is one frame.
func FuzzApplyFrame(f *testing.F) {
	f.Add([]byte(string(spot("1", 10, "NEW", "0", "0")) + "\n" + string(spot("1", 11, "FILLED", "1", "0.1"))))
	f.Add([]byte(string(contract("469961015902208000", 5, "PARTIALLY_FILLED", "1e3", "2E-2")) + "\n" + string(pos("1", "X", "LONG", "0"))))
	f.Add([]byte(string(acct(3, true, "BTC", "-0", "1e-9")) + "\n[]\n{\"ping\":1}"))
	f.Fuzz(func(t *testing.T, in []byte) {
		s := NewStore(WithRetention(2))
		for i, line := range bytes.Split(in, []byte("\n")) {
			s.ApplyFrame(line, func([]byte) {})
			if i%2 == 1 {
				s.Snapshot() // exercises row reuse between snapshots
			}
			if st := s.Stats(); st.Events != st.Applied+st.Stale {
				t.Fatalf("stats %+v after %q", st, line)
			}
		}
		var buf bytes.Buffer
		if err := s.Dump(&buf); err != nil || !json.Valid(buf.Bytes()) {
			t.Fatalf("dump failed (%v): %s", err, buf.Bytes())
		}
	})
}
