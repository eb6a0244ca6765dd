package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"bhtop/state"
)

// TestOrderAgeOnTheServersClock: an order's creation time is on the
// service's clock; with the service 7 s ahead (the measured offset), an
// order created 30 s ago showed 23 s. Ages count from the service's now.
func TestOrderAgeOnTheServersClock(t *testing.T) {
	s := testSnapshot()
	created := fixedNow().Add(7*time.Second - 30*time.Second).UnixMilli() // the service's clock
	s.Orders = state.NewOrderRows(&state.Order{Market: "spot", Symbol: "ETHUSDT", OrderID: "91", Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Price: "2000", Quantity: "1", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW",
		Working: true, Created: created})
	s.Pending = nil
	b := newTestBackend(s)
	st := liveStatus()
	st.ClockOffset = 7 * time.Second
	b.setStatus(st)
	m := sized(New(b, &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 160, 48)
	for _, line := range strings.Split(ansi.Strip(m.View().Content), "\n") {
		if strings.Contains(line, " 91") && strings.Contains(line, "ETHUSDT") {
			if !strings.Contains(line, " 30s ") {
				t.Errorf("order row %q: want the age 30s on the service's clock", line)
			}
			return
		}
	}
	t.Errorf("no row for order 91:\n%s", ansi.Strip(m.View().Content))
}
