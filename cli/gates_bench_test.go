package cli

import (
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
