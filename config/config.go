// Package config resolves the connection settings of every connecting
// command: flag, then environment, then config file, then default.
package config

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"bhtop/alert"
	"bhtop/rest"
	"bhtop/signer"
)

// Defaults of the settings (DESIGN.md "Command line").
const (
	DefaultRecvWindow = 5 * time.Second
	DefaultKeepalive  = 30 * time.Minute
	DefaultRotate     = 23*time.Hour + 30*time.Minute
)

// Conn is the resolved connection settings. Empty BaseURL means none was
// configured (the dashboard then starts the simulator). The secret never
// prints (signer.Secret).
type Conn struct {
	BaseURL, WSURL, APIKey string
	// APIKeyFrom is where APIKey came from, for hints about a rejected
	// key: "BHTOP_API_KEY", "PATH: api_key" or "PATH: accounts.NAME.api_key"
	// (never the key itself).
	APIKeyFrom         string
	Secret             signer.Secret
	RecvWindow         time.Duration
	Keepalive, Rotate  time.Duration
	ReadOnly           bool
	Record, Theme, Log string
	// ThemeFrom is where Theme came from ("--theme", "BHTOP_THEME",
	// "PATH: theme"), for the error that refuses an unknown one.
	ThemeFrom string
	// Alerts are the config file's [[alerts]] rules, validated.
	Alerts []alert.Rule

	// Market data (AddMarketFlags): the valuation asset (default USDT),
	// more symbols to follow, and NoMarket: no quote traffic at all.
	ValueIn  string
	Watch    []string
	NoMarket bool
}

// HasCredentials reports whether both an API key and a secret are set.
func (c Conn) HasCredentials() bool { return c.APIKey != "" && !c.Secret.Empty() }

// RESTOptions are the rest.Client options these settings imply.
func (c Conn) RESTOptions() []rest.Option {
	return []rest.Option{rest.WithAPIKey(c.APIKey), rest.WithKeySource(c.APIKeyFrom), rest.WithSecret(c.Secret), rest.WithRecvWindow(c.RecvWindow)}
}

// Flags are the connection flags registered on a FlagSet by AddFlags.
type Flags struct {
	fs         *flag.FlagSet
	baseURL    string
	wsURL      string
	secretFile string
	configFile string
	recvWindow int
	keepalive  time.Duration
	rotate     time.Duration
	readOnly   bool
	record     string
	theme      string
	log        string
	account    string
	market     marketFlags
}

// AddFlags registers the connection flags on fs. The secret is never a
// flag: use BHTOP_SECRET_KEY or --secret-file.
func AddFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{fs: fs}
	fs.StringVar(&f.baseURL, "base-url", "", "REST base URL, e.g. https://api.example.com (env BHTOP_BASE_URL)")
	fs.StringVar(&f.wsURL, "ws-url", "", "WebSocket base URL (env BHTOP_WS_URL; default: base URL with http->ws, https->wss)")
	fs.StringVar(&f.secretFile, "secret-file", "", "read the secret key from `PATH` (mode 0600; env BHTOP_SECRET_FILE)")
	fs.StringVar(&f.configFile, "config", "", "config file (env BHTOP_CONFIG; default $XDG_CONFIG_HOME/bhtop/config.toml)")
	fs.IntVar(&f.recvWindow, "recv-window", 0, "recvWindow in ms (default 5000; env BHTOP_RECV_WINDOW)")
	fs.DurationVar(&f.keepalive, "keepalive", 0, "listenKey keepalive interval (default 30m; env BHTOP_KEEPALIVE)")
	fs.DurationVar(&f.rotate, "rotate", 0, "reconnect the stream before the 24h cut after this long (default 23h30m; env BHTOP_ROTATE)")
	fs.BoolVar(&f.readOnly, "read-only", false, "never send an order-changing request (env BHTOP_READ_ONLY)")
	fs.StringVar(&f.record, "record", "", "append a journal of received frames to `FILE` (env BHTOP_RECORD)")
	fs.StringVar(&f.theme, "theme", "", "colour theme (env BHTOP_THEME)")
	fs.StringVar(&f.log, "log", "", "write a debug log to `FILE` (env BHTOP_LOG)")
	fs.StringVar(&f.account, "account", "", "follow only these accounts of the config file's [accounts.NAME] tables: `NAME[,NAME]` (default all)")
	return f
}

// setting is one value found at some level, with where it came from.
type setting struct {
	val, src string
}

// Resolve combines the parsed flags, the environment (getenv) and the
// config file into Conn. Errors name the setting and its source. With
// [accounts.NAME] tables it resolves the one account --account picks (or
// the only table); several accounts are an error: use ResolveAccounts.
func (f *Flags) Resolve(getenv func(string) string) (Conn, error) {
	accts, err := f.ResolveAccounts(getenv)
	if err != nil {
		return Conn{}, err
	}
	if len(accts) > 1 {
		names := make([]string, len(accts))
		for i, a := range accts {
			names[i] = a.Name
		}
		return Conn{}, fmt.Errorf("the config file names several accounts (%s): pick one with --account NAME", strings.Join(names, ", "))
	}
	return accts[0].Conn, nil
}

// visited is the set of flags given on the command line.
func (f *Flags) visited() map[string]bool {
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	return set
}

// load reads the config file named by --config, BHTOP_CONFIG or the
// default path; it returns the settings and the path.
func (f *Flags) load(getenv func(string) string) (fileSettings, string, error) {
	path := f.configFile
	if !f.visited()["config"] {
		path = getenv("BHTOP_CONFIG")
	}
	explicit := path != ""
	if !explicit {
		path = DefaultPath(getenv)
	}
	file, err := loadFile(path, explicit)
	return file, path, err
}

// resolve builds one account's Conn from the flags, the environment and
// file (the top-level settings, or an account's inherited ones); id, when
// not nil, is the account's table, whose identity keys come first.
func (f *Flags) resolve(set map[string]bool, getenv func(string) string, file fileSettings, path string, id *identity) (Conn, error) {
	var err error
	pick := func(flagName, flagVal, env string, fileVal string, fileKey string) setting {
		if s := id.value(fileKey); s.val != "" {
			return s
		}
		if flagName != "" && set[flagName] {
			return setting{flagVal, "--" + flagName}
		}
		if env != "" {
			if v := getenv(env); v != "" {
				return setting{v, env}
			}
		}
		if fileVal != "" {
			return setting{fileVal, path + ": " + fileKey}
		}
		return setting{}
	}

	var c Conn
	base := pick("base-url", f.baseURL, "BHTOP_BASE_URL", file.BaseURL, "base_url")
	if c.BaseURL, err = checkURL(base, "http", "https"); err != nil {
		return Conn{}, err
	}
	ws := pick("ws-url", f.wsURL, "BHTOP_WS_URL", file.WSURL, "ws_url")
	if c.WSURL, err = checkURL(ws, "ws", "wss"); err != nil {
		return Conn{}, err
	}
	if c.WSURL == "" && c.BaseURL != "" {
		c.WSURL = WSFromBase(c.BaseURL)
	}
	key := pick("", "", "BHTOP_API_KEY", file.APIKey, "api_key")
	c.APIKey, c.APIKeyFrom = strings.TrimSpace(key.val), key.src

	if c.Secret, err = f.secret(set, getenv, file, path, id); err != nil {
		return Conn{}, err
	}

	rw := pick("recv-window", strconv.Itoa(f.recvWindow), "BHTOP_RECV_WINDOW", intText(file.RecvWindow), "recv_window")
	if c.RecvWindow, err = recvWindow(rw); err != nil {
		return Conn{}, err
	}
	if c.Keepalive, err = duration(pick("keepalive", f.keepalive.String(), "BHTOP_KEEPALIVE", file.Keepalive, "keepalive"), DefaultKeepalive); err != nil {
		return Conn{}, err
	}
	if c.Rotate, err = duration(pick("rotate", f.rotate.String(), "BHTOP_ROTATE", file.Rotate, "rotate"), DefaultRotate); err != nil {
		return Conn{}, err
	}
	ro := pick("read-only", strconv.FormatBool(f.readOnly), "BHTOP_READ_ONLY", boolText(file.ReadOnly), "read_only")
	if ro.val != "" {
		if c.ReadOnly, err = strconv.ParseBool(ro.val); err != nil {
			return Conn{}, fmt.Errorf("%s: read-only %q is not true or false", ro.src, ro.val)
		}
	}
	c.Record = pick("record", f.record, "BHTOP_RECORD", file.Record, "record").val
	theme := pick("theme", f.theme, "BHTOP_THEME", file.Theme, "theme")
	c.Theme, c.ThemeFrom = theme.val, theme.src
	c.Log = pick("log", f.log, "BHTOP_LOG", file.Log, "log").val
	c.Alerts = file.rules
	if err := f.resolveMarket(&c, set, getenv, file, path); err != nil {
		return Conn{}, err
	}
	if c.APIKey != "" && c.Secret.Empty() {
		return c, errors.New("BHTOP_API_KEY is set but no secret key: set BHTOP_SECRET_KEY or --secret-file")
	}
	if c.APIKey == "" && !c.Secret.Empty() {
		return c, errors.New("a secret key is set but no API key: set BHTOP_API_KEY")
	}
	if c.HasCredentials() && c.BaseURL == "" {
		return c, errors.New("credentials are set but no base URL: set --base-url or BHTOP_BASE_URL (without credentials bhtop runs on its built-in simulator)")
	}
	return c, nil
}

// secret resolves the secret key: an account table's secret_key or
// secret_file, then --secret-file, BHTOP_SECRET_KEY,
// BHTOP_SECRET_FILE, then the config file's secret_key or secret_file.
func (f *Flags) secret(set map[string]bool, getenv func(string) string, file fileSettings, path string, id *identity) (signer.Secret, error) {
	if s := id.value("secret_key"); s.val != "" {
		return configSecret(s.val, s.src)
	}
	if s := id.value("secret_file"); s.val != "" {
		return readSecretFile(s.val, s.src)
	}
	switch {
	case set["secret-file"]:
		return readSecretFile(f.secretFile, "--secret-file")
	case getenv("BHTOP_SECRET_KEY") != "":
		return signer.NewSecret(strings.TrimSpace(getenv("BHTOP_SECRET_KEY"))), nil
	case getenv("BHTOP_SECRET_FILE") != "":
		return readSecretFile(getenv("BHTOP_SECRET_FILE"), "BHTOP_SECRET_FILE")
	case file.SecretKey != "":
		return configSecret(file.SecretKey, path+": secret_key")
	case file.SecretFile != "":
		return readSecretFile(file.SecretFile, path+": secret_file")
	}
	return signer.Secret{}, nil
}

// WSFromBase derives the WebSocket base URL: http->ws, https->wss.
func WSFromBase(base string) string {
	switch {
	case strings.HasPrefix(base, "https://"):
		return "wss://" + strings.TrimPrefix(base, "https://")
	case strings.HasPrefix(base, "http://"):
		return "ws://" + strings.TrimPrefix(base, "http://")
	}
	return base
}

// hostPortRE is a host name or address with an optional port, nothing
// else: what a URL typed without its scheme usually is.
var hostPortRE = regexp.MustCompile(`^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$`)

// checkURL validates a base URL: one of the schemes (two), a host, no
// path, query or fragment. It returns it without a trailing slash.
func checkURL(s setting, schemes ...string) (string, error) {
	if s.val == "" {
		return "", nil
	}
	shown := redactURL(s.val) // credentials typed into the URL are never echoed
	if !strings.Contains(s.val, "://") {
		// "127.0.0.1:8080" would parse as scheme "127.0.0.1" or fail
		// with "first path segment in URL cannot contain colon".
		if hostPortRE.MatchString(s.val) {
			return "", fmt.Errorf("%s: %q has no scheme: want %s://%s or %s://%s", s.src, s.val, schemes[0], s.val, schemes[1], s.val)
		}
		return "", fmt.Errorf("%s: %q has no scheme: want %s://host[:port]", s.src, shown, strings.Join(schemes, "|"))
	}
	u, err := url.Parse(strings.TrimRight(s.val, "/"))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its text holds the whole URL
		}
		return "", fmt.Errorf("%s: %q is not a URL: %w", s.src, shown, err)
	}
	ok := false
	for _, sc := range schemes {
		ok = ok || u.Scheme == sc
	}
	if !ok || u.Hostname() == "" {
		return "", fmt.Errorf("%s: %q must be %s://host[:port]", s.src, shown, strings.Join(schemes, "|"))
	}
	if p := u.Port(); p != "" || strings.HasSuffix(u.Host, ":") {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("%s: %q: the port must be a number from 1 to 65535", s.src, shown)
		}
	}
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("%s: %q must have no path, query or user (endpoints start at /openapi/)", s.src, shown)
	}
	return u.Scheme + "://" + u.Host, nil
}

func recvWindow(s setting) (time.Duration, error) {
	if s.val == "" {
		return DefaultRecvWindow, nil
	}
	ms, err := strconv.Atoi(s.val)
	if err != nil || ms < 1 || ms > 60000 {
		return 0, fmt.Errorf("%s: recv-window %q must be whole milliseconds from 1 to 60000", s.src, s.val)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

func duration(s setting, def time.Duration) (time.Duration, error) {
	if s.val == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s.val)
	if err != nil || d < time.Second {
		return 0, fmt.Errorf("%s: %q must be a Go duration of at least 1s (e.g. 30m, 23h30m)", s.src, s.val)
	}
	return d, nil
}

func intText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func boolText(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

// configSecret is a config file's secret_key v (from src), blanks around
// it trimmed. A line break inside (a TOML "\n" or a multi-line string) is
// refused as a secret file of two lines is; the error never holds it.
func configSecret(v, src string) (signer.Secret, error) {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, "\r\n") {
		return signer.Secret{}, fmt.Errorf("%s holds more than one line; it must hold the secret key alone", src)
	}
	return signer.NewSecret(v), nil
}
