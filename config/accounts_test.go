package config

import (
	"flag"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"bhtop/internal/testkit"
	"bhtop/signer"
)

// resolveAccounts is resolve's twin for ResolveAccounts.
func resolveAccounts(t *testing.T, args []string, e env, file string) ([]Account, error) {
	t.Helper()
	f, get := parsed(t, args, e, file, 0o600)
	return f.ResolveAccounts(get)
}

const accountsFile = `base_url = "http://top.example:1"
api_key = "topkey"
secret_key = "topsecret"
read_only = true
value_in = "BTC"

[accounts.main]
api_key = "mainkey"
secret_key = "mainsecret"
read_only = false

[accounts.bot1]
base_url = "http://bot.example:2"
watch = ["ethbtc"]
`

func TestResolveAccounts(t *testing.T) {
	type want struct {
		name, base, key, secret, valueIn string
		readOnly                         bool
	}
	tests := []struct {
		name string
		args []string
		env  env
		file string
		want []want
		err  string
	}{
		{name: "no tables: one default account", file: `base_url = "http://x.example:1"
api_key = "k"
secret_key = "s"`, want: []want{{"default", "http://x.example:1", "k", "s", "USDT", false}}},
		{name: "no file at all", want: []want{{"default", "", "", "", "USDT", false}}},
		{name: "all tables by name, inheriting the top level", file: accountsFile, want: []want{
			{"bot1", "http://bot.example:2", "topkey", "topsecret", "BTC", true},
			{"main", "http://top.example:1", "mainkey", "mainsecret", "BTC", false},
		}},
		{name: "--account picks", args: []string{"--account", "main"}, file: accountsFile, want: []want{
			{"main", "http://top.example:1", "mainkey", "mainsecret", "BTC", false},
		}},
		{name: "--account keeps its order", args: []string{"--account", "main,bot1"}, file: accountsFile, want: []want{
			{"main", "http://top.example:1", "mainkey", "mainsecret", "BTC", false},
			{"bot1", "http://bot.example:2", "topkey", "topsecret", "BTC", true},
		}},
		{name: "a table's key wins over the environment", args: []string{"--account", "main"}, file: accountsFile,
			env: env{"BHTOP_API_KEY": "envkey", "BHTOP_SECRET_KEY": "envsecret", "BHTOP_VALUE_IN": "ETH"}, want: []want{
				{"main", "http://top.example:1", "mainkey", "mainsecret", "ETH", false},
			}},
		{name: "a flag wins over a table's setting", args: []string{"--account", "main", "--read-only"}, file: accountsFile, want: []want{
			{"main", "http://top.example:1", "mainkey", "mainsecret", "BTC", true},
		}},
		{name: "unknown account", args: []string{"--account", "nope"}, file: accountsFile, err: "--account nope: no such account (the config file names: bot1, main)"},
		{name: "unknown account without tables", args: []string{"--account", "main"}, err: "--account main: no such account"},
		{name: "default without tables", args: []string{"--account", "default"}, want: []want{{"default", "", "", "", "USDT", false}}},
		{name: "unknown key in a table", file: "[accounts.a]\ntheme = \"dark\"\n", err: "unknown setting(s) accounts.a.theme"},
		{name: "bad name", file: "[accounts.\"a b\"]\nread_only = true\n", err: `account name "a b"`},
		{name: "a table's error names the account", file: "[accounts.a]\napi_key = \"k\"\n", err: "account a: BHTOP_API_KEY is set but no secret key"},
		{name: "an alert rule naming an unknown account", file: accountsFile + "\n[[alerts]]\nkind = \"fill\"\naccount = \"bot2\"\n",
			err: `line 18: [[alerts]] rule 1: account "bot2" is not one of the [accounts.NAME] tables`},
		{name: "an alert rule naming a table", file: accountsFile + "\n[[alerts]]\nkind = \"fill\"\naccount = \"bot1\"\n", want: []want{
			{"bot1", "http://bot.example:2", "topkey", "topsecret", "BTC", true},
			{"main", "http://top.example:1", "mainkey", "mainsecret", "BTC", false},
		}},
		{name: "an alert rule naming the default account without tables", file: "[[alerts]]\nkind = \"fill\"\naccount = \"default\"\n",
			want: []want{{"default", "", "", "", "USDT", false}}},
		{name: "BHTOP_RECORD with several accounts", env: env{"BHTOP_RECORD": "/tmp/x"}, file: accountsFile, err: "BHTOP_RECORD) with several accounts"},
		{name: "BHTOP_RECORD with one of them", args: []string{"--account", "main"}, env: env{"BHTOP_RECORD": "/tmp/x"}, file: accountsFile, want: []want{
			{"main", "http://top.example:1", "mainkey", "mainsecret", "BTC", false},
		}},
		{name: "--record with several accounts", args: []string{"--record", "/tmp/x"}, file: accountsFile, err: "--record (or BHTOP_RECORD) with several accounts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveAccounts(t, tt.args, tt.env, tt.file)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ResolveAccounts() error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ResolveAccounts() error = %v", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("ResolveAccounts() = %d accounts, want %d", len(got), len(tt.want))
			}
			for i, w := range tt.want {
				g := got[i]
				gw := want{g.Name, g.BaseURL, g.APIKey, secretText(g.Secret, tt.want), g.ValueIn, g.ReadOnly}
				if gw != w {
					t.Errorf("account %d = %+v, want %+v", i, gw, w)
				}
			}
		})
	}
}

func TestResolveOneOfSeveral(t *testing.T) {
	dir := t.TempDir()
	p := testkit.WriteFile(t, filepath.Join(dir, "c.toml"), accountsFile)
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := AddFlags(fs)
	if err := fs.Parse([]string{"--config", p}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Resolve(env{}.get); err == nil || !strings.Contains(err.Error(), "pick one with --account NAME") {
		t.Fatalf("Resolve() with two accounts: error = %v, want one asking for --account", err)
	}
}

// secretText names which of the wanted secrets s is (by signing with it),
// "" for none: a Secret never prints.
func secretText[W any](s signer.Secret, _ []W) string {
	if s.Empty() {
		return ""
	}
	for _, c := range []string{"k", "s", "topsecret", "mainsecret", "envsecret"} {
		if signer.Sign(s, "x") == signer.Sign(signer.NewSecret(c), "x") {
			return c
		}
	}
	return "?"
}

// TestTopLevelRecordWithAccounts: a top-level record with [accounts.NAME]
// tables is taken as --record is: refused when several accounts are
// followed (it used to be ignored, silently), the journal of the one
// account followed otherwise, unless its table names its own.
func TestTopLevelRecordWithAccounts(t *testing.T) {
	file := "record = \"/tmp/top.jsonl\"\n" + accountsFile
	if _, err := resolveAccounts(t, nil, nil, file); err == nil || !strings.Contains(err.Error(), "record at the top level") ||
		!strings.Contains(err.Error(), "with several accounts") {
		t.Errorf("top-level record, all accounts: error = %v, want a refusal", err)
	}
	got, err := resolveAccounts(t, []string{"--account", "main"}, nil, file)
	if err != nil || len(got) != 1 || got[0].Record != "/tmp/top.jsonl" {
		t.Errorf("top-level record, --account main = %+v, %v; want main recording to /tmp/top.jsonl", got, err)
	}
	own := strings.Replace(file, "[accounts.main]\n", "[accounts.main]\nrecord = \"/tmp/main.jsonl\"\n", 1)
	got, err = resolveAccounts(t, []string{"--account", "main"}, nil, own)
	if err != nil || len(got) != 1 || got[0].Record != "/tmp/main.jsonl" {
		t.Errorf("top-level and table record, --account main = %+v, %v; want the table's /tmp/main.jsonl", got, err)
	}
	perTable := strings.Replace(accountsFile, "[accounts.main]\n", "[accounts.main]\nrecord = \"/tmp/main.jsonl\"\n", 1)
	if got, err = resolveAccounts(t, nil, nil, perTable); err != nil || len(got) != 2 || got[1].Record != "/tmp/main.jsonl" || got[0].Record != "" {
		t.Errorf("record in one table = %+v, %v; want main only recording", got, err)
	}
}

// TestPriceCrossSymbolsWatched: a price_cross rule's symbol is watched by
// every account the rule applies to, so that its price is followed even
// when no balance, order or position touches it (otherwise the rule never
// fired, silently).
func TestPriceCrossSymbolsWatched(t *testing.T) {
	rules := `
[[alerts]]
kind = "price_cross"
symbol = "LTCBTC"
above = 1
[[alerts]]
kind = "price_cross"
symbol = "XRPUSDT"
below = 1
account = "main"
[[alerts]]
kind = "price_cross"
symbol = "ETHBTC"
below = 1
`
	accts, err := resolveAccounts(t, nil, nil, accountsFile+rules)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"bot1": {"ETHBTC", "LTCBTC"}, "main": {"LTCBTC", "XRPUSDT", "ETHBTC"}}
	for _, a := range accts {
		if strings.Join(a.Watch, ",") != strings.Join(want[a.Name], ",") {
			t.Errorf("account %s watches %q, want %q", a.Name, a.Watch, want[a.Name])
		}
	}
	one, err := resolveAccounts(t, []string{"--watch", "BTCUSDT,LTCBTC"}, nil, "base_url = \"http://x.example:1\"\napi_key = \"k\"\nsecret_key = \"s\"\n"+
		strings.ReplaceAll(rules, `account = "main"`, `account = "default"`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(one[0].Watch, ","); got != "BTCUSDT,LTCBTC,XRPUSDT,ETHBTC" {
		t.Errorf("the default account watches %q, want BTCUSDT,LTCBTC,XRPUSDT,ETHBTC", got)
	}
}

// TestTableReadOnlyHolds: an [accounts.NAME] table's read_only = true is
// that account's own safety switch: neither BHTOP_READ_ONLY=false nor
// --read-only=false (meant for every account) makes it tradable. A
// table's read_only = false stays below them (--read-only still makes
// every account read-only).
func TestTableReadOnlyHolds(t *testing.T) {
	file := `base_url = "http://x.example:1"
[accounts.bot]
api_key = "b"
secret_key = "bs"
read_only = true
[accounts.main]
api_key = "m"
secret_key = "ms"
read_only = false
`
	for _, tc := range []struct {
		name string
		args []string
		env  env
		want map[string]bool
	}{
		{"environment false", nil, env{"BHTOP_READ_ONLY": "false"}, map[string]bool{"bot": true, "main": false}},
		{"flag false", []string{"--read-only=false"}, nil, map[string]bool{"bot": true, "main": false}},
		{"flag true", []string{"--read-only"}, nil, map[string]bool{"bot": true, "main": true}},
		{"nothing", nil, nil, map[string]bool{"bot": true, "main": false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			accts, err := resolveAccounts(t, tc.args, tc.env, file)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range accts {
				if a.ReadOnly != tc.want[a.Name] {
					t.Errorf("account %s: ReadOnly %v, want %v", a.Name, a.ReadOnly, tc.want[a.Name])
				}
			}
		})
	}
}

// TestPriceCrossOncePerHost: a price is the market's, not an account's: a
// price_cross rule naming no account is evaluated on the first account of
// each service host (accounts without a base URL share the built-in
// simulator), so one crossing is one alert, not one per account, shown
// to the viewers of every account of the host (Rule.Host). A rule naming
// an account is left as it is.
func TestPriceCrossOncePerHost(t *testing.T) {
	file := `
[accounts.a1]
base_url = "http://one.example:1"
api_key = "k"
secret_key = "s"
[accounts.a2]
base_url = "HTTP://ONE.example:1"
api_key = "k"
secret_key = "s"
[accounts.b1]
base_url = "http://two.example:2"
api_key = "k"
secret_key = "s"
[accounts.b2]
base_url = "http://two.example:2"
api_key = "k"
secret_key = "s"

[[alerts]]
kind = "fill"
[[alerts]]
kind = "price_cross"
symbol = "BTCUSDT"
above = 70000
[[alerts]]
kind = "price_cross"
symbol = "ETHBTC"
below = 1
account = "b2"
`
	accts, err := resolveAccounts(t, nil, nil, file)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range accts[0].Alerts {
		got = append(got, r.ID+"@"+r.Account+"("+strings.Join(r.Host, " ")+")")
	}
	if want := "fill#1@(),price_cross#2@a1(a1 a2),price_cross#2@b1(b1 b2),price_cross#3@b2()"; strings.Join(got, ",") != want {
		t.Errorf("rules %s, want %s", strings.Join(got, ","), want)
	}
	watch := map[string]string{}
	for _, a := range accts {
		watch[a.Name] = strings.Join(a.Watch, ",")
	}
	if want := map[string]string{"a1": "BTCUSDT", "a2": "", "b1": "BTCUSDT", "b2": "ETHBTC"}; !maps.Equal(watch, want) {
		t.Errorf("watch lists %v, want %v", watch, want)
	}
}
