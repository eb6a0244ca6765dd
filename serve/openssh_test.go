package serve

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestStockOpenSSHClient runs the OpenSSH client in a tmux window against
// the server (real simulator, real dashboard), checking the host key
// strictly, and reads the screen tmux shows.
func TestStockOpenSSHClient(t *testing.T) {
	for _, tool := range []string{"ssh", "tmux"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	l := newLive(t, 20)
	f := liveServer(t, l)
	dir := t.TempDir()

	keyFile, signer := openSSHKey(t, dir)
	writeAuthorizedKeys(t, f.keysFile, f.client, signer)

	host, port, _ := net.SplitHostPort(f.addr)
	knownHosts := filepath.Join(dir, "known_hosts")
	line := fmt.Sprintf("[%s]:%s %s", host, port, gossh.MarshalAuthorizedKey(f.srv.HostKey()))
	if err := os.WriteFile(knownHosts, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}

	// A tmux server of our own (its socket in the test's directory),
	// killed at the end.
	socket := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) (string, error) {
		out, err := exec.Command("tmux", append([]string{"-S", socket}, args...)...).CombinedOutput()
		return string(out), err
	}
	t.Cleanup(func() { _, _ = tmux("kill-server") })
	sshCmd := strings.Join([]string{"ssh", "-p", port, "-i", keyFile, "-F", "/dev/null",
		"-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts,
		"-o", "BatchMode=yes", "desk@" + host}, " ")
	if out, err := tmux("new-session", "-d", "-s", "viewer", "-x", "120", "-y", "40", sshCmd+"; sleep 30"); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}

	var screen string
	deadline := time.Now().Add(15 * time.Second)
	for {
		screen, _ = tmux("capture-pane", "-p", "-t", "viewer")
		if strings.Contains(screen, "Balances") && strings.Contains(screen, "READ-ONLY") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the OpenSSH client never showed the dashboard; tmux shows:\n%s", screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := tmux("send-keys", "-t", "viewer", "q"); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(10 * time.Second)
	for f.srv.Sessions() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("q over OpenSSH did not end the session")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
