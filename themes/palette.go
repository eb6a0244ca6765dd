// Package themes defines the dashboard's colour palettes and the styles
// built from them.
package themes

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Pair is one colour role in a light and a dark variant; NewStyles picks
// the one matching the terminal's background.
type Pair struct {
	Light, Dark color.Color
}

func pair(light, dark string) Pair { return Pair{lipgloss.Color(light), lipgloss.Color(dark)} }

// Palette is a theme's colours by role. Every role must be set; a theme
// that wants one colour regardless of the background sets both variants
// alike.
type Palette struct {
	Name string

	Text, Muted, Accent  Pair
	HeaderFg, HeaderBg   Pair
	Badge                Pair // SIMULATED and READ-ONLY badges (background)
	SelectFg, SelectBg   Pair
	Buy, Sell            Pair
	Good, Warn, Bad      Pair
	Pending, Unknown     Pair
	ConfirmFg, ConfirmBg Pair
	Border               Pair
}

// Theme names, in the order `t` cycles through them.
const (
	Dark         = "dark"
	Light        = "light"
	HighContrast = "high-contrast"
)

// Names lists the themes in cycling order.
func Names() []string { return []string{Dark, Light, HighContrast} }

// ByName returns the named palette, and false (with the dark one) for an
// unknown name.
func ByName(name string) (Palette, bool) {
	switch name {
	case Dark, "":
		return darkPalette(), true
	case Light:
		return lightPalette(), true
	case HighContrast:
		return highContrastPalette(), true
	}
	return darkPalette(), false
}

// darkPalette is tuned for dark terminals and adapts to light ones.
func darkPalette() Palette {
	return Palette{
		Name:      Dark,
		Text:      pair("#1c1c1c", "#d0d0d0"),
		Muted:     pair("#6c6c6c", "#808080"),
		Accent:    pair("#5f00d7", "#af87ff"),
		HeaderFg:  pair("#ffffff", "#ffffff"),
		HeaderBg:  pair("#5f00af", "#3a2d6b"),
		Badge:     pair("#d75f00", "#d75f00"),
		SelectFg:  pair("#ffffff", "#ffffff"),
		SelectBg:  pair("#5f5fd7", "#4e4e9e"),
		Buy:       pair("#008700", "#5fd75f"),
		Sell:      pair("#d70000", "#ff5f5f"),
		Good:      pair("#008700", "#5fd787"),
		Warn:      pair("#af5f00", "#ffd75f"),
		Bad:       pair("#d70000", "#ff5f5f"),
		Pending:   pair("#0087af", "#5fafff"),
		Unknown:   pair("#af00af", "#ff87ff"),
		ConfirmFg: pair("#000000", "#000000"),
		ConfirmBg: pair("#ffd700", "#ffd700"),
		Border:    pair("#8a8a8a", "#5f5f87"),
	}
}

// lightPalette is tuned for light terminals whatever they report.
func lightPalette() Palette {
	return Palette{
		Name:      Light,
		Text:      pair("#262626", "#262626"),
		Muted:     pair("#767676", "#767676"),
		Accent:    pair("#005fd7", "#005fd7"),
		HeaderFg:  pair("#000000", "#000000"),
		HeaderBg:  pair("#d7d7ff", "#d7d7ff"),
		Badge:     pair("#ff8700", "#ff8700"),
		SelectFg:  pair("#000000", "#000000"),
		SelectBg:  pair("#afd7ff", "#afd7ff"),
		Buy:       pair("#007f00", "#007f00"),
		Sell:      pair("#c00000", "#c00000"),
		Good:      pair("#007f00", "#007f00"),
		Warn:      pair("#875f00", "#875f00"),
		Bad:       pair("#c00000", "#c00000"),
		Pending:   pair("#005f87", "#005f87"),
		Unknown:   pair("#870087", "#870087"),
		ConfirmFg: pair("#ffffff", "#ffffff"),
		ConfirmBg: pair("#c00000", "#c00000"),
		Border:    pair("#a8a8a8", "#a8a8a8"),
	}
}

// highContrastPalette uses the 16 basic ANSI colours at full strength, so
// it reads on any terminal and through any colour downsampling.
func highContrastPalette() Palette {
	return Palette{
		Name:      HighContrast,
		Text:      pair("0", "15"),
		Muted:     pair("0", "15"),
		Accent:    pair("4", "14"),
		HeaderFg:  pair("15", "0"),
		HeaderBg:  pair("0", "15"),
		Badge:     pair("1", "11"),
		SelectFg:  pair("15", "0"),
		SelectBg:  pair("4", "14"),
		Buy:       pair("2", "10"),
		Sell:      pair("1", "9"),
		Good:      pair("2", "10"),
		Warn:      pair("3", "11"),
		Bad:       pair("1", "9"),
		Pending:   pair("4", "12"),
		Unknown:   pair("5", "13"),
		ConfirmFg: pair("15", "0"),
		ConfirmBg: pair("1", "11"),
		Border:    pair("0", "15"),
	}
}
