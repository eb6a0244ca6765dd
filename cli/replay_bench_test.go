package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"bhtop/gen"
)

// BenchmarkReplayDump is `bhtop replay --dump` of a 200,000-event gen
// journal in-process: blocks read, parsed and decoded on every core,
// folded in order, the dump written.
func BenchmarkReplayDump(b *testing.B) {
	const events = 200_000
	path := filepath.Join(b.TempDir(), "j.jsonl")
	var buf bytes.Buffer
	if err := gen.Write(&buf, gen.Options{Events: events, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		var errs bytes.Buffer
		if code := runReplay([]string{path, "--dump"}, IO{Out: io.Discard, Err: &errs}); code != ExitOK {
			b.Fatalf("replay --dump = %d: %s", code, errs.String())
		}
	}
	b.ReportMetric(float64(events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
