package serve

import (
	"fmt"
	"net"
	"path"
	"strings"
	"time"
)

// grant is what one authorized_keys line allows its key, from the line's
// options (sshd(8) AUTHORIZED_KEYS FILE FORMAT), as serve honours them:
//
//   - from="pattern-list": the client's address must match (wildcards *
//     and ?, negation !, CIDR address/masklen; addresses only, no DNS);
//     a line with two from= grants nothing, as in sshd.
//   - restrict: no pty unless the line also says pty (serve offers no
//     forwarding, agent, X11 or user rc, so the rest of restrict holds
//     anyway); no-pty: no pty, so the dashboard is refused.
//   - environment="BHTOP_ACCOUNTS=a,b": the accounts this viewer may see
//     (absent: all; of several, the first, as sshd keeps the first of a
//     name); other environment options are ignored, as sshd does
//     without PermitUserEnvironment; one that is not NAME=value makes the
//     line grant nothing (sshd refuses it too).
//   - expiry-time="YYYYMMDD[HHMM[SS]]": refused after that local time
//     (of several, the earliest).
//   - forwarding options (no-port-forwarding, permitopen, ...), user-rc
//     and no-touch-required change nothing: serve allows none of it.
//
// Options serve cannot honour make the line grant nothing, loudly (logged
// when the file is read): command= (the key is meant for another program),
// cert-authority and principals= (serve takes no certificates),
// verify-required, and any option it does not know.
type grant struct {
	line     int
	from     []string  // nil: any address
	noPty    bool      // no-pty, or restrict without pty
	accounts []string  // nil: every account
	expires  time.Time // zero: never
}

// noOpOptions change nothing for serve: it allows no forwarding, agent,
// X11, tunnel or user rc at all.
var noOpOptions = map[string]bool{
	"no-port-forwarding": true, "port-forwarding": true, "no-agent-forwarding": true, "agent-forwarding": true,
	"no-x11-forwarding": true, "x11-forwarding": true, "no-user-rc": true, "user-rc": true,
	"permitopen": true, "permitlisten": true, "tunnel": true, "no-touch-required": true,
}

// parseGrant reads a line's options (as ssh.ParseAuthorizedKey splits
// them). An error says why the line grants nothing.
func parseGrant(line int, options []string) (grant, error) {
	g := grant{line: line}
	restrict, pty := false, false
	for _, opt := range options {
		name, val, hasVal := strings.Cut(opt, "=")
		name = strings.ToLower(name)
		if hasVal {
			v, err := unquote(val)
			if err != nil {
				return g, fmt.Errorf("option %s: %w", name, err)
			}
			val = v
		}
		switch {
		case name == "from" && hasVal:
			if g.from != nil { // sshd refuses the line: a second list must not widen the first
				return g, fmt.Errorf("option from: given twice")
			}
			g.from = strings.Split(val, ",")
			for _, p := range g.from {
				if err := checkPattern(p); err != nil {
					return g, fmt.Errorf("option from: %w", err)
				}
			}
		case name == "restrict" && !hasVal:
			restrict = true
		case name == "pty" && !hasVal:
			pty = true
		case name == "no-pty" && !hasVal:
			g.noPty = true
		case name == "environment" && hasVal:
			k, v, ok := strings.Cut(val, "=")
			if !ok || !validEnvName(k) { // sshd refuses the line too
				return g, fmt.Errorf("option environment: want NAME=value, NAME of letters, digits and _")
			}
			if k == "BHTOP_ACCOUNTS" && g.accounts == nil { // the first holds, as in sshd: a second never widens it
				g.accounts = splitAccounts(v)
			}
		case name == "expiry-time" && hasVal:
			t, err := parseExpiry(val)
			if err != nil {
				return g, fmt.Errorf("option expiry-time: %w", err)
			}
			if g.expires.IsZero() || t.Before(g.expires) {
				g.expires = t // the earliest of several holds, as in sshd
			}
		case noOpOptions[name]:
		case name == "command":
			return g, fmt.Errorf("option command= cannot be honoured: serve runs only the dashboard (this key is meant for another program)")
		default:
			return g, fmt.Errorf("option %s is not supported by bhtop serve", name)
		}
	}
	if restrict && !pty {
		g.noPty = true
	}
	return g, nil
}

// validEnvName reports whether name is an environment variable's name as
// sshd accepts it in environment=: letters, digits and _, not empty.
func validEnvName(name string) bool {
	for _, r := range name {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return name != ""
}

// splitAccounts reads "a,b" (blanks dropped). An empty list allows no
// account at all, which differs from no option (every account).
func splitAccounts(v string) []string {
	out := []string{}
	for _, a := range strings.Split(v, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// unquote reads an option value: "..." with \" escapes.
func unquote(v string) (string, error) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", fmt.Errorf("value must be in double quotes")
	}
	return strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`), nil
}

// parseExpiry reads YYYYMMDD[HHMM[SS]] (local time, or UTC with a Z
// suffix, as sshd does).
func parseExpiry(v string) (time.Time, error) {
	loc := time.Local
	if s, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = s, time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	layout, ok := layouts[len(v)]
	if !ok {
		return time.Time{}, fmt.Errorf("want YYYYMMDD[HHMM[SS]]")
	}
	t, err := time.ParseInLocation(layout, v, loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("want YYYYMMDD[HHMM[SS]]")
	}
	return t, nil
}

// checkPattern validates one from= pattern.
func checkPattern(p string) error {
	p = strings.TrimPrefix(p, "!")
	if p == "" {
		return fmt.Errorf("empty pattern")
	}
	if strings.Contains(p, "/") {
		if _, _, err := net.ParseCIDR(p); err != nil {
			return fmt.Errorf("%q is not an address/masklen", p)
		}
	}
	return nil
}

// allows checks the grant for a client at addr (host:port or a bare IP)
// at time now; the reason says why not.
func (g grant) allows(addr string, now time.Time) (bool, string) {
	if !g.expires.IsZero() && !now.Before(g.expires) {
		return false, fmt.Sprintf("line %d: key expired at %s (expiry-time)", g.line, g.expires.Format(time.RFC3339))
	}
	if g.from != nil {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		if !matchFrom(g.from, host) {
			return false, fmt.Sprintf("line %d: address %s does not match from=%q", g.line, host, strings.Join(g.from, ","))
		}
	}
	return true, ""
}

// matchFrom is sshd's match_host_and_ip on an address: a matching negated
// pattern refuses at once, else any matching pattern allows.
func matchFrom(patterns []string, ip string) bool {
	allowed := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		if !matchOne(p, ip) {
			continue
		}
		if neg {
			return false
		}
		allowed = true
	}
	return allowed
}

// matchOne matches one pattern: CIDR, else a wildcard pattern (* and ?)
// against the address text, case-insensitively.
func matchOne(p, ip string) bool {
	if strings.Contains(p, "/") {
		_, n, err := net.ParseCIDR(p)
		a := net.ParseIP(ip)
		return err == nil && a != nil && n.Contains(a)
	}
	ok, err := path.Match(strings.ToLower(p), strings.ToLower(ip))
	return err == nil && ok
}
