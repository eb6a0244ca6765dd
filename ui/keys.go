package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap is the dashboard's keyboard (DESIGN.md, "Keyboard"). Help is
// generated from it, so a disabled binding (n, x and X in read-only mode)
// neither matches nor appears in the help.
type KeyMap struct {
	NextPane, PrevPane key.Binding
	Pane1, Pane2       key.Binding
	Pane3, Pane4       key.Binding
	Pane5, Pane6       key.Binding
	Chart              key.Binding
	IntervalPrev       key.Binding
	IntervalNext       key.Binding
	Up, Down           key.Binding
	PageUp, PageDown   key.Binding
	Top, Bottom        key.Binding
	Filter, Esc        key.Binding
	// FilterKeep and Erase are the filter prompt's enter and backspace.
	FilterKeep, Erase key.Binding
	// Yes answers a question (send, cancel); any other key is no.
	Yes key.Binding
	// The order form's keys: fields, choices and enter.
	FieldNext, FieldPrev   key.Binding
	ChoicePrev, ChoiceNext key.Binding
	Submit                 key.Binding
	Sort, Reverse          key.Binding
	New, Cancel            key.Binding
	CancelAll              key.Binding
	Keepalive, Resync      key.Binding
	History, Theme         key.Binding
	Zero, Privacy          key.Binding
	Help, Quit             key.Binding
	// NextAccount and PrevAccount (a / A) are enabled by NewDesk with
	// several accounts only.
	NextAccount, PrevAccount key.Binding
}

// DefaultKeyMap returns the contract keys with every binding enabled but
// the account keys, which only a dashboard of several accounts has.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		NextPane:     b([]string{"tab"}, "tab", "next pane"),
		PrevPane:     b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Pane1:        b([]string{"1"}, "1–6", "focus pane"),
		Pane2:        b([]string{"2"}, "2", "open orders"),
		Pane3:        b([]string{"3"}, "3", "positions"),
		Pane4:        b([]string{"4"}, "4", "events"),
		Pane5:        b([]string{"5"}, "5", "market"),
		Pane6:        b([]string{"6"}, "6", "fills"),
		Chart:        b([]string{"c"}, "c", "chart"),
		IntervalPrev: b([]string{"left", "["}, "←/[", "shorter interval"),
		IntervalNext: b([]string{"right", "]"}, "→/]", "longer interval"),
		Up:           b([]string{"up", "k"}, "↑/k", "up"),
		Down:         b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:       b([]string{"pgup"}, "pgup", "page up"),
		PageDown:     b([]string{"pgdown"}, "pgdn", "page down"),
		Top:          b([]string{"g", "home"}, "g", "top"),
		Bottom:       b([]string{"G", "end"}, "G", "bottom"),
		Filter:       b([]string{"/"}, "/", "filter"),
		Esc:          b([]string{"esc"}, "esc", "clear / close"),
		FilterKeep:   b([]string{"enter"}, "enter", "keep"),
		Erase:        b([]string{"backspace"}, "backspace", "erase"),
		Yes:          b([]string{"y"}, "y", "yes"),
		FieldNext:    b([]string{"tab", "down"}, "tab/↓", "next field"),
		FieldPrev:    b([]string{"shift+tab", "up"}, "shift+tab/↑", "previous field"),
		ChoicePrev:   b([]string{"left"}, "←", "previous choice"),
		ChoiceNext:   b([]string{"right", "space"}, "→/space", "next choice"),
		Submit:       b([]string{"enter"}, "enter", "review"),
		Sort:         b([]string{"s"}, "s", "sort column"),
		Reverse:      b([]string{"S"}, "S", "reverse sort"),
		New:          b([]string{"n"}, "n", "new order"),
		Cancel:       b([]string{"x"}, "x", "cancel / close"),
		CancelAll:    b([]string{"X"}, "X", "cancel all shown"),
		Keepalive:    b([]string{"K"}, "K", "keepalive"),
		Resync:       b([]string{"r"}, "r", "resync"),
		History:      b([]string{"h"}, "h", "closed orders"),
		Theme:        b([]string{"t"}, "t", "next theme"),
		Zero:         b([]string{"z"}, "z", "zero balances"),
		Privacy:      b([]string{"p"}, "p", "privacy"),
		Help:         b([]string{"?"}, "?", "help"),
		Quit:         b([]string{"q", "ctrl+c"}, "q", "quit"),
		NextAccount:  off(b([]string{"a"}, "a", "next account")),
		PrevAccount:  off(b([]string{"A"}, "A", "previous account")),
	}
}

// SetReadOnly disables (or enables) the order keys n, x and X.
func (k *KeyMap) SetReadOnly(readOnly bool) {
	k.New.SetEnabled(!readOnly)
	k.Cancel.SetEnabled(!readOnly)
	k.CancelAll.SetEnabled(!readOnly)
}

// isOrderKey reports whether msg is one of the order keys n, x and X,
// enabled or not (in read-only mode they are disabled, yet say why).
func (k *KeyMap) isOrderKey(msg tea.KeyPressMsg) bool {
	for _, b := range []key.Binding{k.New, k.Cancel, k.CancelAll} {
		if slices.Contains(b.Keys(), msg.String()) {
			return true
		}
	}
	return false
}

// ShortHelp is the one-line help under the panes.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.NextPane, k.NextAccount, k.New, k.Cancel, k.Chart, k.Filter, k.Sort, k.History, k.Quit}
}

// AllShortHelp is the one-line help of the All accounts view: only the
// keys that work there.
func (k KeyMap) AllShortHelp() []key.Binding {
	acct := k.NextAccount
	acct.SetHelp("a/A", "next / previous account")
	return []key.Binding{k.Help, acct, k.Privacy, k.Theme, k.Quit}
}

// ChartShortHelp is the one-line help under the chart: only the keys that
// work there (the intervals are on the chart's own bottom line).
func (k KeyMap) ChartShortHelp() []key.Binding {
	esc := k.Esc
	esc.SetHelp("esc", "close chart")
	return []key.Binding{k.Help, esc, k.New, k.Quit}
}

// FullHelp is the help screen on `?`, in columns narrow enough for 80
// columns. Keys 2–6 are listed with 1 ("1–6").
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextPane, k.PrevPane, k.Pane1, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Filter, k.Esc, k.Sort, k.Reverse, k.History, k.Zero, k.Theme, k.Privacy},
		{k.New, k.Cancel, k.CancelAll, k.Chart, k.IntervalPrev, k.IntervalNext, k.Keepalive, k.Resync, k.NextAccount, k.PrevAccount, k.Help, k.Quit},
	}
}

// AllFullHelp is the help screen of the All accounts view: only the keys
// that work there (onAccountKey).
func (k KeyMap) AllFullHelp() [][]key.Binding {
	return [][]key.Binding{{k.NextAccount, k.PrevAccount, k.Privacy, k.Theme, k.Help, k.Quit}}
}

// ChartFullHelp is the help screen of the chart: only the keys that work
// there (chartState.Update).
func (k KeyMap) ChartFullHelp() [][]key.Binding {
	esc := k.Esc
	esc.SetHelp("esc/c", "close chart")
	return [][]key.Binding{{k.IntervalPrev, k.IntervalNext, esc, k.New, k.Help, k.Quit}}
}

// paneOf is the pane a focus key names: key n focuses pane n-1, as the
// tabs are numbered (paneID order); ok is false for any other key.
func (k *KeyMap) paneOf(msg tea.KeyPressMsg) (id paneID, ok bool) {
	for i, b := range [numPanes]*key.Binding{&k.Pane1, &k.Pane2, &k.Pane3, &k.Pane4, &k.Pane5, &k.Pane6} {
		if key.Matches(msg, *b) {
			return paneID(i), true
		}
	}
	return 0, false
}
