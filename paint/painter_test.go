package paint

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"bhtop/internal/testkit"
	"bhtop/internal/vtemu"
)

// want is what a w×h screen shows for content: each line's cells, cut at
// the window's edge, blanks after them.
func want(t *testing.T, content string, w, h int) [][]vtemu.Cell {
	t.Helper()
	e := vtemu.New(w, h)
	for y, line := range strings.Split(content, "\n") {
		if y >= h {
			break
		}
		var cs []cell
		walk := newCells(line)
		for c, ok := walk.next(); ok; c, ok = walk.next() {
			cs = append(cs, c)
		}
		if walk.bad {
			t.Fatalf("test line %q cannot be cut into cells", line)
		}
		for _, cl := range cs {
			if cl.col+cl.width > w {
				break
			}
			e.Grid[y][cl.col] = vtemu.Cell{Text: cl.text, Style: cl.style}
			for i := 1; i < cl.width; i++ {
				e.Grid[y][cl.col+i] = vtemu.Cell{Style: cl.style}
			}
		}
	}
	return e.Grid
}

// check fails unless e shows exactly content.
func check(t *testing.T, e *vtemu.Emulator, step string, content string) {
	t.Helper()
	if len(e.BadBytes) > 0 {
		t.Fatalf("%s: the painter wrote what the emulator does not know: %q", step, e.BadBytes)
	}
	exp := want(t, content, e.W, e.H)
	for y := range e.H {
		for x := range e.W {
			if got, w := e.Grid[y][x], exp[y][x]; got != w {
				t.Fatalf("%s: cell (%d,%d) = %q, want %q\nscreen:\n%s\nwant:\n%s", step, x, y, got, w, gridText(e.Grid), gridText(exp))
			}
		}
	}
}

// gridText is a grid's characters, each row ended by '|'.
func gridText(g [][]vtemu.Cell) string {
	var b strings.Builder
	for _, row := range g {
		for _, c := range row {
			b.WriteString(c.Text)
		}
		b.WriteString("|\n")
	}
	return b.String()
}

// randomLine is a line of styled runs, plain text, box drawing, wide and
// combining characters, up to max columns wide.
func randomLine(r *rand.Rand, max int) string {
	words := []string{"spot", "BTCUSDT", "61239.7", "0.000492", " ", "  ", "│", "▶", "›", "✓", "ᄀᄁ", "é", "e\u0301", "PARTIALLY_FILLED", "0.0%"}
	styles := []string{"", "\x1b[1m", "\x1b[38;2;125;86;244m", "\x1b[1;38;2;0;200;83m", "\x1b[7m", "\x1b[38;5;196m\x1b[48;5;17m", "\x1b[2;38;2;90;90;90m"}
	var b strings.Builder
	width := 0
	for width < max && r.IntN(12) > 0 {
		word := words[r.IntN(len(words))]
		width += ansi.StringWidth(word)
		if st := styles[r.IntN(len(styles))]; st != "" {
			b.WriteString(st + word + ansi.ResetStyle)
		} else {
			b.WriteString(word)
		}
	}
	return b.String()
}

// TestPainterFramesMatchTheView paints random frames, each a random edit
// of the one before (lines changed, shortened, lengthened, scrolled, some
// wider than the window), with resizes between, and checks after each
// that the screen shows exactly the View's lines.
func TestPainterFramesMatchTheView(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	w, h := 40, 12
	p := New(&bytes.Buffer{}, 12, w, h, colorprofile.TrueColor)
	e := vtemu.New(w, h)
	lines := make([]string, h)
	for step := range 2000 {
		redraw := false
		switch k := r.IntN(20); {
		case step == 0:
			for y := range lines {
				lines[y] = randomLine(r, w+5)
			}
		case k == 0: // resize
			w, h = 20+r.IntN(40), 5+r.IntN(15)
			lines = make([]string, h)
			for y := range lines {
				lines[y] = randomLine(r, w+5)
			}
			e.Resize(w, h)
			redraw = true
		case k < 4: // scroll a region by one line
			from := r.IntN(h)
			copy(lines[from+1:], lines[from:h-1])
			lines[from] = randomLine(r, w)
		default: // edit a few lines
			for range 1 + r.IntN(4) {
				y := r.IntN(h)
				if r.IntN(3) == 0 {
					lines[y] = randomLine(r, w+5)
				} else {
					lines[y] = editLine(r, lines[y])
				}
			}
		}
		content := strings.Join(lines, "\n")
		v := tea.NewView(content)
		p.buf = p.buf[:0]
		p.frame(v, w, h, redraw, colorprofile.TrueColor)
		e.Feed(p.buf)
		check(t, e, fmt.Sprintf("step %d (%dx%d)", step, w, h), content)
		if !e.Alt || !e.Hidden || !e.NoWrap {
			t.Fatalf("step %d: alt screen %v, cursor hidden %v, auto-wrap off %v; want all", step, e.Alt, e.Hidden, e.NoWrap)
		}
	}

	p.buf = p.buf[:0]
	p.restore(h)
	e.Feed(p.buf)
	if e.Alt || e.Hidden || e.NoWrap || e.Modes["1002"] || e.Modes["1006"] || e.Modes["2004"] {
		t.Errorf("after restore: alt screen %v, cursor hidden %v, auto-wrap off %v, modes %v; want all off", e.Alt, e.Hidden, e.NoWrap, e.Modes)
	}
}

// editLine changes a line the way a row changes: a few digits (a price,
// an age), a combining accent added after a capital, or its end cut off
// (before a style sequence, so that what is left is well formed).
func editLine(r *rand.Rand, line string) string {
	b := []byte(line)
	switch r.IntN(4) {
	case 0:
		if len(line) > 0 {
			return cutBeforeEscape(line, r.IntN(len(line)))
		}
	case 1:
		for i := range b {
			if b[i] >= 'A' && b[i] <= 'Z' && r.IntN(3) == 0 { // text: sequences end in m
				return line[:i+1] + "\u0301" + line[i+1:]
			}
		}
	}
	for range 1 + r.IntN(3) {
		if len(b) == 0 {
			break
		}
		i := r.IntN(len(b))
		if b[i] >= '0' && b[i] <= '9' {
			b[i] = byte('0' + r.IntN(10))
		}
	}
	return string(b)
}

// cutBeforeEscape is line up to the last escape sequence that starts at
// or before i.
func cutBeforeEscape(line string, i int) string {
	return line[:max(strings.LastIndexByte(line[:i+1], 0x1b), 0)]
}

// TestPainterSendsChangedCells: a changed price in a long line costs a
// cursor move and the changed characters, not the line.
func TestPainterSendsChangedCells(t *testing.T) {
	w, h := 120, 3
	p := New(&bytes.Buffer{}, 12, w, h, colorprofile.TrueColor)
	row := func(price string) string {
		return "\x1b[38;2;125;86;244m  spot BTCUSDT BUY  LIMIT GTC \x1b[m\x1b[1m" + price + "\x1b[m" + strings.Repeat(" ", 60) + "\x1b[38;2;90;90;90mNEW\x1b[m"
	}
	p.frame(tea.NewView("header\n"+row("61239.70")+"\nfooter"), w, h, false, colorprofile.TrueColor)
	p.buf = p.buf[:0]
	p.frame(tea.NewView("header\n"+row("61239.75")+"\nfooter"), w, h, false, colorprofile.TrueColor)
	got := string(p.buf)
	wantCells := "\x1b[2;38H\x1b[m\x1b[1m5\x1b[m"
	if !strings.Contains(got, wantCells) || len(got) > len(wantCells)+len(ansi.SetModeSynchronizedOutput+ansi.ResetModeSynchronizedOutput+ansi.ResetStyle) {
		t.Errorf("frame after a price change = %q, want the cell only: %q", got, wantCells)
	}
}

// TestPainterSendsOtherLinesWhole: a line the cells do not model (here
// CJK, past the measured characters) is sent whole, after erasing the
// row.
func TestPainterSendsOtherLinesWhole(t *testing.T) {
	p := New(&bytes.Buffer{}, 12, 20, 2, colorprofile.TrueColor)
	p.frame(tea.NewView("header\nplain"), 20, 2, false, colorprofile.TrueColor)
	p.buf = p.buf[:0]
	p.frame(tea.NewView("header\n漢字 \x1b[1m1\x1b[m"), 20, 2, false, colorprofile.TrueColor)
	if want := "\x1b[2H\x1b[m\x1b[2K漢字 \x1b[1m1\x1b[m"; !strings.Contains(string(p.buf), want) {
		t.Errorf("frame = %q, want the line whole: %q", p.buf, want)
	}
}

// TestStyleConversionMatchesColorprofile: the painter's per-sequence
// conversion writes what colorprofile's writer writes for the whole line.
func TestStyleConversionMatchesColorprofile(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var c sgrCache
	for _, profile := range []colorprofile.Profile{colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII, colorprofile.NoTTY} {
		for range 50 {
			line := randomLine(r, 80)
			var want bytes.Buffer
			w := colorprofile.Writer{Forward: &want, Profile: profile}
			if _, err := w.WriteString(line); err != nil {
				t.Fatal(err)
			}
			if got := string(c.appendLine(nil, line, profile)); got != want.String() {
				t.Errorf("%s: appendLine(%q) = %q, want %q", profile, line, got, want.String())
			}
		}
	}
}

// blockingWriter blocks every write until release closes, counting them.
type blockingWriter struct {
	release chan struct{}
	writes  chan []byte
}

func (w *blockingWriter) Write(b []byte) (int, error) {
	w.writes <- slices.Clone(b)
	<-w.release
	return len(b), nil
}

// runAsking runs a painter of a frame every interval on a 20×2 terminal
// that reads at once; what it asks of the program comes on asked.
func runAsking(t *testing.T, interval time.Duration) (p *Painter, out *blockingWriter, asked chan tea.Msg) {
	out = &blockingWriter{release: make(chan struct{}), writes: make(chan []byte, 16)}
	close(out.release)
	p = New(out, 1, 20, 2, colorprofile.TrueColor)
	p.interval = interval
	asked = make(chan tea.Msg, 16)
	p.send = func(m tea.Msg) { asked <- m }
	go p.Run()
	t.Cleanup(p.Close)
	return p, out, asked
}

// TestPainterAsksForOneViewPerFrame: between frames the model is not
// drawn; once the interval is over, a model that changed is asked for its
// View (paintMsg), one that did not is not.
func TestPainterAsksForOneViewPerFrame(t *testing.T) {
	// The looks between two frames must come within the interval after
	// the frame, or due() is rightly true again: at 50 fps a test held
	// 20 ms after the frame (a loaded machine under -race) failed. A
	// frame every 250 ms, and a look that still came late is no verdict.
	p, out, asked := runAsking(t, time.Second/4)

	if !p.due() {
		t.Fatal("due() before the first frame = false, want true")
	}
	framed := time.Now() // the frame, so the interval, starts after this
	p.setView(tea.NewView("one"))
	testkit.Recv(t, out.writes, 10*time.Second, "the painter wrote no frame")
	for range 100 { // a busy model between two frames
		if p.due() {
			if held := time.Since(framed); held >= p.interval {
				t.Skipf("the test was held %v after the frame, past the %v interval: no verdict", held, p.interval)
			}
			t.Fatal("due() right after a frame = true, want false until the interval is over")
		}
	}
	select {
	case m := <-asked:
		if _, ok := m.(paintMsg); !ok {
			t.Fatalf("painter sent %T, want paintMsg", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the painter never asked for the View the model changed since")
	}
	if !p.due() {
		t.Fatal("due() after paintMsg = false, want true")
	}
	p.setView(tea.NewView("two"))
	testkit.Recv(t, out.writes, 10*time.Second, "the painter wrote no frame")
	select { // nothing changed since: nothing asked
	case m := <-asked:
		t.Fatalf("painter sent %T for a model that did not change", m)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestStalledPainterBlocksNobody: while the viewer does not read, handing
// over Views and Bubble Tea's output never waits, and that output is
// capped.
func TestStalledPainterBlocksNobody(t *testing.T) {
	out := &blockingWriter{release: make(chan struct{}), writes: make(chan []byte, 16)}
	p := New(out, 1000, 20, 2, colorprofile.TrueColor)
	p.send = func(tea.Msg) {}
	go p.Run()
	p.setView(tea.NewView("first"))
	testkit.Recv(t, out.writes, 10*time.Second, "the painter wrote no frame") // it is now stuck in this write
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 10000 {
			p.due()
			p.setView(tea.NewView(fmt.Sprint(i)))
			_, _ = p.Write([]byte("\a0123456789"))
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("setView or Write waited on a stalled viewer")
	}
	p.mu.Lock()
	queued := len(p.raw)
	p.mu.Unlock()
	if queued > maxRaw {
		t.Errorf("%d bytes of Bubble Tea's output queued for a stalled viewer, want at most %d", queued, maxRaw)
	}
	close(out.release) // the connection is cut: the write returns
	p.Close()
}

// TestCloseAsksForNoView: Close during the frame interval returns
// without asking the program for a View, even when the model changed:
// the program may be the one closing (cli restores the terminal from a
// panicking Update, when nobody reads what Send sends).
func TestCloseAsksForNoView(t *testing.T) {
	out := &blockingWriter{release: make(chan struct{}), writes: make(chan []byte, 16)}
	close(out.release)
	p := New(out, 1, 20, 2, colorprofile.TrueColor)
	p.SetSend(func(tea.Msg) { select {} })
	go p.Run()
	p.due()
	p.setView(tea.NewView("one"))
	testkit.Recv(t, out.writes, 10*time.Second, "the painter wrote no frame")
	p.due() // the model changed: a View is due after the interval
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited on the program")
	}
}

// TestEmptyViewIsNotAFrame: an empty View (a program before its size, a
// dashboard waiting for its first live state) does not make the next
// View wait a frame interval (here an hour, so no verdict hangs on how
// busy the machine is): the painter asks for it at once when the model
// changed meanwhile.
func TestEmptyViewIsNotAFrame(t *testing.T) {
	p, out, asked := runAsking(t, time.Hour)

	p.due()
	p.setView(tea.NewView(""))
	testkit.Recv(t, out.writes, 10*time.Second, "the painter wrote no frame")
	if !p.due() { // the model changed while the empty View was painted
		testkit.Recv(t, asked, 10*time.Second, "after an empty View the painter waited a frame interval (an hour) to ask for the next")
		if !p.due() {
			t.Fatal("due() after paintMsg = false, want true")
		}
	}
	p.setView(tea.NewView("live"))
	if b := testkit.Recv(t, out.writes, 10*time.Second, "the painter wrote no frame after the empty one"); !strings.Contains(string(b), "live") {
		t.Errorf("the frame after the empty one wrote %q, want the View", b)
	}
}
