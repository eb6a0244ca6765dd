package stream

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"bhtop/api"
	"bhtop/rest"
	"bhtop/state"
)

// snapshotWeight is the request weight of a resync's snapshots (account,
// open orders, contract positions and open orders): a resync waits until
// it fits before it holds the stream's frames (waitWeight).
var snapshotWeight = api.Account.Weight + api.OpenOrders.Weight + api.ContractPositions.Weight + api.ContractOpenOrders.Weight

// resync takes the REST snapshots and folds them in without a gap
// (DESIGN.md): frames are held from before the snapshots are asked for
// (held says the caller already started holding, right after the socket
// opened), the snapshots are applied, then the held frames. Orders open
// here but absent from the open-orders snapshot are then queried for
// their final state, and the newest executions fetched (fetchTrades).
// gone is closed when the connection the resync is for ends: a wait for
// request weight then ends with an error (nil: no such wait).
//
// A resync not held yet takes the host's turn first (rest.Client.Turn),
// folding the frames while another session of the host waits for its
// weight and resyncs, and keeps it to its end (held: connect holds it).
func (s *Session) resync(ctx context.Context, held bool, gone <-chan struct{}) error {
	if !held {
		release, err := s.turn(ctx, waitAs{state: StateResyncing}, gone)
		if err != nil {
			return err
		}
		defer release()
		if err := s.waitWeight(ctx, waitAs{state: StateResyncing}, gone); err != nil {
			return err
		}
		if s.beforeHold != nil {
			s.beforeHold()
		}
		if !s.do(func(w *writer) { w.beginHold() }) {
			return errors.New("resync: session closing")
		}
	}
	// Another request may have taken the room since the wait: then the
	// snapshots are paced with the frames held, and the status says so.
	prev, paced := s.statusNow(), false
	snap, err := s.takeSnapshots(rest.WithWaitNotice(ctx, func(until time.Time) {
		paced = true // (on this goroutine: the snapshots are asked one after the other)
		s.setStatus(func(st *Status) {
			st.State, st.Reason, st.RetryAt = StateResyncing, "waiting for request weight, events held", until
		})
	}))
	if paced {
		s.putStatus(prev)
	}
	var missing []state.OrderKey
	lost := false
	ok := s.do(func(w *writer) {
		if err == nil {
			missing = w.store.ApplySnapshot(snap)
		}
		lost = w.endHold()
		if err == nil {
			missing = w.stillOpen(missing)
			// Published before LastSnapshot is set below: whoever reads
			// it as "synced" (alert rules, metrics, the All view) finds
			// the snapshot in Latest, not the state before it.
			w.publish(time.Now())
		}
	})
	if !ok {
		return errors.New("resync: session closing")
	}
	if lost {
		s.noteError("frames lost while resyncing (too many held); reconnecting")
	}
	if err != nil {
		return err
	}
	now := s.cfg.Now()
	s.setStatus(func(st *Status) { st.LastSnapshot = now })
	s.note(NoteResync, fmt.Sprintf("resynced from REST: %d open orders, %d balances",
		len(snap.SpotOpenOrders)+len(snap.ContractOpenOrders), accountBalances(snap)))
	qctx, putBack := s.sayWaits(ctx, "the order queries")
	s.queryMissing(qctx, missing)
	putBack()
	afterOutage := false
	select {
	case <-s.live:
		afterOutage = true // a reconnect: orders may have filled while away
	default:
	}
	tctx, putBack := s.sayWaits(ctx, "the recent trades")
	s.fetchTrades(tctx, afterOutage)
	putBack()
	return nil
}

// sayWaits is ctx whose requests, each time one is paced (for request
// weight, or a 429 backoff), say in the status what the session waits
// for (what: the requests, e.g. "the recent trades") and until when, its
// state kept: after the snapshots a resync's requests hold no frames,
// yet a wait for them left a live (or, at a connect, a bare resyncing)
// status with nothing to say why. putBack puts the status back when a
// wait changed it; it and the notices run on the caller's goroutine.
func (s *Session) sayWaits(ctx context.Context, what string) (_ context.Context, putBack func()) {
	prev, said := s.statusNow(), false
	ctx = rest.WithWaitNotice(ctx, func(until time.Time) {
		said = true
		why := "waiting for request weight for " + what
		var be *rest.BackoffError
		if errors.As(s.rest.Gate(), &be) && be.Until.After(s.cfg.Now()) {
			why = what + " held: " + be.Brief()
		} else if prev.State != StateResyncing { // only resyncing shows RetryAt
			why += " until " + until.UTC().Format("15:04:05") + " UTC"
		}
		s.setStatus(func(st *Status) { st.Reason, st.RetryAt = why, until })
	})
	return ctx, func() {
		if said {
			s.putStatus(prev)
		}
	}
}

// putStatus puts back the state, reason, retry time and NeedsAction of
// prev, the status before a wait.
func (s *Session) putStatus(prev Status) {
	s.setStatus(func(st *Status) {
		st.State, st.Reason, st.RetryAt, st.NeedsAction = prev.State, prev.Reason, prev.RetryAt, prev.NeedsAction
	})
}

// waitWeight waits, before the stream's frames are held for a resync,
// until the snapshots' request weight fits the host's windows (spent by
// many resyncs, or by the dashboard's other requests): frames are folded
// as they come meanwhile, instead of held for up to a minute behind the
// pacing. It is no gap: the snapshots are asked for only after the wait,
// with the frames held from then on, so whatever was folded before is
// older than they are (DESIGN.md "Stream lifecycle and resync"). While it
// waits the status is as's, saying so and until when; then it is put
// back. (Another request may take the room first: the snapshots are then
// paced as before, for a moment.) It ends with an error when gone (the
// connection the snapshots are for) is closed: the supervisor then
// reconnects, rather than snapshot for a dead socket after the wait.
func (s *Session) waitWeight(ctx context.Context, as waitAs, gone <-chan struct{}) error {
	d := s.rest.WeightWait(snapshotWeight)
	if d <= 0 {
		return nil
	}
	prev := s.statusNow()
	defer s.putStatus(prev)
	used, limit := s.rest.Weight()
	s.note(NoteResync, fmt.Sprintf("request weight spent (%d/%d a minute): the snapshots wait %s; events still folded",
		used, limit, d.Round(time.Second)))
	for d > 0 {
		at := s.cfg.Now().Add(d)
		why := "waiting for request weight"
		if as.state != StateResyncing { // only resyncing shows RetryAt
			why += " until " + at.UTC().Format("15:04:05") + " UTC"
		}
		s.setStatus(func(st *Status) { st.State, st.Reason, st.RetryAt = as.state, as.reason(why), at })
		t := s.cfg.Clock.NewTimer(d)
		select {
		case <-t.C():
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("resync: waiting for request weight: %w", ctx.Err())
		case <-gone:
			t.Stop()
			return errors.New("resync: the connection was lost while waiting for request weight")
		}
		d = s.rest.WeightWait(snapshotWeight)
	}
	return nil
}

// waitingForTurn is the status's Reason while a session waits for the
// host's turn.
const waitingForTurn = "waiting for turn: another account is connecting or resyncing"

// waitAs is how the status shows a session waiting for its turn or its
// request weight: its state, connecting or resyncing, or, while a new
// connection replaces one that still folds events (a rotation), live,
// the reason saying what is under way (doing, e.g. "rotating").
type waitAs struct {
	state ConnState
	doing string
}

// reason is the status's Reason for a wait for why.
func (as waitAs) reason(why string) string {
	if as.doing == "" {
		return why
	}
	return as.doing + ", " + why
}

// turn waits for the host's turn for a resync (rest.Client.Turn): one
// session at a time waits for its snapshots' weight and takes them, so
// that a window's freeing wakes one, not every one to be paced but the
// first with its frames held. While another session holds it, the status
// is as's, waiting for turn; then it is put back. It ends with an error
// when ctx ends or gone (nil: never) is closed.
func (s *Session) turn(ctx context.Context, as waitAs, gone <-chan struct{}) (release func(), err error) {
	if release, ok := s.rest.TryTurn(); ok {
		return s.holdTurn(as, release), nil
	}
	prev := s.statusNow()
	s.setStatus(func(st *Status) { st.State, st.Reason, st.RetryAt = as.state, as.reason(waitingForTurn), time.Time{} })
	defer s.putStatus(prev)
	release, err = s.rest.Turn(ctx, gone)
	switch {
	case errors.Is(err, rest.ErrTurnStopped):
		return nil, errors.New("resync: the connection was lost while waiting for the host's turn")
	case err != nil:
		return nil, fmt.Errorf("resync: waiting for the host's turn: %w", err)
	}
	return s.holdTurn(as, release), nil
}

// holdTurn says, for the sessions of the host waiting for the turn just
// taken, which account holds it and whether it connects (a rotation's
// replacement too) or resyncs; the release returned says nothing again
// before it releases the turn.
func (s *Session) holdTurn(as waitAs, release func()) func() {
	what := "connecting"
	if as.state == StateResyncing {
		what = "resyncing"
	}
	if s.cfg.Name != "" {
		what = s.cfg.Name + " " + what
	}
	s.holdsTurn.Store(true)
	s.rest.SetTurnHolder(what)
	return func() {
		s.rest.SetTurnHolder("")
		s.holdsTurn.Store(false)
		release()
	}
}

// turnHolder adds to a reason that says the session waits for the
// host's turn what the turn's holder does now, e.g. "(bot1 resyncing)";
// nothing once the turn is the session's own (its wait's reason is put
// back just after it took it).
func (s *Session) turnHolder(reason string) string {
	if !strings.Contains(reason, waitingForTurn) || s.holdsTurn.Load() {
		return reason
	}
	if who := s.rest.TurnHolder(); who != "" {
		return strings.Replace(reason, waitingForTurn, waitingForTurn+" ("+who+")", 1)
	}
	return reason
}

// snapshotter reads what a resync folds in: the account and open orders
// (required), the contract positions and open orders (extensions), the
// final state of orders that closed unseen, and the newest executions
// (trades.go). It reports through the session's reporter and hands the
// records it reads to apply (the session's writer); the session decides
// when (resync holds the stream's frames around it).
type snapshotter struct {
	rest       *rest.Client
	cfg        *Config
	rep        *reporter
	apply      func(fn func(w *writer)) bool
	eventsOnly atomic.Bool // an extension endpoint failed: the note was shown

	gmu  sync.Mutex
	gone map[state.OrderKey]bool // orders of fills the service answered -2013 for (trades.go)
}

// takeSnapshots asks for the account and the open orders (required), and
// the contract positions and open orders (extensions: an error degrades to
// events only, with a note). The requests go out one after the other,
// never together: the service bans (418) a client whose request arrives
// while it was told to wait, so no request may be on its way when another
// is answered 429 (after a 429 the governor holds the next request until
// Retry-After; a failed required request sends nothing more).
func (p *snapshotter) takeSnapshots(ctx context.Context) (state.RESTSnapshot, error) {
	var snap state.RESTSnapshot
	acct, err := p.rest.Account(ctx)
	if err != nil {
		return snap, fmt.Errorf("resync account: %w", err)
	}
	snap.Account = accountSnap(acct)
	open, err := p.rest.OpenOrders(ctx, "", p.cfg.OpenOrdersLimit)
	if err != nil {
		return snap, fmt.Errorf("resync open orders: %w", err)
	}
	if len(open) < p.cfg.OpenOrdersLimit {
		snap.HaveSpotOrders = true
	} else {
		p.rep.note(NoteInfo, fmt.Sprintf("open orders: the service listed %d (the limit); orders beyond it follow events only", len(open)))
	}
	for _, r := range open {
		snap.SpotOpenOrders = append(snap.SpotOpenOrders, orderSnap(state.MarketSpot, r))
	}
	positions, perr := p.rest.ContractPositions(ctx)
	copen, oerr := p.rest.ContractOpenOrders(ctx, p.cfg.OpenOrdersLimit)
	if perr == nil {
		snap.HavePositions = true
		for _, pos := range positions {
			snap.Positions = append(snap.Positions, positionOf(pos))
		}
	}
	if oerr == nil && len(copen) < p.cfg.OpenOrdersLimit {
		snap.HaveContractOrders = true
		for _, r := range copen {
			snap.ContractOpenOrders = append(snap.ContractOpenOrders, orderSnap(state.MarketContract, r))
		}
	}
	if err := errors.Join(perr, oerr); err != nil && ctx.Err() == nil && !p.eventsOnly.Swap(true) {
		p.rep.note(NoteInfo, fmt.Sprintf("contract snapshots unavailable, contract data from events only: %v", err))
	}
	return snap, nil
}

// queryMissing asks the service for the final state of orders that were
// open here but are not open there, and folds the answers in; an order
// the service no longer knows (-2013) is dropped from the open orders.
func (p *snapshotter) queryMissing(ctx context.Context, missing []state.OrderKey) {
	for _, k := range missing {
		if ctx.Err() != nil {
			return
		}
		q := rest.OrderQuery{OrderID: k.OrderID}
		if q.OrderID == "" {
			q.OrigClientOrderID = k.ClientOrderID
		}
		query := p.rest.QueryOrder
		if k.Market == state.MarketContract {
			query = p.rest.ContractQueryOrder
		}
		rec, err := query(ctx, q)
		if errors.Is(err, rest.ErrNoSuchOrder) {
			// Neither the open orders nor the query know it: not open.
			p.apply(func(w *writer) {
				if w.store.ForgetOpen(k) {
					p.rep.note(NoteInfo, fmt.Sprintf("the service no longer knows order %s (-2013): removed from the open orders", k.OrderID))
				}
			})
			continue
		}
		if err != nil {
			p.rep.noteError(fmt.Sprintf("query order %s: %v", k.OrderID, err))
			continue
		}
		os := orderSnap(k.Market, rec)
		p.apply(func(w *writer) { w.store.ApplyOrderRecord(os) })
	}
}

// stillOpen keeps the keys whose orders are open in the store now (after
// the held frames were applied, many have closed by event).
func (w *writer) stillOpen(keys []state.OrderKey) []state.OrderKey {
	if len(keys) == 0 {
		return nil
	}
	open := map[state.OrderKey]bool{}
	for _, o := range w.store.Snapshot().Orders.All() {
		if o.Open() {
			open[state.OrderKey{Market: o.Market, OrderID: o.OrderID, ClientOrderID: o.ClientOrderID}] = true
		}
	}
	out := keys[:0]
	for _, k := range keys {
		if open[k] {
			out = append(out, k)
		}
	}
	return out
}

func accountSnap(a rest.AccountRecord) *state.AccountSnap {
	s := &state.AccountSnap{CanTrade: a.CanTrade, CanWithdraw: a.CanWithdraw, CanDeposit: a.CanDeposit,
		UpdateTime: a.UpdateTime}
	for _, b := range a.Balances {
		s.Balances = append(s.Balances, state.Balance{Asset: b.Asset, Free: b.Free, Locked: b.Locked})
	}
	return s
}

func accountBalances(s state.RESTSnapshot) int {
	if s.Account == nil {
		return 0
	}
	return len(s.Account.Balances)
}

// orderSnap turns a REST order record into the store's form. A contract
// record's side (BUY_OPEN, SELL_CLOSE, ...) is passed as is: the store
// makes it BUY or SELL with close set.
func orderSnap(market string, r rest.OrderRecord) state.OrderSnap {
	o := state.OrderSnap{
		Market: market, Symbol: r.Symbol, OrderID: r.OrderID, ClientOrderID: r.ClientOrderID,
		Side: r.Side, Type: r.Type, TimeInForce: r.TimeInForce, Price: r.Price, Quantity: r.OrigQty,
		ExecutedQty: r.ExecutedQty, CumulativeQuoteQty: r.CumulativeQuoteQty, AvgPrice: r.AvgPrice,
		Status: r.Status, Working: r.IsWorking, Time: r.Time, UpdateTime: r.UpdateTime,
	}
	if market == state.MarketContract {
		o.Leverage = r.Leverage
	}
	return o
}

func positionOf(p rest.PositionRecord) state.Position {
	return state.Position{Symbol: p.Symbol, Side: p.Side, AvgPrice: p.AvgPrice, Total: p.Position,
		Available: p.Available, LiquidationPrice: p.Flp, Margin: p.Margin, RealizedPnl: p.RealizedPnL}
}
