package e2e

import (
	"regexp"
	"strings"
	"testing"
)

var marketCount = regexp.MustCompile(`Market \(([1-9]\d*)\)`)

// marketRow starts the dashboard watching BTCUSDT and selects its row of
// the Market pane (key 5, filtered to it).
func marketRow(t *testing.T, s *simProc) *term {
	t.Helper()
	tm := s.dashboard(t, 160, 48, "--watch", "BTCUSDT")
	tm.waitText("equity ")
	tm.keys("5")
	tm.waitFor("a non-empty Market pane with BTCUSDT", func(s string) bool {
		return marketCount.MatchString(s) && strings.Contains(s, "BTCUSDT")
	})
	tm.keys("/")
	tm.text("BTCUSDT")
	tm.keys("Enter")
	tm.waitText("filter:/BTCUSDT")
	return tm
}

// TestMarketPaneAndChart: against the simulator's market, the header
// shows the account's equity, key 5 opens the Market pane with a row per
// followed symbol, c charts the selected symbol's candles, → switches
// the interval and esc closes the chart again.
func TestMarketPaneAndChart(t *testing.T) {
	s := startSim(t, "--activity", "1", "--market-activity", "20")
	tm := marketRow(t, s)

	tm.keys("c")
	tm.waitText("▶ BTCUSDT 1m")
	chart := tm.waitFor("candles on the chart", func(s string) bool {
		return strings.Contains(s, "[1m]") && strings.ContainsAny(s, "┃│") && strings.Contains(s, "◀")
	})
	if strings.Contains(chart, "no 1m candles") {
		t.Errorf("the chart has no candles:\n%s", chart)
	}
	tm.keys("Right")
	tm.waitText("▶ BTCUSDT 5m")
	tm.waitText("[5m]")

	tm.keys("Escape")
	tm.waitFor("the Market pane again", func(s string) bool {
		return strings.Contains(s, "▶ Market (") && !strings.Contains(s, "[5m]")
	})
	tm.quit()
}

// TestFormQuoteKeysKeepTyping: in the order form's Price field a takes
// the ask only into an empty field; typed text ("NaN") stays as typed,
// marked, and is never replaced by a price. Nothing is sent.
func TestFormQuoteKeysKeepTyping(t *testing.T) {
	s := startSim(t, "--activity", "0", "--market-activity", "20")
	tm := marketRow(t, s)
	tm.keys("n")
	tm.waitText("◀ BTCUSDT ▶")
	tm.keys("Down", "Down", "Down", "Down")
	tm.text("0.01")
	tm.keys("Down")
	tm.waitText("▶ Price     [_")
	for _, k := range []string{"N", "a", "N"} { // one at a time, as typed
		tm.keys(k)
		tm.waitText("▶ Price     [N")
	}
	tm.waitText("▶ Price     [NaN_")
	tm.waitText("'N' is not a digit or point")
	tm.keys("BSpace", "BSpace", "BSpace")
	tm.waitText("▶ Price     [_")
	tm.keys("a")
	tm.waitFor("the ask in the empty Price field", func(s string) bool {
		return regexp.MustCompile(`▶ Price     \[\d+(\.\d+)?_`).MatchString(s)
	})
	tm.keys("Escape")
	tm.waitText("order form closed, nothing sent")
	tm.quit()
}
