// Package vtemu is a small terminal emulator for tests: enough of a
// terminal to check what paint's painter writes (paint's tests) and what a
// serve session shows (serve's test clients).
package vtemu

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Emulator is the little of a terminal the painter relies on: cursor
// moves, erasing, style sequences, characters of width 1 and 2, and the
// modes it sets (auto-wrap off is the only one that changes drawing),
// plus carriage return and line feed for the messages after a session.
// What it does not know it skips and lists in BadBytes.
type Emulator struct {
	W, H     int
	Grid     [][]Cell // [row][column]
	x, y     int
	pen      string
	Alt      bool            // on the alternate screen
	Hidden   bool            // text cursor hidden
	NoWrap   bool            // auto-wrap off
	Modes    map[string]bool // private modes ("1049", "2004", ...) as last set
	BadBytes []string        // sequences the emulator does not know
}

// Cell is one cell of the screen: its character ("" for the right half of
// a wide one) and the style sequences in force when it was written.
type Cell struct{ Text, Style string }

// New is a w×h screen of blanks.
func New(w, h int) *Emulator {
	e := &Emulator{W: w, H: h, Modes: map[string]bool{}}
	e.Grid = make([][]Cell, h)
	for y := range e.Grid {
		e.Grid[y] = make([]Cell, w)
		e.eraseRow(y, 0)
	}
	return e
}

// Resize changes the window, keeping the modes; what it shows is garbage
// until the next full frame.
func (e *Emulator) Resize(w, h int) {
	n := New(w, h)
	for y := range n.Grid {
		for x := range n.Grid[y] {
			n.Grid[y][x] = Cell{Text: "?"}
		}
	}
	e.W, e.H, e.Grid, e.x, e.y = w, h, n.Grid, 0, 0
}

func (e *Emulator) eraseRow(y, from int) {
	for x := from; x < e.W; x++ {
		e.Grid[y][x] = Cell{Text: " ", Style: e.pen}
	}
}

func (e *Emulator) Feed(b []byte) {
	s := string(b)
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "\x1b]"): // OSC, up to BEL
			end := strings.IndexByte(s, '\a')
			if end < 0 {
				e.BadBytes = append(e.BadBytes, s)
				return
			}
			s = s[end+1:]
		case strings.HasPrefix(s, "\x1b["):
			n := csiLen(s)
			e.csi(s[:n])
			s = s[n:]
		case s[0] == '\r':
			e.x = 0
			s = s[1:]
		case s[0] == '\n':
			e.y = min(e.y+1, e.H-1)
			s = s[1:]
		case s[0] < 0x20:
			if s[0] != '\a' {
				e.BadBytes = append(e.BadBytes, fmt.Sprintf("%q", s[0]))
			}
			s = s[1:]
		default:
			_, size := utf8.DecodeRuneInString(s)
			// Zero-width characters join the character they follow.
			for size < len(s) && s[size] >= utf8.RuneSelf {
				_, next := utf8.DecodeRuneInString(s[size:])
				if ansi.StringWidth(s[size:size+next]) != 0 {
					break
				}
				size += next
			}
			e.put(s[:size], ansi.StringWidth(s[:size]))
			s = s[size:]
		}
	}
}

func (e *Emulator) put(text string, width int) {
	if e.x+width > e.W {
		if !e.NoWrap {
			e.BadBytes = append(e.BadBytes, "a character at the right edge with auto-wrap on: "+text)
		}
		e.x = max(e.W-width, 0) // auto-wrap off: the last column is overwritten
	}
	if width > e.W {
		return
	}
	e.Grid[e.y][e.x] = Cell{Text: text, Style: e.pen}
	for i := 1; i < width; i++ {
		e.Grid[e.y][e.x+i] = Cell{Text: "", Style: e.pen}
	}
	e.x += width
}

func (e *Emulator) csi(seq string) {
	body, final := seq[2:len(seq)-1], seq[len(seq)-1]
	if body != "" && strings.ContainsRune("?<>=", rune(body[0])) {
		switch {
		case body[0] == '?' && (final == 'h' || final == 'l'):
			on := final == 'h'
			for _, m := range strings.Split(body[1:], ";") {
				e.Modes[m] = on
				switch m {
				case "1049":
					e.Alt = on
				case "25":
					e.Hidden = !on
				case "7":
					e.NoWrap = !on
				}
			}
		case body[0] == '>' || body[0] == '<': // keyboard protocols
		default:
			e.BadBytes = append(e.BadBytes, seq)
		}
		return
	}
	params := strings.Split(body, ";")
	num := func(i, def int) int {
		if i < len(params) && params[i] != "" {
			n, _ := strconv.Atoi(params[i])
			return n
		}
		return def
	}
	switch final {
	case 'H':
		e.y, e.x = max(min(num(0, 1), e.H), 1)-1, max(min(num(1, 1), e.W), 1)-1
	case 'J':
		if num(0, 0) != 2 {
			e.BadBytes = append(e.BadBytes, seq)
		}
		for y := range e.H {
			e.eraseRow(y, 0)
		}
	case 'K':
		switch num(0, 0) {
		case 0:
			e.eraseRow(e.y, e.x)
		case 2:
			e.eraseRow(e.y, 0)
		default:
			e.BadBytes = append(e.BadBytes, seq)
		}
	case 'm':
		if body == "" || body == "0" {
			e.pen = ""
		} else {
			e.pen += seq
		}
	default:
		e.BadBytes = append(e.BadBytes, seq)
	}
}

// ScreenText is what the screen shows, a line per row (the right half of
// a wide character is not repeated).
func (e *Emulator) ScreenText() string {
	var b strings.Builder
	for _, row := range e.Grid {
		for _, c := range row {
			b.WriteString(c.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// csiLen returns the length of the control sequence that s starts with
// ("\x1b[" first); an unfinished sequence runs to the end of s.
func csiLen(s string) int {
	for i := 2; i < len(s); i++ {
		if ch := s[i]; ch >= 0x40 && ch <= 0x7e {
			return i + 1
		}
	}
	return len(s)
}
