package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The help screen's layout: the KeyMap's FullHelp groups side by side
// when they fit the width, else every key in two columns, else in one
// (a key over its description when even that is too wide); and a window
// of its lines that the scroll keys move when they do not fit the
// height, with where it is on the bottom line.

// helpEntry is one binding's line of the help.
type helpEntry struct{ key, desc string }

// helpColumns are the enabled bindings of groups in columns that fit
// width cells: the groups themselves, else all of them in two columns,
// else in one. stacked reports one column too wide for its lines, drawn
// a key over its description.
func helpColumns(groups [][]key.Binding, width int) (cols [][]helpEntry, stacked bool) {
	var all []helpEntry
	for _, g := range groups {
		var col []helpEntry
		for _, b := range g {
			if b.Enabled() {
				col = append(col, helpEntry{b.Help().Key, b.Help().Desc})
			}
		}
		if len(col) > 0 {
			cols = append(cols, col)
			all = append(all, col...)
		}
	}
	if helpWidth(cols) <= width {
		return cols, false
	}
	half := (len(all) + 1) / 2
	if two := [][]helpEntry{all[:half], all[half:]}; len(cols) > 2 && helpWidth(two) <= width {
		return two, false
	}
	one := [][]helpEntry{all}
	return one, helpWidth(one) > width
}

// helpColSep is the gap between the help's columns.
const helpColSep = "    "

// helpWidth is how wide cols are side by side.
func helpWidth(cols [][]helpEntry) int {
	w := 0
	for i, c := range cols {
		if i > 0 {
			w += len(helpColSep)
		}
		kw, dw := entryWidths(c)
		w += kw + 1 + dw
	}
	return w
}

// entryWidths are the widest key and description of col.
func entryWidths(col []helpEntry) (kw, dw int) {
	for _, e := range col {
		kw, dw = max(kw, textWidth(e.key)), max(dw, textWidth(e.desc))
	}
	return kw, dw
}

// helpLines draws cols, each line of every column side by side, in the
// help styles; the separator is styled on the first line only, as the
// help bubble drew it.
func helpLines(cx modeCtx, cols [][]helpEntry, stacked bool) []string {
	if stacked {
		var out []string
		for _, e := range cols[0] {
			out = append(out, cx.st.HelpKey.Render(e.key), "  "+cx.st.HelpDesc.Render(e.desc))
		}
		return out
	}
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	out := make([]string, rows)
	for ci, c := range cols {
		kw, dw := entryWidths(c)
		for i := range rows {
			var b strings.Builder
			if ci > 0 {
				if i == 0 {
					b.WriteString(cx.st.HelpSep.Render(helpColSep))
				} else {
					b.WriteString(helpColSep)
				}
			}
			if i < len(c) {
				b.WriteString(cx.st.HelpKey.Render(c[i].key))
				b.WriteString(strings.Repeat(" ", kw-textWidth(c[i].key)+1))
				b.WriteString(cx.st.HelpDesc.Render(c[i].desc))
				b.WriteString(strings.Repeat(" ", dw-textWidth(c[i].desc)))
			} else {
				b.WriteString(strings.Repeat(" ", kw+1+dw))
			}
			out[i] += b.String()
		}
	}
	return out
}

// helpWindow is the part of the help's lines the box shows.
type helpWindow struct {
	lines   []string // every line of the keys
	top     int      // the first shown
	shown   int      // how many are shown
	chrome  bool     // the title and blank lines around the keys are drawn
	width   int      // the box's inner width, the same wherever it is scrolled to
	closeBy string   // the keys that close the help
}

// helpChrome is the box's lines besides the keys: the title, a blank
// line, a blank line and the bottom line.
const helpChrome = 4

// window fits the help into the body: the lines of the keys that the
// height leaves room for, from top (clamped to the last full window).
// When the title and blank lines would leave fewer than four lines of
// keys, only the bottom line is kept.
func (h helpScreen) window(cx modeCtx, top int) helpWindow {
	cols, stacked := helpColumns(h.groups, cx.w-cx.st.Box.GetHorizontalFrameSize()-2)
	inner := cx.w - cx.st.Box.GetHorizontalFrameSize()
	lines := helpLines(cx, cols, stacked)
	for i, l := range lines { // a stacked description on the smallest screens: cut, as the box would wrap it
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	room := cx.bodyH - cx.st.Box.GetVerticalFrameSize()
	win := helpWindow{lines: lines, chrome: true, closeBy: h.keys.Help.Help().Key + " or " + h.keys.Esc.Help().Key}
	win.shown = room - helpChrome
	if win.shown < min(len(lines), 4) {
		win.chrome, win.shown = false, room-1
	}
	win.shown = max(1, min(win.shown, len(lines)))
	win.top = max(0, min(top, len(lines)-win.shown))
	n := len(lines)
	win.width = textWidth(fmt.Sprintf("%d–%d of %d ↑↓", n, n, n))
	if w := win.width + textWidth(" · "+win.closeBy+" closes"); w <= inner {
		win.width = w
	}
	if win.maxTop() == 0 {
		win.width = textWidth(win.footer())
	}
	for _, l := range lines {
		win.width = max(win.width, ansi.StringWidth(l))
	}
	win.width = min(win.width, inner)
	return win
}

// maxTop is the last top that still fills the window.
func (w helpWindow) maxTop() int { return len(w.lines) - w.shown }

// footer is the bottom line: how to close the help, and when it scrolls
// which lines are shown ("1–11 of 15 ↓"), as much of it as fits the
// box's width.
func (w helpWindow) footer() string {
	if w.maxTop() == 0 {
		return w.closeBy + " closes this help"
	}
	arrows := ""
	if w.top > 0 {
		arrows += "↑"
	}
	if w.top < w.maxTop() {
		arrows += "↓"
	}
	out := fmt.Sprintf("%d–%d of %d %s", w.top+1, w.top+w.shown, len(w.lines), arrows)
	for _, more := range []string{w.closeBy + " closes", "↑↓ pgup pgdn scroll"} {
		if textWidth(out+" · "+more) <= w.width {
			out += " · " + more
		}
	}
	return out
}

// scroll moves the help's window for a scroll key; ok is false for any
// other key.
func (h helpScreen) scroll(k tea.KeyPressMsg) (top int, ok bool) {
	page := max(1, h.win.shown-1)
	switch {
	case key.Matches(k, h.keys.Up):
		top = h.win.top - 1
	case key.Matches(k, h.keys.Down):
		top = h.win.top + 1
	case key.Matches(k, h.keys.PageUp):
		top = h.win.top - page
	case key.Matches(k, h.keys.PageDown):
		top = h.win.top + page
	case key.Matches(k, h.keys.Top):
		top = 0
	case key.Matches(k, h.keys.Bottom):
		top = h.win.maxTop()
	default:
		return h.win.top, false
	}
	return max(0, min(top, h.win.maxTop())), true
}
