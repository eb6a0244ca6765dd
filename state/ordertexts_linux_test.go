//go:build linux

package state

import "testing"

// TestTextDiffGuardPage: wordsDiff (4 to 16 bytes) and shortDiff (2 to
// 7) of an update's text ending at an unreadable page read nothing past
// it (no fault), and tell a change in any byte.
func TestTextDiffGuardPage(t *testing.T) {
	for n := 2; n <= 16; n++ {
		text := "ABCDEFGHIJKLMNOP"[:n]
		for i := -1; i < n; i++ {
			b := []byte(text)
			if i >= 0 {
				b[i] ^= 0x20
			}
			q := guarded(t)(string(b)) // ends right at the page
			if n >= 4 {
				if d := wordsDiff(text, q); d == 0 != (i < 0) {
					t.Fatalf("wordsDiff(%q, %q) = %#x", text, q, d)
				}
			}
			if n <= 7 {
				if d := shortDiff(text, q); d == 0 != (i < 0) {
					t.Fatalf("shortDiff(%q, %q) = %#x", text, q, d)
				}
			}
		}
	}
}
