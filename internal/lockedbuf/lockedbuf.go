// Package lockedbuf provides a bytes buffer that one goroutine may write
// while another reads it.
package lockedbuf

import (
	"bytes"
	"sync"
)

// Buffer is a bytes buffer safe for concurrent Write and String. The
// zero value keeps everything written.
type Buffer struct {
	// Max, when above 0, keeps only the first Max bytes written; Write
	// still reports all of p taken, so a writer never stalls on it.
	Max int

	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p (up to Max in all).
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.Max <= 0 {
		return b.buf.Write(p)
	}
	if room := b.Max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// String is what was kept so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
