package lockedbuf

import (
	"io"
	"strings"
	"sync"
	"testing"
)

func TestBufferKeepsAll(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				_, _ = io.WriteString(&b, "ab")
				_ = b.String()
			}
		}()
	}
	wg.Wait()
	if got := len(b.String()); got != 800 {
		t.Errorf("kept %d bytes, want 800", got)
	}
}

func TestBufferMax(t *testing.T) {
	b := Buffer{Max: 5}
	for _, s := range []string{"abc", "defg", "hij"} {
		if n, err := io.WriteString(&b, s); n != len(s) || err != nil {
			t.Errorf("Write(%q) = %d, %v; want all taken", s, n, err)
		}
	}
	if got := b.String(); got != "abcde" {
		t.Errorf("String = %q, want the first 5 bytes", got)
	}
	if strings.Contains(b.String(), "f") {
		t.Error("kept bytes past Max")
	}
}
