package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
)

var (
	servingOn       = regexp.MustCompile(`serving the read-only dashboard over ssh" listen=(\S+)`)
	marketAlertLine = regexp.MustCompile(` alert +BTCUS`) // cut short in the Events pane
)

// TestServeAlertsReachTheirViewers: `bhtop serve` of two accounts of a
// `bhtop sim --accounts 2`, a fill rule on each; two stock OpenSSH
// viewers whose keys allow one account each. A fill on bot shows its
// toast, rings the bell and adds an alert line to the Events pane on the
// bot viewer only, one on main on the main viewer only: neither is shown
// anything of the other's account.
func TestServeAlertsReachTheirViewers(t *testing.T) {
	s, terms := serveTwoViewers(t, "[[alerts]]\nkind = \"fill\"\naccount = \"bot\"\n[[alerts]]\nkind = \"fill\"\naccount = \"main\"\n")
	bell := func(term *testkit.Term) bool { return term.Format("#{window_bell_flag}") == "1" }
	for i, c := range []struct{ account, other string }{{"bot", "main"}, {"main", "bot"}} {
		a := s.Accounts[map[string]int{"main": 0, "bot": 1}[c.account]]
		cmd := exec.Command(binary, "order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--type", "MARKET", "--quantity", "0.01")
		cmd.Env = append(os.Environ(), "BHTOP_BASE_URL="+s.BaseURL, "BHTOP_API_KEY="+a.APIKey, "BHTOP_SECRET_KEY="+a.SecretKey, "XDG_CONFIG_HOME=/nonexistent")
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), `"outcome":"accepted"`) {
			t.Fatalf("order on %s: %v\n%s", c.account, err, out)
		}
		terms[c.account].WaitFor("the toast and the Events pane's alert line", func(s string) bool {
			return strings.Contains(s, "⚑ "+c.account+": ") && alertLines(s) == 1
		})
		testkit.Eventually(t, 5*time.Second, func() bool { return bell(terms[c.account]) }, "the %s viewer's bell", c.account)
		time.Sleep(500 * time.Millisecond) // the other viewer's toast would have shown
		if scr := terms[c.other].Screen(); strings.Contains(scr, "⚑ "+c.account) || strings.Contains(scr, c.account+":") || alertLines(scr) != i {
			t.Errorf("the %s viewer was shown an alert of %s:\n%s", c.other, c.account, scr)
		}
		if i == 0 && bell(terms[c.other]) {
			t.Errorf("the %s viewer's bell rang for an alert of %s", c.other, c.account)
		}
	}
	for _, term := range terms {
		term.Keys("q")
	}
}

// TestServeMarketAlertReachesEveryViewer: a price_cross rule naming no
// account is a market alert (a price is not secret): `bhtop serve` of
// two accounts of one host evaluates it once, on the first account (bot,
// the names sorted), and shows it to the viewer allowed only main as
// well as to the one allowed only bot (it was shown to bot's alone):
// each has its alert line in the Events pane, once, and neither is told
// of the other's account.
func TestServeMarketAlertReachesEveryViewer(t *testing.T) {
	_, terms := serveTwoViewers(t, "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\nabove = 1\n")
	for name, term := range terms {
		term.WaitFor("the market alert in "+name+"'s Events pane", func(s string) bool {
			return alertLines(s) >= 1 && marketAlertLine.MatchString(s)
		})
		time.Sleep(500 * time.Millisecond) // a second line would have shown
		scr := term.Screen()
		if alertLines(scr) != 1 {
			t.Errorf("the %s viewer has %d alert lines, want 1 (one crossing, one alert):\n%s", name, alertLines(scr), scr)
		}
		other := map[string]string{"main": "bot", "bot": "main"}[name]
		if strings.Contains(scr, other+":") || strings.Contains(scr, " "+other+" ") {
			t.Errorf("the %s viewer is told of %s:\n%s", name, other, scr)
		}
	}
	for _, term := range terms {
		term.Keys("q")
	}
}

// TestServeMarketRuleUnlistedToEveryViewer (QA): a market rule (a
// price_cross naming no account) on a symbol the service does not list
// (BTCUSTD) can never fire; serve said so in the Events pane of the first
// account of the host alone (bot, where the rule is evaluated), so the
// viewer allowed only main, shown that rule's alerts, was never told it
// is broken. Each viewer now has the error line, once.
func TestServeMarketRuleUnlistedToEveryViewer(t *testing.T) {
	_, terms := serveTwoViewers(t, "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSTD\"\nabove = 1\n")
	unlisted := regexp.MustCompile(` error +price_cross#1: the service lists no`)
	for name, term := range terms {
		term.WaitFor("the unlisted rule's error line in "+name+"'s Events pane", func(s string) bool {
			return unlisted.MatchString(s)
		})
	}
	time.Sleep(500 * time.Millisecond) // a second line would have shown
	for name, term := range terms {
		if scr := term.Screen(); len(unlisted.FindAllString(scr, -1)) != 1 {
			t.Errorf("the %s viewer has not one error line of the rule:\n%s", name, scr)
		}
	}
	for _, term := range terms {
		term.Keys("q")
	}
}

// serveTwoViewers runs `bhtop serve` of the two accounts main and bot of
// a `bhtop sim --accounts 2` with the alert rules in rules (config file
// TOML), and two stock OpenSSH viewers in 120×40 terminals, whose keys
// allow main and bot alone; it returns once each shows its account live.
func serveTwoViewers(t *testing.T, rules string) (*simProc, map[string]*testkit.Term) {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("ssh not installed")
	}
	s := startSim(t, "--activity", "0", "--accounts", "2")
	dir := t.TempDir()
	cfg := fmt.Sprintf("base_url = %q\n", s.BaseURL)
	for i, name := range []string{"main", "bot"} {
		a := s.Accounts[i]
		cfg += fmt.Sprintf("[accounts.%s]\napi_key = %q\nsecret_key = %q\n", name, a.APIKey, a.SecretKey)
	}
	cfgFile := testkit.WriteFileMode(t, filepath.Join(dir, "config.toml"), cfg+rules, 0o600)
	keyFiles := map[string]string{}
	var lines []string
	for _, name := range []string{"main", "bot"} {
		file, k := testkit.OpenSSHKey(t)
		keyFiles[name] = file
		lines = append(lines, `environment="BHTOP_ACCOUNTS=`+name+`" `+strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey()))))
	}
	keys := testkit.WriteFileMode(t, filepath.Join(dir, "authorized_keys"), strings.Join(lines, "\n")+"\n", 0o600)

	addr := startServe(t, []string{"XDG_CONFIG_HOME=/nonexistent", "BHTOP_API_KEY=", "BHTOP_SECRET_KEY=", "BHTOP_BASE_URL="},
		"--config", cfgFile, "--authorized-keys", keys)

	x := testkit.NewTmux(t)
	terms := map[string]*testkit.Term{}
	for _, name := range []string{"main", "bot"} {
		terms[name] = sshViewer(t, x, 120, 40, addr, keyFiles[name])
	}
	for name, term := range terms {
		term.WaitFor("the "+name+" account over OpenSSH", func(s string) bool {
			return strings.Contains(strings.SplitN(s, "\n", 2)[0], " "+name+" ") && strings.Contains(s, "● live")
		})
	}
	return s, terms
}

// TestServeViewerSeesAlerts: a stock OpenSSH viewer of `bhtop serve`
// sees the alerts that fired on its account as "alert" lines in the
// Events pane (they were only logged).
func TestServeViewerSeesAlerts(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no OpenSSH client")
	}
	s := startSim(t, "--activity", "0")
	dir := t.TempDir()
	keyFile, key := testkit.OpenSSHKey(t)
	viewers := testkit.WriteFile(t, filepath.Join(dir, "viewers"), strings.TrimSpace(string(gossh.MarshalAuthorizedKey(key.PublicKey())))+"\n")
	cfg := testkit.WriteFile(t, filepath.Join(dir, "config.toml"), "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\nabove = 1\n")
	addr := startServe(t, credentials(s), "--authorized-keys", viewers, "--config", cfg)
	viewer := &term{t: t, Term: sshViewer(t, testkit.NewTmux(t), 160, 48, addr, keyFile)}
	viewer.waitText("READ-ONLY")
	viewer.keys("4")
	viewer.waitFor("the alert in Events", func(screen string) bool { return alertLines(screen, "BTCUSDT price") > 0 })
}

// startServe runs `bhtop serve` with args, on 127.0.0.1:0 with a new
// host key, and env after the test's environment; it stops serve when
// the test ends and returns the address serve says it listens on.
func startServe(t *testing.T, env []string, args ...string) string {
	t.Helper()
	serve := exec.Command(binary, append([]string{"serve", "--listen", "127.0.0.1:0",
		"--host-key", filepath.Join(t.TempDir(), "host_key")}, args...)...)
	serve.Env = append(os.Environ(), env...)
	logs, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = serve.Process.Signal(os.Interrupt)
		_ = serve.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(logs)
		for sc.Scan() {
			if m := servingOn.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case listen := <-addr:
		return listen
	case <-time.After(20 * time.Second):
		t.Fatal("serve never said where it listens")
	}
	return ""
}

// sshViewer runs the stock OpenSSH client in a w×h window of x, logged
// in to the serve at addr with keyFile.
func sshViewer(t *testing.T, x *testkit.Tmux, w, h int, addr, keyFile string) *testkit.Term {
	t.Helper()
	return x.Term(t, w, h, "ssh "+strings.Join(testkit.OpenSSHArgs(addr, keyFile, ""), " ")+"; sleep 30")
}
