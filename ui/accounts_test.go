package ui

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/sim"
	"bhtop/stream"
	"bhtop/upstream"
)

// twoAccounts are a live account "main" (trading, with market) and an
// account "bot1" whose key the service refuses, as a wrong key shows.
func twoAccounts() []Account {
	live := newTestBackend(testSnapshot())
	bad := newTestBackend(nil)
	bad.setStatus(upstream.Status{State: upstream.StateReconnecting, Simulated: true, RetryAt: t0.Add(8 * time.Second),
		Reason: "POST listenKey: HTTP 401 -2015: Invalid API-key, IP, or permissions for action.", Errors: 3})
	return []Account{
		{Name: "main", Backend: live, Trader: &testTrader{}, Market: marketHub(testMarket()), ValueIn: "USDT"},
		{Name: "bot1", Backend: bad, Market: marketHub(testMarket()), ValueIn: "USDT"},
	}
}

// TestAccountScreens: the header names the account shown; a / A cycle
// main → bot1 → All → main; the failing account shows its failure while
// main stays live; the All view lists both with the total.
func TestAccountScreens(t *testing.T) {
	views := []goldenView{
		{"main", ""},
		{"bot1", "a"},
		{"all", "a a"},
		{"all-backwards", "A"},
		{"around", "a a a"},
		{"all-ignores-pane-keys", "A n x r 2"},
		{"all-private", "A p"},
	}
	for _, size := range [][2]int{{120, 30}, {80, 24}} {
		for _, v := range views {
			t.Run(v.name+"-"+itoa(uint64(size[0])), func(t *testing.T) {
				m := sized(NewDesk(twoAccounts(), WithNow(fixedNow), WithNoColor(true)), size[0], size[1])
				m = press(t, m, v.keys)
				plainGolden(t, m, size[0], size[1])
			})
		}
	}
}

// TestAccountTradingKeys: the trading keys act on the account shown, and
// an account without a Trader has none (read-only per account).
func TestAccountTradingKeys(t *testing.T) {
	accts := twoAccounts()
	m := sized(NewDesk(accts, WithNow(fixedNow)), 120, 30)
	if m.ReadOnly() || !m.keys.New.Enabled() {
		t.Fatal("main has a Trader: n must be enabled")
	}
	m = press(t, m, "a")
	if !m.ReadOnly() || m.keys.New.Enabled() || m.keys.Cancel.Enabled() {
		t.Fatal("bot1 has no Trader: the dashboard must be read-only there")
	}
	m = press(t, m, "A")
	if m.ReadOnly() || m.t != accts[0].Trader {
		t.Fatal("back on main: its Trader must be the one used")
	}
}

// TestOneAccountDesk: with one unnamed account nothing shows accounts: no
// name in the header, a and A do nothing and are not in the help.
func TestOneAccountDesk(t *testing.T) {
	a := twoAccounts()[:1]
	a[0].Name = ""
	m := sized(NewDesk(a, WithNow(fixedNow), WithNoColor(true)), 120, 30)
	plain := sized(New(a[0].Backend, a[0].Trader, WithNow(fixedNow), WithNoColor(true), WithMarket(a[0].Market, "USDT")), 120, 30)
	if got, want := ansi.Strip(press(t, m, "a").View().Content), ansi.Strip(plain.View().Content); got != want {
		t.Errorf("one-account desk after a:\n%s\nwant the plain dashboard:\n%s", got, want)
	}
}

// TestTwoSimulatorAccounts: two accounts of a real simulator followed at
// once over loopback, one with a wrong key: that one shows as failing,
// the other goes live, and the All view says so for each; its total
// leaves the wrong key's unknown equity out and says so.
func TestTwoSimulatorAccounts(t *testing.T) {
	srv := simtest.Start(t, sim.Options{Activity: 5, Accounts: 2})
	good := srv.Accounts(sim.DemoSecret)[1] // the second account, with its own keys
	session := func(key, secret string) *stream.Session {
		s, err := stream.New(stream.Config{REST: srv.ClientAs(key, secret), WSURL: srv.WSURL(), Simulated: true})
		return testkit.Started(t, s, err)
	}
	live := session(good.APIKey, good.SecretKey)
	wrong := session(good.APIKey, "not-the-secret")
	// The simulator's start is waited for as long as the test kit gives it
	// (LiveWithin), not the model's waitLimit.
	ctx, cancel := context.WithTimeout(t.Context(), testkit.LiveWithin)
	defer cancel()
	if err := live.WaitLive(ctx); err != nil {
		t.Fatalf("session not live within %s: %v", testkit.LiveWithin, err)
	}
	mkt := func(s *stream.Session) *market.Hub { return simtest.Market(t, srv.Server, s.Hub(), nil).Hub() }
	accts := []Account{{Name: "bot2", Backend: live, Trader: live, Market: mkt(live), ValueIn: "USDT"},
		{Name: "wrongkey", Backend: wrong, Market: mkt(wrong), ValueIn: "USDT"}}
	tm := runModel(t, NewDesk(accts, WithNoColor(true)), 140, 30)
	waitText(t, tm, "bot2", "● live", "Balances", "USDT")
	sendKeys(tm, "a")
	waitText(t, tm, "wrongkey", "-1022")
	sendKeys(tm, "a")
	waitText(t, tm, "ALL ACCOUNTS", "bot2", "wrongkey", "1/2 streams live",
		"not in total: no snapshot yet", "(1 of 2 accounts: wrongkey unknown)")
	sendKeys(tm, "a")
	waitText(t, tm, "bot2", "● live")
	finish(t, tm)
}

// TestDeskSubscribesTheShownAccountOnly: only the account shown is
// subscribed to (its stream and market publish every PublishEvery);
// hidden ones, and all of them in the All view, publish at their idle
// cadence and are read with Latest on the 1 s tick.
func TestDeskSubscribesTheShownAccountOnly(t *testing.T) {
	accts := twoAccounts()
	m := NewDesk(accts, WithNow(fixedNow))
	defer m.cancel()
	want := func(what string, subscribed ...bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok := true
			for i, a := range accts {
				ok = ok && a.Backend.Hub().Subscribed() == subscribed[i] && a.Market.Subscribed() == subscribed[i]
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: want subscribed %v", what, subscribed)
			}
			time.Sleep(time.Millisecond)
		}
	}
	want("main shown", true, false)
	m = m.show(1)
	want("bot1 shown", false, true)
	select {
	case <-m.notice: // bot1's state, for the screen to be rebuilt from
	case <-time.After(10 * time.Second):
		t.Fatal("no notice after switching")
	}
	m = m.show(2)
	want("All view", false, false)
	m = m.show(0)
	want("main again", true, false)
}

// TestAllViewMarketDown: in the All view, an account whose market data
// went down after it flowed keeps its last equity, in the total too, but
// its note says the prices may be stale.
func TestAllViewMarketDown(t *testing.T) {
	accts := twoAccounts()
	down := testMarket()
	down.Health = market.Health{Reason: "reconnecting: quote socket closed"}
	accts[1] = Account{Name: "bot2", Backend: newTestBackend(testSnapshot()), Market: marketHub(down), ValueIn: "USDT"}
	m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 160, 30)
	out := ansi.Strip(press(t, m, "A").View().Content)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "bot2") {
			if !strings.Contains(line, "147601.70 USDT") || !strings.Contains(line, "prices may be stale") {
				t.Errorf("bot2's row: %q, want its last equity and a stale-prices note", line)
			}
			return
		}
	}
	t.Errorf("no bot2 row:\n%s", out)
}

// TestAccountKeepsItsCursor: switching accounts put the cursor of each
// pane wherever the other account's had left it (on the row of the same
// id, or the same index). Each account keeps its own selected row per
// pane, by row id: away and back, the cursor is where it was.
func TestAccountKeepsItsCursor(t *testing.T) {
	accts := twoAccounts()
	accts[1].Backend = newTestBackend(testSnapshot()) // both live, the same rows
	m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 120, 30)
	m = press(t, m, "2 j j 1 j")
	sel := func(m Model, p paneID) string {
		it, ok := m.panes[p].selected()
		if !ok {
			return ""
		}
		return it.id()
	}
	mainOrder, mainBal := sel(m, paneOrders), sel(m, paneBalances)
	m = press(t, m, "a 2 g 1 G") // bot1: its own cursors
	botOrder, botBal := sel(m, paneOrders), sel(m, paneBalances)
	if botOrder == mainOrder || botBal == mainBal {
		t.Fatalf("bot1's cursors %q %q are main's %q %q: the test moves nothing", botOrder, botBal, mainOrder, mainBal)
	}
	m = press(t, m, "a a") // All, then main
	if got, got2 := sel(m, paneOrders), sel(m, paneBalances); got != mainOrder || got2 != mainBal {
		t.Errorf("back on main: cursors on %q, %q; want main's %q, %q", got, got2, mainOrder, mainBal)
	}
	plainGolden(t, m, 120, 30)
	m = press(t, m, "a") // bot1 again
	if got, got2 := sel(m, paneOrders), sel(m, paneBalances); got != botOrder || got2 != botBal {
		t.Errorf("back on bot1: cursors on %q, %q; want bot1's %q, %q", got, got2, botOrder, botBal)
	}
}

// TestAllViewManyAccounts: a desk of 25 bots at 80x24 has more accounts
// than the All view's body has lines. The total is never pushed off the
// screen, the rows left out are counted and named, and one of them that
// is not live is said so (an operator must see a broken bot).
func TestAllViewManyAccounts(t *testing.T) {
	var accts []Account
	for i := range 25 {
		b := newTestBackend(testSnapshot())
		accts = append(accts, Account{Name: "bot" + itoa(uint64(i+10)), Backend: b, Market: marketHub(testMarket()), ValueIn: "USDT"})
	}
	accts[23] = twoAccounts()[1]
	accts[23].Name = "broken33"
	m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 80, 24)
	out := ansi.Strip(press(t, m, "A").View().Content)
	for _, want := range []string{"Total", "bot10", "bot25  ", "more accounts", "not live: broken33"} {
		if !strings.Contains(out, want) {
			t.Errorf("All view at 80x24 lacks %q:\n%s", want, out)
		}
	}
	if testing.Verbose() {
		t.Log(out)
	}
	if n := strings.Count(out, "\n") + 1; n != 24 {
		t.Errorf("All view is %d lines, want 24", n)
	}
}

// TestAllViewTotalSmall (QA): at 40×10 the All view of three accounts
// (each row two lines there: amounts, then the stream) never showed the
// total: the one-line header cut it ("3 accounts total…") and the body's
// Total line was below the last row shown. The header now gives up its
// title and the account count before the total, and the body keeps its
// Total line, the rows that do not fit giving way.
func TestAllViewTotalSmall(t *testing.T) {
	accts := twoAccounts()
	accts[1].Backend.(*testBackend).setStatus(liveStatus())
	accts = append(accts, Account{Name: "bot2", Backend: newTestBackend(testSnapshot()), Market: marketHub(testMarket()), ValueIn: "USDT"})
	m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 40, 10)
	out := ansi.Strip(press(t, m, "A").View().Content)
	checkScreen(t, out, 40, 10)
	header, _, _ := strings.Cut(out, "\n")
	if !regexp.MustCompile(`total [0-9.]+ USDT`).MatchString(header) {
		t.Errorf("header %q does not show the whole total", header)
	}
	if !regexp.MustCompile(`(?m)^ Total +[0-9.]+ USDT`).MatchString(out) {
		t.Errorf("no Total line:\n%s", out)
	}
}

// TestAllViewMoreLineNamesWhole: the line counting the accounts left
// out names those that are not live whole, or says how many there are
// and names those that fit: at 40 columns it read "+24 more accounts
// (bot11…bot34) not li…", the broken bot's name cut off with the words
// before it, and at 80 with 19 broken "not live: bot16, …, b…" said
// neither which nor how many.
func TestAllViewMoreLineNamesWhole(t *testing.T) {
	for _, tc := range []struct {
		w, h   int
		broken []int // indexes of the accounts not live
	}{
		{40, 10, []int{23}},
		{40, 24, []int{23}},
		{40, 10, []int{3, 23}},
		{40, 24, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		{80, 24, []int{23}},
		{80, 24, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
		{60, 20, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
	} {
		t.Run(fmt.Sprintf("%dx%d/%d", tc.w, tc.h, len(tc.broken)), func(t *testing.T) {
			var accts []Account
			for i := range 25 {
				accts = append(accts, Account{Name: "bot" + itoa(uint64(i+10)), Backend: newTestBackend(testSnapshot()), Market: marketHub(testMarket()), ValueIn: "USDT"})
			}
			for _, i := range tc.broken {
				accts[i] = twoAccounts()[1]
				accts[i].Name = "bot" + itoa(uint64(i+10))
			}
			m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), tc.w, tc.h)
			out := ansi.Strip(press(t, m, "A").View().Content)
			checkScreen(t, out, tc.w, tc.h)
			line := ""
			for l := range strings.Lines(out) {
				if strings.HasPrefix(l, " +") {
					line = strings.TrimRight(l, " \n")
				}
			}
			first := strings.TrimPrefix(strings.Fields(line + " +0")[0], "+")
			hidden, err := strconv.Atoi(first)
			if err != nil || hidden == 0 {
				t.Fatalf("no line counting the accounts left out:\n%s", out)
			}
			want := 0 // the broken accounts among those left out
			for _, i := range tc.broken {
				if i >= 25-hidden {
					want++
				}
			}
			_, names, ok := strings.Cut(line, "not live")
			if want == 0 {
				if ok {
					t.Errorf("%q: none of the accounts left out is broken", line)
				}
				return
			}
			if !ok {
				t.Fatalf("%q does not say that %d accounts left out are not live:\n%s", line, want, out)
			}
			if n, list, counted := strings.Cut(names, "): "); counted {
				if n != " ("+strconv.Itoa(want) {
					t.Errorf("%q: want %d not live", line, want)
				}
				names = strings.TrimSuffix(list, ", …")
			} else {
				names = strings.TrimPrefix(names, ": ")
				if got := len(strings.Split(names, ", ")); got != want {
					t.Errorf("%q names %d accounts not live, want %d", line, got, want)
				}
			}
			for _, name := range strings.Split(names, ", ") {
				i, err := strconv.Atoi(strings.TrimPrefix(name, "bot"))
				if err != nil || !strings.HasPrefix(name, "bot") || !slices.Contains(tc.broken, i-10) || i-10 < 25-hidden {
					t.Errorf("%q: %q is not an account left out and not live", line, name)
				}
			}
		})
	}
}

// TestAllViewUsesRows: at 40×24 with 23 of 25 accounts not live (each
// three lines: amounts, stream, note) the All view showed 5 accounts,
// hid 20 and left 2 rows blank under the Total. An account that does not
// fit whole is shown without its note (the Total line names the accounts
// it leaves out) so that no more rows than a hidden account's amounts and
// stream lines need stay blank.
func TestAllViewUsesRows(t *testing.T) {
	for _, sz := range [][2]int{{40, 24}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			var accts []Account
			for i := range 25 {
				accts = append(accts, Account{Name: "bot" + itoa(uint64(i+10)), Backend: newTestBackend(testSnapshot()), Market: marketHub(testMarket()), ValueIn: "USDT"})
			}
			for i := 1; i <= 23; i++ {
				accts[i] = twoAccounts()[1]
				accts[i].Name = "bot" + itoa(uint64(i+10))
			}
			m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), sz[0], sz[1])
			out := ansi.Strip(press(t, m, "A").View().Content)
			checkScreen(t, out, sz[0], sz[1])
			lines := strings.Split(out, "\n")
			total := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, " Total ") })
			help := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, " ? help") })
			if total < 0 || help < total {
				t.Fatalf("no Total line above the help line:\n%s", out)
			}
			if blank := help - total - 1; blank >= 2 {
				t.Errorf("%d blank rows under the Total while accounts are left out:\n%s", blank, out)
			}
			if testing.Verbose() {
				t.Log("\n" + out)
			}
			if !strings.Contains(out, " more ") {
				t.Errorf("no line counting the accounts left out:\n%s", out)
			}
		})
	}
}

// TestAllViewShortensToFit: at 80×24 an account that needs two rows or
// more (its stream, or its note, under its amounts) where one row is
// left is shown on one row, its stream beside its amounts and cut at
// the end, instead of leaving that row blank under the Total: after 13
// live bots one reconnecting with a long reason, after 16 one whose
// reason and note took three rows.
func TestAllViewShortensToFit(t *testing.T) {
	for _, tc := range []struct {
		name string
		live int
		want string // the account shown on one row
	}{
		{"stream-below", 13, "slow0"},
		{"stream-and-note-below", 16, "bot1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := press(t, sized(NewDesk(stackedDesk(tc.live, "slow"), WithNow(fixedNow), WithNoColor(true)), 80, 24), "A")
			out := plainGolden(t, m, 80, 24)
			lines := strings.Split(out, "\n")
			total := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, " Total ") })
			if total < 0 || !strings.HasPrefix(lines[total+1], " ? help") {
				t.Errorf("a blank row under the Total while accounts are left out:\n%s", out)
			}
			row := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, " "+tc.want+" ") })
			if row < 0 || !strings.Contains(lines[row], "↻ reconnecting in 8s (") || !strings.HasSuffix(strings.TrimRight(lines[row], " "), "…") {
				t.Errorf("%s not on one row with its stream cut at the end:\n%s", tc.want, out)
			}
			if !strings.Contains(lines[row+1], " more accounts") {
				t.Errorf("the line under %s does not count those left out:\n%s", tc.want, out)
			}
		})
	}
}

// TestAllViewTotalUnknownWhenNoAccountKnown (QA): when no account's
// equity is known (every key wrong, every service down), the All view's
// total read "0.00 USDT (0 of 2 accounts …)", a false 0 where an unknown
// equity is never counted as 0: it now reads "—", in the header too.
func TestAllViewTotalUnknownWhenNoAccountKnown(t *testing.T) {
	accts := twoAccounts()
	accts[0] = accts[1]
	accts[0].Name = "bot0"
	for _, size := range [][2]int{{120, 30}, {40, 10}} {
		m := press(t, sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), size[0], size[1]), "A")
		view := ansi.Strip(m.View().Content)
		if strings.Contains(view, "0.00") || !strings.Contains(view, "total —") || !strings.Contains(view, "(0 of 2 accounts") {
			t.Errorf("%dx%d: the total must read — with 0 of 2 accounts, not 0.00:\n%s", size[0], size[1], view)
		}
	}
}

// stackedDesk is live live bots (bot10, bot11, …), then bot1 of
// twoAccounts (its reason and note take rows of their own at 80
// columns), then three accounts reconnecting with a long reason, named
// slow then 0, 1, 2.
func stackedDesk(live int, slow string) []Account {
	var accts []Account
	for i := range live {
		accts = append(accts, Account{Name: "bot" + itoa(uint64(i+10)), Backend: newTestBackend(testSnapshot()), Market: marketHub(testMarket()), ValueIn: "USDT"})
	}
	accts = append(accts, twoAccounts()[1])
	for i := range 3 {
		b := newTestBackend(testSnapshot())
		st := liveStatus()
		st.State, st.Reason, st.RetryAt = upstream.StateReconnecting, "stream lost: read tcp 127.0.0.1:4242: connection reset by peer", t0.Add(8*time.Second)
		b.setStatus(st)
		accts = append(accts, Account{Name: slow + itoa(uint64(i)), Backend: b, Market: marketHub(testMarket()), ValueIn: "USDT"})
	}
	return accts
}
