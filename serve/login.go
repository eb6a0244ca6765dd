package serve

import (
	"cmp"
	"slices"
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"bhtop/config"
)

// grantsKey is the connection context's value holding, per key
// fingerprint, the grant its authentication found.
var grantsKey = &struct{ name string }{"bhtop-grants"}

// authorize is the only authentication method: the key must be in the
// authorized keys file as it is now, on a line whose options allow this
// client now, and an authenticated connection must fit. Its grant is kept
// on the connection for the session (pty, accounts). A refusal is logged
// with the reason (rate-limited) and never explained to the client: it
// sees only that the key was not accepted.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	g, ok, why, err := s.auth.allowed(key, ctx.RemoteAddr().String(), time.Now())
	if err != nil {
		s.refused.warn("authorized keys unreadable: every key is refused", "err", err)
	}
	fp := fingerprint(key)
	if !ok {
		s.refused.warn("refused key", "why", why, "user", ctx.User(), "remote", ctx.RemoteAddr().String(), "key", fp)
		return false
	}
	if !s.servesSome(g.accounts) {
		s.refused.warn("refused key", "why", "its BHTOP_ACCOUNTS allows none of the accounts served", "user", ctx.User(), "remote", ctx.RemoteAddr().String(), "key", fp)
		return false
	}
	if gc, found := ctx.Value(gateKey{}).(*admittedConn); found && !gc.g.roomForAuthed() {
		s.refused.warn("login refused: too many connections", "remote", ctx.RemoteAddr().String(), "max", s.cfg.MaxConnections)
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

// servesSome reports whether a key allowed the accounts named by allow
// (nil: all) may see one served: of Accounts, or Upstream's one account
// (DESIGN.md 'Accounts'). A NewModel of the embedder's own, without
// either, is not filtered.
func (s *Server) servesSome(allow []string) bool {
	switch {
	case allow == nil:
		return true
	case len(s.cfg.Accounts) > 0:
		return len(allowedAccounts(s.cfg.Accounts, allow)) > 0
	case s.cfg.Upstream != nil:
		return slices.Contains(allow, cmp.Or(s.cfg.UpstreamAccount, config.DefaultAccount))
	}
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
