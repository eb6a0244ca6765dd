package paint

import (
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// A line that changed is sent as the cells that changed in it: the old and
// the new line are walked together cell by cell (a character, the style
// sequences in force, its column), and each run of changed cells is
// written after a cursor move. Only changed lines are walked, and a
// dashboard's lines are plain text and style sequences (lipgloss resets
// after each styled run), so the walk is a byte scan that keeps nothing.
// A line holding anything else is sent whole.

// cell is one character of a line as drawn.
type cell struct {
	text  string // the character, with any zero-width ones after it
	style string // the style sequences in force; "" is the default
	pens  int    // the line's style changes before it, to compare styles once per change
	col   int
	width int
}

// cells walks a line's cells.
type cells struct {
	line   string
	i      int
	col    int
	pen    string // style in force
	penEnd int    // where pen ends in line, so that an adjacent sequence extends it
	pens   int    // style changes so far
	bad    bool   // the line holds something cells do not model
}

func newCells(line string) cells { return cells{line: line, penEnd: -1} }

// next returns the next cell, or false at the end of the line or at
// something cells do not model (then c.bad is set): an escape sequence
// that is not a style, styles with text between them and no reset, a
// control character, a character whose width depends on its neighbours.
func (c *cells) next() (cell, bool) {
	line := c.line
	for c.i < len(line) {
		b := line[c.i]
		switch {
		case b == 0x1b:
			if !c.style() {
				c.bad = true
				return cell{}, false
			}
		case b < 0x20 || b == 0x7f:
			c.bad = true
			return cell{}, false
		default:
			start, w := c.i, 1
			if b < utf8.RuneSelf {
				c.i++
			} else {
				r, size := utf8.DecodeRuneInString(line[c.i:])
				if w = runeWidth(r); w <= 0 { // unknown, or zero-width with nothing before it
					c.bad = true
					return cell{}, false
				}
				c.i += size
			}
			for c.i < len(line) && line[c.i] >= utf8.RuneSelf { // combining marks join it
				r, size := utf8.DecodeRuneInString(line[c.i:])
				if runeWidth(r) != 0 {
					break
				}
				c.i += size
			}
			cl := cell{text: line[start:c.i], style: c.pen, pens: c.pens, col: c.col, width: w}
			c.col += w
			return cl, true
		}
	}
	return cell{}, false
}

// style takes the style sequence at c.i, and reports false if it is
// something else.
func (c *cells) style() bool {
	line := c.line
	if c.i+1 >= len(line) || line[c.i+1] != '[' {
		return false
	}
	n, sgr := csiLen(line[c.i:])
	if !sgr {
		return false
	}
	switch seq := line[c.i : c.i+n]; {
	case seq == ansi.ResetStyle || seq == "\x1b[0m":
		c.pen, c.penEnd = "", -1
	case c.pen == "":
		c.pen, c.penEnd = seq, c.i+n
	case c.penEnd == c.i:
		c.pen, c.penEnd = line[c.i-len(c.pen):c.i+n], c.i+n
	default:
		return false
	}
	c.i += n
	c.pens++
	return true
}

// width is the rest of the line's width, walked to its end.
func (c *cells) width() int {
	for {
		if _, ok := c.next(); !ok {
			return c.col
		}
	}
}

// runeWidth is the columns r takes as a grapheme of its own, as lipgloss
// measures it; -1 for a character whose width depends on its neighbours
// (emoji, joiners, variation selectors) or that is not known here.
func runeWidth(r rune) int {
	if r >= utf8.RuneSelf && r < maxTabled {
		return int(widthTable()[r])
	}
	return -1
}

// maxTabled bounds the characters measured: the alphabets, punctuation,
// box drawing, blocks, geometric shapes and dingbats below it. Past it
// (CJK, emoji, variation selectors) lines are sent whole.
const maxTabled = 0x3000

var widthTable = sync.OnceValue(func() *[maxTabled]int8 {
	var t [maxTabled]int8
	for r := rune(utf8.RuneSelf); r < maxTabled; r++ {
		t[r] = int8(ansi.StringWidth(string(r)))
		if r == 0x200d { // the zero-width joiner makes one grapheme of its neighbours
			t[r] = -1
		}
	}
	return &t
})

// maxGap is the longest run of unchanged cells written anyway between two
// changed ones (cheaper than a cursor move).
const maxGap = 4

// appendLine appends what turns row y of the screen (w columns)
// from old into line.
func (p *Painter) appendLine(b []byte, y, w int, old, line string, profile colorprofile.Profile) []byte {
	mark := len(b)
	// The cells that end before the first byte that differs are the same
	// in both lines, at the same columns: they are only walked.
	k := 0
	for k < len(old) && k < len(line) && old[k] == line[k] {
		k++
	}
	// And once both lines have the same bytes left, at the same column in
	// the same style, the rest is the same too.
	ks := 0
	for ks < len(old)-k && ks < len(line)-k && old[len(old)-1-ks] == line[len(line)-1-ks] {
		ks++
	}
	sameRest := false
	n := newCells(line)
	common := n // n after the last cell of the common prefix
	var o cells
	var oc cell
	oMore, synced := false, false
	var gap [maxGap]cell // unchanged cells since the last changed one
	gaps := 0
	inRun := false
	pen := "\x00"                            // unknown: the first cell written sets its style
	drawn := 0                               // the columns the new line covers in the window
	oPens, nPens, sameStyle := -1, -1, false // the last pair of styles compared
	put := func(c cell) {
		if c.style != pen {
			b = append(b, ansi.ResetStyle...)
			b = p.sgr.appendLine(b, c.style, profile)
			pen = c.style
		}
		b = append(b, c.text...)
	}
	for {
		nc, ok := n.next()
		if !ok || nc.col+nc.width > w {
			break
		}
		drawn = nc.col + nc.width
		if n.i < k {
			common = n
			continue // a common prefix: nothing written yet
		}
		if !synced { // old from the same state, at the same byte
			o, synced = common, true
			o.line = old
			oc, oMore = o.next()
		}
		for oMore && oc.col < nc.col {
			oc, oMore = o.next()
		}
		if oMore && (oc.pens != oPens || nc.pens != nPens) {
			oPens, nPens, sameStyle = oc.pens, nc.pens, oc.style == nc.style
		}
		if oMore && oc.col == nc.col && oc.width == nc.width && sameStyle && sameText(oc.text, nc.text) {
			if rest := len(line) - n.i; rest <= ks && rest == len(old)-o.i && n.pen == o.pen {
				sameRest = true
				break
			}
			if inRun {
				if gaps < maxGap {
					gap[gaps] = nc
					gaps++
				} else {
					inRun, gaps = false, 0
				}
			}
			continue
		}
		if inRun {
			for _, c := range gap[:gaps] {
				put(c)
			}
		} else {
			b = appendMoveTo(b, nc.col, y)
			inRun = true
		}
		gaps = 0
		put(nc)
	}
	if sameRest {
		return b
	}
	if !synced {
		o = common
		o.line = old
	}
	oldWidth := o.width()
	if n.bad || o.bad {
		// The whole line, cut to the window.
		b = appendMoveTo(b[:mark], 0, y)
		b = append(b, ansi.ResetStyle+ansi.EraseEntireLine...)
		if ansi.StringWidth(line) > w {
			line = ansi.Truncate(line, w, "")
		}
		return p.sgr.appendLine(b, line, profile)
	}
	if drawn < min(oldWidth, w) {
		b = appendMoveTo(b, drawn, y)
		b = append(b, ansi.ResetStyle+ansi.EraseLineRight...)
	}
	return b // the pen is reset by the next line's first run or the frame's end
}

// sameText compares two cells' characters, most often one byte each.
func sameText(a, b string) bool {
	if len(a) == 1 && len(b) == 1 {
		return a[0] == b[0]
	}
	return a == b
}
