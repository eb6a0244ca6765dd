package serve

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"bhtop/notify"
	"bhtop/paint"
	"bhtop/ui"
)

// Viewer describes one SSH session's client, for building its model.
type Viewer struct {
	ID          uint64 // per server, from 1
	User        string // the SSH user name (informational: the key decides)
	RemoteAddr  string
	Fingerprint string // SHA256 of the authenticated key
	Term        string // the client's TERM from its pty request
	Width       int    // columns at start
	Height      int    // rows at start
	// Environ is the client's environment as sent over SSH, plus
	// TERM=Term: the model must read this, never the server's os.Getenv.
	Environ []string
	// Profile is the colour profile of the client's terminal, from Environ.
	Profile colorprofile.Profile
	// Accounts are the accounts this viewer may see, from its key's
	// environment="BHTOP_ACCOUNTS=a,b" option; nil means every account.
	Accounts []string
	// Terminal is the session's painter, for the model's own terminal
	// sequences (the bell: ui.WithTerminalOutput); it never blocks.
	Terminal io.Writer
}

// getenv reads the client's environment (Environ; the last of a name
// holds, as in exec, so TERM is the pty's).
func (v Viewer) getenv(name string) string {
	for i := len(v.Environ) - 1; i >= 0; i-- {
		if val, ok := strings.CutPrefix(v.Environ[i], name+"="); ok {
			return val
		}
	}
	return ""
}

// NoColor reports whether the client asked for no colour (NO_COLOR set
// and not empty), for the dashboard's WithNoColor.
func (v Viewer) NoColor() bool { return v.getenv("NO_COLOR") != "" }

// session is one viewer's running dashboard.
type session struct {
	id   uint64
	ssh  ssh.Session
	conn *gossh.ServerConn
	srv  *Server

	prog    *tea.Program
	out     countingWriter
	paint   *paint.Painter // draws the program's frames on the session
	done    chan struct{}  // closed when the program has ended
	endOnce sync.Once

	allow   []string               // the accounts the viewer's key allows (nil: all)
	desktop bool                   // its terminal shows OSC 9 desktop notifications
	alerts  chan ui.AlertMsg       // alerts for it, sent to the program by forwardAlerts
	reason  atomic.Pointer[string] // why the server ended it; nil if the viewer quit
}

// handle is the gliderlabs session handler: one viewer from pty check to
// goodbye.
func (s *Server) handle(sess ssh.Session) {
	pty, winch, hasPty := sess.Pty()
	if !hasPty {
		// Past login: the viewer may know why (sshd tells it its pty
		// was refused); ssh -t cannot help a key whose line says no-pty.
		if g, _ := grantOf(sess.Context(), sess.PublicKey()); g.noPty {
			s.refuse(sess, "the dashboard needs a terminal and this key does not allow a terminal.")
		} else {
			s.refuse(sess, "the dashboard needs a terminal; connect with ssh -t (or without a command).")
		}
		return
	}
	conn, _ := sess.Context().Value(ssh.ContextKeyConn).(*gossh.ServerConn)
	v := &session{id: s.lastID.Add(1), ssh: sess, conn: conn, srv: s, done: make(chan struct{}), alerts: make(chan ui.AlertMsg, alertQueue)}
	viewer := newViewer(v.id, sess, pty)
	v.allow, v.desktop = viewer.Accounts, notify.Desktop(viewer.getenv)
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel() // ends the model's listeners once the program is gone
	in := newActivityReader(sess)
	v.prog = s.newProgram(ctx, v, viewer, in)
	if msg, ok := s.admit(v); !ok {
		s.refuse(sess, msg)
		return
	}
	defer s.release(v)

	log := s.log.With("session", viewer.ID, "user", viewer.User, "remote", viewer.RemoteAddr, "key", viewer.Fingerprint)
	log.Info("viewer connected", "term", viewer.Term, "size", fmt.Sprintf("%dx%d", viewer.Width, viewer.Height), "profile", viewer.Profile.String())
	start := time.Now()
	go forwardResizes(v.done, winch, v.prog.Send)
	go v.forwardAlerts()
	if s.cfg.IdleTimeout > 0 {
		go watchIdle(v.done, s.cfg.IdleTimeout, in.activity, func() {
			v.stop(fmt.Sprintf("closed after %s without input", s.cfg.IdleTimeout))
		})
	}
	reason := v.run()
	log.Info("viewer disconnected", "reason", reason, "duration", time.Since(start).Round(time.Millisecond).String(), "bytes_sent", v.out.n.Load())
	_ = sess.Exit(0)
}

// refuse tells the client why it gets no dashboard, logs it, and ends the
// session with exit status 1.
func (s *Server) refuse(sess ssh.Session, msg string) {
	s.log.Info("session refused", "why", msg, "user", sess.User(), "remote", sess.RemoteAddr().String(), "key", fingerprint(sess.PublicKey()))
	fmt.Fprint(sess.Stderr(), "bhtop serve: "+msg+"\r\n")
	_ = sess.Exit(1)
}

// newProgram makes the viewer's Bubble Tea program: the session is its
// terminal, with the client's environment, colour profile and window. The
// program has no renderer: the session's painter draws its Views.
func (s *Server) newProgram(ctx context.Context, v *session, viewer Viewer, in io.Reader) *tea.Program {
	v.out.w = v.ssh
	v.paint = paint.New(&v.out, s.cfg.FPS, viewer.Width, viewer.Height, viewer.Profile)
	viewer.Terminal = v.paint
	prog := tea.NewProgram(v.paint.Wrap(s.cfg.NewModel(ctx, viewer)),
		tea.WithInput(in),
		tea.WithOutput(v.paint),
		tea.WithoutRenderer(),
		tea.WithEnvironment(viewer.Environ),
		tea.WithColorProfile(viewer.Profile),
		tea.WithWindowSize(viewer.Width, viewer.Height),
		tea.WithContext(ctx),
		tea.WithoutSignalHandler(),
		tea.WithFPS(s.cfg.FPS),
	)
	v.paint.SetSend(prog.Send)
	return prog
}

// run runs the program until the viewer quits, the connection ends or the
// server stops it, and returns which.
func (v *session) run() string {
	go v.paint.Run()
	_, err := v.prog.Run()
	v.prog.Kill()
	v.paint.Close() // the viewer's terminal restored
	close(v.done)
	if r := v.reason.Load(); r != nil {
		fmt.Fprint(v.ssh, "bhtop serve: "+*r+"\r\n")
		return *r
	}
	if err != nil {
		return "connection ended"
	}
	return "viewer quit"
}

// stop ends the session from the server's side: the program is asked to
// quit (restoring the viewer's terminal), and if it has not ended within
// the grace period — a viewer that does not read blocks its own writes —
// the connection is cut, which unblocks them.
func (v *session) stop(reason string) {
	v.endOnce.Do(func() {
		v.reason.Store(&reason)
		go v.prog.Quit() // Send waits for the program's loop
		go func() {
			t := time.NewTimer(v.srv.cfg.Grace)
			defer t.Stop()
			select {
			case <-v.done:
			case <-t.C:
				v.cut()
			}
		}()
	})
}

// cut closes the session's whole SSH connection.
func (v *session) cut() {
	if v.conn != nil {
		_ = v.conn.Close()
		return
	}
	_ = v.ssh.Close()
}

// newViewer collects what the model needs to know about the client.
func newViewer(id uint64, sess ssh.Session, pty ssh.Pty) Viewer {
	env := append(sess.Environ(), "TERM="+pty.Term)
	return Viewer{
		ID:          id,
		User:        sess.User(),
		RemoteAddr:  sess.RemoteAddr().String(),
		Fingerprint: fingerprint(sess.PublicKey()),
		Term:        pty.Term,
		Width:       clamp(pty.Window.Width, MaxWidth),
		Height:      clamp(pty.Window.Height, MaxHeight),
		Environ:     env,
		Profile:     colorprofile.Env(env),
		Accounts:    accountsOf(sess),
	}
}

// The largest window a session is drawn for. The model draws and the
// painter keeps the whole window, so without a cap one viewer announcing a
// huge pty could make the server build enormous frames.
const (
	MaxWidth  = 300
	MaxHeight = 100
)

// clamp limits a window dimension to 1..max.
func clamp(n, limit int) int {
	return min(max(n, 1), limit)
}

// alertQueue bounds the alerts waiting for one viewer's program; more are
// dropped, so that a viewer that does not read never holds up the others.
const alertQueue = 16

// forwardAlerts sends the viewer's queued alerts to its program until the
// program ends.
func (v *session) forwardAlerts() {
	for {
		select {
		case <-v.done:
			return
		case m := <-v.alerts:
			v.prog.Send(m)
		}
	}
}

// forwardResizes turns window-change requests into WindowSizeMsg until
// done. Changes are coalesced (latest wins) so that the SSH request loop
// never waits on a program that is stuck writing to a stalled viewer.
func forwardResizes(done <-chan struct{}, winch <-chan ssh.Window, send func(tea.Msg)) {
	latest := make(chan ssh.Window, 1)
	go func() {
		for w := range winch {
			select {
			case <-latest: // drop the older size
			default:
			}
			latest <- w
		}
	}()
	for {
		select {
		case <-done:
			return
		case w := <-latest:
			send(tea.WindowSizeMsg{Width: clamp(w.Width, MaxWidth), Height: clamp(w.Height, MaxHeight)})
		}
	}
}

// watchIdle calls onIdle once no activity has been seen for timeout, unless
// done closes first.
func watchIdle(done <-chan struct{}, timeout time.Duration, activity <-chan struct{}, onIdle func()) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-activity:
			t.Reset(timeout)
		case <-t.C:
			onIdle()
			return
		}
	}
}

// activityReader passes input through and signals each read that returned
// bytes on a 1-slot channel (coalesced).
type activityReader struct {
	r        io.Reader
	activity chan struct{}
}

func newActivityReader(r io.Reader) *activityReader {
	return &activityReader{r: r, activity: make(chan struct{}, 1)}
}

func (a *activityReader) Read(p []byte) (int, error) {
	n, err := a.r.Read(p)
	if n > 0 {
		select {
		case a.activity <- struct{}{}:
		default:
		}
	}
	return n, err
}

// countingWriter counts the bytes written to the viewer.
type countingWriter struct {
	w io.Writer
	n atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}
