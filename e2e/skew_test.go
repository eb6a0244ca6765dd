package e2e

import (
	"regexp"
	"strings"
	"testing"
)

var hms = regexp.MustCompile(`\b(\d\d):(\d\d):(\d\d)\b`)

// someFills is the Fills pane's title with at least one fill.
var someFills = regexp.MustCompile(`Fills \([1-9]`)

// secondsOf is the time of day of the first HH:MM:SS in line, in seconds
// (-1: none).
func secondsOf(line string) int {
	m := hms.FindStringSubmatch(line)
	if m == nil {
		return -1
	}
	n := 0
	for _, p := range m[1:] {
		n = n*60 + int(p[0]-'0')*10 + int(p[1]-'0')
	}
	return n
}

// TestSkewedServiceTimesAndKeepalive: against a simulator whose clock is
// 7 s ahead and whose listenKeys live 2 minutes, a fill's time in Fills
// and the time of the event line that reported it agree (both on this
// machine's clock), and K says the keepalive was accepted without making
// up an expiry from an assumed 60 minutes.
func TestSkewedServiceTimesAndKeepalive(t *testing.T) {
	s := startSim(t, "--activity", "0", "--skew", "7s", "--listen-key-ttl", "2m")
	tm := s.dashboard(t, 160, 48)
	tm.waitText("USDT")

	tm.keys("K")
	screen := tm.waitText("keepalive accepted at")
	if !strings.Contains(screen, "the service extended the listenKey") || strings.Contains(screen, "expires") {
		t.Errorf("K's message is not what is known of the keepalive:\n%s", screen)
	}

	orderCLI(t, s, "new", "--symbol", "XRPUSDT", "--side", "BUY", "--type", "MARKET", "--quantity", "100")
	tm.keys("6")
	// (The market order can fill in more than one execution when the
	// best ask holds less than 100: then Fills has a row for each.)
	screen = tm.waitFor("the fill in Fills and its event line", func(sc string) bool {
		return someFills.MatchString(sc) && strings.Contains(sc, "fill ")
	})
	fill, event := -1, -1
	for _, line := range strings.Split(screen, "\n") {
		for _, half := range strings.Split(line, "│") {
			switch {
			case strings.Contains(half, "XRPUSDT") && strings.Contains(half, "BUY") && fill < 0:
				fill = secondsOf(half)
			case strings.Contains(half, " fill ") && strings.Contains(half, "XRPUSDT"):
				event = secondsOf(half)
			}
		}
	}
	if fill < 0 || event < 0 {
		t.Fatalf("no fill row (%d) or fill event line (%d):\n%s", fill, event, screen)
	}
	if d := event - fill; d < 0 || d > 1 {
		t.Errorf("the fill reads %ds before its event line, want 0 or 1 (one clock):\n%s", d, screen)
	}
	tm.quit()
}
