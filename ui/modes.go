package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The dashboard's modes that take the keyboard from the panes, each a
// value-type sub-model with its own Update and View. The root (onKey and
// dialog) picks the active one, hands it the key, and acts on what it
// reports (closed, quit): only the root owns the context that quitting
// cancels and the panes that a mode's result lands in.

// helpScreen is the full key help on `?`, drawn from the KeyMap. It is
// built from the root's help model, keys, styles and width whenever it is
// drawn or handed a key; the root keeps only whether it is open.
type helpScreen struct {
	keys         KeyMap
	help         help.Model
	title, muted lipgloss.Style
	width        int  // the help's width inside its box
	closed, quit bool // what the last key asked of the root
}

// Update closes the help on ? or esc and asks to quit on q.
func (h helpScreen) Update(msg tea.Msg) (helpScreen, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return h, nil
	}
	switch {
	case key.Matches(k, h.keys.Quit):
		h.quit = true
	case key.Matches(k, h.keys.Help, h.keys.Esc):
		h.closed = true
	}
	return h, nil
}

// View is the help's body: every key in columns, and how to close it.
func (h helpScreen) View() string {
	hm := h.help
	hm.ShowAll = true
	hm.SetWidth(h.width)
	return h.title.Render("Keys") + "\n\n" + hm.View(h.keys) + "\n\n" +
		h.muted.Render("? or esc closes this help")
}

// helpScreen is the help as the root would draw it now.
func (m *Model) helpScreen() helpScreen {
	return helpScreen{
		keys: m.keys, help: m.help, title: m.st.Title, muted: m.st.Muted,
		width: m.lay.w - m.st.Box.GetHorizontalFrameSize() - 2,
	}
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
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	switch {
	case key.Matches(k, f.keys.Clear):
		f.text, f.on = "", false
	case key.Matches(k, f.keys.Keep):
		f.on = false
	case key.Matches(k, f.keys.Erase):
		if f.text != "" {
			_, size := lastRune(f.text)
			f.text = f.text[:len(f.text)-size]
		}
	default:
		if k.Text != "" {
			f.text += k.Text
		}
	}
	return f, nil
}

// View is the message line's hint while the filter is typed.
func (f filterPrompt) View() string {
	keep, clear := f.keys.Keep.Help(), f.keys.Clear.Help()
	return "filter: type to narrow · " + keep.Key + " " + keep.Desc + " · " + clear.Key + " " + clear.Desc
}
