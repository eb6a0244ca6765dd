package ui

import (
	"context"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"bhtop/market"
)

// Account is one followed account as the dashboard sees it (DESIGN.md
// 'Accounts'): its name (shown in the header; "" shows none), its live backend, its Trader (nil: this account
// is read-only) and its market, valued in ValueIn (default USDT).
type Account struct {
	Name    string
	Backend Backend
	Trader  Trader
	Market  *market.Hub
	ValueIn string
	// Candles loads the chart's bars of Market (nil: the chart merges
	// the bars Market has).
	Candles CandleLoader
}

// deskAccounts are the dashboard's accounts when it follows several; the
// zero value is the one account New was given, and nothing shows it.
type deskAccounts struct {
	list  []accountSlot
	cur   int             // index into list; len(list) is the All view
	shown *atomic.Int32   // cur, for the notice forwarders
	pokes []chan struct{} // wake the forwarders after shown changes
	rows  []allRow        // the All view's rows and total, rebuilt by refresh
	total allTotal
}

// accountSlot is an account and what the dashboard remembers of it while
// another is shown.
type accountSlot struct {
	Account
	equity0 *equityStart // the first equity seen: the header's change
	// cursors are each pane's place when the account was last shown.
	cursors [numPanes]cursorAt
	seen    bool // cursors hold something: the account was shown before
}

// cursorAt is where a pane's cursor was: on the row of this id (the
// newest row when following), and the pane's first row shown.
type cursorAt struct {
	id     string
	follow bool
	offset int
}

// saveCursors remembers the panes' places for the account shown.
func (m *Model) saveCursors(s *accountSlot) {
	for i := range m.panes {
		p := &m.panes[i]
		c := cursorAt{follow: p.follow, offset: p.offset}
		if it, ok := p.selected(); ok {
			c.id = it.id()
		}
		s.cursors[i] = c
	}
	s.seen = true
}

// restoreCursors puts the panes' cursors back where s left them, on the
// rows of the same ids (rows gone since: where the index was).
func (m *Model) restoreCursors(s *accountSlot) {
	for i := range m.panes {
		p, c := &m.panes[i], s.cursors[i]
		p.follow, p.offset = c.follow, c.offset
		switch {
		case c.follow:
			p.cursor = len(p.rows) - 1
		case c.id != "":
			for j := range p.rows {
				if p.rows[j].id() == c.id {
					p.cursor = j
					break
				}
			}
		}
		p.clamp()
	}
}

// several reports whether there is more than one account to switch to.
func (d *deskAccounts) several() bool { return len(d.list) > 1 }

// all reports whether the All view is shown.
func (d *deskAccounts) all() bool { return d.several() && d.cur == len(d.list) }

// NewDesk returns the dashboard over several accounts: the first is
// shown; a / A cycle through the others and the All view. Each account's
// Trader is its own: trading keys act on the account shown, and are gone
// on a read-only one. With one account it is New with that account.
func NewDesk(accts []Account, opts ...Option) Model {
	a0 := accts[0]
	if a0.Market != nil {
		opts = append(opts, WithMarket(a0.Market, a0.ValueIn))
	}
	if a0.Candles != nil {
		opts = append(opts, WithCandles(a0.Candles))
	}
	m := New(a0.Backend, a0.Trader, opts...)
	d := &m.acc
	if len(accts) < 2 {
		d.list = []accountSlot{{Account: a0}}
		m.drawShortHelp()
		return m
	}
	d.list = make([]accountSlot, len(accts))
	for i, a := range accts {
		if a.ValueIn == "" {
			a.ValueIn = "USDT"
		}
		d.list[i] = accountSlot{Account: a}
	}
	d.shown = new(atomic.Int32)
	m.keys.NextAccount.SetEnabled(true)
	m.keys.PrevAccount.SetEnabled(true)
	for _, u := range m.unsub {
		u() // the forwarders subscribe to the account shown only
	}
	m.unsub = nil
	m.notice, m.mnotice, d.pokes = forwardNotices(m.ctx, accts, d.shown)
	m.drawShortHelp()
	m.refresh()
	return m
}

// forwardNotices passes on the notices of the account shown to one state
// and one market channel (1 slot, newest wins), which the dashboard's
// listeners wait on whichever account is shown. The market channel is
// nil when no account has market data. Only the account shown is
// subscribed to: a subscriber makes its stream and market client publish
// every PublishEvery, so hidden accounts are left to publish at their
// idle cadence (PublishIdle), and the All view reads every account's
// Latest on the dashboard's 1 s tick. pokes (one per forwarder) are
// poked after shown changes, so that each subscribes or unsubscribes.
// Alerts and metrics subscribe on their own: they stay exact.
func forwardNotices(ctx context.Context, accts []Account, shown *atomic.Int32) (state, mkt <-chan struct{}, pokes []chan struct{}) {
	out := make(chan struct{}, 1)
	var mout chan struct{}
	for _, a := range accts {
		if a.Market != nil {
			mout = make(chan struct{}, 1)
		}
	}
	notify := func(to chan struct{}) {
		select {
		case to <- struct{}{}:
		default:
		}
	}
	forward := func(i int32, subscribe func() (<-chan struct{}, func()), poke <-chan struct{}, to chan struct{}) {
		var in <-chan struct{} // nil while not subscribed: never ready
		unsub := func() {}
		defer func() { unsub() }()
		for {
			if want := shown.Load() == i; want != (in != nil) {
				if want {
					in, unsub = subscribe()
					notify(to) // the hub may have published while hidden
				} else {
					unsub()
					in, unsub = nil, func() {}
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-poke:
			case <-in:
				if shown.Load() == i {
					notify(to)
				}
			}
		}
	}
	for i, a := range accts {
		p := make(chan struct{}, 1)
		pokes = append(pokes, p)
		go forward(int32(i), a.Backend.Hub().Subscribe, p, out)
		if a.Market != nil {
			p := make(chan struct{}, 1)
			pokes = append(pokes, p)
			go forward(int32(i), a.Market.Subscribe, p, mout)
		}
	}
	return out, mout, pokes
}

// poke tells every forwarder that the account shown changed.
func (d *deskAccounts) poke() {
	for _, p := range d.pokes {
		select {
		case p <- struct{}{}:
		default:
		}
	}
}

// onAccountKey switches accounts on a / A; ok is false for any other key
// (and always with one account). In the All view it also keeps every key
// that acts on one account away from the panes.
func (m Model) onAccountKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd, bool) {
	d := &m.acc
	if !d.several() {
		return m, nil, false
	}
	step := 0
	switch {
	case key.Matches(msg, m.keys.NextAccount):
		step = 1
	case key.Matches(msg, m.keys.PrevAccount):
		step = len(d.list) // -1 modulo len(list)+1
	}
	if step == 0 {
		if d.all() && !key.Matches(msg, m.keys.Quit, m.keys.Help, m.keys.Theme, m.keys.Privacy) {
			return m, nil, true
		}
		return m, nil, false
	}
	if m.busy {
		m.setMsg(msgWarn, "a request is in flight: switch accounts once it is answered")
		return m, nil, true
	}
	return m.show((d.cur + step) % (len(d.list) + 1)), nil, true
}

// show makes account i (len(list): the All view) the one shown: the
// backend, trader and market are swapped, and every pane is built again
// from that account's snapshot.
func (m Model) show(i int) Model {
	d := &m.acc
	if d.cur < len(d.list) {
		d.list[d.cur].equity0 = m.equity0
		m.saveCursors(&d.list[d.cur])
	}
	d.cur = i
	d.shown.Store(int32(i))
	d.poke()
	m.chart, m.msg = nil, ""
	if i < len(d.list) {
		a := d.list[i]
		m.b, m.t = a.Backend, a.Trader
		m.market = marketSource{hub: a.Market, valueIn: a.ValueIn, candles: a.Candles}
		m.keys.SetReadOnly(m.t == nil)
		m.equity0, m.mk = a.equity0, nil
		m.notes, m.noteSeq, m.symbols = nil, 0, nil
		m.contracts, m.contractsErr = nil, ""
		m.feeNote, m.feeVersion = "", 0 // another account's fills
		for p := range m.panes {
			m.panes[p].builtOK = false
		}
		m.refresh() // builds the market view the layout prepares with
		if a.seen {
			m.restoreCursors(&d.list[i])
		}
		if m.width > 0 {
			m = m.onResize(tea.WindowSizeMsg{Width: m.width, Height: m.height})
		}
	} else {
		m.lay.oneStatusLine()
	}
	m.drawShortHelp()
	m.refresh()
	return m
}

// accountName is the name the header shows ("" for an unnamed one).
func (m *Model) accountName() string {
	d := &m.acc
	if len(d.list) == 0 || d.all() {
		return ""
	}
	return d.list[d.cur].Name
}

// off returns b disabled (the account keys until NewDesk enables them).
func off(b key.Binding) key.Binding {
	b.SetEnabled(false)
	return b
}
