package cli

import (
	"context"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bhtop/config"
	"bhtop/internal/testkit"
)

// leakSecret is the distinctive secret of TestNoCommandLeaksTheSecret.
const leakSecret = "LEAKCANARY-s3cr3t-5e1f7a"

// leaks lists the forms of a secret a careless print could take: the
// text, a part of it, its bytes as fmt prints a []byte, and its hex.
func leaks(secret string) []string {
	return []string{secret, secret[:10], strings.Trim(fmt.Sprint([]byte(secret[:8])), "[]"),
		hex.EncodeToString([]byte(secret[:8]))}
}

// checkNoLeak fails when text holds the secret in any of its forms.
func checkNoLeak(t *testing.T, where, text string) {
	t.Helper()
	checkNoLeakOf(t, leakSecret, where, text)
}

// refusedWithoutLeak runs bhtop with args in env and fails unless it
// exits 2 with neither stdout nor stderr holding the secret, as written,
// upper-cased or lower-cased (a refusal that changed the case of what it
// quotes); it returns stderr.
func refusedWithoutLeak(t *testing.T, env func(string) string, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(env, args...)
	if code != ExitUsage {
		// Only the verb: the arguments hold the test's secret.
		t.Errorf("bhtop %q …: exit %d, want %d (stderr %q)", args[:min(2, len(args))], code, ExitUsage, errOut)
	}
	for where, text := range map[string]string{"stdout": out, "stderr": errOut} {
		for _, s := range []string{text, strings.ToUpper(text), strings.ToLower(text)} {
			checkNoLeak(t, where, s)
		}
	}
	return errOut
}

func checkNoLeakOf(t *testing.T, secret, where, text string) {
	t.Helper()
	for _, l := range leaks(secret) {
		if strings.Contains(text, l) {
			t.Errorf("%s holds the secret (as %q):\n%s", where, l, text)
		}
	}
}

// TestNoCommandLeaksTheSecret runs the commands that hold a secret with a
// distinctive one, every log and journal switched on, and greps all they
// wrote. The only allowed place is bhtop sim's first line.
func TestNoCommandLeaksTheSecret(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "secret")
	testkit.WriteFile(t, secretFile, leakSecret+"\n")
	reqLog := filepath.Join(dir, "requests.jsonl")

	// bhtop sim with the key pair; its stderr and request log are checked.
	simCmd, ok := startSimCommand(t, "--key", "leakKey:"+leakSecret, "--activity", "20",
		"--market-interval", "50ms", "--log-requests", reqLog)
	if !ok || simCmd.conn.SecretKey != leakSecret {
		t.Fatalf("bhtop sim's first line %q (stderr %s)", simCmd.line, simCmd.stderr)
	}
	conn := simCmd.conn
	defer func() {
		simCmd.stop(t)
		checkNoLeak(t, "bhtop sim's stderr", simCmd.stderr.String())
		b, _ := os.ReadFile(reqLog)
		checkNoLeak(t, "bhtop sim's --log-requests", string(b))
	}()

	envWith := func(extra map[string]string) func(string) string {
		env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "BHTOP_BASE_URL": conn.BaseURL,
			"BHTOP_API_KEY": "leakKey", "BHTOP_SECRET_KEY": leakSecret}
		for k, v := range extra {
			env[k] = v
		}
		return func(k string) string { return env[k] }
	}
	fromFile := map[string]string{"BHTOP_SECRET_KEY": "", "BHTOP_SECRET_FILE": secretFile}
	orderLog := filepath.Join(dir, "order.log")
	newOrder := []string{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "0.01", "--price", "0.01", "--log", orderLog}
	runs := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"order new", nil, newOrder},
		{"order new, secret file", fromFile, newOrder},
		{"order new, --secret-file", map[string]string{"BHTOP_SECRET_KEY": ""}, append(newOrder, "--secret-file", secretFile)},
		{"order new, bad order", nil, append(newOrder[:len(newOrder):len(newOrder)], "--type", "LIMIT_MAKER", "--price", "99999")},
		{"order cancel, unknown order", nil, []string{"order", "cancel", "--symbol", "ETHBTC", "--order-id", "1", "--log", orderLog}},
		{"order new, unreachable", map[string]string{"BHTOP_BASE_URL": "http://127.0.0.1:1"}, newOrder},
		{"order new, wrong key", map[string]string{"BHTOP_API_KEY": "otherKey"}, newOrder},
		{"order new, bad recv window", map[string]string{"BHTOP_RECV_WINDOW": "x"}, newOrder},
		{"dump", nil, []string{"dump", "--for", "2s", "--record", filepath.Join(dir, "dump.jsonl"), "--log", filepath.Join(dir, "dump.log"),
			"--order", "symbol=ETHBTC&side=BUY&quantity=0.01&price=0.01"}},
		{"dump, unreachable", map[string]string{"BHTOP_BASE_URL": "http://127.0.0.1:1"}, []string{"dump", "--for", "1s", "--log", filepath.Join(dir, "dump.log")}},
		{"order new, credentials in the base URL", map[string]string{"BHTOP_BASE_URL": "http://u:" + leakSecret + "@127.0.0.1:1"}, newOrder},
		{"dump, credentials in --base-url", nil, []string{"dump", "--for", "1s", "--base-url", "http://u:" + leakSecret + "@127.0.0.1:1/%zz"}},
		{"serve, credentials in --ws-url", nil, []string{"serve", "--ws-url", "ws://" + leakSecret + "@127.0.0.1:1"}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			code, out, errOut := runCLI(envWith(r.env), r.args...)
			t.Logf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
			checkNoLeak(t, "stdout", out)
			checkNoLeak(t, "stderr", errOut)
		})
	}

	t.Run("sim, bad --key", func(t *testing.T) {
		for _, k := range []string{"leakKey:" + leakSecret + ":BOGUS", ":" + leakSecret} {
			var out, errOut strings.Builder
			code := runSimContext(context.Background(), []string{"--key", k}, IO{Out: &out, Err: &errOut})
			if code != ExitUsage {
				t.Errorf("bhtop sim --key %q = %d, want %d", k, code, ExitUsage)
			}
			checkNoLeak(t, "stdout", out.String())
			checkNoLeak(t, "stderr", errOut.String())
		}
	})

	t.Run("unquoted secret in the config file", func(t *testing.T) {
		cfgDir := t.TempDir()
		testkit.ConfigFile(t, cfgDir, "secret_key = "+leakSecret+"\n", 0o600)
		env := envWith(map[string]string{"BHTOP_SECRET_KEY": "", "XDG_CONFIG_HOME": cfgDir})
		for _, args := range [][]string{newOrder, {"dump", "--for", "1s"}} {
			refusedWithoutLeak(t, env, args...)
		}
	})

	t.Run("serve", func(t *testing.T) {
		authKeys := filepath.Join(dir, "authorized_keys")
		testkit.WriteAuthorizedKeys(t, authKeys, testkit.SSHKey(t))
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		cf := config.AddFlags(fs)
		if err := fs.Parse([]string{"--record", filepath.Join(dir, "serve.jsonl")}); err != nil {
			t.Fatal(err)
		}
		c, err := cf.Resolve(envWith(nil))
		if err != nil {
			t.Fatal(err)
		}
		logged := &lockedLog{}
		logger := testkit.DebugLogger(logged)
		sf := serveFlags{listen: "127.0.0.1:0", authorizedKeys: authKeys, hostKey: filepath.Join(dir, "host_key"),
			maxSessions: 2, fps: 10, idleTimeout: -1, shutdownWait: time.Second}
		sctx, scancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer scancel()
		if err := serveUntilDone(sctx, sf, c, logger, nil); err != nil {
			t.Fatalf("serve: %v", err)
		}
		checkNoLeak(t, "serve's log", logged.String())
	})

	t.Run("dashboard", func(t *testing.T) {
		s, _ := dashboardSim(t)
		code, screen, errOut := runDashboardTest(t, s, "q", "--log", filepath.Join(dir, "dash.log"), "--record", filepath.Join(dir, "dash.jsonl"))
		t.Logf("exit %d, %d bytes drawn, stderr: %s", code, len(screen), errOut)
		// dashboardSim's key pair is orderKey/orderSecret.
		checkNoLeakOf(t, orderSecret, "the dashboard's screen", screen)
		checkNoLeakOf(t, orderSecret, "the dashboard's stderr", errOut)
		for _, f := range []string{"dash.log", "dash.jsonl"} {
			b, _ := os.ReadFile(filepath.Join(dir, f))
			checkNoLeakOf(t, orderSecret, f, string(b))
		}
	})

	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if f == secretFile || f == reqLog {
			continue
		}
		b, _ := os.ReadFile(f)
		checkNoLeak(t, f, string(b))
	}
}

// TestSecretAsArgumentRefused: the secret typed into the wrong argument
// (as a symbol, a side, a client order id, in a dump --order) is refused
// with exit 2 before anything is sent, and neither the refusal nor
// anything else shows it; the service never sees it.
func TestSecretAsArgumentRefused(t *testing.T) {
	s, log := loggedSim(t)
	env := orderEnv(t, s, map[string]string{"BHTOP_SECRET_KEY": leakSecret})
	lower := strings.ToLower(leakSecret)
	runs := [][]string{
		{"order", "new", "--symbol", leakSecret, "--side", "BUY", "--quantity", "1", "--price", "0.01"},
		{"order", "new", "--symbol", lower, "--side", "BUY", "--quantity", "1", "--price", "0.01"},
		{"order", "new", "--symbol", "ETHBTC", "--side", leakSecret, "--quantity", "1", "--price", "0.01"},
		{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", leakSecret, "--price", "0.01"},
		{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "1", "--price", "0.01", "--client-order-id", leakSecret},
		{"order", "cancel", "--client-order-id", "x" + leakSecret},
		{"order", "cancel-all", "--symbol=" + leakSecret},
		{"dump", "--for", "1s", "--order", "symbol=" + leakSecret + "&side=BUY&quantity=1&price=0.01"},
		{"dump", "--for", "1s", "--order", "symbol=ETHBTC&side=BUY&quantity=1&price=0.01&clientOrderId=" + leakSecret},
	}
	for _, args := range runs {
		if errOut := refusedWithoutLeak(t, env, args...); !strings.Contains(errOut, "secret") {
			t.Errorf("bhtop %s: stderr %q does not say an argument holds the secret", strings.Join(args[:2], " "), errOut)
		}
	}
	checkNoLeak(t, "the service's request log", strings.ToUpper(log.String()))
}

// TestSecretInRefusedFlagNotEchoed: a flag refused before the settings
// resolve (a duration, an account name, an asset) quoted the value, which
// was the secret of BHTOP_SECRET_KEY; stderr never shows it.
func TestSecretInRefusedFlagNotEchoed(t *testing.T) {
	env := deskEnv(t, "")
	withSecret := func(k string) string {
		if k == "BHTOP_SECRET_KEY" {
			return leakSecret
		}
		return env(k)
	}
	for _, args := range [][]string{
		{"dump", "--for", leakSecret}, {"dump", "--for", "1s", "--account", leakSecret}, {"dump", "--for", "1s", "--value-in", leakSecret},
		{"order", "new", "--timeout", leakSecret}, {"sim", "--seed", strings.ToLower(leakSecret)}, {"replay", leakSecret, "--dump"},
		{"bogus-" + leakSecret},
	} {
		refusedWithoutLeak(t, withSecret, args...)
	}
}

// TestSecretOfEverySourceNotEchoed: a secret from --secret-file,
// BHTOP_SECRET_FILE, the config file's secret_key or secret_file (top
// level or an [accounts.NAME] table) typed into a flag refused before the
// settings resolve is never shown either, in any letter case.
func TestSecretOfEverySourceNotEchoed(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "secret")
	testkit.WriteFile(t, secretFile, leakSecret+"\n")
	if err := os.Chmod(secretFile, 0o600); err != nil {
		t.Fatal(err)
	}
	sources := []struct {
		name   string
		config string
		env    map[string]string
		args   []string
	}{
		{name: "--secret-file", args: []string{"--secret-file", secretFile}},
		{name: "--secret-file=", args: []string{"--secret-file=" + secretFile}},
		{name: "BHTOP_SECRET_FILE", env: map[string]string{"BHTOP_SECRET_FILE": secretFile}},
		{name: "config secret_key", config: "api_key = \"k\"\nsecret_key = \"" + leakSecret + "\"\n"},
		{name: "config secret_file", config: "api_key = \"k\"\nsecret_file = \"" + secretFile + "\"\n"},
		{name: "account secret_key", config: "[accounts.a]\napi_key = \"k\"\nsecret_key = \"" + leakSecret + "\"\n"},
		{name: "account secret_file", config: "[accounts.a]\napi_key = \"k\"\nsecret_file = \"" + secretFile + "\"\n"},
		{name: "BHTOP_CONFIG", env: map[string]string{"BHTOP_CONFIG": "CFG"}, config: "secret_key = \"" + leakSecret + "\"\n"},
		{name: "--config", args: []string{"--config", "CFG"}, config: "secret_key = \"" + leakSecret + "\"\n"},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": home}
			cfg := ""
			if src.config != "" {
				cfg = testkit.ConfigFile(t, home, src.config, 0o600)
				if src.env["BHTOP_CONFIG"] != "" || slices.Contains(src.args, "CFG") {
					other := filepath.Join(t.TempDir(), "other.toml")
					if err := os.Rename(cfg, other); err != nil {
						t.Fatal(err)
					}
					cfg = other
				}
			}
			for k, v := range src.env {
				env[k] = strings.ReplaceAll(v, "CFG", cfg)
			}
			extra := make([]string, len(src.args))
			for i, a := range src.args {
				extra[i] = strings.ReplaceAll(a, "CFG", cfg)
			}
			getenv := func(k string) string { return env[k] }
			for _, args := range [][]string{
				{"dump", "--for", leakSecret}, {"dump", "--for", "1s", "--account", leakSecret},
				{"dump", "--for", strings.ToLower(leakSecret)}, {"order", "new", "--timeout", leakSecret},
				{"dump", "--value-in", strings.ToUpper(leakSecret)},
			} {
				args = append(args, extra...)
				refusedWithoutLeak(t, getenv, args...)
			}
		})
	}
}

// TestSimKeySecretNotEchoed: the secret of bhtop sim's --key typed into
// another of its flags is not shown by the refusal.
func TestSimKeySecretNotEchoed(t *testing.T) {
	env := deskEnv(t, "")
	for _, args := range [][]string{
		{"sim", "--key", "k:" + leakSecret, "--seed", leakSecret},
		{"sim", "-key=k:" + leakSecret + ":TRADE", "--addr", strings.ToLower(leakSecret)},
		{"sim", "--activity", leakSecret, "--key", "k:" + leakSecret},
	} {
		refusedWithoutLeak(t, env, args...)
	}
}

// TestSecretWithQuoteNotEchoed: a refusal quotes its argument with %q,
// which escapes a quote or a backslash in the secret; the escaped form is
// redacted too.
func TestSecretWithQuoteNotEchoed(t *testing.T) {
	const secret = `QUOTE"CANARY\s3cr3t`
	env := deskEnv(t, "")
	withSecret := func(k string) string {
		if k == "BHTOP_SECRET_KEY" {
			return secret
		}
		return env(k)
	}
	code, _, errOut := runCLI(withSecret, "dump", "--for", secret)
	if code != ExitUsage || strings.Contains(errOut, "CANARY") {
		t.Errorf("exit %d, stderr %q; want %d and no secret", code, errOut, ExitUsage)
	}
}

// TestConfigSecretKeyOfTwoLinesRefused: a config file's secret_key (top
// level or an account's) holding a line break is refused as a secret file
// of two lines is: exit 2, one line saying so, never the secret.
func TestConfigSecretKeyOfTwoLinesRefused(t *testing.T) {
	for name, cfg := range map[string]string{
		"escaped newline": "api_key = \"k\"\nsecret_key = \"" + leakSecret + `\n` + leakSecret + "\"\n",
		"escaped CR":      "api_key = \"k\"\nsecret_key = \"" + leakSecret + `\r` + leakSecret + "\"\n",
		"multi-line":      "api_key = \"k\"\nsecret_key = \"\"\"" + leakSecret + "\n" + leakSecret + "\"\"\"\n",
		"account":         "[accounts.a]\napi_key = \"k\"\nsecret_key = \"" + leakSecret + `\n` + leakSecret + "\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			testkit.ConfigFile(t, home, cfg, 0o600)
			env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": home}
			errOut := refusedWithoutLeak(t, func(k string) string { return env[k] }, "dump", "--for", "1s")
			if !strings.Contains(errOut, "secret_key holds more than one line") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("stderr %q: want one line saying secret_key holds more than one line", errOut)
			}
		})
	}
}
