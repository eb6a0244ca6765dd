package sim

import "time"

// listenKey is one user data stream key (SPEC.md lifecycle): valid until
// expires, extended by keepalives, closed by DELETE.
type listenKey struct {
	account *account
	expires time.Time
	closed  bool
}

const listenKeyChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// listenKeyAccount reports the account of a listen key that is valid at
// s.Now(); ok is false when it is unknown, closed or expired.
func (s *Server) listenKeyAccount(key string) (accountID string, ok bool) {
	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	lk := s.listenKeys[key]
	if lk == nil || lk.closed || !now.Before(lk.expires) {
		return "", false
	}
	return lk.account.id, true
}

// validListenKey returns the listen key named by the call, or -1125.
func (s *Server) validListenKey(c *call) (*listenKey, *apiError) {
	k, e := c.p.required("listenKey")
	if e != nil {
		return nil, e
	}
	lk := s.listenKeys[k]
	if lk == nil || lk.closed || !c.now.Before(lk.expires) || lk.account != c.key.account {
		return nil, badParam(codeInvalidListenKey, "This listenKey does not exist.")
	}
	return lk, nil
}

func (s *Server) handleCreateListenKey(c *call) (any, *apiError) {
	b := make([]byte, 60)
	for i := range b {
		b[i] = listenKeyChars[s.rnd.IntN(len(listenKeyChars))]
	}
	k := string(b)
	s.pruneListenKeys(c.now)
	if len(s.listenKeys) >= s.opts.Limits.MaxListenKeys {
		s.pruneDeadListenKeys(c.now)
		if len(s.listenKeys) >= s.opts.Limits.MaxListenKeys {
			return nil, badParam(codeUnknown, "Too many listen keys: at most %d may be valid at once; close (DELETE) unused ones.",
				s.opts.Limits.MaxListenKeys)
		}
	}
	s.listenKeys[k] = &listenKey{account: c.key.account, expires: c.now.Add(s.opts.ListenKeyTTL)}
	return map[string]string{"listenKey": k}, nil
}

func (s *Server) handleKeepalive(c *call) (any, *apiError) {
	lk, e := s.validListenKey(c)
	if e != nil {
		return nil, e
	}
	lk.expires = c.now.Add(s.opts.ListenKeyTTL)
	return struct{}{}, nil
}

func (s *Server) handleCloseListenKey(c *call) (any, *apiError) {
	lk, e := s.validListenKey(c)
	if e != nil {
		return nil, e
	}
	lk.closed = true
	return struct{}{}, nil
}

// pruneListenKeys forgets keys dead for a day, so a long run stays small
// (a forgotten key answers -1125 like a dead one).
func (s *Server) pruneListenKeys(now time.Time) {
	if len(s.listenKeys) < 1000 {
		return
	}
	for k, lk := range s.listenKeys {
		if now.Sub(lk.expires) > 24*time.Hour {
			delete(s.listenKeys, k)
		}
	}
}

// pruneDeadListenKeys forgets every closed or expired key at once, when
// the live ones approach Limits.MaxListenKeys.
func (s *Server) pruneDeadListenKeys(now time.Time) {
	for k, lk := range s.listenKeys {
		if lk.closed || !now.Before(lk.expires) {
			delete(s.listenKeys, k)
		}
	}
}
