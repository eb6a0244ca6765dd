package vtemu

import (
	"bytes"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// Screen is a test's terminal: an io.Writer, safe for concurrent use,
// that keeps the tail of the stream written to it and feeds an Emulator,
// so that a text can be looked for in the stream (ANSI stripped) or on
// the screen: a painter writes only the cells that changed, so a word can
// be on screen and never whole in the stream.
type Screen struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	term   *Emulator // nil: the stream only
	n      int64     // bytes written
	writes int64     // Write calls
}

// NewScreen is a w×h screen; w 0 keeps the stream only (benchmarks,
// which do not pay for the emulator).
func NewScreen(w, h int) *Screen {
	s := &Screen{}
	if w > 0 {
		s.term = New(w, h)
	}
	return s
}

// streamKeep: the stream is cut back to its last half once it is this
// long.
const streamKeep = 128 << 10

func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += int64(len(p))
	s.writes++
	if s.term != nil {
		s.term.Feed(p)
		s.term.BadBytes = nil
	}
	if s.buf.Len() > streamKeep { // keep the tail only
		tail := append([]byte(nil), s.buf.Bytes()[s.buf.Len()-streamKeep/2:]...)
		s.buf.Reset()
		s.buf.Write(tail)
	}
	return s.buf.Write(p)
}

// Text is the stream kept, ANSI stripped, then a line and what the screen
// shows.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.term == nil {
		return ansi.Strip(s.buf.String())
	}
	return ansi.Strip(s.buf.String()) + "\n" + s.term.ScreenText()
}

// Shows reports whether every one of texts is in the stream kept, or
// every one is on the screen.
func (s *Screen) Shows(texts ...string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if all(ansi.Strip(s.buf.String()), texts) {
		return true
	}
	return s.term != nil && all(s.term.ScreenText(), texts)
}

func all(in string, texts []string) bool {
	for _, t := range texts {
		if !strings.Contains(in, t) {
			return false
		}
	}
	return true
}

// Resize changes the screen's size (a window change).
func (s *Screen) Resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.term != nil {
		s.term.Resize(w, h)
	}
}

// Bytes is how many bytes were written.
func (s *Screen) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Writes is how many writes there were: for a painter's output, about
// one a frame.
func (s *Screen) Writes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}
