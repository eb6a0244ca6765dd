package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/BurntSushi/toml"

	"bhtop/signer"
)

// fileSettings is the config file's content (TOML). Every key is optional.
//
//	base_url    = "https://api.example.com"
//	ws_url      = "wss://ws.example.com"
//	api_key     = "..."
//	secret_key  = "..."          # or secret_file = "/path/to/secret"
//	recv_window = 5000           # ms
//	keepalive   = "30m"
//	rotate      = "23h30m"
//	read_only   = false
//	record      = "/path/journal.jsonl"
//	theme       = "dark"
//	log         = "/path/bhtop.log"
//	value_in    = "USDT"          # the asset the account is valued in
//	watch       = ["BTCUSDT", "ETHBTC"]
type fileSettings struct {
	BaseURL    string   `toml:"base_url"`
	WSURL      string   `toml:"ws_url"`
	APIKey     string   `toml:"api_key"`
	SecretKey  string   `toml:"secret_key"`
	SecretFile string   `toml:"secret_file"`
	RecvWindow int      `toml:"recv_window"`
	Keepalive  string   `toml:"keepalive"`
	Rotate     string   `toml:"rotate"`
	ReadOnly   *bool    `toml:"read_only"`
	Record     string   `toml:"record"`
	Theme      string   `toml:"theme"`
	Log        string   `toml:"log"`
	ValueIn    string   `toml:"value_in"`
	Watch      []string `toml:"watch"`
}

// DefaultPath is $XDG_CONFIG_HOME/bhtop/config.toml, or
// ~/.config/bhtop/config.toml without XDG_CONFIG_HOME ("" when neither
// that nor HOME is known).
func DefaultPath(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "bhtop", "config.toml")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "bhtop", "config.toml")
	}
	return ""
}

// loadFile reads the config file at path. A missing file is no settings,
// unless it was named explicitly. A file readable by group or others is
// refused: it may hold the secret key.
func loadFile(path string, explicit bool) (fileSettings, error) {
	var fsets fileSettings
	if path == "" {
		return fsets, nil
	}
	b, err := readPrivate(path, "config file")
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return fsets, nil
	}
	if err != nil {
		return fsets, err
	}
	md, err := toml.Decode(string(b), &fsets)
	if err != nil {
		return fsets, tomlError(path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return fsets, fmt.Errorf("config file %s: unknown setting(s) %s", path, strings.Join(keys, ", "))
	}
	return fsets, nil
}

// quotedRE matches the quoted excerpts of a TOML parser message.
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|'[^']*'`)

// tomlError reports a config file that does not decode, with its line and
// key but none of its values: the parser quotes the text it choked on,
// which may be the secret key (an unquoted secret_key, for one). Errors
// that are not a ParseError (a value of the wrong type) name types only.
func tomlError(path string, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return fmt.Errorf("config file %s: %w", path, err)
	}
	where := fmt.Sprintf("line %d", pe.Position.Line)
	if pe.LastKey != "" {
		where += fmt.Sprintf(" (key %s)", pe.LastKey)
	}
	msg := quotedRE.ReplaceAllString(pe.Message, "<value not shown>")
	return fmt.Errorf("config file %s: %s: %s; values are TOML strings in double quotes, e.g. secret_key = \"...\"", path, where, msg)
}

// readSecretFile reads a secret key file (mode 0600 or stricter), trimming
// surrounding whitespace.
func readSecretFile(path, src string) (signer.Secret, error) {
	b, err := readPrivate(path, "secret file")
	if errors.Is(err, fs.ErrNotExist) {
		// The path is not echoed: a secret typed where its file's path
		// belongs would be shown.
		return signer.Secret{}, fmt.Errorf("%s: no such file (it takes the path of a file holding the secret, not the secret itself)", src)
	}
	if err != nil {
		return signer.Secret{}, fmt.Errorf("%s: %w", src, err)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return signer.Secret{}, fmt.Errorf("%s: secret file %s is empty", src, path)
	}
	return signer.NewSecret(s), nil
}

// readPrivate reads a file that must not be accessible to group or others.
func readPrivate(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s %s is a directory", what, path)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s %s is accessible by group or others (mode %04o); it may hold a secret: run chmod 600 %s",
			what, path, st.Mode().Perm(), path)
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", what, path, err)
	}
	return b, nil
}
