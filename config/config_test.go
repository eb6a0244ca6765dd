package config

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// env is a fake environment.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// resolve parses args and resolves them against e, with a private
// XDG_CONFIG_HOME holding the given config file text ("" = no file).
func resolve(t *testing.T, args []string, e env, file string, mode os.FileMode) (Conn, error) {
	t.Helper()
	f, get := parsed(t, args, e, file, mode)
	return f.Resolve(get)
}

// parsed parses args into the command's flags and returns them with e's
// lookup, after giving e a private XDG_CONFIG_HOME (unless e sets one)
// holding the config file text with mode ("" = no file).
func parsed(t *testing.T, args []string, e env, file string, mode os.FileMode) (*Flags, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	if e == nil {
		e = env{}
	}
	if _, ok := e["XDG_CONFIG_HOME"]; !ok {
		e["XDG_CONFIG_HOME"] = dir
	}
	if file != "" {
		testkit.ConfigFile(t, dir, file, mode)
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := AddFlags(fs).AddMarketFlags()
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f, e.get
}

func TestResolvePrecedence(t *testing.T) {
	file := `base_url = "http://file.example:1"
api_key = "filekey"
secret_key = "filesecret"
recv_window = 3000
keepalive = "10m"
theme = "light"
`
	tests := []struct {
		name string
		args []string
		env  env
		file string
		want func(Conn) string // "" when fine
	}{
		{"defaults", nil, nil, "", func(c Conn) string {
			if c.BaseURL != "" || c.RecvWindow != DefaultRecvWindow || c.Keepalive != DefaultKeepalive ||
				c.Rotate != DefaultRotate || c.ReadOnly || c.HasCredentials() {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"file", nil, nil, file, func(c Conn) string {
			if c.BaseURL != "http://file.example:1" || c.WSURL != "ws://file.example:1" || c.APIKey != "filekey" ||
				!c.HasCredentials() || c.RecvWindow != 3*time.Second || c.Keepalive != 10*time.Minute || c.Theme != "light" {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"env over file", nil, env{"BHTOP_BASE_URL": "https://env.example", "BHTOP_API_KEY": "envkey", "BHTOP_RECV_WINDOW": "2000"}, file, func(c Conn) string {
			if c.BaseURL != "https://env.example" || c.WSURL != "wss://env.example" || c.APIKey != "envkey" || c.RecvWindow != 2*time.Second {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
		{"flag over env", []string{"--base-url", "http://flag.example/", "--recv-window", "1000", "--read-only", "--ws-url", "ws://w.example:9"},
			env{"BHTOP_BASE_URL": "https://env.example", "BHTOP_READ_ONLY": "false"}, file, func(c Conn) string {
				if c.BaseURL != "http://flag.example" || c.WSURL != "ws://w.example:9" || c.RecvWindow != time.Second || !c.ReadOnly {
					return fmt.Sprintf("%+v", c)
				}
				return ""
			}},
		{"short durations", []string{"--keepalive", "1s", "--rotate", "2s"}, nil, "", func(c Conn) string {
			if c.Keepalive != time.Second || c.Rotate != 2*time.Second {
				return fmt.Sprintf("%+v", c)
			}
			return ""
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := resolve(t, tt.args, tt.env, tt.file, 0o600)
			if err != nil {
				t.Fatalf("Resolve(%q) error: %v", tt.args, err)
			}
			if got := tt.want(c); got != "" {
				t.Errorf("Resolve(%q) = %s", tt.args, got)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name, file string
		mode       os.FileMode
		args       []string
		env        env
		want       string
	}{
		{"group readable file", `api_key = "k"`, 0o640, nil, nil, "accessible by group or others"},
		{"world readable file", `api_key = "k"`, 0o604, nil, nil, "chmod 600"},
		{"unknown key", `bse_url = "http://x"`, 0o600, nil, nil, "unknown setting"},
		{"bad toml", `base_url = `, 0o600, nil, nil, "config file"},
		{"url with path", "", 0, []string{"--base-url", "http://x/api"}, nil, "no path"},
		{"url scheme", "", 0, nil, env{"BHTOP_BASE_URL": "ftp://x"}, "BHTOP_BASE_URL"},
		{"url port too big", "", 0, []string{"--base-url", "http://h:99999"}, nil, "port must be a number from 1 to 65535"},
		{"url port zero", "", 0, []string{"--base-url", "http://127.0.0.1:0"}, nil, "port must be a number from 1 to 65535"},
		{"url empty port", "", 0, []string{"--base-url", "http://h:"}, nil, "port must be a number from 1 to 65535"},
		{"url without host", "", 0, []string{"--base-url", "http://:80"}, nil, "must be http|https://host[:port]"},
		{"ws url port too big", "", 0, []string{"--ws-url", "ws://h:70000"}, nil, "port must be a number from 1 to 65535"},
		{"recv window zero", "", 0, []string{"--recv-window", "0"}, nil, "1 to 60000"},
		{"keepalive too short", "", 0, []string{"--keepalive", "500ms"}, nil, "at least 1s"},
		{"key without secret", "", 0, nil, env{"BHTOP_API_KEY": "k"}, "no secret key"},
		{"secret without key", "", 0, nil, env{"BHTOP_SECRET_KEY": "s"}, "no API key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolve(t, tt.args, tt.env, tt.file, tt.mode)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Resolve = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSecretFile(t *testing.T) {
	dir := t.TempDir()
	good := testkit.WriteFile(t, filepath.Join(dir, "good"), "s3cr3t\n")
	open := testkit.WriteFileMode(t, filepath.Join(dir, "open"), "s3cr3t\n", 0o644)
	c, err := resolve(t, []string{"--secret-file", good}, env{"BHTOP_API_KEY": "k", "BHTOP_SECRET_KEY": "other", "BHTOP_BASE_URL": "http://127.0.0.1:1"}, "", 0)
	if err != nil || !c.HasCredentials() {
		t.Fatalf("Resolve(--secret-file good) = %v, %v", c, err)
	}
	if s := fmt.Sprintf("%v %+v %#v", c, c, c); strings.Contains(s, "s3cr3t") {
		t.Errorf("Conn prints its secret: %s", s)
	}
	_, err = resolve(t, []string{"--secret-file", open}, env{"BHTOP_API_KEY": "k"}, "", 0)
	if err == nil || !strings.Contains(err.Error(), "group or others") {
		t.Errorf("Resolve(--secret-file 0644) = %v, want refusal", err)
	}
	if err != nil && strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error leaks the secret: %v", err)
	}
}

func TestDefaultPath(t *testing.T) {
	tests := []struct {
		env  env
		want string
	}{
		{env{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/bhtop/config.toml"},
		{env{"HOME": "/h"}, "/h/.config/bhtop/config.toml"},
		{env{}, ""},
	}
	for _, tt := range tests {
		if got := DefaultPath(tt.env.get); got != tt.want {
			t.Errorf("DefaultPath(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestMissingSecretFileHidesPath: a secret given where the path of its
// file belongs is not echoed back.
func TestMissingSecretFileHidesPath(t *testing.T) {
	const secret = "NotAPathButASecret123"
	_, err := resolve(t, []string{"--secret-file", secret}, env{"BHTOP_API_KEY": "k", "BHTOP_BASE_URL": "http://127.0.0.1:1"}, "", 0)
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Fatalf("Resolve(--secret-file <secret>) = %v, want an error without the value", err)
	}
}
