package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
)

// The trading actions through the whole program: a contract order, the
// closing of a position and the cancel-all each send once on `y`, back
// out on any other key, and do not exist in read-only mode.

func TestContractOrderYSendsOnce(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	sendKeys(tm, "n")
	waitText(t, tm, "New spot order")
	sendKeys(tm, "up", "right")
	waitText(t, tm, "New contract order", "BTC-PERP")
	sendKeys(tm, "down", "down", "down", "down", "down", "down")
	tm.Type("10")
	sendKeys(tm, "down")
	tm.Type("5")
	sendKeys(tm, "down")
	tm.Type("60000")
	sendKeys(tm, "enter")
	waitText(t, tm, "SEND THIS CONTRACT ORDER?", "notional 300 USDT", "margin needed 30 USDT")
	sendKeys(tm, "y", "y", "y")
	waitText(t, tm, "order accepted: BUY_OPEN 5 BTC-PERP")
	finish(t, tm)
	if len(tr.contract) != 1 || len(tr.placed) != 0 {
		t.Fatalf("contract orders %d, spot orders %d; want 1, 0", len(tr.contract), len(tr.placed))
	}
	want := rest.ContractOrderRequest{Symbol: "BTC-PERP", Side: "BUY_OPEN", OrderType: "LIMIT", PriceType: "INPUT",
		TimeInForce: "GTC", Quantity: "5", Price: "60000", Leverage: "10"}
	if tr.contract[0] != want {
		t.Errorf("PlaceContractOrder(%+v), want %+v", tr.contract[0], want)
	}
}

func TestClosePositionYSendsOnce(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	sendKeys(tm, "3", "down", "x")
	waitText(t, tm, "CLOSE THIS POSITION?", "ETH-PERP SHORT", "quantity [10_]")
	sendKeys(tm, "backspace", "backspace")
	tm.Type("4")
	waitText(t, tm, "quantity [4_]", "BUY_CLOSE 4 ETH-PERP LIMIT OPPONENT")
	sendKeys(tm, "y", "y")
	waitText(t, tm, "order accepted: BUY_CLOSE 4 ETH-PERP")
	finish(t, tm)
	if len(tr.contract) != 1 {
		t.Fatalf("contract orders %d, want 1", len(tr.contract))
	}
	want := rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_CLOSE", OrderType: "LIMIT", PriceType: "OPPONENT",
		TimeInForce: "GTC", Quantity: "4"}
	if tr.contract[0] != want {
		t.Errorf("PlaceContractOrder(%+v), want %+v", tr.contract[0], want)
	}
}

func TestCloseQuantityAboveAvailableSendsNothing(t *testing.T) {
	tr := &testTrader{}
	m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 80, 24)
	m = press(t, m, "3 x type:5 y") // available 2: "25" is too much
	if len(tr.contract) != 0 || m.confirm == nil || !strings.Contains(m.confirm.closing.err, "exceeds") {
		t.Fatalf("sent %d, review open %v; want nothing sent and the review saying why", len(tr.contract), m.confirm != nil)
	}
}

// TestCloseRereadsPosition: the position's available quantity changes
// while its closing review is open (a closing order now holds some): `y`
// sends nothing with the stale quantity, the review shows the position
// as it is now (the whole available quantity when it was not edited),
// and the next `y` sends that once; a position closed meanwhile sends
// nothing.
func TestCloseRereadsPosition(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	m := sized(New(b, tr, WithNow(fixedNow)), 80, 24)
	m = press(t, m, "3 x") // BTC-PERP LONG, available 2
	if m.confirm == nil || m.confirm.closing.qty != "2" {
		t.Fatalf("review %+v, want BTC-PERP with quantity 2", m.confirm)
	}
	changed := testSnapshot()
	changed.Positions[0].Available = "1.5"
	b.hub.Publish(changed)
	next, _ := m.Update(hubMsg{at: time.Now()})
	m = press(t, next.(Model), "y")
	if len(tr.contract) != 0 || m.confirm == nil || m.confirm.closing.pos.Available != "1.5" ||
		m.confirm.closing.qty != "1.5" || !strings.Contains(m.confirm.closing.err, "changed") {
		t.Fatalf("after y on a stale review: sent %d, review %+v; want nothing sent and the review refreshed", len(tr.contract), m.confirm)
	}
	if v := m.confirm.closing.View(false); !strings.Contains(v, "available 1.5") {
		t.Errorf("review:\n%s\nwant the available quantity now", v)
	}
	m = press(t, m, "y y")
	if len(tr.contract) != 1 || tr.contract[0].Quantity != "1.5" {
		t.Fatalf("sent %+v, want one order for 1.5", tr.contract)
	}

	m = press(t, m, "x") // again, then the position closes
	gone := testSnapshot()
	gone.Positions = gone.Positions[1:]
	b.hub.Publish(gone)
	next, _ = m.Update(hubMsg{at: time.Now()})
	m = press(t, next.(Model), "y")
	if len(tr.contract) != 1 || m.confirm == nil || !strings.Contains(m.confirm.closing.err, "no such open position") {
		t.Errorf("closed position: sent %d, review %+v; want nothing more sent and the review saying why", len(tr.contract), m.confirm)
	}
}

// cancelAllOf filters the Open Orders pane by filter and presses X,
// waiting for the confirmation to show want.
func cancelAllOf(t *testing.T, tm *program, filter string, want ...string) {
	t.Helper()
	sendKeys(tm, "2", "/")
	tm.Type(filter)
	sendKeys(tm, "enter", "X")
	waitText(t, tm, want...)
}

func TestCancelAllYRunsOnce(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{hold: make(chan struct{})}
	tm := startProgram(t, b, tr, 80, 24)
	cancelAllOf(t, tm, "spot", "CANCEL 3 OPEN ORDERS?", "spot ETHUSDT")
	sendKeys(tm, "y")
	waitText(t, tm, "CANCELLING")
	// The second y reaches the program while the cancel-all is held (Send
	// returns once the loop took it), so it lands on the running progress,
	// never on the summary.
	sendKeys(tm, "y")
	close(tr.hold)
	waitText(t, tm, "CANCEL-ALL DONE: 3 orders", "2  cancelled", "1  already closed")
	sendKeys(tm, "y") // closes the summary, sends nothing
	waitText(t, tm, "cancel-all: 2 cancelled, 1 already closed, 0 failed", "Open Orders")
	finish(t, tm)
	if len(tr.cancelAlls) != 1 || len(tr.cancelAlls[0]) != 3 {
		t.Fatalf("cancel-all runs %d; want 1 of the 3 spot orders shown", len(tr.cancelAlls))
	}
	for _, tg := range tr.cancelAlls[0] {
		if tg.Market != "spot" {
			t.Errorf("target %+v is not one of the filtered rows", tg)
		}
	}
}

func TestTradeReviewsAnyOtherKeyBacksOut(t *testing.T) {
	for _, open := range []string{"3 x", "2 X", "n up right down down down down down down type:10 down type:5 down type:60000 enter"} {
		for _, k := range []string{"n", "enter", "esc", "q", "x", "X", "tab", "Y"} {
			t.Run(open+"/"+k, func(t *testing.T) {
				tr := &testTrader{}
				m := press(t, sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 80, 24), open)
				if m.confirm == nil {
					t.Fatalf("no review after %q", open)
				}
				next, cmd := m.Update(keyMsg(k))
				m = runReply(next.(Model), cmd)
				if placed, canceled := tr.calls(); placed+canceled != 0 || m.confirm != nil {
					t.Errorf("after %q: %d sent, review open %v; want 0, false", k, placed+canceled, m.confirm != nil)
				}
			})
		}
	}
}

func TestReadOnlyHasNoTradeKeys(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), nil, WithNow(fixedNow)), 160, 48)
	m = press(t, m, "2 X 3 x 2 x n 6 x X ?")
	if m.confirm != nil || m.form != nil || m.cancelRun != nil {
		t.Fatalf("read-only opened a review or form")
	}
	help := m.View().Content
	for _, k := range []string{"new order", "cancel / close", "cancel all shown"} {
		if strings.Contains(help, k) {
			t.Errorf("read-only help lists %q", k)
		}
	}
}

// TestCancelAllShowsProgress: progress replaces the box's counts as it
// comes, keys wait for the end but esc, which hides the box (progress
// goes to the message line), and the end's summary shows and closes on
// any key.
func TestCancelAllShowsProgress(t *testing.T) {
	tr := &testTrader{}
	m := press(t, sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 80, 24), "2 X")
	next, _ := m.Update(keyMsg("y"))
	m = next.(Model)
	if m.cancelRun == nil || !m.busy {
		t.Fatalf("y did not start the cancel-all")
	}
	feed := &cancelFeed{id: m.cancelRun.id}
	next, cmd := m.Update(cancelAllMsg{id: feed.id, sum: actions.Summary{Total: 4, Cancelled: 2}, run: feed})
	m = next.(Model)
	if cmd == nil || !strings.Contains(ansi.Strip(m.View().Content), "CANCELLING… 2 of 4") {
		t.Fatalf("progress not shown or not re-armed:\n%s", ansi.Strip(m.View().Content))
	}
	m = press(t, m, "y n 3") // ignored while it runs
	if m.cancelRun == nil || m.form != nil || m.focus != paneOrders {
		t.Fatalf("a key closed the progress or acted before the end")
	}
	if _, cmd := m.Update(keyMsg("q")); cmd == nil || m.ctx.Err() == nil {
		t.Fatal("q while cancelling must quit and end the cancels' context")
	}
	m.ctx, m.cancel = context.WithCancel(context.Background()) // carry on as if q had not been pressed
	m = press(t, m, "esc")                                     // hides the box; the cancels go on
	screen := ansi.Strip(m.View().Content)
	if m.cancelRun == nil || strings.Contains(screen, "CANCELLING") || !strings.Contains(screen, "cancelling… 2 of 4") {
		t.Fatalf("esc did not hide the progress into the message line:\n%s", screen)
	}
	m = press(t, m, "3 n") // the panes have the keys; trading waits for the end
	if m.focus != panePositions || m.form != nil {
		t.Fatalf("hidden progress: focus %v, form open %v", m.focus, m.form != nil)
	}
	next, cmd = m.Update(cancelAllMsg{id: feed.id, sum: actions.Summary{Total: 4, Cancelled: 3}, run: feed})
	m = next.(Model)
	if cmd == nil || !strings.Contains(ansi.Strip(m.View().Content), "cancelling… 3 of 4") {
		t.Fatalf("hidden progress not on the message line:\n%s", ansi.Strip(m.View().Content))
	}
	next, _ = m.Update(cancelAllMsg{id: feed.id, sum: actions.Summary{Total: 4, Cancelled: 3, Failed: 1, Errors: []string{"spot BTCUSDT 1001: boom"}}, done: true})
	m = next.(Model)
	screen = ansi.Strip(m.View().Content)
	for _, want := range []string{"CANCEL-ALL DONE: 4 orders", "3  cancelled", "1  failed", "! spot BTCUSDT 1001: boom", "cancel-all: 3 cancelled, 0 already closed, 1 failed"} {
		if !strings.Contains(screen, want) {
			t.Errorf("summary lacks %q:\n%s", want, screen)
		}
	}
	m = press(t, m, "y")
	if m.cancelRun != nil || m.busy {
		t.Errorf("summary still open or busy after a key")
	}
	if len(tr.cancelAlls) != 0 {
		t.Errorf("the trader was called %d times (the test fed the replies itself)", len(tr.cancelAlls))
	}
}

// TestContractOverPrice: price type OVER asks for the over price (and no
// price), the review values the order at the best ask plus it, and y
// sends overPrice.
func TestContractOverPrice(t *testing.T) {
	tr := &testTrader{}
	m := marketModel(testMarket(), 80, 24, WithNoColor(true))
	m.t = tr
	m = press(t, m, "n up right down down down down right right right down down type:10 down type:5 down enter")
	screen := ansi.Strip(m.View().Content)
	if m.confirm != nil || !strings.Contains(screen, "OverPrice") || !strings.Contains(screen, "needs the amount over") {
		t.Fatalf("OVER without an over price went on, or the field is missing:\n%s", screen)
	}
	m = press(t, m, "type:2.5 enter")
	screen = ansi.Strip(m.View().Content)
	// BTC-PERP: best ask 61050.5 + 2.5, × 5 contracts of 0.001.
	for _, want := range []string{"OVER GTC over 2.5", "notional 305.265 USDT"} {
		if !strings.Contains(screen, want) {
			t.Errorf("review lacks %q:\n%s", want, screen)
		}
	}
	m = press(t, m, "y")
	want := rest.ContractOrderRequest{Symbol: "BTC-PERP", Side: "BUY_OPEN", OrderType: "LIMIT", PriceType: "OVER",
		TimeInForce: "GTC", Quantity: "5", OverPrice: "2.5", Leverage: "10"}
	if len(tr.contract) != 1 || tr.contract[0] != want {
		t.Fatalf("sent %+v, want one %+v", tr.contract, want)
	}
}

// TestCancelRereadsOrder: the order filled (or was cancelled) while its
// cancel review was open: `y` sends nothing and says why, as the close
// review does for a changed position; an order still open is cancelled
// once.
func TestCancelRereadsOrder(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	m := sized(New(b, tr, WithNow(fixedNow)), 120, 40)
	m = press(t, m, "2 down down down down x") // the ETHBTC order 1002, NEW
	if m.confirm == nil || m.confirm.cancel == nil || m.confirm.cancel.OrderID != "1002" {
		t.Fatalf("review %+v, want the cancel of order 1002", m.confirm)
	}
	filled := testSnapshot()
	filled.Version++
	o, _ := filled.Orders.Find("spot", "1002")
	done := *o
	done.Status, done.ExecutedQty, done.Working = "FILLED", done.Quantity, false
	filled.Orders = state.NewOrderRows(&done)
	b.hub.Publish(filled)
	next, _ := m.Update(hubMsg{at: time.Now()})
	m = press(t, next.(Model), "y")
	if _, canceled := tr.calls(); canceled != 0 {
		t.Errorf("a cancel was sent for an order that is FILLED")
	}
	if !strings.Contains(m.msg, "no longer open") || !strings.Contains(m.msg, "FILLED") {
		t.Errorf("message %q, want why nothing was sent", m.msg)
	}

	m = press(t, sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 120, 40), "2 down down down down x y")
	if _, canceled := tr.calls(); canceled != 1 {
		t.Errorf("cancels sent %d for an open order, want 1", canceled)
	}
}

// TestUnknownOutcomeMessageFollowsTheOrder: "order outcome UNKNOWN"
// stayed on the message line after the order was found (or found never
// placed), inviting the order to be sent again; it now says what became
// of it once the account shows it.
func TestUnknownOutcomeMessageFollowsTheOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(s *state.Snapshot)
		want string
	}{
		{"found", func(s *state.Snapshot) {
			s.Orders = s.Orders.Append(&state.Order{Market: "spot", Symbol: "BTCUSDT", OrderID: "9001", ClientOrderID: "ui-test-1",
				Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Price: "60000", Quantity: "0.01", ExecutedQty: "0",
				CumulativeQuoteQty: "0", Status: "NEW", Working: true})
		}, "order ui-test-1 (UNKNOWN) found: NEW, id 9001"},
		{"not placed", func(s *state.Snapshot) {
			s.Pending = append(s.Pending, state.Pending{ClientOrderID: "ui-test-1", Symbol: "BTCUSDT", Side: "BUY",
				Status: state.PendingNotPlaced, Reason: "the service does not know it (-2013)"})
		}, "order ui-test-1 (UNKNOWN) was not placed: the service does not know it (-2013)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			m := sized(New(b, &testTrader{outcome: rest.OutcomeUnknown}, WithNow(fixedNow)), 160, 48)
			m = press(t, m, "n down down down down type:0.01 down type:60000 enter y")
			if !strings.Contains(m.msg, "UNKNOWN") {
				t.Fatalf("message %q, want the UNKNOWN outcome", m.msg)
			}
			s := testSnapshot()
			s.Version++
			s.Pending = append(s.Pending, state.Pending{ClientOrderID: "ui-test-1", Symbol: "BTCUSDT", Side: "BUY", Status: state.PendingUnknown})
			b.hub.Publish(s)
			next, _ := m.Update(hubMsg{at: time.Now()})
			m = next.(Model)
			if !strings.Contains(m.msg, "UNKNOWN (") {
				t.Fatalf("still unknown, the message changed to %q", m.msg)
			}
			s = testSnapshot()
			s.Version += 2
			tc.edit(s)
			b.hub.Publish(s)
			next, _ = m.Update(hubMsg{at: time.Now()})
			m = next.(Model)
			if !strings.Contains(m.msg, tc.want) {
				t.Errorf("message %q, want %q", m.msg, tc.want)
			}
		})
	}
}

// TestCloseWithEmptyQuantitySendsNothing: erasing the closing review's
// quantity and pressing y closed the whole available quantity (an empty
// quantity meant "all"); it now sends nothing and asks for a quantity.
func TestCloseWithEmptyQuantitySendsNothing(t *testing.T) {
	tr := &testTrader{}
	m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow)), 120, 40)
	m = press(t, m, "3 x backspace") // BTC-PERP LONG, available 2: "2" erased
	if m.confirm == nil || m.confirm.closing == nil || m.confirm.closing.qty != "" {
		t.Fatalf("review %+v, want the closing review with an empty quantity", m.confirm)
	}
	if v := ansi.Strip(m.confirm.closing.View(false)); strings.Contains(v, "SELL_CLOSE") || !strings.Contains(v, "type the quantity to close") {
		t.Errorf("review with an empty quantity:\n%s", v)
	}
	m = press(t, m, "y")
	if len(tr.contract) != 0 {
		t.Fatalf("sent %+v with an empty quantity", tr.contract)
	}
	if m.confirm == nil || m.confirm.closing == nil {
		t.Fatal("the review closed; want it open, asking for a quantity")
	}
	m = press(t, m, "type:1 y")
	if len(tr.contract) != 1 || tr.contract[0].Quantity != "1" {
		t.Errorf("sent %+v, want one SELL_CLOSE of 1", tr.contract)
	}
}

// TestCloseReviewPrivacy: in privacy mode the closing review hid nothing:
// the position's total and available quantity (which the positions pane
// masks) showed, also as the prefilled quantity; a typed quantity shows.
func TestCloseReviewPrivacy(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithPrivacy(true)), 120, 40)
	m = press(t, m, "3 x") // BTC-PERP LONG, total 3, available 2
	v := ansi.Strip(m.View().Content)
	for _, leak := range []string{"total 3", "available 2", "[2_]", "SELL_CLOSE 2 "} {
		if strings.Contains(v, leak) {
			t.Errorf("privacy on, the review shows %q:\n%s", leak, v)
		}
	}
	if !strings.Contains(v, "total ••• ") || !strings.Contains(v, "SELL_CLOSE ••• BTC-PERP") {
		t.Errorf("privacy on, the review does not mask the amounts:\n%s", v)
	}
	m = press(t, m, "backspace type:1")
	if v := ansi.Strip(m.View().Content); !strings.Contains(v, "[1_]") || !strings.Contains(v, "SELL_CLOSE 1 BTC-PERP") {
		t.Errorf("a typed quantity is the trader's own: it shows:\n%s", v)
	}
}

// TestCloseReviewPrivateQuantity: in privacy mode the closing review's
// prefilled quantity (the whole available one) shows as •••; the first
// digit typed replaces it rather than append to it, so the typed
// quantity never shows the hidden one ("2" then 5 showed "[25_]") and is
// what the trader typed; backspace clears it.
func TestCloseReviewPrivateQuantity(t *testing.T) {
	m := press(t, marketModel(testMarket(), 120, 40), "3 p x")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "quantity [•••_]") {
		t.Fatalf("the prefilled quantity is not masked:\n%s", out)
	}
	typed := press(t, m, "5")
	if out := ansi.Strip(typed.View().Content); !strings.Contains(out, "quantity [5_]") {
		t.Errorf("typing 5 over the masked quantity:\n%s", out)
	}
	erased := press(t, m, "backspace")
	if out := ansi.Strip(erased.View().Content); !strings.Contains(out, "quantity [_]") {
		t.Errorf("backspace over the masked quantity:\n%s", out)
	}
	// Without privacy the quantity shows, and typing goes on after it.
	if out := ansi.Strip(press(t, marketModel(testMarket(), 120, 40), "3 x 5").View().Content); !strings.Contains(out, "quantity [25_]") {
		t.Errorf("typing 5 after the shown quantity 2:\n%s", out)
	}
}

// TestCancelAllReviewRoomForOneLine: a cancel-all review with room for
// one line of symbols (40×10) says how many symbols, not "… and 6 more
// symbols" under no symbol at all.
func TestCancelAllReviewRoomForOneLine(t *testing.T) {
	var r cancelAllReview
	for _, s := range []string{"BTCUSDT", "ETHBTC", "ETHUSDT"} {
		r = append(r, actions.Target{Market: "spot", Symbol: s, OrderID: s})
	}
	for room, want := range map[int]string{1: "on 3 symbols", 2: "… and 2 more symbols", 3: "ETHUSDT"} {
		got := r.View(room)
		if !strings.Contains(got, want) {
			t.Errorf("room %d: the review lacks %q:\n%s", room, want, got)
		}
		if room == 1 && strings.Contains(got, "more") {
			t.Errorf("room 1: \"more\" under no symbol:\n%s", got)
		}
	}
}

// TestCancelAllOneOrder (QA): a cancel-all of one order asked "CANCEL 1
// OPEN ORDERS?" and summed up "CANCEL-ALL DONE: 1 orders".
func TestCancelAllOneOrder(t *testing.T) {
	b, tr := newTestBackend(testSnapshot()), &testTrader{}
	tm := startProgram(t, b, tr, 80, 24)
	cancelAllOf(t, tm, "ETHBTC", "CANCEL 1 OPEN ORDER?", "spot ETHBTC")
	sendKeys(tm, "y")
	waitText(t, tm, "CANCEL-ALL DONE: 1 order ")
	finish(t, tm)
}
