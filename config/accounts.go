package config

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// DefaultAccount is the name of the one account of a config file without
// [accounts.NAME] tables (DESIGN.md 'Accounts'); nothing shown names it.
const DefaultAccount = "default"

// accountSettings are the connection keys: the top level's (embedded in
// fileSettings) and one [accounts.NAME] table's. Keys a table leaves out
// are inherited from the top level.
//
//	[accounts.bot1]
//	base_url    = "https://api.example.com"
//	api_key     = "..."
//	secret_file = "/path/to/bot1.secret"   # or secret_key = "..."
//	read_only   = true
//	value_in    = "USDT"
//	watch       = ["BTCUSDT"]
type accountSettings struct {
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
	ValueIn    string   `toml:"value_in"`
	Watch      []string `toml:"watch"`
}

// Account is one account to follow: its name and resolved settings.
type Account struct {
	// Name is the table's NAME, or DefaultAccount without tables.
	Name string
	Conn
}

// accountNameRE is what an account name may hold: it is shown in the
// header, used as a metrics label and in BHTOP_ACCOUNTS lists.
var accountNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,40}$`)

// inherit returns the top-level settings overlaid with the table's
// non-identity keys (the identity keys are picked by identity).
func (file fileSettings) inherit(t accountSettings) fileSettings {
	m := file
	if t.RecvWindow != 0 {
		m.RecvWindow = t.RecvWindow
	}
	if t.Keepalive != "" {
		m.Keepalive = t.Keepalive
	}
	if t.Rotate != "" {
		m.Rotate = t.Rotate
	}
	if t.ReadOnly != nil {
		m.ReadOnly = t.ReadOnly
	}
	if t.Record != "" {
		// A journal is one account's: a top-level record reaches a table
		// only when it is the one account followed (ResolveAccounts
		// refuses it with several), as --record does.
		m.Record = t.Record
	}
	if t.ValueIn != "" {
		m.ValueIn = t.ValueIn
	}
	if len(t.Watch) > 0 {
		m.Watch = t.Watch
	}
	return m
}

// identity is what a table says about where and who the account is:
// these keys win over flags and environment, which are one value for
// every account (a table's api_key must not lose to BHTOP_API_KEY), and
// so does its read_only = true.
type identity struct {
	name, path string
	t          accountSettings
}

// value returns the table's value of an identity key, with its source.
func (id *identity) value(key string) setting {
	if id == nil {
		return setting{}
	}
	var v string
	switch key {
	case "base_url":
		v = id.t.BaseURL
	case "ws_url":
		v = id.t.WSURL
	case "api_key":
		v = id.t.APIKey
	case "secret_key":
		v = id.t.SecretKey
	case "secret_file":
		v = id.t.SecretFile
	case "read_only":
		// The account's own safety switch: a read-only table is not made
		// tradable by a false meant for every account (BHTOP_READ_ONLY,
		// --read-only=false). Its false sits below them, with the file.
		if id.t.ReadOnly != nil && *id.t.ReadOnly {
			v = "true"
		}
	}
	if v == "" {
		return setting{}
	}
	return setting{v, id.path + ": accounts." + id.name + "." + key}
}

// ResolveAccounts resolves every account to follow: the config file's
// [accounts.NAME] tables picked by --account (default all, sorted by
// name), each inheriting the top-level keys; or, without tables, the one
// account of Resolve named DefaultAccount. An unknown name in --account
// is an error.
func (f *Flags) ResolveAccounts(getenv func(string) string) ([]Account, error) {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	file, path, err := f.load(getenv)
	if err != nil {
		return nil, err
	}
	names, err := f.pick(file, path)
	if err != nil {
		return nil, err
	}
	set := f.visited()
	if len(file.Accounts) == 0 {
		c, err := f.resolve(set, getenv, file, path, nil)
		if err != nil {
			return nil, err
		}
		c.Watch = watchRuleSymbols(c.Watch, c.Alerts, DefaultAccount)
		return []Account{{Name: DefaultAccount, Conn: c}}, nil
	}
	if len(names) > 1 && (set["record"] || getenv("BHTOP_RECORD") != "") {
		return nil, errors.New("--record (or BHTOP_RECORD) with several accounts: set record in each [accounts.NAME] table (a journal holds one account)")
	}
	if len(names) > 1 && file.Record != "" {
		return nil, fmt.Errorf("config file %s: record at the top level with several accounts: set record in each [accounts.NAME] table (a journal holds one account)", path)
	}
	out := make([]Account, 0, len(names))
	for _, n := range names {
		t := file.Accounts[n]
		c, err := f.resolve(set, getenv, file.inherit(t), path, &identity{name: n, path: path, t: t})
		if err != nil {
			return nil, fmt.Errorf("account %s: %w", n, err)
		}
		out = append(out, Account{Name: n, Conn: c})
	}
	rules := marketRulesPerHost(out[0].Alerts, out)
	for i := range out {
		out[i].Alerts = rules
		out[i].Watch = watchRuleSymbols(out[i].Watch, rules, out[i].Name)
	}
	return out, nil
}

// pick returns the account names --account selects (all without it),
// checking the tables' names and refusing unknown ones.
func (f *Flags) pick(file fileSettings, path string) ([]string, error) {
	all := make([]string, 0, len(file.Accounts))
	for n := range file.Accounts {
		if !accountNameRE.MatchString(n) {
			return nil, fmt.Errorf("config file %s: account name %q: want 1 to 40 letters, digits, '_', '.' or '-'", path, n)
		}
		all = append(all, n)
	}
	sort.Strings(all)
	if f.account == "" {
		return all, nil
	}
	known := all
	if len(all) == 0 {
		known = []string{DefaultAccount}
	}
	var out []string
	for _, n := range strings.Split(f.account, ",") {
		n = strings.TrimSpace(n)
		if n == "" || slices.Contains(out, n) {
			continue
		}
		if !slices.Contains(known, n) {
			return nil, fmt.Errorf("--account %s: no such account (the config file names: %s)", n, strings.Join(known, ", "))
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("--account: name at least one account")
	}
	if len(all) == 0 {
		return nil, nil
	}
	return out, nil
}

// checkRuleAccounts refuses an alert rule naming an account the file's
// [accounts.NAME] tables do not have (it would never fire), with the
// rule's line. Without tables the one account is DefaultAccount.
func checkRuleAccounts(path, text string, file fileSettings) error {
	lines := scanAlertLines(text)
	for i, r := range file.rules {
		if r.Account == "" {
			continue
		}
		if _, known := file.Accounts[r.Account]; known || (len(file.Accounts) == 0 && r.Account == DefaultAccount) {
			continue
		}
		where := ""
		if line := lines.line(i, "account"); line > 0 {
			where = fmt.Sprintf("line %d: ", line)
		}
		why := "is not one of the [accounts.NAME] tables"
		if len(file.Accounts) == 0 {
			why = fmt.Sprintf("is not an account of this file (without [accounts.NAME] tables its one account is %q)", DefaultAccount)
		}
		return fmt.Errorf("config file %s: %s[[alerts]] rule %d: account %q %s", path, where, i+1, r.Account, why)
	}
	return nil
}
