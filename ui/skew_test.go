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

// TestFillTimeOnOurClock: a fill's time is on the service's clock and
// the Events' times on ours; with the service 7 s ahead, a fill and the
// event line that reported it read 7 s apart. The dashboard's wall times
// are ours: a fill's is its time less the measured offset.
func TestFillTimeOnOurClock(t *testing.T) {
	s := testSnapshot()
	at := fixedNow().Add(-40 * time.Second) // our clock
	s.Fills = []state.Fill{{Market: "spot", Symbol: "ETHUSDT", OrderID: "91", TradeID: "7001", Side: "BUY", Price: "2000",
		Qty: "1", QuoteQty: "2000", Commission: "0.002", CommissionAsset: "ETH",
		Time: at.Add(7 * time.Second).UnixMilli()}} // the service's clock
	b := newTestBackend(s)
	st := liveStatus()
	st.ClockOffset = 7 * time.Second
	b.setStatus(st)
	m := press(t, sized(New(b, &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 160, 48), "6")
	out := ansi.Strip(m.View().Content)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "ETHUSDT") && strings.Contains(line, "2000") && strings.Contains(line, "0.002") {
			if want := at.In(fixedNow().Location()).Format("15:04:05"); !strings.Contains(line, want) {
				t.Errorf("fill row %q: want the time %s on our clock (the service's less the 7 s offset)", line, want)
			}
			return
		}
	}
	t.Errorf("no row for the fill:\n%s", out)
}
