package stream

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/sim"
)

// printable reports whether s holds no control character (C0, DEL, C1).
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return false
		}
	}
	return true
}

// TestServiceTextIsSanitized: a hostile WebSocket endpoint answers the
// handshake with a body carrying terminal escapes, or accepts and closes
// with an escape in the close reason; neither reaches the status or the
// notes as is.
func TestServiceTextIsSanitized(t *testing.T) {
	t.Parallel()
	const evil = "\x1b[2J\x1b]0;pwned\x07"
	tests := []struct {
		name    string
		handler http.HandlerFunc
		want    string // what the (cleaned) text must still say
	}{
		{"handshake body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte("bad key " + evil + strings.Repeat("x", 400)))
		}, "handshake refused: HTTP 400 bad key [2J]0;pwned"},
		{"close reason", func(w http.ResponseWriter, r *http.Request) {
			up := websocket.Upgrader{}
			ws, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer ws.Close()
			_ = ws.WriteControl(websocket.CloseMessage,
				websocket.FormatCloseMessage(4000, "bye"+evil+"\u009b31m"), time.Now().Add(time.Second))
			time.Sleep(200 * time.Millisecond)
		}, "closed by the service (4000 bye[2J]0;pwned31m)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := simtest.Start(t, sim.Options{})
			s, err := New(Config{REST: srv.Client(), WSURL: serveWS(t, tt.handler),
				BackoffBase: 100 * time.Millisecond, BackoffCap: 200 * time.Millisecond})
			s = testkit.Started(t, s, err)
			seen := func() bool {
				notes, _ := s.Notes(0)
				for _, n := range notes {
					if strings.Contains(n.Text, tt.want) {
						return true
					}
				}
				return false
			}
			if !testkit.Within(3*time.Second, seen) {
				notes, _ := s.Notes(0)
				t.Fatalf("no note contains %q; first notes: %+v", tt.want, notes[:min(len(notes), 6)])
			}
			// The session keeps reconnecting, and each new attempt clears
			// the reason for a moment: wait for a status that carries it.
			var st Status
			if !testkit.Within(3*time.Second, func() bool {
				st = s.Status()
				return strings.Contains(st.Reason+st.LastError, tt.want)
			}) {
				t.Errorf("Status Reason %q / LastError %q, want one to contain %q", st.Reason, st.LastError, tt.want)
			}
			for what, text := range map[string]string{"Reason": st.Reason, "LastError": st.LastError} {
				if !printable(text) || len([]rune(text)) > lineMax+1 {
					t.Errorf("Status.%s = %q, want printable and at most %d runes", what, text, lineMax)
				}
			}
			notes, _ := s.Notes(0)
			for _, n := range notes {
				if !printable(n.Text) || len([]rune(n.Text)) > lineMax+1 {
					t.Errorf("note %q: want printable and at most %d runes", n.Text, lineMax)
				}
			}
		})
	}
}
