package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/sim"
)

// twoAccountsConfig names two accounts of one simulator: "main" with the
// second simulated account's keys and "bot" with a wrong secret.
func twoAccountsConfig(t *testing.T) string {
	t.Helper()
	s := simtest.Start(t, sim.Options{Activity: 2, Accounts: 2})
	k := s.Accounts(sim.DemoSecret)[1]
	return "base_url = \"" + s.URL() + "\"\n\n[accounts.main]\napi_key = \"" + k.APIKey + "\"\nsecret_key = \"" + k.SecretKey + "\"\n" +
		"\n[accounts.bot]\napi_key = \"" + k.APIKey + "\"\nsecret_key = \"wrong\"\n"
}

// missingNone reports whether a several-account dump's total misses no
// account (every one live, with its market data).
func missingNone(out string) bool { return strings.Contains(out, `"missing":[]`) }

// accountsDump is the several-account dump.
type accountsDump struct {
	Accounts map[string]struct {
		Account   *struct{ CanTrade bool } `json:"account"`
		Balances  []struct{ Asset string } `json:"balances"`
		Alerts    []any                    `json:"alerts"`
		Valuation *struct {
			Equity string `json:"equity"`
		} `json:"valuation"`
	} `json:"accounts"`
	Total *struct {
		Asset    string   `json:"asset"`
		Equity   string   `json:"equity"`
		Unpriced []string `json:"unpriced"`
		Missing  []string `json:"missing"`
	} `json:"total"`
}

// TestDumpAccounts: without --account every account of the config file
// is dumped under "accounts" with a "total"; two simulated accounts (no
// credentials) share one in-process simulator, each with its own state.
func TestDumpAccounts(t *testing.T) {
	env := deskEnv(t, "[accounts.a]\n[accounts.b]\nvalue_in = \"USDT\"\n")
	d, out := dumpReadyOK[accountsDump](t, env, 2*time.Second, missingNone)
	if len(d.Accounts) != 2 || d.Total == nil || d.Total.Asset != "USDT" || d.Total.Equity == "" || d.Total.Unpriced == nil {
		t.Fatalf("dump = %s", out)
	}
	if !strings.Contains(out, `"missing":[]`) {
		t.Errorf("every account live: the total's missing must be [], got %q", d.Total.Missing)
	}
	for _, n := range []string{"a", "b"} {
		a := d.Accounts[n]
		if a.Account == nil || len(a.Balances) == 0 || a.Alerts == nil {
			t.Errorf("account %s: %+v", n, a)
		}
	}
	if !strings.HasPrefix(out, `{"accounts":{"a":{"account":`) {
		t.Errorf("dump does not start with the accounts in order: %.60s", out)
	}
}

// TestDumpOneAccount: --account NAME prints that account's dump exactly
// as a single account's; an unknown name exits 2.
func TestDumpOneAccount(t *testing.T) {
	env := deskEnv(t, "[accounts.a]\n[accounts.b]\n")
	d, _ := dumpOK[map[string]json.RawMessage](t, env, "--for", "1s", "--account", "b")
	for _, k := range []string{"account", "balances", "orders", "positions", "pending", "stats", "market", "valuation", "alerts"} {
		if _, ok := d[k]; !ok {
			t.Errorf("one account's dump lacks %q", k)
		}
	}
	if _, ok := d["accounts"]; ok {
		t.Error("one account's dump has \"accounts\"")
	}
	if code, _, errOut := runCLI(env, "dump", "--for", "1s", "--account", "nope"); code != ExitUsage || !strings.Contains(errOut, "--account nope: no such account") {
		t.Errorf("unknown account: exit %d, %q; want 2", code, errOut)
	}
	if code, _, _ := runCLI(env, "dump", "--order", "symbol=ETHBTC&side=BUY&quantity=1&price=0.01"); code != ExitUsage {
		t.Errorf("--order with two accounts: exit %d, want 2", code)
	}
}

// TestDumpAccountsWrongKey: an account with a wrong key never goes live,
// the other does and is dumped whole; the run prints both and fails
// naming the broken one.
func TestDumpAccountsWrongKey(t *testing.T) {
	env := deskEnv(t, twoAccountsConfig(t))
	code, out, errOut := dumpReady(t, env, 2*time.Second, func(out string) bool { return strings.Contains(out, `"counted":1`) })
	if code != ExitFail || !strings.Contains(errOut, "account bot:") || strings.Contains(errOut, "account main:") {
		t.Fatalf("dump exit %d, stderr %q; want 1 naming bot only", code, errOut)
	}
	var d accountsDump
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("dump: %v\n%s", err, out)
	}
	if m := d.Accounts["main"]; m.Account == nil || len(m.Balances) == 0 {
		t.Errorf("main was not followed: %+v", m)
	}
	if b := d.Accounts["bot"]; b.Account != nil || len(b.Balances) != 0 {
		t.Errorf("bot has a state without a good key: %+v", b)
	}
	// bot's equity is unknown, not 0: the total is main's alone and says
	// that bot is left out.
	m := d.Accounts["main"]
	if d.Total == nil || len(d.Total.Missing) != 1 || d.Total.Missing[0] != "bot" || m.Valuation == nil || d.Total.Equity != m.Valuation.Equity {
		t.Errorf("total = %+v, main's valuation %+v; want main's equity with missing [bot]", d.Total, m.Valuation)
	}
	if strings.Contains(out+errOut, "wrong") {
		t.Error("a secret was printed")
	}
}

// TestAccountMetricsLabels: each account's metrics carry its name.
func TestAccountMetricsLabels(t *testing.T) {
	env := deskEnv(t, twoAccountsConfig(t))
	scrapeDump(t, env, 3*time.Second, "/metrics never showed main up and bot down",
		[]string{`bhtop_stream_up{account="main"} 1`, `bhtop_stream_up{account="bot"} 0`, `bhtop_equity{account="main",asset="USDT"}`})
}

// TestDashboardAccounts: the dashboard follows two accounts of one
// simulator, one with a wrong key: main goes live, a shows bot failing
// (main unaffected), a again the All view with both, and q quits.
func TestDashboardAccounts(t *testing.T) {
	env := deskEnv(t, twoAccountsConfig(t))
	code, _, errOut := driveDashboard(t, []string{"--account", "main,bot"}, env, 140, 40,
		screenStep{[]string{"main", "● live", "Balances"}, "a"},
		screenStep{[]string{"bot", "-1022"}, "a"},
		screenStep{[]string{"ALL ACCOUNTS", "1/2 streams live"}, "q"})
	if code != ExitOK {
		t.Fatalf("dashboard exit %d; stderr %s", code, errOut)
	}
}

// TestAccountsLogNameTheAccount: with several accounts, what one account's
// stream logs (here bot's wrong secret) names that account, so that the
// operator of serve or dump can tell which one is broken from the log.
func TestAccountsLogNameTheAccount(t *testing.T) {
	env := deskEnv(t, twoAccountsConfig(t))
	logFile := filepath.Join(t.TempDir(), "bhtop.log")
	if code, _, errOut := runCLI(env, "dump", "--for", "2s", "--log", logFile); code != ExitFail {
		t.Fatalf("dump exit %d, stderr %q; want 1", code, errOut)
	}
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	var bad, live bool
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.Contains(line, "signature not valid"):
			bad = true
			if !strings.Contains(line, "account=bot") {
				t.Errorf("the wrong secret's line does not name bot: %s", line)
			}
		case strings.Contains(line, "stream live"):
			live = true
			if !strings.Contains(line, "account=main") {
				t.Errorf("the live stream's line does not name main: %s", line)
			}
		}
	}
	if !bad || !live {
		t.Fatalf("log lacks the wrong secret (%v) or main going live (%v):\n%s", bad, live, b)
	}
}

// TestDumpAccountsNoMarketTotal: without market data no account's equity
// is known, so the total counts none and says why for each; its equity
// is not a sum of anything. With market data every live account counts.
func TestDumpAccountsNoMarketTotal(t *testing.T) {
	env := deskEnv(t, "[accounts.a]\n[accounts.b]\n")
	type total struct {
		Equity  string            `json:"equity"`
		Missing []string          `json:"missing"`
		Counted *int              `json:"counted"`
		Why     map[string]string `json:"why"`
	}
	d, _ := dumpOK[struct{ Total total }](t, env, "--for", "1500ms", "--no-market")
	if d.Total.Counted == nil || *d.Total.Counted != 0 || len(d.Total.Missing) != 2 {
		t.Errorf("--no-market total = %+v; want counted 0 and both missing", d.Total)
	}
	for _, n := range []string{"a", "b"} {
		if !strings.Contains(d.Total.Why[n], "--no-market") {
			t.Errorf("--no-market total: why[%s] = %q, want it to name --no-market", n, d.Total.Why[n])
		}
	}
	d, _ = dumpReadyOK[struct{ Total total }](t, env, 1500*time.Millisecond, missingNone)
	if d.Total.Counted == nil || *d.Total.Counted != 2 || len(d.Total.Missing) != 0 || d.Total.Why == nil || len(d.Total.Why) != 0 {
		t.Errorf("total with market data = %+v; want counted 2, missing [] and why {}", d.Total)
	}
}

// TestDumpAccountsWhyNeverLive: the total's why for an account with a
// wrong key read "no snapshot yet", as if the dump might still get one;
// at the end of the run it never went live.
func TestDumpAccountsWhyNeverLive(t *testing.T) {
	env := deskEnv(t, twoAccountsConfig(t))
	_, out, _ := dumpReady(t, env, 1500*time.Millisecond, func(out string) bool { return strings.Contains(out, `"counted":1`) })
	var d struct {
		Total struct {
			Counted int               `json:"counted"`
			Why     map[string]string `json:"why"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("dump: %v\n%s", err, out)
	}
	if d.Total.Counted != 1 || !strings.HasPrefix(d.Total.Why["bot"], "never went live") || len(d.Total.Why) != 1 {
		t.Errorf("total = %+v; want counted 1 and why {bot: never went live...}", d.Total)
	}
}
