package sim

import "net/http"

// SetUserStreamDown takes the user data stream down (true) or brings it
// back: while down, every user-stream connection is cut without a close
// frame (within a check interval, and before any further frame is sent)
// and handshakes are refused with HTTP 503 and -1001, while REST keeps
// answering. Events of the outage are lost to the stream, as on a real
// outage; a client learns of them from REST when it resyncs.
func (s *Server) SetUserStreamDown(down bool) { s.streamDown.Store(down) }

// refuseWhileDown answers a handshake during an outage; false when the
// stream is up.
func (s *Server) refuseWhileDown(w http.ResponseWriter) bool {
	if !s.streamDown.Load() {
		return false
	}
	s.refuseUpgrade(w, errf(http.StatusServiceUnavailable, codeDisconnected, "User data stream unavailable."))
	return true
}

// cutIfDown loses c's TCP connection (no close frame) during an outage;
// true when it did.
func (c *wsConn) cutIfDown() bool {
	if !c.s.streamDown.Load() {
		return false
	}
	_ = c.ws.UnderlyingConn().Close()
	return true
}
