package paint

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Painter draws one program's frames on its terminal, in place of Bubble
// Tea's renderer: the program runs without a renderer, its model is
// wrapped by Wrap, which hands the painter a View when a frame is due,
// and the painter's goroutine (Run) writes at most one frame per
// interval: of each line that differs from the frame before (a string
// comparison), the runs of cells that changed (linediff.go).
//
// Writes happen only on the painter's goroutine, so a terminal that stops
// reading blocks that goroutine alone: the program keeps folding notices,
// is asked for no View meanwhile, and nothing queues (Bubble Tea's own
// output, terminal queries and bells, is capped).
//
// The painter always uses the alternate screen, and of a View it honours
// Content, Cursor, MouseMode, WindowTitle, ReportFocus and
// DisableBracketedPasteMode. Lines past the window's height are not
// drawn; lines wider than the window are clipped by the terminal
// (auto-wrap is off while the program runs).
type Painter struct {
	out      io.Writer
	interval time.Duration // the shortest time between two frames
	wake     chan struct{} // 1 slot: something new to write
	quit     chan struct{} // closed by close
	done     chan struct{} // closed when run has returned

	// send asks the program for a View (the program's Send): set before
	// run starts.
	send func(tea.Msg)

	mu      sync.Mutex
	view    tea.View
	fresh   bool // view has not been painted yet
	ready   bool // the next View is wanted at once
	stale   bool // a View was skipped since the last one painted
	w, h    int
	redraw  bool // the next frame repaints the whole screen
	profile colorprofile.Profile
	raw     []byte // Bubble Tea's own output, written before the next frame

	// Owned by run.
	started bool     // the terminal is in the dashboard's modes
	lines   []string // the lines on the screen, as the model drew them
	modes   viewModes
	cursor  bool // the text cursor is shown
	failed  bool // a write failed: the connection is gone
	buf     []byte
	sgr     sgrCache
}

// maxRaw caps Bubble Tea's own output waiting for a terminal that does not
// read; past it, that output is dropped.
const maxRaw = 64 << 10

// New returns a painter that writes to out at most fps frames a second,
// for a w×h window in the given colour profile. Give it the program's Send
// (SetSend) and start Run before the program runs.
func New(out io.Writer, fps, w, h int, profile colorprofile.Profile) *Painter {
	return &Painter{
		out:      out,
		interval: time.Second / time.Duration(max(fps, 1)),
		wake:     make(chan struct{}, 1),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
		w:        w,
		h:        h,
		profile:  profile,
		ready:    true,
	}
}

// due reports whether the program should hand over its View now (from
// the program's loop, after each Update). Between frames it is not: the
// painter remembers that the model changed and asks for a View with
// paintMsg once the next frame is due, so a model is drawn at most once
// per frame interval however many messages it gets, and not at all while
// its terminal does not read.
func (p *Painter) due() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ready {
		p.ready = false
		return true
	}
	p.stale = true
	return false
}

// SetSend sets how the painter asks the program for a View (the
// program's Send); call it before Run.
func (p *Painter) SetSend(send func(tea.Msg)) { p.send = send }

// paintMsg asks the program for a View: the painter is ready for a frame
// and the model changed since the last one.
type paintMsg struct{}

// setView hands over the model's newest View (from the program's loop).
func (p *Painter) setView(v tea.View) {
	p.mu.Lock()
	p.view, p.fresh = v, true
	p.mu.Unlock()
	p.poke()
}

// resize sets the window size; the next frame repaints every line.
func (p *Painter) resize(w, h int) {
	p.mu.Lock()
	if w != p.w || h != p.h {
		p.w, p.h, p.redraw = w, h, true
	}
	p.mu.Unlock()
}

// setProfile sets the colour profile the frames are written in.
func (p *Painter) setProfile(profile colorprofile.Profile) {
	p.mu.Lock()
	if profile != p.profile {
		p.profile, p.redraw = profile, true
	}
	p.mu.Unlock()
}

// Write queues Bubble Tea's own output (terminal queries, bells): the
// program's output is the painter, so that the session has one writer.
// It never blocks.
func (p *Painter) Write(b []byte) (int, error) {
	p.mu.Lock()
	if len(p.raw)+len(b) <= maxRaw {
		p.raw = append(p.raw, b...)
	}
	p.mu.Unlock()
	p.poke()
	return len(b), nil
}

func (p *Painter) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Close restores the terminal and ends Run, and returns once the
// restoring sequences are written (or the write failed). With a terminal
// that does not read it waits until the connection is cut.
func (p *Painter) Close() {
	close(p.quit)
	<-p.done
}

// closing reports whether Close has been called.
func (p *Painter) closing() bool {
	select {
	case <-p.quit:
		return true
	default:
		return false
	}
}

// Run writes frames until Close.
func (p *Painter) Run() {
	defer close(p.done)
	pace := time.NewTimer(p.interval)
	pace.Stop()
	raw := make([]byte, 0, 256)
	for {
		quitting := false
		select {
		case <-p.wake:
		case <-p.quit:
			quitting = true
		}

		p.mu.Lock()
		view, fresh, redraw, w, h, profile := p.view, p.fresh, p.redraw, p.w, p.h, p.profile
		p.fresh, p.redraw = false, false
		raw, p.raw = p.raw, raw[:0]
		p.mu.Unlock()

		p.buf = append(p.buf[:0], raw...)
		painted := !quitting && (fresh || redraw)
		if painted {
			p.frame(view, w, h, redraw, profile)
		}
		if quitting {
			p.restore(h)
		}
		if len(p.buf) > 0 && !p.failed {
			if _, err := p.out.Write(p.buf); err != nil {
				p.failed = true
			}
		}
		if cap(p.buf) > 256<<10 {
			p.buf = nil // a resize to a huge window once is not kept for the session
		}
		if quitting {
			return
		}
		if painted {
			// The frame interval, then the next View: at once if the model
			// changed meanwhile, else when it next does. An empty View (a
			// program before its window size, a dashboard waiting for its
			// first live state) shows nothing: it is not a frame, and the
			// next View is not kept waiting by it.
			if view.Content != "" {
				pace.Reset(p.interval)
				select {
				case <-pace.C:
				case <-p.quit:
					// Closing: ask for no View, the program may be gone or
					// be the one closing (a panic in the model, cli).
					continue
				}
			} else if p.closing() {
				continue
			}
			p.mu.Lock()
			stale := p.stale
			p.ready, p.stale = true, false
			p.mu.Unlock()
			if stale {
				p.send(paintMsg{})
			}
		}
	}
}

// viewModes are the terminal modes a View asks for.
type viewModes struct {
	mouse   tea.MouseMode
	title   string
	focus   bool
	noPaste bool
}

func modesOf(v tea.View) viewModes {
	return viewModes{mouse: v.MouseMode, title: v.WindowTitle, focus: v.ReportFocus, noPaste: v.DisableBracketedPasteMode}
}

// frame appends to p.buf what turns the screen into v.
func (p *Painter) frame(v tea.View, w, h int, redraw bool, profile colorprofile.Profile) {
	if !p.started {
		p.started, redraw = true, true
		p.buf = append(p.buf, ansi.SetModeAltScreenSaveCursor+ansi.ResetModeTextCursorEnable+ansi.ResetModeAutoWrap...)
		// Keys as Bubble Tea's renderer asks for them: modifyOtherKeys and
		// the kitty protocol's disambiguation (terminals ignore what they
		// do not know).
		p.buf = append(p.buf, ansi.SetModifyOtherKeys2...)
		p.buf = append(p.buf, ansi.PushKittyKeyboard(1)...)
		p.setModes(viewModes{mouse: tea.MouseModeNone, noPaste: true}, modesOf(v))
	} else {
		p.setModes(p.modes, modesOf(v))
	}
	p.buf = append(p.buf, ansi.SetModeSynchronizedOutput...)
	if redraw {
		p.buf = append(p.buf, ansi.ResetStyle+ansi.EraseEntireScreen...)
		p.lines = slices.Grow(p.lines[:0], h)[:h]
		clear(p.lines)
	}
	// The new lines are substrings of v.Content, which stays alive as long
	// as they are on the screen.
	rest := v.Content
	for y := range h {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if line != p.lines[y] {
			p.buf = p.appendLine(p.buf, y, w, p.lines[y], line, profile)
			p.lines[y] = line
		}
	}
	p.buf = append(p.buf, ansi.ResetStyle...)
	if c := v.Cursor; c != nil {
		p.buf = appendMoveTo(p.buf, c.X, c.Y)
		if !p.cursor {
			p.buf = append(p.buf, ansi.SetModeTextCursorEnable...)
		}
	} else if p.cursor {
		p.buf = append(p.buf, ansi.ResetModeTextCursorEnable...)
	}
	p.cursor = v.Cursor != nil
	p.buf = append(p.buf, ansi.ResetModeSynchronizedOutput...)
}

// setModes appends what changes the terminal's modes from was to now.
func (p *Painter) setModes(was, now viewModes) {
	if was.mouse != now.mouse {
		if was.mouse != tea.MouseModeNone {
			p.buf = append(p.buf, ansi.ResetModeMouseButtonEvent+ansi.ResetModeMouseAnyEvent+ansi.ResetModeMouseExtSgr...)
		}
		switch now.mouse {
		case tea.MouseModeCellMotion:
			p.buf = append(p.buf, ansi.SetModeMouseButtonEvent+ansi.SetModeMouseExtSgr...)
		case tea.MouseModeAllMotion:
			p.buf = append(p.buf, ansi.SetModeMouseAnyEvent+ansi.SetModeMouseExtSgr...)
		}
	}
	if was.title != now.title {
		p.buf = append(p.buf, ansi.SetWindowTitle(now.title)...)
	}
	if was.focus != now.focus {
		p.buf = append(p.buf, pick(now.focus, ansi.SetModeFocusEvent, ansi.ResetModeFocusEvent)...)
	}
	if was.noPaste != now.noPaste {
		p.buf = append(p.buf, pick(now.noPaste, ansi.ResetModeBracketedPaste, ansi.SetModeBracketedPaste)...)
	}
	p.modes = now
}

// restore appends what gives the terminal back: the modes
// reset, the cursor shown, the main screen.
func (p *Painter) restore(h int) {
	if !p.started {
		return
	}
	p.setModes(p.modes, viewModes{mouse: tea.MouseModeNone, noPaste: true})
	p.buf = append(p.buf, ansi.ResetModifyOtherKeys...)
	p.buf = append(p.buf, ansi.PopKittyKeyboard(1)...)
	p.buf = appendMoveTo(p.buf, 0, max(h-1, 0))
	p.buf = append(p.buf, ansi.ResetStyle+ansi.SetModeAutoWrap+ansi.SetModeTextCursorEnable+ansi.ResetModeAltScreenSaveCursor...)
	p.started = false
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// appendMoveTo appends the sequence that moves the cursor to column x,
// row y (from 0).
func appendMoveTo(b []byte, x, y int) []byte {
	b = append(b, "\x1b["...)
	b = strconv.AppendInt(b, int64(y+1), 10)
	if x > 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(x+1), 10)
	}
	return append(b, 'H')
}

// sgrCache converts a line's style sequences to the terminal's colour
// profile, remembering each sequence's conversion (a dashboard uses a few
// dozen).
type sgrCache struct {
	profile colorprofile.Profile
	conv    map[string]string
	out     strings.Builder
}

// maxSGR bounds the conversions remembered; past it they start over.
const maxSGR = 4096

// appendLine appends line in the given profile: true colour as it is, no
// terminal without any escape sequence, anything between with its style
// sequences converted.
func (c *sgrCache) appendLine(b []byte, line string, profile colorprofile.Profile) []byte {
	switch {
	case profile == colorprofile.TrueColor:
		return append(b, line...)
	case profile <= colorprofile.NoTTY:
		return append(b, ansi.Strip(line)...)
	}
	if c.conv == nil || c.profile != profile || len(c.conv) > maxSGR {
		c.conv, c.profile = make(map[string]string), profile
	}
	for {
		i := strings.Index(line, "\x1b[")
		if i < 0 {
			return append(b, line...)
		}
		b = append(b, line[:i]...)
		line = line[i:]
		n, sgr := csiLen(line)
		if !sgr {
			b = append(b, line[:n]...)
		} else {
			b = append(b, c.convert(line[:n], profile)...)
		}
		line = line[n:]
	}
}

// convert returns the style sequence seq in the profile.
func (c *sgrCache) convert(seq string, profile colorprofile.Profile) string {
	if s, ok := c.conv[seq]; ok {
		return s
	}
	c.out.Reset()
	w := colorprofile.Writer{Forward: &c.out, Profile: profile}
	_, _ = w.WriteString(seq)
	s := c.out.String()
	c.conv[seq] = s
	return s
}

// csiLen returns the length of the control sequence that s starts with
// ("\x1b[" first), and whether it is a style sequence (SGR: parameters
// of digits, ';' and ':' only, ended by 'm'). An unfinished sequence runs
// to the end of s.
func csiLen(s string) (n int, sgr bool) {
	sgr = true
	for i := 2; i < len(s); i++ {
		switch ch := s[i]; {
		case ch >= 0x40 && ch <= 0x7e:
			return i + 1, sgr && ch == 'm'
		case (ch >= '0' && ch <= '9') || ch == ';' || ch == ':':
		default:
			sgr = false
		}
	}
	return len(s), false
}

// Wrap returns m running under p: the program's model (made with
// tea.WithoutRenderer and tea.WithOutput(p)).
func (p *Painter) Wrap(m tea.Model) tea.Model { return &paintedModel{Model: m, p: p} }

// paintedModel runs a program's model under a painter: it tells the painter
// the window size and colour profile, and hands it each View. Bubble Tea
// itself draws nothing (the program has no renderer).
type paintedModel struct {
	tea.Model
	p *Painter
}

// Update passes msg on; the pointer is returned as it came, so an update
// costs no allocation.
func (m *paintedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.p.resize(msg.Width, msg.Height)
	case tea.ColorProfileMsg:
		m.p.setProfile(msg.Profile)
	case paintMsg:
		return m, nil // the View after it is the one wanted
	}
	var cmd tea.Cmd
	m.Model, cmd = m.Model.Update(msg)
	return m, cmd
}

func (m *paintedModel) View() tea.View {
	if m.p.due() {
		m.p.setView(m.Model.View())
	}
	return tea.View{}
}
