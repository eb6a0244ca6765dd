package serve

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// grantsKey is the connection context's value holding, per key
// fingerprint, the grant its authentication found.
var grantsKey = &struct{ name string }{"bhtop-grants"}

// authorize is the public key check: the key must be in the authorized
// keys file, on a line whose options allow this client now. Its grant is
// kept on the connection for the session (pty, accounts). A refusal is
// logged with the reason (rate-limited) and never explained to the
// client: it sees only that the key was not accepted.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	g, ok, why, err := s.auth.allowed(key, ctx.RemoteAddr().String(), time.Now())
	if err != nil {
		s.refusals.log("authorized keys unreadable: every login is refused", "err", err)
	}
	fp := fingerprint(key)
	if !ok {
		s.refusals.log("refused login", "why", why, "user", ctx.User(), "remote", ctx.RemoteAddr().String(), "key", fp)
		return false
	}
	ctx.Lock()
	grants, _ := ctx.Value(grantsKey).(map[string]grant)
	if grants == nil {
		grants = map[string]grant{}
		ctx.SetValue(grantsKey, grants)
	}
	grants[fp] = g
	ctx.Unlock()
	return true
}

// grantOf is the grant found when the session's key authenticated.
func grantOf(ctx ssh.Context, key gossh.PublicKey) (grant, bool) {
	ctx.Lock()
	defer ctx.Unlock()
	grants, _ := ctx.Value(grantsKey).(map[string]grant)
	g, ok := grants[fingerprint(key)]
	return g, ok
}

// allowPty refuses a pty to a key whose line says no-pty (or restrict
// without pty), as sshd does; the session then has no terminal and the
// dashboard is refused with that reason.
func (s *Server) allowPty(ctx ssh.Context, _ ssh.Pty) bool {
	key, _ := ctx.Value(ssh.ContextKeyPublicKey).(gossh.PublicKey)
	g, ok := grantOf(ctx, key)
	if !ok || g.noPty {
		s.log.Info("pty refused by the key's options (no-pty or restrict)", "user", ctx.User(), "remote", ctx.RemoteAddr().String(), "key", fingerprint(key))
		return false
	}
	return true
}

// accountsOf are the accounts the session's key may see (nil: all).
func accountsOf(sess ssh.Session) []string {
	g, _ := grantOf(sess.Context(), sess.PublicKey())
	return g.accounts
}

// rateLog writes at most burst lines per window at Info; the lines beyond
// are counted and their number logged with the next line written. A flood
// of refused logins cannot flood the log.
type rateLog struct {
	out    *slog.Logger
	burst  int
	window time.Duration
	now    func() time.Time

	mu         sync.Mutex
	start      time.Time
	written    int
	suppressed int
}

func newRateLog(out *slog.Logger, burst int, window time.Duration) *rateLog {
	return &rateLog{out: out, burst: burst, window: window, now: time.Now}
}

// log writes msg with attrs unless this window's burst is spent.
func (r *rateLog) log(msg string, attrs ...any) {
	r.mu.Lock()
	now := r.now()
	if now.Sub(r.start) >= r.window {
		r.start, r.written = now, 0
	}
	if r.written >= r.burst {
		r.suppressed++
		r.mu.Unlock()
		return
	}
	r.written++
	skipped := r.suppressed
	r.suppressed = 0
	r.mu.Unlock()
	if skipped > 0 {
		attrs = append(attrs, "not_logged_before", fmt.Sprintf("%d similar lines", skipped))
	}
	r.out.Info(msg, attrs...)
}
