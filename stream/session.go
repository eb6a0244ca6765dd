// Package stream keeps one account's user data stream connected and
// folded into a state store, without gaps, for as long as it runs.
package stream

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"bhtop/rest"
	"bhtop/state"
	"bhtop/upstream"
)

// Session is the live user data stream of one account (DESIGN.md "Stream
// lifecycle and resync"): it creates and keeps alive listenKeys, keeps a
// WebSocket connected (reconnecting, rotating before the 24 h cut and
// replacing silent sockets), resyncs from REST after every connect, folds
// everything into one state.Store on a single writer goroutine, and
// publishes snapshots to a state.Hub. It implements ui.Backend; with a
// rest.Trader it also places and cancels orders (ui.Trader).
//
// Use New, then Start, then Close (which DELETEs every listenKey it made).
type Session struct {
	cfg      Config
	rest     *rest.Client
	trader   *rest.Trader
	hub      *state.Hub
	store    *state.Store // owned by the writer (under wmu)
	reporter              // status and notes

	in         chan item
	writerDone chan struct{}
	stopWriter chan struct{}
	// wmu is held while the writer works: on its goroutine, or on a
	// socket reader's folding a frame in its place (Session.toWriterFrame).
	// wr is the running writer (nil before and after), queued the items
	// sent on in and not yet handled.
	wmu    sync.Mutex
	wr     *writer
	queued atomic.Int64

	ctx    context.Context // canceled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup // supervisor, keepalive, readers, queries

	connSeq   atomic.Uint64
	lastFrame atomic.Int64 // unix ns of the newest frame (any kind)
	lastEvent atomic.Int64 // unix ns of the newest frame that was not a heartbeat
	holdsTurn atomic.Bool  // the host's turn is this session's (holdTurn): its wait names no holder
	lastBusy  atomic.Int64 // unix ns when the event rate was last >= 1/s sustained (noteRate)

	resyncReq chan chan error
	live      chan struct{} // closed after the first resync
	liveOnce  sync.Once
	startOnce sync.Once
	closeOnce sync.Once

	// mu guards closing and the keyring's keys; taken before reporter's lock.
	mu      sync.Mutex
	closing bool // Close has begun: no new goroutines join wg
	keyring      // the listenKeys

	// beforeHold, when set (by tests, before Start), runs in a resync
	// between its wait for request weight and the hold of the frames.
	beforeHold func()

	orderNotes  // what the stream did to orders (the writer only, under wmu)
	snapshotter // the REST snapshots of a resync
	reconciler  // the outcomes of the orders sent from here
}

// New returns a session for cfg. It does no I/O until Start.
func New(cfg Config) (*Session, error) {
	if cfg.REST == nil {
		return nil, errors.New("stream: Config.REST is required")
	}
	if cfg.WSURL == "" {
		return nil, errors.New("stream: Config.WSURL is required")
	}
	cfg.setDefaults()
	s := &Session{
		cfg:        cfg,
		rest:       cfg.REST,
		trader:     cfg.Trader,
		hub:        cfg.Hub,
		store:      cfg.Store,
		in:         make(chan item, cfg.InboxSize),
		writerDone: make(chan struct{}),
		stopWriter: make(chan struct{}),
		resyncReq:  make(chan chan error),
		live:       make(chan struct{}),
	}
	if s.hub == nil {
		s.hub = &state.Hub{}
	}
	if s.store == nil {
		s.store = state.NewStore()
	}
	s.reporter.init(s.cfg.Now, s.cfg.Logger, Status{
		State:     StateConnecting,
		Simulated: cfg.Simulated,
		Host:      cfg.Host,
		ReadOnly:  cfg.Trader == nil,

		ConnMaxAge: cfg.MaxAge,
	})
	s.orderNotes = orderNotes{log: &s.notes, now: s.cfg.Now}
	s.keyring = newKeyring(s.rest, &s.cfg, &s.reporter, &s.mu)
	s.snapshotter.rest, s.snapshotter.cfg, s.snapshotter.rep, s.snapshotter.apply = s.rest, &s.cfg, &s.reporter, s.do
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.reconciler = reconciler{rest: s.rest, cfg: &s.cfg, rep: &s.reporter, hub: s.hub, apply: s.do,
		goTracked: s.goTracked, ctx: s.ctx}
	return s, nil
}

// Start begins connecting in the background; it returns at once. The
// session runs until Close.
func (s *Session) Start() {
	s.startOnce.Do(func() {
		go s.runWriter(s.stopWriter)
		s.wg.Add(2)
		go func() { defer s.wg.Done(); s.supervise(s.ctx) }()
		go func() { defer s.wg.Done(); s.keepaliveLoop(s.ctx) }()
	})
}

// WaitLive blocks until the first connection is open and resynced, or ctx
// ends.
func (s *Session) WaitLive(ctx context.Context) error {
	select {
	case <-s.live:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for the user stream: %w", ctx.Err())
	}
}

// Close stops the session: it closes the connections, waits for every
// goroutine, publishes a last snapshot and DELETEs every listenKey it
// created (best effort; ctx bounds the time spent). Safe to call twice.
func (s *Session) Close(ctx context.Context) error {
	var err error
	s.closeOnce.Do(func() {
		s.startOnce.Do(func() { close(s.writerDone) }) // never started
		s.mu.Lock()
		s.closing = true
		s.mu.Unlock()
		s.cancel()
		s.wg.Wait()
		select {
		case <-s.writerDone:
		default:
			close(s.stopWriter)
			<-s.writerDone
		}
		err = s.deleteAllKeys(ctx)
		s.setStatus(func(st *Status) {
			st.State, st.Reason, st.RetryAt = StateClosed, "session closed", time.Time{}
		})
	})
	return err
}

// Hub gives the latest state snapshot and coalesced change notices.
func (s *Session) Hub() *state.Hub { return s.hub }

// Status is the connection status for the header and status line.
func (s *Session) Status() Status {
	st := s.statusNow()
	st.Reason = s.turnHolder(st.Reason)
	if ns := s.lastFrame.Load(); ns > 0 {
		st.LastFrame = time.Unix(0, ns)
	}
	st.ClockOffset = s.rest.Offset()
	st.WeightUsed, st.WeightLimit = s.rest.Weight()
	st.BannedUntil = s.rest.BannedUntil()
	return st
}

// Notes returns the events-log lines after seq, and the newest seq.
func (s *Session) Notes(after uint64) ([]Note, uint64) { return s.notes.Since(after) }

// Note adds a line to the events log from outside the stream (an alert
// that fired on this account); the text is made safe to print.
func (s *Session) Note(kind NoteKind, text string) { s.notes.Add(s.cfg.Now(), kind, text) }

// Symbols lists the tradable symbols and filters from brokerInfo.
func (s *Session) Symbols(ctx context.Context) ([]rest.Symbol, error) {
	info, err := s.rest.BrokerInfo(ctx)
	if err != nil {
		return nil, err // names the request; the caller says what it was for
	}
	return info.Symbols, nil
}

// Resync takes the REST snapshots again and folds them in, holding the
// stream's frames meanwhile (as after a connect). While a 429/418 gate
// holds the host's requests it returns the gate (a *rest.BackoffError) at
// once: the snapshots could not be asked for before it ends, and the
// frames would be held, the panes frozen, meanwhile.
//
// A resync waits for its snapshots' request weight, folding the frames
// meanwhile (waitWeight); when that wait would outlast ctx's deadline it
// returns at once, as a request of the REST client does, with a
// *rest.BackoffError (ErrRateLimited, Local) saying when the weight frees,
// and resyncs nothing. When ctx ends before the session answers (it waits
// for the host's turn, or connects), the error (upstream.ErrNotAnswered)
// says what it is doing and whether the resync goes on.
func (s *Session) Resync(ctx context.Context) error {
	if err := s.cfg.REST.Gate(); err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok {
		// ctx's deadline is on the wall clock, the wait on the session's:
		// compare what is left of each, not instants of two clocks.
		now := s.cfg.Now()
		if d := s.rest.WeightWait(snapshotWeight); d > 0 && d > time.Until(dl) {
			return &rest.BackoffError{Err: rest.ErrRateLimited, Until: now.Add(d), Local: true, Now: now}
		}
	}
	reply := make(chan error, 1)
	select {
	case s.resyncReq <- reply:
	case <-ctx.Done():
		return s.unanswered(ctx, false)
	case <-s.ctx.Done():
		return errors.New("resync: session closed")
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return s.unanswered(ctx, true)
	}
}

// unanswered is Resync's error when ctx ends before the session took the
// request (asked false: it was connecting, or waiting to reconnect) or
// before it answered: what the session is doing (waiting for the host's
// turn, for request weight), not the bare context error it wraps.
func (s *Session) unanswered(ctx context.Context, asked bool) error {
	st := s.statusNow()
	doing := string(st.State)
	if st.Reason != "" {
		doing += " (" + s.turnHolder(st.Reason) + ")"
	}
	text := "the session is " + doing
	switch {
	case asked:
		text += "; the resync goes on"
	case st.State == StateConnecting || st.State == StateReconnecting:
		text += "; not started: a connect takes its own snapshots"
	default:
		text += "; not started"
	}
	return upstream.NotAnswered(text, ctx.Err())
}

// goTracked runs f on a goroutine counted in wg, unless Close has begun.
func (s *Session) goTracked(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return
	}
	s.wg.Add(1)
	go func() { defer s.wg.Done(); f() }()
}

func (s *Session) markLive() { s.liveOnce.Do(func() { close(s.live) }) }
