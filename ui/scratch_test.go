package ui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestScratch(t *testing.T) {
	b := newTestBackend(testSnapshot())
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		m := New(b, &testTrader{}, WithNow(fixedNow))
		mm, _ := m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		fmt.Println(ansi.Strip(mm.(Model).View().Content))
	}
}
