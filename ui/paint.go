package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/themes"
)

// paint is a style reduced to the escape sequences around its text, so a
// row can be coloured by string concatenation instead of a lipgloss
// Render per cell: rendering stays cheap enough for every frame.
type paint struct{ open, close string }

func mkPaint(st lipgloss.Style) paint {
	r := st.Render("X")
	i := strings.IndexByte(r, 'X')
	if i < 0 {
		return paint{}
	}
	return paint{r[:i], r[i+1:]}
}

func (p paint) wrap(s string) string {
	if p.open == "" {
		return s
	}
	return p.open + s + p.close
}

// paints are the theme's styles as paints, rebuilt with the styles.
type paints struct {
	selected, buy, sell, pending, unknown paint
	muted, good, warn, bad, accent        paint
	colHeader, title, titleFocused, stale paint
	tab, tabActive, header, status        paint
	badge                                 paint
}

func newPaints(st *themes.Styles) paints {
	return paints{
		selected: mkPaint(st.Selected), buy: mkPaint(st.Buy), sell: mkPaint(st.Sell),
		pending: mkPaint(st.Pending), unknown: mkPaint(st.Unknown),
		muted: mkPaint(st.Muted), good: mkPaint(st.Good), warn: mkPaint(st.Warn),
		bad: mkPaint(st.Bad), accent: mkPaint(st.Accent),
		colHeader: mkPaint(st.ColHeader), title: mkPaint(st.Title), titleFocused: mkPaint(st.TitleFocused),
		stale: mkPaint(st.Stale), tab: mkPaint(st.Tab), tabActive: mkPaint(st.TabActive),
		header: mkPaint(st.Header), status: mkPaint(st.Status), badge: mkPaint(st.Badge),
	}
}

// textWidth is the display width of plain text: fast for ASCII and for
// the one-cell symbols the panes draw (marks, arrows, block heights),
// else by grapheme clusters.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return symbolsWidth(s)
		}
	}
	return len(s)
}

// symbolsWidth counts runes when every non-ASCII rune of s is a one-cell
// symbol the dashboard draws; anything else is measured by ansi.
func symbolsWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r < 0x80:
		case r == '…', r == '•', r == '·', r == '—', r == '–',
			r >= 0x2190 && r <= 0x21FF, // arrows
			r >= 0x2500 && r <= 0x259F, // box drawing, block elements
			r >= 0x25A0 && r <= 0x25FF, // geometric shapes (▶ ◀)
			r == '✓', r == '✕', r == '⚠':
		default:
			return ansi.StringWidth(s)
		}
		n++
	}
	return n
}

// fit pads or truncates plain text to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	tw := textWidth(s)
	if tw > w {
		s = ansi.Truncate(s, w, "…")
		tw = textWidth(s)
	}
	if tw < w {
		return s + strings.Repeat(" ", w-tw)
	}
	return s
}

// wrapWords wraps styled text into lines of at most w cells, at spaces
// only (a word longer than w is cut where it must): never after a hyphen,
// which would part a minus sign from its number or a symbol's halves
// (BTC-PERP-REV). Styles carry over the breaks.
func wrapWords(s string, w int) []string {
	const nbHyphen = "\u2011" // one cell, not a break
	out := lipgloss.Wrap(strings.ReplaceAll(s, "-", nbHyphen), max(1, w), "")
	return strings.Split(strings.ReplaceAll(out, nbHyphen, "-"), "\n")
}

// fitStyled pads or truncates styled text to exactly w cells.
func fitStyled(s string, w int) string {
	if w <= 0 {
		return ""
	}
	tw := ansi.StringWidth(s)
	if tw > w {
		s = ansi.Truncate(s, w, "…")
		tw = ansi.StringWidth(s)
	}
	if tw < w {
		return s + strings.Repeat(" ", w-tw)
	}
	return s
}

// writeFit writes plain text padded or truncated to exactly w cells.
func writeFit(b *strings.Builder, s string, w int) {
	if tw := textWidth(s); tw <= w {
		b.WriteString(s)
		writeSpaces(b, w-tw)
		return
	}
	if w > 0 && plainASCII(s) { // cut in place: what fit does, without its copies
		b.WriteString(s[:w-1])
		b.WriteString("…")
		return
	}
	b.WriteString(fit(s, w))
}

// plainASCII reports whether s is printable ASCII (one cell a byte, no
// escape codes).
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
