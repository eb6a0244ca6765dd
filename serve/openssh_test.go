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

	"bhtop/internal/testkit"
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

	x := testkit.NewTmux(t)
	sshCmd := strings.Join([]string{"ssh", "-p", port, "-i", keyFile, "-F", "/dev/null",
		"-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + knownHosts,
		"-o", "BatchMode=yes", "desk@" + host}, " ")
	term := x.Term(t, 120, 40, sshCmd+"; sleep 30")
	term.WaitFor("the dashboard over OpenSSH", func(s string) bool {
		return strings.Contains(s, "Balances") && strings.Contains(s, "READ-ONLY")
	})
	term.Keys("q")
	testkit.Eventually(t, 10*time.Second, func() bool { return f.srv.Sessions() == 0 }, "q over OpenSSH to end the session")
}
