package ui

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"bhtop/rest"
	"bhtop/state"
	"bhtop/upstream"
)

// These tests run the whole model in a real tea.Program (teatest) on a
// backend that serves real snapshots through a real state.Hub.

const waitLimit = 5 * time.Second

// probe wraps the model under test and keeps its newest screen, so a
// test can wait for what is on screen now (the program's output stream
// holds only the renderer's diffs).
type probe struct {
	Model
	screen *atomic.Pointer[string]
	sizes  *atomic.Int32 // window size messages seen
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		p.sizes.Add(1)
	}
	next, cmd := p.Model.Update(msg)
	p.Model = next.(Model)
	s := ansi.Strip(p.Model.View().Content)
	p.screen.Store(&s)
	return p, cmd
}

// program is a running dashboard under teatest.
type program struct {
	*teatest.TestModel
	screen *atomic.Pointer[string]
	sizes  *atomic.Int32
}

// runModel runs m in a teatest program with a w×h terminal, its screen
// kept by a probe.
func runModel(t *testing.T, m Model, w, h int) *program {
	t.Helper()
	p := probe{Model: m, screen: new(atomic.Pointer[string]), sizes: new(atomic.Int32)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(w, h))
	return &program{TestModel: tm, screen: p.screen, sizes: p.sizes}
}

func startProgram(t *testing.T, b *testBackend, tr Trader, w, h int, opts ...Option) *program {
	t.Helper()
	if tr == (*testTrader)(nil) {
		tr = nil
	}
	opts = append([]Option{WithNow(fixedNow), WithNoColor(true)}, opts...)
	pr := runModel(t, New(b, tr, opts...), w, h)
	// The program sends its initial size asynchronously and teatest sends
	// it again: wait for both, so a later resize is not overtaken.
	teatest.WaitFor(t, strings.NewReader(""), func([]byte) bool { return pr.sizes.Load() >= 2 },
		teatest.WithDuration(waitLimit), teatest.WithCheckInterval(5*time.Millisecond))
	waitText(t, pr, "Open Orders")
	return pr
}

// waitText waits until the screen shows all of texts at once.
func waitText(t *testing.T, p *program, texts ...string) {
	t.Helper()
	defer func() {
		if t.Failed() {
			if s := p.screen.Load(); s != nil {
				t.Logf("waiting for %q; the screen is:\n%s", texts, *s)
			}
		}
	}()
	teatest.WaitFor(t, strings.NewReader(""), func([]byte) bool {
		s := p.screen.Load()
		if s == nil {
			return false
		}
		for _, x := range texts {
			if !strings.Contains(*s, x) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(waitLimit), teatest.WithCheckInterval(5*time.Millisecond))
}

func sendKeys(tm *program, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

func finish(t *testing.T, tm *program) Model {
	t.Helper()
	sendKeys(tm, "ctrl+c")
	return tm.FinalModel(t, teatest.WithFinalTimeout(waitLimit)).(probe).Model
}

// fillOrderForm opens the form and fills BUY 0.01 BTCUSDT LIMIT GTC @ 60000.
func fillOrderForm(t *testing.T, tm *program) {
	t.Helper()
	sendKeys(tm, "n")
	waitText(t, tm, "New spot order", "BTCUSDT")
	sendKeys(tm, "down", "down", "down", "down")
	tm.Type("0.01")
	sendKeys(tm, "down")
	tm.Type("60000")
	sendKeys(tm, "enter")
	waitText(t, tm, "SEND THIS ORDER?")
}

func TestOrderYSendsExactlyOnce(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	fillOrderForm(t, tm)
	sendKeys(tm, "y", "y", "y") // a stray double y must not send twice
	waitText(t, tm, "order accepted")
	sendKeys(tm, "y")
	finish(t, tm)
	placed, _ := tr.calls()
	if placed != 1 {
		t.Fatalf("PlaceOrder calls = %d, want 1", placed)
	}
	want := rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "0.01", Price: "60000"}
	if tr.placed[0] != want {
		t.Errorf("PlaceOrder(%+v), want %+v", tr.placed[0], want)
	}
}

func TestOrderOutcomesShown(t *testing.T) {
	for _, tc := range []struct {
		outcome rest.Outcome
		want    string
	}{
		{rest.OutcomeAccepted, "order accepted: BUY 0.01 BTCUSDT LIMIT GTC @ 60000 (id 9001)"},
		{rest.OutcomeRejected, "order rejected: code -2010, insufficient balance, HTTP 400"},
		{rest.OutcomeUnknown, "order outcome UNKNOWN (HTTP 504)"},
	} {
		t.Run(string(tc.outcome), func(t *testing.T) {
			tr := &testTrader{outcome: tc.outcome}
			m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 160, 48)
			m = press(t, m, "n down down down down type:0.01 down type:60000 enter y")
			if !strings.Contains(m.msg, tc.want) {
				t.Errorf("message after %s = %q, want it to contain %q", tc.outcome, m.msg, tc.want)
			}
		})
	}
}

func TestConfirmAnyOtherKeyBacksOut(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	fillOrderForm(t, tm)
	sendKeys(tm, "Y")
	waitText(t, tm, "not sent")
	m := finish(t, tm)
	if placed, _ := tr.calls(); placed != 0 {
		t.Fatalf("PlaceOrder calls after Y = %d, want 0", placed)
	}
	if m.confirm != nil {
		t.Errorf("confirmation still open after Y")
	}

	// The same for every other key, driven directly.
	for _, k := range []string{"n", "enter", "esc", "space", "q", "x", "tab", "1"} {
		t.Run(k, func(t *testing.T) {
			tr := &testTrader{}
			m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 80, 24)
			m = press(t, m, "n down down down down type:0.01 down type:60000 enter")
			if m.confirm == nil {
				t.Fatalf("no confirmation after enter: form errors %v %v", m.form.errs, m.form.general)
			}
			next, cmd := m.Update(keyMsg(k))
			m = runReply(next.(Model), cmd)
			if placed, _ := tr.calls(); placed != 0 || m.confirm != nil {
				t.Errorf("after %q: PlaceOrder calls = %d, confirm open = %v; want 0, false", k, placed, m.confirm != nil)
			}
		})
	}
}

func TestCancelSelectedOrder(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	sendKeys(tm, "2", "down", "down", "down", "x")
	waitText(t, tm, "CANCEL THIS ORDER?", "order 1001")
	sendKeys(tm, "y", "y")
	waitText(t, tm, "cancel accepted")
	finish(t, tm)
	if _, canceled := tr.calls(); canceled != 1 {
		t.Fatalf("CancelOrder calls = %d, want 1", canceled)
	}
	if got, want := tr.cancels[0], (rest.CancelRequest{Symbol: "BTCUSDT", OrderID: "1001"}); got != want {
		t.Errorf("CancelOrder(%+v), want %+v", got, want)
	}
}

func TestReadOnlyHasNoOrderKeys(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, nil, 160, 48)
	sendKeys(tm, "?")
	waitText(t, tm, "closes this help")
	sendKeys(tm, "esc", "n", "2", "down", "down", "down", "x", "y")
	m := finish(t, tm)
	out := ansi.Strip(m.View().Content)
	if m.form != nil || m.confirm != nil {
		t.Errorf("read-only: form open %v, confirm open %v; want neither", m.form != nil, m.confirm != nil)
	}
	if b.symbolCalls.Load() != 0 {
		t.Errorf("read-only: Symbols called %d times, want 0", b.symbolCalls.Load())
	}
	h := m.help
	h.ShowAll = true
	help := h.View(m.keys) + m.help.ShortHelpView(m.keys.ShortHelp())
	for _, word := range []string{"new order", "cancel order"} {
		if strings.Contains(help, word) {
			t.Errorf("read-only help shows %q:\n%s", word, help)
		}
	}
	if !strings.Contains(out, "READ-ONLY") {
		t.Errorf("read-only header has no READ-ONLY badge:\n%s", out)
	}
}

func TestFilterSortScrollTabs(t *testing.T) {
	b := newTestBackend(bigSnapshot(500, 20, 5))
	tm := startProgram(t, b, &testTrader{}, 80, 24)
	sendKeys(tm, "2", "/")
	tm.Type("S007")
	sendKeys(tm, "enter")
	waitText(t, tm, "filter:/S007", "Open Orders (2)")
	sendKeys(tm, "esc", "s", "s", "S")
	waitText(t, tm, "sort:Symbol ↓")
	sendKeys(tm, "G")
	sendKeys(tm, "3")
	waitText(t, tm, "Positions (5)")
	sendKeys(tm, "4")
	waitText(t, tm, "Events (5)")
	sendKeys(tm, "tab")
	waitText(t, tm, "Market (0)")
	sendKeys(tm, "tab")
	waitText(t, tm, "Fills (0)")
	sendKeys(tm, "tab")
	waitText(t, tm, "Balances (19)") // A0000 is zero: hidden
	m := finish(t, tm)
	o := m.panes[paneOrders]
	if o.filter != "" || o.sortIdx != 1 || !o.desc {
		t.Errorf("orders pane filter %q sort %d desc %v; want \"\", 1, true", o.filter, o.sortIdx, o.desc)
	}
	if o.cursor != len(o.rows)-1 || len(o.rows) != 500 {
		t.Errorf("after G cursor = %d of %d rows, want the last of 500", o.cursor, len(o.rows))
	}
	if m.focus != paneBalances {
		t.Errorf("focus = %d, want balances", m.focus)
	}
	checkScreen(t, m.View().Content, 80, 24)
}

func TestResize(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 80, 24)
	tm.Send(tea.WindowSizeMsg{Width: 160, Height: 48})
	waitText(t, tm, "Balances (3)", "Positions (2)", "Events (5)")
	tm.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	tm.Send(tea.WindowSizeMsg{Width: 81, Height: 23})
	m := finish(t, tm)
	if !m.lay.tabs {
		t.Errorf("81×23 is not in tabs mode")
	}
	checkScreen(t, m.View().Content, 81, 23)
	withForm := press(t, m, "n down down down down type:0.01 down type:60000")
	withReview := press(t, withForm, "enter")
	withHelp := press(t, m, "?")
	if withForm.form == nil || withReview.confirm == nil || !withHelp.showHelp {
		t.Fatalf("form %v, review %v, help %v: want all open", withForm.form != nil, withReview.confirm != nil, withHelp.showHelp)
	}
	for _, sz := range [][2]int{{10, 5}, {20, 8}, {40, 12}, {60, 15}, {119, 29}, {120, 30}, {250, 80}} {
		for name, mm := range map[string]Model{"panes": m, "form": withForm, "review": withReview, "help": withHelp} {
			t.Run(fmt.Sprintf("%s/%dx%d", name, sz[0], sz[1]), func(t *testing.T) {
				checkScreen(t, sized(mm, sz[0], sz[1]).View().Content, sz[0], sz[1])
			})
		}
	}
}

func TestHubUpdatesAreCoalesced(t *testing.T) {
	b := newTestBackend(testSnapshot())
	mt := NewMetrics()
	tm := startProgram(t, b, &testTrader{}, 160, 48, WithMetrics(mt), WithFrameInterval(50*time.Millisecond))
	base := testSnapshot()
	const n = 2000
	for i := range n {
		s := *base
		s.Version = uint64(100 + i)
		s.Orders = state.NewOrderRows(append([]*state.Order{{Market: "spot", Symbol: "XRPUSDT", OrderID: "5000", Side: "BUY", Type: "LIMIT",
			Price: "0.5", Quantity: itoa(uint64(i + 1)), ExecutedQty: "0", Status: "NEW", Created: t0.UnixMilli()}}, base.Orders.Slice(0, base.Orders.Len())...)...)
		b.hub.Publish(&s)
	}
	waitText(t, tm, "XRPUSDT", "2000")
	m := finish(t, tm)
	if m.snap.Version != 100+n-1 {
		t.Errorf("final snapshot version %d, want %d", m.snap.Version, 100+n-1)
	}
	if r := mt.Report().Counters["renders"]; r > n/10 {
		t.Errorf("%d publishes caused %d renders; want coalescing (≤ %d)", n, r, n/10)
	}
}

func TestStaleMarkerAndStatus(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 160, 48)
	st := liveStatus()
	st.State, st.Reason, st.RetryAt = upstream.StateReconnecting, "connection reset", t0.Add(3*time.Second)
	b.setStatus(st)
	b.hub.Publish(testSnapshot())
	waitText(t, tm, "may be stale", "reconnecting in 3s (connection reset)")
	sendKeys(tm, "K")
	// The answer to a keepalive gives no expiry, and the validity it
	// extends by is the service's (60 min in SPEC, --listen-key-ttl in the
	// simulator): no expiry is made up from an assumed one.
	waitText(t, tm, "keepalive accepted at", "the service extended the listenKey")
	sendKeys(tm, "r")
	waitText(t, tm, "resynced")
	m := finish(t, tm)
	if b.keepalives.Load() != 1 || b.resyncs.Load() != 1 {
		t.Errorf("keepalives %d, resyncs %d; want 1, 1", b.keepalives.Load(), b.resyncs.Load())
	}
	out := ansi.Strip(m.View().Content)
	for _, want := range []string{"SIMULATED", "listenKey age 12m00s", "keepalive in 18m00s", "connection 1h02m/24h", "4.2 ev/s", "lag 150ms",
		"offset +3ms", "weight 12/1500", "errors 0", "silent 2s", "snapshot 09:28:40"} {
		if !strings.Contains(out, want) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
}

func TestMouse(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow)), 80, 24)
	x := m.lay.tabX[panePositions][0] + 1
	next, _ := m.Update(tea.MouseClickMsg{X: x, Y: 1, Button: tea.MouseLeft})
	if m = next.(Model); m.focus != panePositions {
		t.Fatalf("click on the Positions tab: focus = %d, want %d", m.focus, panePositions)
	}
	m = sized(m, 160, 48)
	r := m.lay.panes[paneOrders]
	next, _ = m.Update(tea.MouseClickMsg{X: 5, Y: r.y + 2 + 3, Button: tea.MouseLeft})
	m = next.(Model)
	if m.focus != paneOrders || m.panes[paneOrders].cursor != 3 {
		t.Fatalf("click on the 4th order row: focus %d cursor %d, want %d 3", m.focus, m.panes[paneOrders].cursor, paneOrders)
	}
	next, _ = m.Update(tea.MouseWheelMsg{X: 5, Y: r.y + 3, Button: tea.MouseWheelDown})
	if m = next.(Model); m.panes[paneOrders].cursor != 5 {
		t.Errorf("wheel down: cursor %d, want 5 (the last row)", m.panes[paneOrders].cursor)
	}
}

func TestPrivacyHidesAmounts(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithPrivacy(true)), 160, 48)
	out := ansi.Strip(m.View().Content)
	for _, amount := range []string{"1.23456789", "10250.75", "17940.15", "-35.25", "0.004", "0.5 ETHBTC"} {
		if strings.Contains(out, amount) {
			t.Errorf("privacy screen shows %s", amount)
		}
	}
	if !strings.Contains(out, "61000.5") || !bytes.Contains([]byte(out), []byte(hidden)) {
		t.Errorf("privacy screen should keep prices and show %s", hidden)
	}
}

// cancelAnswered selects Open Orders' row after downs, asks to cancel it
// (order names it), answers and waits for want; it returns the trader.
func cancelAnswered(t *testing.T, downs int, order, answer, want string) *testTrader {
	t.Helper()
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	sendKeys(tm, "2")
	for range downs {
		sendKeys(tm, "down")
	}
	sendKeys(tm, "x")
	waitText(t, tm, "CANCEL THIS ORDER?", order)
	sendKeys(tm, answer)
	waitText(t, tm, want)
	finish(t, tm)
	return tr
}

func TestCancelContractOrder(t *testing.T) {
	tr := cancelAnswered(t, 2, "order 77", "y", "cancel accepted")
	if _, canceled := tr.calls(); canceled != 1 {
		t.Fatalf("CancelOrder calls = %d, want 1", canceled)
	}
	want := rest.CancelRequest{Symbol: "BTC-PERP", OrderID: "77", Contract: true, OrderType: "LIMIT"}
	if got := tr.cancels[0]; got != want {
		t.Errorf("CancelOrder(%+v), want %+v", got, want)
	}
}

// TestFillsTitleKeepsSortAndFilter: the Fills pane's fee totals are cut
// before its sort and filter, which must stay readable in a narrow pane.
func TestFillsTitleKeepsSortAndFilter(t *testing.T) {
	snap := testSnapshot()
	for i, asset := range []string{"ETH", "BNB", "LTC", "XRP", "BHT"} {
		f := snap.Fills[2]
		f.TradeID, f.CommissionAsset, f.Commission = strconv.Itoa(6000+i), asset, "0.12345678"
		snap.Fills = append(snap.Fills, f)
	}
	tm := startProgram(t, newTestBackend(snap), &testTrader{}, 160, 48)
	sendKeys(tm, "6", "/")
	tm.Type("BTC")
	sendKeys(tm, "enter", "s")
	waitText(t, tm, "Fills (2)", "filter:/BTC", "sort:")
	finish(t, tm)
}

// TestPrivacyHidesFormFree: with privacy on, the order form's free
// balances, also in its "needs … free …" check, are masked like every
// other amount.
func TestPrivacyHidesFormFree(t *testing.T) {
	tm := startProgram(t, newTestBackend(testSnapshot()), &testTrader{}, 160, 48, WithPrivacy(true))
	sendKeys(tm, "n")
	waitText(t, tm, "New spot order", "free "+hidden+" BTC, "+hidden+" USDT")
	sendKeys(tm, "down", "down", "down", "down")
	tm.Type("1")
	sendKeys(tm, "down")
	tm.Type("60000")
	sendKeys(tm, "enter")
	waitText(t, tm, "needs "+hidden+" USDT, free "+hidden)
	finish(t, tm)
}

// TestRepeatedUpstreamKeysAreSpaced: r (or K) held down sends one
// resync (keepalive), not one per key repeat: 150 r in a few seconds
// spent the whole request weight (1499/1500) and held the stream's fold
// for a minute behind the queued resyncs. Once the spacing has passed a
// new r resyncs again.
func TestRepeatedUpstreamKeysAreSpaced(t *testing.T) {
	var now atomic.Int64
	now.Store(t0.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()) }
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 80, 24, WithNow(clock))
	sendKeys(tm, "r")
	waitText(t, tm, "resynced from REST snapshots")
	sendKeys(tm, "K")
	waitText(t, tm, "keepalive accepted")
	for range 9 {
		sendKeys(tm, "r", "K")
	}
	waitText(t, tm, "keepalive asked 0s ago: again in 5s")
	if n, k := b.resyncs.Load(), b.keepalives.Load(); n != 1 || k != 1 {
		t.Errorf("10 r and 10 K sent %d resyncs and %d keepalives, want 1 each", n, k)
	}
	now.Add(int64(upstreamKeySpacing + time.Second))
	sendKeys(tm, "r")
	waitText(t, tm, "resynced from REST snapshots")
	finish(t, tm)
	if n := b.resyncs.Load(); n != 2 {
		t.Errorf("r after the spacing: %d resyncs in all, want 2", n)
	}
}

// TestMouseOnMarketInEventsPlace: at 120–149 columns the Market pane,
// focused, is drawn in the Events' place; a click or the wheel there
// acts on the Market rows shown, not on the hidden Events (the click
// took the focus to the Events, the Market vanishing under the pointer).
func TestMouseOnMarketInEventsPlace(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow),
		WithMarket(marketHub(testMarket()), "USDT")), 120, 40)
	m = press(t, m, "5")
	if m.lay.tabs || m.lay.gridMarket || m.focus != paneMarket {
		t.Fatalf("120x40 after 5: tabs %v gridMarket %v focus %d, want the grid without Market, Market focused", m.lay.tabs, m.lay.gridMarket, m.focus)
	}
	r := m.lay.panes[paneMarket]
	next, _ := m.Update(tea.MouseClickMsg{X: r.x + 5, Y: r.y + 2 + 2, Button: tea.MouseLeft})
	m = next.(Model)
	if m.focus != paneMarket || m.panes[paneMarket].cursor != 2 {
		t.Fatalf("click on the Market's 3rd row: focus %d cursor %d, want %d 2", m.focus, m.panes[paneMarket].cursor, paneMarket)
	}
	ev := m.panes[paneEvents].cursor
	next, _ = m.Update(tea.MouseWheelMsg{X: r.x + 5, Y: r.y + 3, Button: tea.MouseWheelUp})
	m = next.(Model)
	if m.panes[paneMarket].cursor != 0 || m.panes[paneEvents].cursor != ev {
		t.Errorf("wheel up over the Market: Market cursor %d (want 0), Events cursor %d (was %d)", m.panes[paneMarket].cursor, m.panes[paneEvents].cursor, ev)
	}
}

// TestResyncNotAnsweredInTime: r whose resync was not answered before the
// request's deadline (the session waits for the host's turn) says what it
// waits for, as a warning, not "resync failed: context deadline
// exceeded".
func TestResyncNotAnsweredInTime(t *testing.T) {
	b := newTestBackend(testSnapshot())
	b.resyncErr = upstream.NotAnswered("the session is resyncing (waiting for turn: another account is connecting or resyncing); the resync goes on",
		context.DeadlineExceeded)
	m := sized(New(b, &testTrader{}, WithNow(fixedNow)), 160, 48)
	m = press(t, m, "r")
	if want := "resync not answered in time: the session is resyncing (waiting for turn"; !strings.HasPrefix(m.msg, want) || m.msgKind != msgWarn {
		t.Errorf("message after r = %q (kind %d), want a warning starting %q", m.msg, m.msgKind, want)
	}
}

// TestKeepaliveNotAnsweredInTime: K whose shared keepalive (an SSH
// viewer's) was not answered before the deadline says it goes on, as a
// warning, not "keepalive failed".
func TestKeepaliveNotAnsweredInTime(t *testing.T) {
	b := newTestBackend(testSnapshot())
	m := sized(New(b, &testTrader{}, WithNow(fixedNow)), 160, 48)
	m = m.onKeepalive(keepaliveMsg{b: b, err: upstream.NotAnswered("the call the viewers share is still under way; it goes on", context.DeadlineExceeded)})
	if want := "keepalive not answered in time: the call the viewers share"; !strings.HasPrefix(m.msg, want) || m.msgKind != msgWarn {
		t.Errorf("message = %q (kind %d), want a warning starting %q", m.msg, m.msgKind, want)
	}
}

// TestReadOnlyOrderKeysSayWhy: in read-only mode n, x and X send nothing
// and open nothing, but say why on the message line.
func TestReadOnlyOrderKeysSayWhy(t *testing.T) {
	for _, k := range []string{"n", "x", "X"} {
		t.Run(k, func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			tm := startProgram(t, b, nil, 160, 48)
			sendKeys(tm, "2", k)
			waitText(t, tm, readOnlyNotice)
			m := finish(t, tm)
			if m.form != nil || m.confirm != nil || b.symbolCalls.Load() != 0 {
				t.Errorf("read-only %s: form %v, confirm %v, Symbols calls %d", k, m.form != nil, m.confirm != nil, b.symbolCalls.Load())
			}
		})
	}
}

// TestReadOnlyChartNewSaysWhy: n on the chart says why too.
func TestReadOnlyChartNewSaysWhy(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, nil, 160, 48)
	sendKeys(tm, "c", "n")
	waitText(t, tm, readOnlyNotice)
	if m := finish(t, tm); m.form != nil || m.chart == nil {
		t.Errorf("read-only n on the chart: form %v, chart %v", m.form != nil, m.chart != nil)
	}
}

// TestCancelDeclinedSpelling: declining a cancel says "not cancelled", the
// spelling of the cancel-all summary (DESIGN.md), and sends nothing.
func TestCancelDeclinedSpelling(t *testing.T) {
	tr := cancelAnswered(t, 3, "order 1001", "n", "not cancelled")
	if _, canceled := tr.calls(); canceled != 0 {
		t.Errorf("CancelOrder calls = %d, want 0", canceled)
	}
}
