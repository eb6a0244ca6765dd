package sim

import "net/http"

// serveUserStream serves the user data stream at /openapi/ws/<listenKey>.
// (Placeholder until the WebSocket side lands.)
func (s *Server) serveUserStream(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "user stream not built yet", http.StatusNotImplemented)
}
