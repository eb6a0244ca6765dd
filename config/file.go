package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/BurntSushi/toml"

	"bhtop/alert"
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
//
//	[accounts.main]              # several accounts (accounts.go): each table
//	api_key = "..."              # holds connection keys and inherits the rest
//
//	[[alerts]]                   # alert rules (package alert), repeatable
//	kind  = "price_cross"
//	symbol = "BTCUSDT"
//	above = 70000
type fileSettings struct {
	accountSettings        // the connection keys, which a table may set too
	Theme           string `toml:"theme"`
	Log             string `toml:"log"`

	// Accounts are the [accounts.NAME] tables (accounts.go).
	Accounts map[string]accountSettings `toml:"accounts"`

	Alerts []map[string]any `toml:"alerts"`
	rules  []alert.Rule     // Alerts, validated by loadFile
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
	b, err := readPrivate(path, "config file", MaxConfigFileBytes)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return fsets, nil
	}
	if err != nil {
		return fsets, err
	}
	return parseFile(path, b)
}

// parseFile decodes a config file's content; errors name the file, line
// and key, never a value.
func parseFile(path string, b []byte) (fileSettings, error) {
	var fsets fileSettings
	md, err := toml.Decode(string(b), &fsets)
	if err != nil {
		return fsets, tomlError(path, err)
	}
	if t := md.Type("accounts"); t != "" && t != "Hash" {
		// The decoder leaves a map alone when the value is not a table
		// ("" is the implicit table of [accounts.NAME] headers).
		return fsets, fmt.Errorf("config file %s: accounts: want [accounts.NAME] tables, got type %s", path, strings.ToLower(t))
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = shownKey(k)
		}
		return fsets, fmt.Errorf("config file %s: unknown setting(s) %s", path, strings.Join(keys, ", "))
	}
	if fsets.rules, err = parseAlerts(path, string(b), fsets.Alerts); err != nil {
		return fsets, err
	}
	if err := checkRuleAccounts(path, string(b), fsets); err != nil {
		return fsets, err
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
		where += fmt.Sprintf(" (key %s)", shownKey(strings.Split(pe.LastKey, ".")))
	}
	msg := quotedRE.ReplaceAllStringFunc(pe.Message, shownExcerpt(pe.Message))
	return fmt.Errorf("config file %s: %s: %s; values are TOML strings in double quotes, e.g. secret_key = \"...\"", path, where, msg)
}

// tomlPunct is an excerpt made of TOML punctuation only: what the parser
// expected ("expected '.' or '='"), never a value.
var tomlPunct = regexp.MustCompile(`^'[.=\[\]{},]{1,2}'$`)

// shownExcerpt returns how a quoted excerpt of the parser message msg is
// shown: TOML punctuation as is, the key of "Key 'accounts.a' has already
// been defined" when it looks like a name, anything else hidden.
func shownExcerpt(msg string) func(string) string {
	twice := strings.HasPrefix(msg, "Key '") && strings.HasSuffix(msg, "' has already been defined.")
	return func(q string) string {
		switch {
		case tomlPunct.MatchString(q):
			return q
		case twice && q == msg[len("Key "):len(msg)-len(" has already been defined.")]:
			if k := strings.Split(strings.Trim(q, "'"), "."); shownKey(k) == strings.Join(k, ".") {
				return q
			}
		}
		return "<value not shown>"
	}
}

// Size limits of the files read: larger is refused, never cut.
const (
	// MaxSecretFileBytes is the largest secret file read: one line holding
	// a key of a few dozen characters.
	MaxSecretFileBytes = 4 << 10
	// MaxConfigFileBytes is the largest config file read.
	MaxConfigFileBytes = 1 << 20
)

// readSecretFile reads a secret key file: a regular file (mode 0600 or
// stricter) of one line, at most MaxSecretFileBytes. One trailing line
// break and surrounding blanks are trimmed. Errors never hold the content.
func readSecretFile(path, src string) (signer.Secret, error) {
	b, err := readPrivate(path, "secret file", MaxSecretFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		// The path is not echoed: a secret typed where its file's path
		// belongs would be shown.
		return signer.Secret{}, fmt.Errorf("%s: no such file (it takes the path of a file holding the secret, not the secret itself)", src)
	}
	if err != nil {
		return signer.Secret{}, fmt.Errorf("%s: %w", src, err)
	}
	line := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if strings.ContainsAny(line, "\r\n") {
		return signer.Secret{}, fmt.Errorf("%s: secret file %s holds more than one line; it must hold the secret key alone", src, path)
	}
	s := strings.TrimSpace(line)
	if s == "" {
		return signer.Secret{}, fmt.Errorf("%s: secret file %s is empty", src, path)
	}
	return signer.NewSecret(s), nil
}

// readPrivate reads a regular file of at most limit bytes that must not
// be accessible to group or others. It never blocks on a FIFO or device:
// the file is opened non-blocking and refused unless regular.
func readPrivate(path, what string, limit int64) ([]byte, error) {
	b, mode, err := readFile(path, what, limit, true)
	if errors.Is(err, errNotPrivate) {
		return nil, fmt.Errorf("%s %s is accessible by group or others (mode %04o); it may hold a secret: run chmod 600 %s",
			what, path, mode.Perm(), path)
	}
	return b, err
}

// isShared reports whether a file of mode m is accessible by group or
// others (never on Windows, whose modes do not say).
func isShared(m fs.FileMode) bool { return runtime.GOOS != "windows" && m.Perm()&0o077 != 0 }

// fileKind names a file type that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
