package ui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/market"
	"bhtop/state"
)

// TestFrameCacheDrawsAFreshFrame walks a dashboard through what changes a
// screen (scrolling, focus, sort, filter, privacy, theme, the clock, new
// states and markets, resizes) and checks after each step that the frame
// drawn with the cache of the frames before is byte for byte the frame a
// new cache draws.
func TestFrameCacheDrawsAFreshFrame(t *testing.T) {
	s := bigSnapshot(300, 40, 30)
	b := newTestBackend(s)
	ms := benchMarket()
	hub := marketHub(ms)
	now := t0
	m := sized(New(b, &testTrader{}, WithNow(func() time.Time { return now }), WithMarket(hub, "USDT")), 200, 60)

	key := func(k string) func() {
		return func() {
			msg := tea.KeyPressMsg{Code: rune(k[0]), Text: k}
			switch k {
			case "tab":
				msg = tea.KeyPressMsg{Code: tea.KeyTab}
			case "esc":
				msg = tea.KeyPressMsg{Code: tea.KeyEscape}
			case "enter":
				msg = tea.KeyPressMsg{Code: tea.KeyEnter}
			}
			next, _ := m.Update(msg)
			m = next.(Model)
		}
	}
	update := func(msg tea.Msg) func() {
		return func() {
			next, _ := m.Update(msg)
			m = next.(Model)
		}
	}
	version := s.Version
	publish := func(next state.Snapshot) {
		version++
		next.Version = version
		s = &next
		b.hub.Publish(s)
		update(hubMsg{})()
	}
	newState := func(rows ...int) func() {
		return func() {
			next := *s
			orders := s.Orders.Slice(0, s.Orders.Len())
			for _, i := range rows {
				o := *orders[i]
				o.ExecutedQty = fmt.Sprint(len(o.ExecutedQty)) // a new text, a new width now and then
				orders[i] = &o
			}
			next.Orders = state.NewOrderRows(orders...)
			publish(next)
		}
	}
	newBalance := func() {
		next := *s
		next.Balances = append([]state.Balance(nil), s.Balances...)
		next.Balances[1].Free = "987654.321"
		publish(next)
	}
	newMarket := func() {
		next := *ms
		next.Version = ms.Version + 1
		next.Quotes = map[string]market.Quote{}
		for sym, q := range ms.Quotes {
			next.Quotes[sym] = q
		}
		for sym, last := range map[string]string{"S001USDT": "1234.5678", "A0002USDT": "3.5", "P001-PERP": "999.5"} {
			q := next.Quotes[sym]
			q.Last, q.Mark = last, last
			next.Quotes[sym] = q
		}
		ms = &next
		hub.Publish(ms)
		update(marketMsg{})()
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"first frame", func() {}},
		{"again", func() {}},
		{"down", key("j")},
		{"scroll past the window", func() {
			for range 30 {
				key("j")()
			}
		}},
		{"up", key("k")},
		{"bottom", key("G")},
		{"top", key("g")},
		{"a changed order on screen", newState(0, 3)},
		{"a changed order off screen", newState(250)},
		{"a new market", newMarket},
		{"a balance changed", newBalance},
		{"a second later", func() { now = now.Add(time.Second); update(tickMsg{})() }},
		{"a minute later", func() { now = now.Add(time.Minute); update(tickMsg{})() }},
		{"next pane", key("tab")},
		{"sort", key("s")},
		{"reverse", key("S")},
		{"filter", func() {
			for _, k := range []string{"/", "S", "0", "0"} {
				key(k)()
			}
		}},
		{"filter kept", key("enter")},
		{"filter cleared", key("esc")},
		{"privacy", key("p")},
		{"privacy off", key("p")},
		{"theme", key("t")},
		{"zero balances", key("z")},
		{"history", key("h")},
		{"narrower", update(tea.WindowSizeMsg{Width: 150, Height: 40})},
		{"tabs", update(tea.WindowSizeMsg{Width: 80, Height: 24})},
		{"tabs, next pane", key("tab")},
		// One line taller, the header takes two lines (a narrow screen):
		// the same width drew it again from the one-line frame.
		{"narrow and low", update(tea.WindowSizeMsg{Width: 60, Height: headerTwoLinesHeight - 1})},
		{"a line taller", update(tea.WindowSizeMsg{Width: 60, Height: headerTwoLinesHeight})},
		{"wide again", update(tea.WindowSizeMsg{Width: 200, Height: 60})},
		{"help", key("?")},
		{"help closed", key("esc")},
	}
	for _, st := range steps {
		st.do()
		got := m.View().Content
		fresh := m
		fresh.frames = &frameCache{}
		if want := fresh.View().Content; got != want {
			t.Fatalf("after %q the cached frame differs from a fresh one:\ngot:\n%s\nwant:\n%s", st.name, got, want)
		}
	}
}

// TestPendingRowMarket: a pending row says the market its order was
// sent to; a contract order (side BUY_OPEN … SELL_CLOSE) is not spot.
func TestPendingRowMarket(t *testing.T) {
	mkt := orderColumns()[0]
	if mkt.title != "Mkt" {
		t.Fatalf("the first order column is %q, want Mkt", mkt.title)
	}
	for side, want := range map[string]string{"BUY": "spot", "SELL": "spot",
		"BUY_OPEN": "contract", "SELL_OPEN": "contract", "BUY_CLOSE": "contract", "SELL_CLOSE": "contract"} {
		p := &state.Pending{ClientOrderID: "bh1", Symbol: "X", Side: side, Status: state.PendingNotPlaced}
		if got := mkt.text(&item{pend: p}, &cellCtx{}); got != want {
			t.Errorf("pending %s: market %q, want %q", side, got, want)
		}
	}
}
