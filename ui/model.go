// Package ui is bhtop's dashboard, a Bubble Tea model over a Backend (and,
// unless read-only, a Trader).
package ui

import (
	"context"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"bhtop/rest"
	"bhtop/state"
	"bhtop/themes"
	"bhtop/upstream"
)

// Model is the dashboard. It is a tea.Model with value receivers; create
// it with New.
type Model struct {
	b Backend
	t Trader // nil: read-only

	upkeys upstreamKeys // r and K asked of each backend (upkeys.go)

	market  marketSource // zero: no market data
	mnotice <-chan struct{}
	mk      *mktView     // never nil after New
	equity0 *equityStart // the first equity seen: the header's "change since start"
	chart   *chartState  // the chart sub-model; nil: no chart open
	eq      equityLine   // the header's equity, drawn with the market view

	ctx    context.Context
	cancel context.CancelFunc
	notice <-chan struct{}
	// unsub ends New's subscriptions to the first account's hubs (a
	// desk replaces them with its forwarders); idempotent.
	unsub []func()

	nowFn   func() time.Time
	now     time.Time
	frame   time.Duration
	metrics *Metrics
	// startWait and holding: nothing is drawn while holding (firstframe.go).
	startWait time.Duration
	holding   bool
	heldKeys  []tea.KeyPressMsg // typed while holding, pressed when it ends
	termOut   io.Writer         // the bell and notifications, at once (termout.go); nil: tea.Raw

	acc      deskAccounts // several accounts (accounts.go); zero: one
	keys     KeyMap
	help     help.Model
	theme    int // index into themes.Names()
	noColor  bool
	isDark   bool
	st       themes.Styles
	pt       paints
	privacy  bool
	showZero bool
	history  bool

	snap    *state.Snapshot
	status  upstream.Status
	notes   []upstream.Note
	noteSeq uint64
	// following is the symbol the market client was last asked to
	// follow for the order form, followWait the one the form shows
	// while it waits followAfter (followForm).
	following, followWait string

	width, height int
	lay           layout
	panes         [numPanes]pane
	focus         paneID

	// The modes' sub-models (modes.go): mode picks the one that has the
	// keyboard. A nil pointer is a closed mode; an open one is replaced,
	// never changed in place, as the model is copied.
	showHelp  bool          // the help screen is open (helpScreen)
	helpTop   int           // the help's first line shown when it scrolls
	prompt    filterPrompt  // the focused pane's filter being typed
	form      *orderForm    // the order form
	confirm   *confirmation // a question: send, cancel, close, cancel-all
	symbols   []rest.Symbol
	contracts []rest.ContractSymbol
	// contractsErr says why the contracts could not be listed.
	contractsErr string
	cancelRun    *cancelRunState // a cancel-all running or its summary shown (a sub-model)
	feeNote      string          // the Fills pane's fee totals
	shared       *RowCache       // rows and fee totals shared with other dashboards; never nil after New
	feeVersion   uint64
	reqID        int // id of the newest request whose reply is awaited
	busy         bool
	msg          string
	// unknown is the order whose UNKNOWN outcome the message line shows,
	// until the account says what became of it (reconcileUnknown).
	unknown   unknownOrder
	msgKind   msgKind
	shortHelp string // the message line's help, drawn on resize and theme change
	noHelp    string // the message line under a dialog: blank
	// frames holds the lines the last frames drew (render.go); every
	// copy of the Model shares it.
	frames *frameCache
}

// msgKind colours the message line.
type msgKind int

const (
	msgInfo msgKind = iota
	msgGood
	msgWarn
	msgBad
)

// maxNotes bounds the events pane's history.
const maxNotes = 1000

// Option configures New.
type Option func(*Model)

// WithTheme starts with the named theme ("dark", "light",
// "high-contrast"); an unknown name keeps dark.
func WithTheme(name string) Option {
	return func(m *Model) {
		for i, n := range themes.Names() {
			if n == name {
				m.theme = i
			}
		}
	}
}

// WithNoColor draws without any colour (NO_COLOR); markers, bold and
// reverse video carry the meaning instead.
func WithNoColor(on bool) Option { return func(m *Model) { m.noColor = on } }

// WithNow sets the clock (tests use a fixed one so the screen is stable).
func WithNow(now func() time.Time) Option { return func(m *Model) { m.nowFn = now } }

// WithFrameInterval sets the shortest time between two renders caused by
// state changes (default 33 ms); events in between are coalesced.
func WithFrameInterval(d time.Duration) Option { return func(m *Model) { m.frame = d } }

// WithPrivacy starts with amounts hidden.
func WithPrivacy(on bool) Option { return func(m *Model) { m.privacy = on } }

// WithContext bounds the dashboard's requests and its Hub listener; when
// ctx ends the listener stops (an SSH session's context, say).
func WithContext(ctx context.Context) Option { return func(m *Model) { m.ctx = ctx } }

// WithMetrics records counters and latencies into mt.
func WithMetrics(mt *Metrics) Option { return func(m *Model) { m.metrics = mt } }

// New returns the dashboard on b. A nil t means read-only: the order keys
// n, x and X do not exist (not in the help, pressing them does nothing).
func New(b Backend, t Trader, opts ...Option) Model {
	m := Model{
		b:      b,
		t:      t,
		ctx:    context.Background(),
		nowFn:  time.Now,
		frame:  33 * time.Millisecond,
		keys:   DefaultKeyMap(),
		help:   help.New(),
		isDark: true,
		panes:  newPanes(),
		focus:  paneOrders,
		frames: &frameCache{},
		upkeys: upstreamKeys{},
	}
	for _, o := range opts {
		o(&m)
	}
	if m.shared == nil {
		m.shared = NewRowCache()
	}
	m.ctx, m.cancel = context.WithCancel(m.ctx)
	m.keys.SetReadOnly(t == nil)
	m.applyTheme()
	notice, unsub := b.Hub().Subscribe()
	m.notice, m.unsub = notice, []func(){unsub}
	if h := m.market.hub; h != nil {
		mnotice, munsub := h.Subscribe()
		m.mnotice, m.unsub = mnotice, append(m.unsub, munsub)
	}
	go func(done <-chan struct{}, unsub []func()) {
		<-done
		for _, u := range unsub {
			u()
		}
	}(m.ctx.Done(), m.unsub)
	m.now = m.nowFn()
	m.refresh()
	if m.status.State == upstream.StateReplay {
		// A journal has no stream to keep alive or resync.
		m.keys.Keepalive.SetEnabled(false)
		m.keys.Resync.SetEnabled(false)
	}
	return m
}

// ReadOnly reports whether the dashboard can send orders.
func (m Model) ReadOnly() bool { return m.t == nil }

// Init starts the Hub listener and the clock, and asks for the terminal's
// background colour.
func (m Model) Init() tea.Cmd {
	return tea.Batch(listen(m.notice, m.ctx.Done(), time.Time{}), m.listenMarket(time.Time{}), tick(), tea.RequestBackgroundColor,
		m.startWaitCmd())
}

// Update handles one message.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.onResize(msg), nil
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		m.applyTheme()
		return m, nil
	case hubMsg:
		return pressHeld(m.onHub(msg))
	case marketMsg:
		return m.onMarket()
	case tickMsg:
		m.now = m.nowFn()
		m.refresh()
		return pressHeld(m, tick())
	case tea.KeyPressMsg:
		m.metrics.count("keys")
		if m.holdKey(msg) {
			return m, nil
		}
		return m.followForm(m.onKey(msg))
	case tea.MouseClickMsg:
		return m.onClick(msg.Mouse()), nil
	case tea.MouseWheelMsg:
		return m.onWheel(msg.Mouse()), nil
	case symbolsMsg:
		return m.followForm(m.onSymbols(msg), nil)
	case placedMsg:
		return m.onPlaced(msg), nil
	case canceledMsg:
		return m.onCanceled(msg), nil
	case cancelAllMsg:
		return m.onCancelAll(msg)
	case keepaliveMsg:
		return m.onKeepalive(msg), nil
	case resyncMsg:
		return m.onResync(msg), nil
	case AlertMsg:
		return m.onAlert(msg)
	case followMsg:
		return m.onFollow(msg)
	case toastDoneMsg:
		return m.onToastDone(msg)
	case startWaitMsg:
		m.holding = false
		return pressHeld(m, nil)
	}
	return m, nil
}

// onHub takes the newest snapshot and re-arms the listener.
func (m Model) onHub(msg hubMsg) (tea.Model, tea.Cmd) {
	m.now = m.nowFn()
	m.refresh()
	if m.metrics != nil {
		m.metrics.record(msg.at, m.status.LastFrame, time.Now())
	}
	return m, listen(m.notice, m.ctx.Done(), m.nextNotice())
}

// refresh reads the snapshot, status and notes and rebuilds the rows that
// depend on something that changed.
func (m *Model) refresh() {
	m.snap = m.b.Hub().Latest()
	m.status = m.b.Status()
	m.reconcileUnknown()
	m.endHold()
	m.revalue()
	if notes, seq := m.b.Notes(m.noteSeq); seq != m.noteSeq {
		m.notes = append(m.notes, notes...)
		if len(m.notes) > maxNotes {
			m.notes = append([]upstream.Note(nil), m.notes[len(m.notes)-maxNotes:]...)
		}
		m.noteSeq = seq
	}
	m.rebuild()
	m.refreshAll()
}

// rebuild refreshes every pane's rows (each reuses its cache when nothing
// it depends on changed).
func (m *Model) rebuild() {
	s := m.snap
	v := s.Version
	zero, hist := boolIndex(m.showZero), boolIndex(m.history) // the pane modes the rows depend on
	p := &m.panes
	mk := m.mk
	if p[paneBalances].stale(v, mk, zero) {
		m.setPaneRows(paneBalances, zero, func() ([]item, int) { return balanceItems(s, m.showZero), 0 })
	}
	if p[paneOrders].stale(v, mk, hist) {
		m.setPaneRows(paneOrders, hist, func() ([]item, int) { return orderItems(s, m.history) })
	}
	if p[panePositions].stale(v, mk, 0) {
		p[panePositions].setRows(positionItems(s, mk), v, 0, 0, mk)
	}
	if p[paneEvents].stale(m.noteSeq, mk, 0) {
		p[paneEvents].setRows(noteItems(m.notes), m.noteSeq, 0, 0, mk)
	}
	if p[paneFills].stale(v, mk, 0) {
		m.setPaneRows(paneFills, 0, func() ([]item, int) { return fillItems(s), 0 })
	}
	if m.feeVersion != v || v == 0 {
		m.feeNote, m.feeVersion = m.shared.feeNote(s.Fills), v
	}
	if p[paneMarket].stale(0, mk, 0) {
		p[paneMarket].setRows(marketItems(mk), 0, 0, 0, mk)
	}
	m.renderChart()
	for i := range p {
		p[i].scrollTo(m.lay.bodyRows(paneID(i)))
		p[i].prepare(m.lay.panes[i].w, m.lay.bodyRows(paneID(i)), mk)
	}
}

// setPaneRows sets pane id's rows for the snapshot in mode: the rows
// every dashboard shares when the pane's sort and filter read no market
// data, else its own from items.
func (m *Model) setPaneRows(id paneID, mode int, items func() ([]item, int)) {
	p := &m.panes[id]
	if r := m.shared.paneRows(p, m.snap, mode); r != nil {
		p.setShared(r, m.snap.Version, mode, m.mk)
		return
	}
	rows, pinned := items()
	p.setRows(rows, m.snap.Version, mode, pinned, m.mk)
}

// applyTheme rebuilds the styles for the theme, background and NO_COLOR.
func (m *Model) applyTheme() {
	if m.noColor {
		m.st = themes.NoColorStyles()
	} else {
		pal, _ := themes.ByName(themes.Names()[m.theme])
		m.st = themes.NewStyles(pal, m.isDark)
	}
	m.pt = newPaints(&m.st)
	m.renderChart() // its lines carry the paints
	m.help.Styles = help.Styles{
		Ellipsis: m.st.HelpSep, ShortKey: m.st.HelpKey, ShortDesc: m.st.HelpDesc, ShortSeparator: m.st.HelpSep,
		FullKey: m.st.HelpKey, FullDesc: m.st.HelpDesc, FullSeparator: m.st.HelpSep,
	}
	m.drawShortHelp()
}

// drawShortHelp renders the one-line help for the current width, theme
// and view: the panes, the chart or the All accounts view.
func (m *Model) drawShortHelp() {
	keys := m.keys.ShortHelp()
	switch {
	case m.acc.all():
		keys = m.keys.AllShortHelp()
	case m.chart != nil:
		keys = m.keys.ChartShortHelp()
	}
	m.shortHelp = fitStyled(" "+m.help.ShortHelpView(keys), m.lay.w)
	m.noHelp = strings.Repeat(" ", max(m.lay.w, 0))
}

// setMsg sets the message line.
func (m *Model) setMsg(kind msgKind, text string) { m.msg, m.msgKind = text, kind }

// warned is m saying text as a warning: what a key that cannot act now
// leaves on the message line.
func (m Model) warned(text string) Model {
	m.setMsg(msgWarn, text)
	return m
}

// stale reports whether the panes may lag the account: the stream is not
// live (or a resync is running) and there is something on screen.
func (m *Model) stale() bool {
	switch m.status.State {
	case upstream.StateLive, upstream.StateReplay, "":
		return false
	}
	return m.snap.Version > 0
}

// staleMark is a pane's stale mark: the account's panes may lag while
// the stream is not live; while market data is down after it flowed, the
// quotes shown are the last received, so the Market pane may be stale
// and the panes showing prices and values say so of their prices.
func (m *Model) staleMark(id paneID) string {
	switch {
	case id == paneEvents:
		return ""
	case m.stale():
		return "⚠ may be stale"
	case !m.mk.live || m.mk.snap == nil || m.mk.snap.Health.Up || len(m.mk.snap.Quotes) == 0:
		return ""
	case id == paneMarket:
		return "⚠ may be stale"
	case id == paneBalances, id == paneOrders, id == panePositions:
		return "⚠ prices may be stale"
	}
	return ""
}

// View draws the screen. It is pure and draws only what is visible.
func (m Model) View() tea.View {
	content := ""
	if !m.holding {
		content = (&m).screen()
	}
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "bhtop"
	return v
}
