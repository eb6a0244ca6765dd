package themes

import (
	"charm.land/lipgloss/v2"
)

// Styles is every style the dashboard draws with, built once per theme and
// background and handed to the panes. NoColor styles carry no colour at
// all; they tell things apart with bold, underline and reverse instead,
// and the panes add text markers that read without any styling.
type Styles struct {
	Name    string
	NoColor bool

	Header, Status      lipgloss.Style
	Badge, ReadOnly     lipgloss.Style
	Good, Warn, Bad     lipgloss.Style
	Muted, Accent       lipgloss.Style
	Title, TitleFocused lipgloss.Style
	Tab, TabActive      lipgloss.Style
	ColHeader           lipgloss.Style
	Row, Selected       lipgloss.Style
	Buy, Sell           lipgloss.Style
	Pending, Unknown    lipgloss.Style
	Stale               lipgloss.Style
	Box, Confirm        lipgloss.Style
	Label, Field, Focus lipgloss.Style
	HelpKey, HelpDesc   lipgloss.Style
	HelpSep             lipgloss.Style
}

// NewStyles builds the styles of palette p for a dark (isDark) or light
// terminal background.
func NewStyles(p Palette, isDark bool) Styles {
	c := lipgloss.LightDark(isDark)
	pick := func(x Pair) lipgloss.Style { return lipgloss.NewStyle().Foreground(c(x.Light, x.Dark)) }
	s := Styles{Name: p.Name}
	s.Header = lipgloss.NewStyle().Foreground(c(p.HeaderFg.Light, p.HeaderFg.Dark)).Background(c(p.HeaderBg.Light, p.HeaderBg.Dark))
	s.Status = s.Header
	s.Badge = lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#000000")).Background(c(p.Badge.Light, p.Badge.Dark))
	s.ReadOnly = s.Badge
	s.Good = pick(p.Good)
	s.Warn = pick(p.Warn).Bold(true)
	s.Bad = pick(p.Bad).Bold(true)
	s.Muted = pick(p.Muted)
	s.Accent = pick(p.Accent)
	s.Title = pick(p.Accent).Bold(true)
	s.TitleFocused = lipgloss.NewStyle().Bold(true).Foreground(c(p.SelectFg.Light, p.SelectFg.Dark)).Background(c(p.Accent.Light, p.Accent.Dark))
	s.Tab = pick(p.Muted)
	s.TabActive = s.TitleFocused
	s.ColHeader = pick(p.Muted).Bold(true).Underline(true)
	s.Row = pick(p.Text)
	s.Selected = lipgloss.NewStyle().Foreground(c(p.SelectFg.Light, p.SelectFg.Dark)).Background(c(p.SelectBg.Light, p.SelectBg.Dark))
	s.Buy = pick(p.Buy)
	s.Sell = pick(p.Sell)
	s.Pending = pick(p.Pending).Italic(true)
	s.Unknown = pick(p.Unknown).Bold(true)
	s.Stale = pick(p.Warn).Bold(true)
	s.Box = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c(p.Border.Light, p.Border.Dark)).Padding(0, 1)
	s.Confirm = lipgloss.NewStyle().Border(lipgloss.DoubleBorder()).BorderForeground(c(p.ConfirmBg.Light, p.ConfirmBg.Dark)).
		Foreground(c(p.ConfirmFg.Light, p.ConfirmFg.Dark)).Background(c(p.ConfirmBg.Light, p.ConfirmBg.Dark)).Bold(true).Padding(0, 2)
	s.Label = pick(p.Muted)
	s.Field = pick(p.Text)
	s.Focus = lipgloss.NewStyle().Bold(true).Foreground(c(p.SelectFg.Light, p.SelectFg.Dark)).Background(c(p.SelectBg.Light, p.SelectBg.Dark))
	s.HelpKey = pick(p.Accent).Bold(true)
	s.HelpDesc = pick(p.Text)
	s.HelpSep = pick(p.Muted)
	return s
}

// NoColorStyles are the styles for NO_COLOR: no foreground or background
// colour anywhere, so meaning is carried by text, bold, underline and
// reverse video.
func NoColorStyles() Styles {
	n := lipgloss.NewStyle
	s := Styles{Name: "no-color", NoColor: true}
	s.Header = n().Reverse(true)
	s.Status = n().Reverse(true)
	s.Badge = n().Bold(true)
	s.ReadOnly = n().Bold(true)
	s.Good = n()
	s.Warn = n().Bold(true)
	s.Bad = n().Bold(true).Underline(true)
	s.Muted = n()
	s.Accent = n().Bold(true)
	s.Title = n().Bold(true)
	s.TitleFocused = n().Bold(true).Reverse(true)
	s.Tab = n()
	s.TabActive = n().Bold(true).Reverse(true)
	s.ColHeader = n().Underline(true)
	s.Row = n()
	s.Selected = n().Reverse(true)
	s.Buy = n()
	s.Sell = n().Bold(true)
	s.Pending = n().Italic(true)
	s.Unknown = n().Bold(true).Underline(true)
	s.Stale = n().Bold(true)
	s.Box = n().Border(lipgloss.NormalBorder()).Padding(0, 1)
	s.Confirm = n().Border(lipgloss.DoubleBorder()).Bold(true).Reverse(true).Padding(0, 2)
	s.Label = n()
	s.Field = n()
	s.Focus = n().Reverse(true)
	s.HelpKey = n().Bold(true)
	s.HelpDesc = n()
	s.HelpSep = n()
	return s
}
