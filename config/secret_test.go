package config

import (
	"strings"
	"testing"
)

// TestBadConfigFileHidesValues: a config file that is not valid TOML is
// refused with its line, but the parser's message quotes the offending
// value, which may be the secret key (an unquoted secret_key is the
// likeliest mistake). No value of the file may reach the message.
func TestBadConfigFileHidesValues(t *testing.T) {
	const secret = "LEAKCANARY7c1d9e"
	tests := []struct {
		name, file, wantLine string
	}{
		{"unquoted secret", "api_key = \"k\"\nsecret_key = " + secret + "\n", "line 2"},
		{"unterminated secret", "secret_key = \"" + secret + "\n", "line 1"},
		{"junk after secret", "secret_key = \"" + secret + "\" " + secret + "\n", "line 1"},
		{"bad escape", "secret_key = \"" + secret + "\\q" + secret + "\"\n", "line 1"},
		{"unquoted secret in a table", "[x]\nsecret_key = " + secret + "\n", "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolve(t, nil, nil, tt.file, 0o600)
			if err == nil {
				t.Fatalf("Resolve(file %q) = nil error, want a refusal", tt.file)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), secret[:6]) {
				t.Errorf("Resolve(file %q) error = %q, holds the value", tt.file, err)
			}
			if !strings.Contains(err.Error(), tt.wantLine) || !strings.Contains(err.Error(), "config.toml") {
				t.Errorf("Resolve(file %q) error = %q, want the file and %q", tt.file, err, tt.wantLine)
			}
		})
	}
}
