package upstream

import (
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"clean", "handshake refused", 200, "handshake refused"},
		{"escape", "a\x1b[2Jb", 200, "a[2Jb"},
		{"c1 csi", "x\u009b31my", 200, "x31my"},
		{"bell and nul", "a\x07\x00b", 200, "ab"},
		{"del", "a\x7fb", 200, "ab"},
		{"newlines collapse", " line1\r\n\n\tline2  ", 200, "line1 line2"},
		{"bidi override", "abc\u202edef", 200, "abcdef"},
		{"invalid utf8", "a\xffb", 200, "a\ufffdb"},
		{"cap", strings.Repeat("é", 300), 200, strings.Repeat("é", 200) + "…"},
		{"cap at space", "abc def", 4, "abc…"},
		{"unicode kept", "Größe ● ok", 200, "Größe ● ok"},
		{"only controls", "\x1b\x1b", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in, tt.max); got != tt.want {
				t.Errorf("Sanitize(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
		})
	}
}
