package cli

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkGateFileLoad is what every REST request pays to see a gate
// another process stored: Load of an unchanged gate file (one stat).
func BenchmarkGateFileLoad(b *testing.B) {
	f := &gateFile{path: filepath.Join(b.TempDir(), "bhtop", "gates", "https_api.example.com_443.json")}
	f.Save(time.Now().Add(time.Minute), time.Time{})
	for b.Loop() {
		f.Load()
	}
}

// BenchmarkGateFileMissing is the same with no gate file (the usual case).
func BenchmarkGateFileMissing(b *testing.B) {
	f := &gateFile{path: filepath.Join(b.TempDir(), "none.json")}
	for b.Loop() {
		f.Load()
	}
}

// BenchmarkGateFileTurn is the rest of what a request pays to order
// itself among the processes: the host's turn, taken and given back
// (flock of the kept-open lock file), uncontended.
func BenchmarkGateFileTurn(b *testing.B) {
	f := &gateFile{path: filepath.Join(b.TempDir(), "bhtop", "gates", "https_api.example.com_443.json")}
	ctx := context.Background()
	for b.Loop() {
		end, err := f.Turn(ctx)
		if err != nil {
			b.Fatal(err)
		}
		end()
	}
}
