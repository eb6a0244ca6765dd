package serve

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// emulator is the little of a terminal the painter relies on: cursor
// moves, erasing, style sequences, characters of width 1 and 2, and the
// modes it sets (auto-wrap off is the only one that changes drawing),
// plus carriage return and line feed for the messages after a session.
// What it does not know it skips and lists in badBytes.
type emulator struct {
	w, h     int
	grid     [][]emuCell
	x, y     int
	pen      string
	alt      bool // on the alternate screen
	hidden   bool // text cursor hidden
	noWrap   bool // auto-wrap off
	modes    map[string]bool
	badBytes []string // sequences the emulator does not know
}

type emuCell struct{ text, style string }

func newEmulator(w, h int) *emulator {
	e := &emulator{w: w, h: h, modes: map[string]bool{}}
	e.grid = make([][]emuCell, h)
	for y := range e.grid {
		e.grid[y] = make([]emuCell, w)
		e.eraseRow(y, 0)
	}
	return e
}

// resize changes the window, keeping the modes; what it shows is garbage
// until the next full frame.
func (e *emulator) resize(w, h int) {
	n := newEmulator(w, h)
	for y := range n.grid {
		for x := range n.grid[y] {
			n.grid[y][x] = emuCell{"?", ""}
		}
	}
	e.w, e.h, e.grid, e.x, e.y = w, h, n.grid, 0, 0
}

func (e *emulator) eraseRow(y, from int) {
	for x := from; x < e.w; x++ {
		e.grid[y][x] = emuCell{" ", e.pen}
	}
}

func (e *emulator) feed(b []byte) {
	s := string(b)
	for len(s) > 0 {
		switch {
		case strings.HasPrefix(s, "\x1b]"): // OSC, up to BEL
			end := strings.IndexByte(s, '\a')
			if end < 0 {
				e.badBytes = append(e.badBytes, s)
				return
			}
			s = s[end+1:]
		case strings.HasPrefix(s, "\x1b["):
			n, _ := csiLen(s)
			e.csi(s[:n])
			s = s[n:]
		case s[0] == '\r':
			e.x = 0
			s = s[1:]
		case s[0] == '\n':
			e.y = min(e.y+1, e.h-1)
			s = s[1:]
		case s[0] < 0x20:
			if s[0] != '\a' {
				e.badBytes = append(e.badBytes, fmt.Sprintf("%q", s[0]))
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

func (e *emulator) put(text string, width int) {
	if e.x+width > e.w {
		if !e.noWrap {
			e.badBytes = append(e.badBytes, "a character at the right edge with auto-wrap on: "+text)
		}
		e.x = max(e.w-width, 0) // auto-wrap off: the last column is overwritten
	}
	if width > e.w {
		return
	}
	e.grid[e.y][e.x] = emuCell{text, e.pen}
	for i := 1; i < width; i++ {
		e.grid[e.y][e.x+i] = emuCell{"", e.pen}
	}
	e.x += width
}

func (e *emulator) csi(seq string) {
	body, final := seq[2:len(seq)-1], seq[len(seq)-1]
	if body != "" && strings.ContainsRune("?<>=", rune(body[0])) {
		switch {
		case body[0] == '?' && (final == 'h' || final == 'l'):
			on := final == 'h'
			for _, m := range strings.Split(body[1:], ";") {
				e.modes[m] = on
				switch m {
				case "1049":
					e.alt = on
				case "25":
					e.hidden = !on
				case "7":
					e.noWrap = !on
				}
			}
		case body[0] == '>' || body[0] == '<': // keyboard protocols
		default:
			e.badBytes = append(e.badBytes, seq)
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
		e.y, e.x = max(min(num(0, 1), e.h), 1)-1, max(min(num(1, 1), e.w), 1)-1
	case 'J':
		if num(0, 0) != 2 {
			e.badBytes = append(e.badBytes, seq)
		}
		for y := range e.h {
			e.eraseRow(y, 0)
		}
	case 'K':
		switch num(0, 0) {
		case 0:
			e.eraseRow(e.y, e.x)
		case 2:
			e.eraseRow(e.y, 0)
		default:
			e.badBytes = append(e.badBytes, seq)
		}
	case 'm':
		if body == "" || body == "0" {
			e.pen = ""
		} else {
			e.pen += seq
		}
	default:
		e.badBytes = append(e.badBytes, seq)
	}
}

// screenText is what the screen shows, a line per row (the right half of
// a wide character is not repeated).
func (e *emulator) screenText() string {
	var b strings.Builder
	for _, row := range e.grid {
		for _, c := range row {
			b.WriteString(c.text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
