package cli

import (
	"flag"
	"reflect"
	"testing"
)

func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args     []string
		wantPos  []string
		wantDump bool
	}{
		{[]string{"FILE", "--dump"}, []string{"FILE"}, true},
		{[]string{"--dump", "FILE"}, []string{"FILE"}, true},
		{[]string{"FILE"}, []string{"FILE"}, false},
		{[]string{"a", "--dump", "b"}, []string{"a", "b"}, true},
		{[]string{"--", "--dump"}, []string{"--dump"}, false},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		dump := fs.Bool("dump", false, "")
		pos, err := parseInterspersed(fs, tt.args)
		if err != nil {
			t.Fatalf("parseInterspersed(%q): %v", tt.args, err)
		}
		if !reflect.DeepEqual(pos, tt.wantPos) || *dump != tt.wantDump {
			t.Errorf("parseInterspersed(%q) = %q dump=%v, want %q dump=%v", tt.args, pos, *dump, tt.wantPos, tt.wantDump)
		}
	}
}
