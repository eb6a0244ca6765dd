package stream

import (
	"fmt"
	"time"

	"bhtop/state"
)

// The single writer: one goroutine owns the state.Store. Socket readers
// hand it frames through s.in (bounded, so memory is bounded); everything
// else that changes the store (snapshots, order queries, pending orders)
// arrives as a function on the same channel, so all changes are ordered.
// A reader that finds the writer idle and nothing queued folds its frame
// itself, holding the writer's lock (wmu), instead of waking the writer's
// goroutine for it: the order is the same, and a quiet stream costs one
// goroutine wake-up per frame, not two. It publishes snapshots to the
// Hub, which never blocks: a stalled UI cannot stall the writer, and so
// cannot stall the socket readers.

// noteEvery is how often published snapshots are compared for order notes.
const noteEvery = 100 * time.Millisecond

// item is one message to the writer: a frame from a connection, or fn.
type item struct {
	frame  []byte
	conn   *conn
	ping   bool // a bare heartbeat, already answered: journal only
	binary bool // a binary frame: counted as malformed
	fn     func(w *writer)
	// buf, when set, is the pooled buffer frame was read into: the writer
	// hands it back (release) once the frame is journaled and folded.
	buf *[]byte
}

// release hands the frame's buffer back to the readers; it.frame must no
// longer be used.
func (it *item) release() {
	if it.buf != nil {
		putFrameBuf(it.buf, it.frame)
		it.buf, it.frame = nil, nil
	}
}

// writer is the state owned by the writer goroutine.
type writer struct {
	s     *Session
	store *state.Store

	holds     int    // resyncs in progress; frames are held while > 0
	held      []item // in arrival order
	overflow  bool   // held exceeded MaxHeld: frames were lost, reconnect
	dirty     bool   // changed since the last publish
	lastPub   time.Time
	tick      *time.Ticker
	tickIs    time.Duration   // the tick's period now
	snapCost  time.Duration   // how long the last Snapshot took
	unnoted   *state.Snapshot // published, not yet compared for notes
	recheck   bool            // the symbol watcher's Recheck waits for the next publish (newSymbols)
	lastNoted time.Time
	journalOK bool

	rateAt     time.Time
	rateEvents int64
	busySince  time.Time // start of the current run of measurements at >= 1 event/s; zero after one below
}

// busySustained is how long the stream must keep at least one event a
// second before it counts as busy for the silent-socket watch: a single
// trade's burst (a few events within a second) is not a busy stream.
const busySustained = 5 * time.Second

// toWriter hands an item to the writer; false when the session is closing.
func (s *Session) toWriter(it item) bool {
	s.queued.Add(1)
	select {
	case s.in <- it:
		return true
	case <-s.writerDone:
		s.queued.Add(-1)
		return false
	}
}

// toWriterFrame hands a frame from a socket reader to the writer: folded
// at once on the reader's goroutine when the writer is idle and nothing
// is queued before it (every item sent was handled: queued drops under
// wmu), else queued as toWriter does. False when the session is closing.
func (s *Session) toWriterFrame(it item) bool {
	if s.queued.Load() == 0 && s.wmu.TryLock() {
		if w := s.wr; w != nil && s.queued.Load() == 0 {
			w.onItem(it, time.Now())
			w.retick()
			s.wmu.Unlock()
			return true
		}
		s.wmu.Unlock()
	}
	return s.toWriter(it)
}

// do runs fn on the writer goroutine and waits for it; false when the
// session closed first.
func (s *Session) do(fn func(w *writer)) bool {
	done := make(chan struct{})
	if !s.toWriter(item{fn: func(w *writer) { fn(w); close(done) }}) {
		return false
	}
	select {
	case <-done:
		return true
	case <-s.writerDone:
		return false
	}
}

// runWriter is the writer goroutine. It ends when stop is closed, after
// handling what is already queued and publishing a last snapshot.
func (s *Session) runWriter(stop <-chan struct{}) {
	defer close(s.writerDone)
	w := &writer{s: s, store: s.store, journalOK: true, rateAt: s.cfg.Now()}
	// The tick publishes what frames left unpublished, compares orders for
	// notes and measures the event rate (see writer.tickEvery).
	w.tickIs = w.tickEvery()
	w.tick = time.NewTicker(w.tickIs)
	defer w.tick.Stop()
	joined := s.hub.Joined()
	s.wmu.Lock()
	s.wr = w
	s.wmu.Unlock()
	for {
		select {
		case it := <-s.in:
			s.wmu.Lock()
			s.queued.Add(-1)
			w.onItem(it, time.Now())
			w.retick()
			s.wmu.Unlock()
		case <-w.tick.C:
			s.wmu.Lock()
			w.onTick(time.Now())
			w.retick()
			s.wmu.Unlock()
		case <-joined:
			// A new reader: it reads Latest first, so publish what the
			// slow interval kept back, then publish at the busy pace.
			s.wmu.Lock()
			w.publish(time.Now())
			w.retick()
			s.wmu.Unlock()
		case <-stop:
			s.wmu.Lock()
			s.wr = nil // readers queue from now on (and find writerDone)
			for {
				select {
				case it := <-s.in:
					s.queued.Add(-1)
					w.handle(it)
					continue
				default:
				}
				break
			}
			w.dirty = true
			w.publish(time.Now())
			w.noteChanges(true)
			s.wmu.Unlock()
			return
		}
	}
}

// retick sets the tick to what the writer needs now (tickEvery).
func (w *writer) retick() {
	if d := w.tickEvery(); d != w.tickIs {
		w.tick.Reset(d)
		w.tickIs = d
	}
}

// onItem handles one item that arrived at now, and publishes at once when
// the inbox is empty (but not more often than publishGap allows) and a
// reader waits for it, and at least every interval while busy (see eager).
func (w *writer) onItem(it item, now time.Time) {
	w.handle(it)
	since := now.Sub(w.lastPub)
	if since >= w.interval() || (w.s.queued.Load() == 0 && since >= w.publishGap() && w.eager(it)) {
		w.publish(now)
	}
	if syms, assets := w.store.TakeNewSymbols(); len(syms)+len(assets) > 0 {
		w.newSymbols(syms, assets, now)
	}
}

// newSymbols tells the symbol watcher of the symbols and assets that
// appeared: when it wants one, it is asked to look (Recheck) once the
// state holding them is published (it reads the Hub): at once, or at the
// tick publishGap after the last publish, so that orders opening on a
// symbol it has not followed yet do not cost a snapshot each.
func (w *writer) newSymbols(syms, assets []string, now time.Time) {
	sw := w.s.cfg.Symbols
	if sw == nil || !sw.Wants(syms, assets) {
		return
	}
	w.recheck = true
	if !w.dirty || now.Sub(w.lastPub) >= w.publishGap() {
		w.publish(now)
	}
}

// onTick is the writer's tick at now.
func (w *writer) onTick(now time.Time) {
	if now.Sub(w.lastPub) >= w.publishGap() {
		w.publish(now) // else the next frame or tick will
	}
	w.noteChanges(false)
	w.measureRate()
}

// interval is the longest a change waits to be published while frames
// keep arriving: PublishEvery while a reader is subscribed to the hub;
// PublishIdle while none is, since then the only readers poll Latest
// (the market client's recheck once a second, a scrape, a dump after
// Close) and a snapshot every PublishEvery would be built for no one.
// A reader that subscribes is published to at once (Hub.Joined).
func (w *writer) interval() time.Duration {
	if w.s.hub.Subscribed() {
		return w.s.cfg.PublishEvery
	}
	return max(w.s.cfg.PublishIdle, w.s.cfg.PublishEvery)
}

// tickEvery is the tick the writer needs now: publishGap while the
// symbol watcher waits for a publish (newSymbols), the interval while a
// change waits to be published or compared for notes, else idleTick, so
// that an idle dashboard is not woken 20 times a second.
func (w *writer) tickEvery() time.Duration {
	if w.recheck {
		return w.publishGap()
	}
	if w.pending() {
		return w.interval()
	}
	return max(idleTick, w.interval())
}

func (w *writer) handle(it item) {
	if it.fn != nil {
		w.dirty = true // (before fn: a fn that publishes leaves nothing to publish)
		it.fn(w)
		return
	}
	w.journal(it.frame)
	if it.ping {
		it.release()
		return
	}
	if w.holds > 0 {
		if len(w.held) >= w.s.cfg.MaxHeld {
			w.overflow = true
			it.release()
			return
		}
		w.held = append(w.held, it) // released when endHold applies it
		return
	}
	w.apply(it)
	it.release()
}

// apply folds one frame into the store.
func (w *writer) apply(it item) {
	w.dirty = true
	if it.binary {
		w.store.CountMalformed() // ignored, counted (DESIGN.md)
		return
	}
	c := it.conn
	w.store.ApplyFrame(it.frame, func(n []byte) {
		if c != nil {
			nn := append([]byte(nil), n...)
			go c.pong(nn) // never block the writer on a socket
		}
	})
}

func (w *writer) journal(frame []byte) {
	if w.s.cfg.Journal == nil || !w.journalOK {
		return
	}
	if err := w.s.cfg.Journal.Write(frame); err != nil {
		w.journalOK = false
		w.s.noteError(fmt.Sprintf("journal: %v (recording stopped)", err))
	}
}

// beginHold starts holding frames for a resync.
func (w *writer) beginHold() { w.holds++ }

// endHold applies the held frames once the last resync in progress ends.
// It reports whether frames were lost to overflow.
func (w *writer) endHold() (lost bool) {
	if w.holds > 0 {
		w.holds--
	}
	if w.holds > 0 {
		return false
	}
	for i := range w.held {
		w.apply(w.held[i])
		w.held[i].release()
	}
	clear(w.held)
	w.held = w.held[:0]
	lost, w.overflow = w.overflow, false
	return lost
}

// publish hands a new snapshot to the Hub when something changed; now
// is when (the interval and the gap count from it).
func (w *writer) publish(now time.Time) {
	if w.dirty {
		w.dirty = false
		w.lastPub = now
		start := time.Now()
		snap := w.store.Snapshot()
		w.snapCost = time.Since(start)
		w.s.hub.Publish(snap)
		w.unnoted = snap
		w.noteChanges(false)
	}
	if w.recheck {
		w.recheck = false
		w.s.cfg.Symbols.Recheck() // the state published holds the new symbols
	}
}

// eager reports whether a publish right after it is worth its snapshot:
// always after a function (a snapshot, an order query, a pending order:
// callers may read the hub next), after a frame only when some subscriber
// has consumed its last notice. Otherwise the tick publishes within
// PublishEvery, as while busy: with no subscriber (readers that poll
// Latest) or every subscriber still holding a notice (it reads the latest
// snapshot when it gets to it), a snapshot per frame would be built for
// no one. The store folds every frame either way.
func (w *writer) eager(it item) bool {
	return it.fn != nil || w.s.hub.Waiting()
}

// idleTick is the writer's tick while nothing waits to be published or
// compared: often enough for the events-per-second figure to fall to 0.
const idleTick = time.Second

// pending reports whether a change waits to be published or compared for
// order notes (the tick must then run at PublishEvery).
func (w *writer) pending() bool { return w.dirty || w.unnoted != nil }

// snapShare is the inverse of the largest share of the writer's time that
// eager publishing may spend taking snapshots.
const snapShare = 20

// publishGap is the shortest time between two publishes while frames keep
// arriving: PublishEvery/10, or snapShare times what the last snapshot
// cost when that is longer, and PublishEvery at most. A snapshot copies
// every order row, so its cost grows with the retained orders (a few ms
// for 10,000): publishing whenever the inbox is momentarily empty, which
// at 20,000 events/s is most of the time, would spend the writer's time,
// and the garbage collector's, on snapshots nobody can see (the dashboard
// draws 30 frames a second) and let the socket fall behind.
func (w *writer) publishGap() time.Duration {
	return min(w.s.cfg.PublishEvery, max(w.s.cfg.PublishEvery/10, snapShare*w.snapCost))
}

// noteChanges turns order changes into notes, at most every noteEvery
// (the comparison costs one pass over the orders) unless now.
func (w *writer) noteChanges(now bool) {
	if w.unnoted == nil || (!now && time.Since(w.lastNoted) < noteEvery) {
		return
	}
	w.s.notePublished(w.unnoted)
	w.unnoted, w.lastNoted = nil, time.Now()
}

// noteRate takes the rate measured over [from, now]: the stream is busy
// (lastBusy) once the rate has stayed at least one event a second for
// busySustained running.
func (w *writer) noteRate(rate float64, from, now time.Time) {
	if rate < 1 {
		w.busySince = time.Time{}
		return
	}
	if w.busySince.IsZero() {
		w.busySince = from
	}
	if now.Sub(w.busySince) >= busySustained {
		w.s.lastBusy.Store(now.UnixNano())
	}
}

// measureRate updates the events-per-second figure about once a second.
func (w *writer) measureRate() {
	now := w.s.cfg.Now()
	el := now.Sub(w.rateAt)
	if el < time.Second {
		return
	}
	ev := w.store.Stats().Events
	rate := float64(ev-w.rateEvents) / el.Seconds()
	w.noteRate(rate, w.rateAt, now)
	w.rateAt, w.rateEvents = now, ev
	w.s.setStatus(func(st *Status) { st.EventsPerSec = rate })
}
