package config

import (
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// FuzzConfigFile: any config file content decodes or is refused with one
// line that holds none of its quoted values; it never panics.
func FuzzConfigFile(f *testing.F) {
	testkit.SeedBytes(f,
		"base_url = \"https://api.example.com\"\napi_key = \"k\"\nsecret_key = \"s\"\nrecv_window = 5000\nkeepalive = \"30m\"\nread_only = true\n",
		"secret_key = CANARYxyz\n",
		"recv_window = \"CANARYxyz\"\n",
		"[x]\nsecret_key = \"CANARYxyz\"\n",
		"read_only = \"CANARYxyz\"",
		"\x00\xff",
		"",
	)
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := parseFile("config.toml", b)
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") {
			t.Errorf("error has several lines: %q", msg)
		}
		if strings.Contains(string(b), `"CANARYxyz"`) && !strings.Contains(msg, "unknown setting") && strings.Contains(msg, "CANARYxyz") {
			t.Errorf("error %q holds a value of the file", msg)
		}
	})
}
