package e2e

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// TestServeViewerSeesAlerts: a stock OpenSSH viewer of `bhtop serve`
// sees the alerts that fired on its account as "alert" lines in the
// Events pane (serve has no toast; they were only logged).
func TestServeViewerSeesAlerts(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no OpenSSH client")
	}
	s := startSim(t, "--activity", "0")
	dir := t.TempDir()
	key := filepath.Join(dir, "viewer")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	viewers := filepath.Join(dir, "viewers")
	cfg := filepath.Join(dir, "config.toml")
	rules := "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\nabove = 1\n"
	for path, text := range map[string]string{viewers: string(pub), cfg: rules} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)

	startTerm(t, 100, 10, credentials(s), "serve", "--listen", addr, "--authorized-keys", viewers,
		"--host-key", filepath.Join(dir, "hostkey"), "--config", cfg)
	// The viewer retries while serve is starting.
	ssh := "ssh -tt -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -i " +
		key + " -p " + port + " 127.0.0.1"
	viewer := &term{t: t, Term: testkit.NewTmux(t).Term(t, 160, 48,
		"sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "+ssh+" && break; sleep 1; done; sleep 30'")}
	viewer.waitText("READ-ONLY")
	viewer.keys("4")
	viewer.waitFor("the alert in Events", func(screen string) bool {
		for _, line := range strings.Split(screen, "\n") {
			if strings.Contains(line, " alert ") && strings.Contains(line, "BTCUSDT price") {
				return true
			}
		}
		return false
	})
}
