package serve

import (
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// TestStockOpenSSHClient runs the OpenSSH client in a tmux window against
// the server (real simulator, real dashboard), checking the host key
// strictly, and reads the screen tmux shows.
func TestStockOpenSSHClient(t *testing.T) {
	needTools(t, "ssh", "tmux")
	l := newLive(t, 20)
	f := liveServer(t, l)
	keyFile, signer := openSSHKey(t)
	writeAuthorizedKeys(t, f.keysFile, f.client, signer)

	x := testkit.NewTmux(t)
	sshCmd := "ssh " + strings.Join(f.sshArgs(keyFile, f.knownHosts(t)), " ")
	term := x.Term(t, 120, 40, sshCmd+"; sleep 30")
	term.WaitFor("the dashboard over OpenSSH", func(s string) bool {
		return strings.Contains(s, "Balances") && strings.Contains(s, "READ-ONLY")
	})
	term.Keys("q")
	testkit.Eventually(t, 10*time.Second, func() bool { return f.srv.Sessions() == 0 }, "q over OpenSSH to end the session")
}
