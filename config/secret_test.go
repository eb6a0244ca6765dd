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

// TestCredentialsNeedABaseURL: a key pair without a base URL is refused at
// once with what to set (the commands failed later with "stream:
// Config.WSURL is required" or "unsupported protocol scheme").
func TestCredentialsNeedABaseURL(t *testing.T) {
	_, err := resolve(t, nil, env{"BHTOP_API_KEY": "k", "BHTOP_SECRET_KEY": "s"}, "", 0)
	if err == nil || !strings.Contains(err.Error(), "BHTOP_BASE_URL") {
		t.Errorf("Resolve(key pair, no base URL) error = %v, want one naming BHTOP_BASE_URL", err)
	}
	c, err := resolve(t, nil, env{"BHTOP_API_KEY": "k", "BHTOP_SECRET_KEY": "s", "BHTOP_BASE_URL": "http://127.0.0.1:1"}, "", 0)
	if err != nil || c.WSURL != "ws://127.0.0.1:1" {
		t.Errorf("Resolve(key pair, base URL) = %+v, %v; want ws://127.0.0.1:1 and no error", c, err)
	}
}

// TestBadConfigFileSaysWhat: hiding the values keeps what the parser
// expected (TOML punctuation) and the name of a table or key defined twice
// (a duplicate [accounts.NAME]), which are the file's structure, not its
// values; the character it got instead stays hidden.
func TestBadConfigFileSaysWhat(t *testing.T) {
	const secret = "LEAKCANARY7c1d9e"
	tests := []struct {
		name, file, want, hidden string
	}{
		{"words without =", "not toml " + secret + "\n", "expected '.' or '=', but got <value not shown> instead", "'t'"},
		{"account twice", "[accounts.a]\napi_key = \"k\"\n[accounts.a]\n", "Key 'accounts.a' has already been defined", ""},
		{"secret key twice", "secret_key = \"" + secret + "\"\nsecret_key = \"x\"\n", "Key 'secret_key' has already been defined", secret},
		{"secret as a key twice", secret + " = 1\n" + secret + " = 2\n", "Key <value not shown> has already been defined", secret[:6]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolve(t, nil, nil, tt.file, 0o600)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Resolve(file %q) error = %v, want it to say %q", tt.file, err, tt.want)
			}
			if tt.hidden != "" && strings.Contains(err.Error(), tt.hidden) {
				t.Errorf("Resolve(file %q) error = %q, shows %q", tt.file, err, tt.hidden)
			}
		})
	}
}
