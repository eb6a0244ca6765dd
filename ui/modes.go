package ui

import (
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/state"
	"bhtop/themes"
)

// The dashboard's modes that take the keyboard from the panes, each a
// value-type sub-model with its own Update and View. The root picks the
// active one (mode), hands it the key, and acts on what it reports
// (closed, quit, submit): only the root owns the context that quitting
// cancels and the panes that a mode's result lands in. The dialogs' Views
// are drawn by the root over the panes (dialog), the chart's in their
// place (writeBody).

// mode names the sub-model that has the keyboard.
type mode int

const (
	modePanes     mode = iota // the panes themselves (input.go)
	modeConfirm               // confirmation: send, cancel, close, cancel-all (dialogs.go, trade.go)
	modeCancelRun             // cancelRunState: a cancel-all's progress or summary (cancelrun.go)
	modeForm                  // orderForm: the order form (form*.go)
	modeHelp                  // helpScreen: the full key help (here)
	modeFilter                // filterPrompt: the pane filter being typed (here)
	modeChart                 // chartState: the candle chart (chartview.go)
)

// mode is the sub-model that has the keyboard now: a question first,
// then a cancel-all's shown progress, the form, the help, the filter
// prompt, the chart, else the panes.
func (m *Model) mode() mode {
	switch {
	case m.confirm != nil:
		return modeConfirm
	case m.cancelRun != nil && !m.cancelRun.hidden:
		return modeCancelRun
	case m.form != nil:
		return modeForm
	case m.showHelp:
		return modeHelp
	case m.prompt.on:
		return modeFilter
	case m.chart != nil:
		return modeChart
	}
	return modePanes
}

// dialog reports whether md is drawn as a box over the panes (which then
// take no keys and show no short help).
func (md mode) dialog() bool { return md >= modeConfirm && md <= modeHelp }

// keysOnly is the Update of a mode, which answers key presses alone:
// onKey handles one, any other message leaves v as it is. No mode
// returns a command.
func keysOnly[T any](v T, msg tea.Msg, onKey func(T, tea.KeyPressMsg) T) (T, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		v = onKey(v, k)
	}
	return v, nil
}

// modeCtx is what a mode's View reads of the dashboard, read-only: the
// styles, the account and market it shows, and the screen's size. The
// root makes one each time it draws or renders a mode (Model.modeCtx);
// a mode never keeps it.
type modeCtx struct {
	st      *themes.Styles
	pt      *paints
	snap    *state.Snapshot // the account: balances, orders, positions
	mk      *mktView        // the market: quotes, candles, the Market pane's rows
	w       int             // the screen's width
	bodyH   int             // the body's height, between the header and the message line
	style   int             // which styles st and pt are (styleID)
	privacy bool            // amounts are shown as the privacy mark
	stale   string          // the stream's state while the account may be stale (m.stale), else ""
}

// modeCtx is the dashboard as the modes see it now.
func (m *Model) modeCtx() modeCtx {
	cx := modeCtx{st: &m.st, pt: &m.pt, snap: m.snap, mk: m.mk, w: m.lay.w, bodyH: m.lay.body.h, style: m.styleID(),
		privacy: m.privacy}
	if m.stale() {
		cx.stale = string(m.status.State)
	}
	return cx
}

// boxed draws content in a box that fits the body (boxedLines), no line
// of it optional.
func (cx modeCtx) boxed(box lipgloss.Style, content string) string {
	var lines []boxLine
	for l := range strings.SplitSeq(content, "\n") {
		lines = append(lines, boxLine{s: l})
	}
	return cx.boxedLines(box, lines)
}

// boxLine is a line of a dialog and how readily it gives way when the
// dialog is taller than the body: blank lines go first, then the lines
// with the highest drop, bottom up; drop 0 always shows.
type boxLine struct {
	s     string
	drop  int
	short string // shown instead of s when s is wider than the box ("": s wraps)
}

// dropBlank is where blank lines are in the order lines give way: first.
const dropBlank = 9

// boxedLines draws lines in a box no wider than the screen and, as far
// as the lines that always show allow, no taller than the body: a line
// too wide is wrapped (its continuation indented under its text, never
// cut), then blank and droppable lines give way (boxLine), then, while
// the box is still too tall, its side padding narrows to one cell, then
// none, so that lines wrap less.
func (cx modeCtx) boxedLines(box lipgloss.Style, lines []boxLine) string {
	if cx.w-box.GetHorizontalFrameSize() < 1 {
		return ""
	}
	room := cx.bodyH - box.GetVerticalFrameSize()
	out := cx.fitLines(box, lines, room)
	for pad := 1; pad >= 0 && len(out) > room && box.GetPaddingLeft()+box.GetPaddingRight() > 2*pad; pad-- {
		box = box.PaddingLeft(pad).PaddingRight(pad)
		out = cx.fitLines(box, lines, room)
	}
	s := make([]string, len(out))
	for i, l := range out {
		s[i] = l.s
	}
	return box.Render(strings.Join(s, "\n"))
}

// fitLines is boxedLines' lines in box: wrapped to its width, and as
// many as give way dropped while there are more than room.
func (cx modeCtx) fitLines(box lipgloss.Style, lines []boxLine, room int) []boxLine {
	inner := cx.w - box.GetHorizontalFrameSize()
	if inner < 1 {
		return nil
	}
	var out []boxLine
	for _, l := range lines {
		if l.short != "" && ansi.StringWidth(l.s) > inner {
			l.s = l.short
		}
		if ansi.StringWidth(l.s) <= inner {
			out = append(out, l)
			continue
		}
		plain := ansi.Strip(l.s)
		indent := min(len(plain)-len(strings.TrimLeft(plain, " "))+2, inner/2)
		for i, part := range wrapWords(l.s, inner-indent) {
			if i > 0 {
				part = strings.Repeat(" ", indent) + strings.TrimLeft(part, " ")
			}
			out = append(out, boxLine{s: ansi.Truncate(part, inner, "…"), drop: l.drop})
		}
	}
	blank := func(l boxLine) bool { return strings.TrimSpace(ansi.Strip(l.s)) == "" }
	for level := dropBlank; level > 0 && len(out) > room; level-- {
		for i := len(out) - 1; i >= 0 && len(out) > room; i-- {
			if l := out[i]; l.drop == level || level == dropBlank && blank(l) {
				out = append(out[:i], out[i+1:]...)
			}
		}
	}
	return out
}

// dialog draws the active mode's box over the panes, fitted into room
// lines; ok is false when the active mode is not a dialog.
func (m *Model) dialog(room int) (string, bool) {
	md := m.mode()
	if !md.dialog() {
		return "", false
	}
	cx := m.modeCtx()
	cx.bodyH = room
	switch md {
	case modeConfirm:
		return m.confirm.View(cx), true
	case modeCancelRun:
		return m.cancelRun.View(cx), true
	case modeForm:
		return m.form.View(cx), true
	}
	return m.helpScreen().View(cx), true
}

// helpScreen is the full key help on `?`, drawn from the KeyMap. It is
// built from the root's keys, the screen and the root's scroll position
// whenever it is drawn or handed a key; the root keeps only whether it
// is open and where it is scrolled to.
type helpScreen struct {
	keys         KeyMap
	groups       [][]key.Binding // the bindings listed: the view's (KeyMap.FullHelp and the like)
	win          helpWindow      // its lines and the window of them shown (helpview.go)
	closed, quit bool            // what the last key asked of the root
}

// Update closes the help on ? or esc, asks to quit on q and scrolls it
// with the panes' scroll keys.
func (h helpScreen) Update(msg tea.Msg) (helpScreen, tea.Cmd) {
	return keysOnly(h, msg, helpScreen.onKey)
}

func (h helpScreen) onKey(k tea.KeyPressMsg) helpScreen {
	if top, ok := h.scroll(k); ok {
		h.win.top = top
		return h
	}
	switch {
	case key.Matches(k, h.keys.Quit):
		h.quit = true
	case key.Matches(k, h.keys.Help, h.keys.Esc):
		h.closed = true
	}
	return h
}

// View is the help's box: the window of the keys' lines, and how to
// close it (and where it is, when it scrolls).
func (h helpScreen) View(cx modeCtx) string {
	w := h.win
	foot := w.footer()
	foot = cx.st.Muted.Render(foot) + strings.Repeat(" ", max(0, w.width-textWidth(foot)))
	keys := strings.Join(w.lines[w.top:w.top+w.shown], "\n")
	if !w.chrome {
		return cx.boxed(cx.st.Box, keys+"\n"+foot)
	}
	return cx.boxed(cx.st.Box, cx.st.Title.Render("Keys")+"\n\n"+keys+"\n\n"+foot)
}

// helpScreen is the help as the root would draw it now.
func (m *Model) helpScreen() helpScreen {
	h := helpScreen{keys: m.keys, groups: m.keys.FullHelp()}
	switch { // the keys of the view the help was opened from
	case m.acc.all():
		h.groups = m.keys.AllFullHelp()
	case m.chart != nil:
		h.groups = m.keys.ChartFullHelp()
	}
	h.win = h.window(m.helpCtx(), m.helpTop)
	return h
}

// helpCtx is the context the help is drawn in now: the room a dialog
// has (dialogRoom).
func (m *Model) helpCtx() modeCtx {
	cx := m.modeCtx()
	cx.bodyH = m.dialogRoom(m.messageLines())
	return cx
}

// onHelpKey hands the key to the help: it scrolls, closes, or quits.
func (m Model) onHelpKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	h, cmd := m.helpScreen().Update(msg)
	if h.quit {
		return m.quit()
	}
	m.showHelp, m.helpTop = !h.closed, h.win.top
	return m, cmd
}

// filterKeys are the filter prompt's keys; anything else with text is
// typed into the filter.
type filterKeys struct {
	Keep, Clear, Erase key.Binding
}

// filterKeys are the prompt's keys: enter keeps the filter, esc clears it
// (the KeyMap's Esc, with the prompt's own help), backspace erases.
func (k KeyMap) filterKeys() filterKeys {
	clear := k.Esc
	clear.SetHelp("esc", "clear")
	return filterKeys{Keep: k.FilterKeep, Clear: clear, Erase: k.Erase}
}

// filterPrompt is the focused pane's filter being typed after `/`. The
// root copies its text into the pane after every key so the rows narrow
// as it is typed.
type filterPrompt struct {
	keys filterKeys
	text string
	on   bool // the prompt has the keyboard
}

// newFilterPrompt starts editing the pane filter text.
func newFilterPrompt(k KeyMap, text string) filterPrompt {
	return filterPrompt{keys: k.filterKeys(), text: text, on: true}
}

// Update edits the filter: enter keeps it, esc clears it, backspace
// erases a character, any other key with text types it.
func (f filterPrompt) Update(msg tea.Msg) (filterPrompt, tea.Cmd) {
	return keysOnly(f, msg, filterPrompt.onKey)
}

func (f filterPrompt) onKey(k tea.KeyPressMsg) filterPrompt {
	switch {
	case key.Matches(k, f.keys.Clear):
		f.text, f.on = "", false
	case key.Matches(k, f.keys.Keep):
		f.on = false
	case key.Matches(k, f.keys.Erase):
		if f.text != "" {
			_, size := utf8.DecodeLastRuneInString(f.text)
			f.text = f.text[:len(f.text)-size]
		}
	default:
		if k.Text != "" {
			f.text += k.Text
		}
	}
	return f
}

// View is the message line's hint while the filter is typed.
func (f filterPrompt) View() string {
	keep, clear := f.keys.Keep.Help(), f.keys.Clear.Help()
	return "filter: type to narrow · " + keep.Key + " " + keep.Desc + " · " + clear.Key + " " + clear.Desc
}

// onFilterKey hands the key to the filter prompt and narrows the
// focused pane to what it holds.
func (m Model) onFilterKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.prompt.text = m.panes[m.focus].filter // a click may have moved the focus
	m.prompt, cmd = m.prompt.Update(msg)
	m.panes[m.focus].filter = m.prompt.text
	m.rebuild()
	return m, cmd
}
