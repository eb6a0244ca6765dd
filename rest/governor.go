package rest

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// RateLimit is one entry of brokerInfo's rateLimits.
type RateLimit struct {
	Type     string // REQUEST_WEIGHT or ORDER (also spelled REQUESTS_WEIGHT, ORDERS)
	Interval string // SECOND, MINUTE or DAY
	Limit    int
}

// DefaultRateLimits are API-FACTS.md's example values, which the
// governor holds to until BrokerInfo (or SetRateLimits) tells the real ones.
func DefaultRateLimits() []RateLimit {
	return []RateLimit{
		{"REQUEST_WEIGHT", "MINUTE", 1500},
		{"ORDER", "SECOND", 20},
		{"ORDER", "DAY", 350000},
	}
}

func intervalOf(s string) time.Duration {
	switch strings.ToUpper(s) {
	case "SECOND":
		return time.Second
	case "MINUTE":
		return time.Minute
	case "HOUR":
		return time.Hour
	case "DAY":
		return 24 * time.Hour
	}
	return 0
}

// stamp is n units spent at t.
type stamp struct {
	t time.Time
	n int
}

// window is a sliding-window counter. Its span is the limit's interval
// plus a margin, so requests the service receives a little later than we
// counted them still fit whichever window (fixed or sliding) it uses.
type window struct {
	span  time.Duration
	limit int
	log   []stamp // ascending by t
}

func newWindow(interval time.Duration, limit int) *window {
	margin := min(interval/4, 2*time.Second)
	return &window{span: interval + margin, limit: limit}
}

func (w *window) prune(now time.Time) {
	cut := now.Add(-w.span)
	i := 0
	for i < len(w.log) && !w.log[i].t.After(cut) {
		i++
	}
	w.log = w.log[i:]
}

func (w *window) used(now time.Time) int {
	w.prune(now)
	sum := 0
	for _, s := range w.log {
		sum += s.n
	}
	return sum
}

// fitAt is the earliest time, not before now, at which n more units fit.
func (w *window) fitAt(now time.Time, n int) time.Time {
	used := w.used(now)
	if n <= 0 || used+n <= w.limit || n > w.limit {
		return now
	}
	for _, s := range w.log {
		used -= s.n
		if used+n <= w.limit {
			return s.t.Add(w.span)
		}
	}
	return now
}

// HostLimits is the part of the rate governor the service keeps per IP:
// the REQUEST_WEIGHT windows and the 429 and 418 gates. Clients of one
// process that talk to the same host share one (WithSharedLimits), so
// together they stay within the host's weight budget, and a 429 or 418
// answered to any of them holds every one's requests until it ends.
// ORDER counts stay with each client (the service counts orders per API
// key).
//
// One request of the host is in flight at a time: the service bans (418)
// a request that arrives while it has told the IP to wait, so a request
// sent beside one that is answered 429 (weight spent outside bhtop) would
// earn the ban. A request waits for the one in flight to be answered,
// then sees the gate that answer set, and is not sent while it holds.
//
// With Persist the gates are also shared with other processes, and with
// a GateTurn store the one-at-a-time rule holds across them too. A
// HostLimits is safe for concurrent use; the zero value is not usable:
// make one with NewHostLimits.
type HostLimits struct {
	slot    chan struct{}          // holds a token while a request is in flight
	turn    chan struct{}          // holds a token while a session waits for weight and resyncs (Client.Turn)
	holder  atomic.Pointer[string] // what the turn's holder does (Client.SetTurnHolder)
	store   GateStore              // Persist; nil: the gates stay in the process
	endTurn func()                 // ends the store's turn (GateTurn); set while slot is held

	mu        sync.Mutex
	weight    []*window
	rateUntil time.Time // after 429: nothing is sent before
	rateCause *APIError
	banUntil  time.Time // after 418: nothing is sent before
	banCause  *APIError
	backoff   time.Duration // next backoff for a 429 without Retry-After
}

// NewHostLimits returns host limits holding to DefaultRateLimits until a
// client's BrokerInfo (or SetRateLimits) sets the advertised ones.
func NewHostLimits() *HostLimits {
	h := &HostLimits{slot: make(chan struct{}, 1), turn: make(chan struct{}, 1)}
	h.setLimits(DefaultRateLimits())
	return h
}

// GateStore keeps a host's 429 and 418 gates outside the process (a file
// the other bhtop processes read), so that a gate one process was given
// holds the others. Its methods may be called concurrently.
type GateStore interface {
	// Load returns the gates stored by any process, or zero times when
	// none is stored or nothing changed since the last Load. It runs
	// before every request, so it must be cheap when nothing changed.
	Load() (rateUntil, banUntil time.Time)
	// Save stores the gates in force (a zero time: none of that kind).
	// It runs as soon as a 429 or 418 is answered.
	Save(rateUntil, banUntil time.Time)
}

// GateTurn is a GateStore that also orders the requests of the host
// across processes: with it, one request of the host is in flight at a
// time among all the processes sharing the store, not only in this one.
type GateTurn interface {
	// Turn waits until no other process has a request of the host in
	// flight and takes the turn, or fails when ctx ends first. release
	// ends the turn. A store that cannot order (no lock to be had) gives
	// the turn at once.
	Turn(ctx context.Context) (release func(), err error)
}

// Persist makes h read the gates other processes stored in s before each
// request, and store its own in s as soon as a 429 or 418 sets one. The
// gates s holds now take effect at once. Call it before h is used.
func (h *HostLimits) Persist(s GateStore) {
	h.store = s
	h.refresh()
}

// refresh holds h to the gates the store says changed.
func (h *HostLimits) refresh() {
	if h.store == nil {
		return
	}
	if r, b := h.store.Load(); !r.IsZero() || !b.IsZero() {
		h.Hold(r, b)
	}
}

// save stores the gates in force at now, if any.
func (h *HostLimits) save(now time.Time) {
	if h.store == nil {
		return
	}
	r, b := h.gates()
	if !r.After(now) {
		r = time.Time{}
	}
	if !b.After(now) {
		b = time.Time{}
	}
	if !r.IsZero() || !b.IsZero() {
		h.store.Save(r, b)
	}
}

// take waits until no other request of the host is in flight (with a
// GateTurn store, in any process) and takes its turn, or fails when ctx
// ends first.
func (h *HostLimits) take(ctx context.Context) error {
	select {
	case h.slot <- struct{}{}:
	default:
		select {
		case h.slot <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if t, ok := h.store.(GateTurn); ok {
		end, err := t.Turn(ctx)
		if err != nil {
			<-h.slot
			return err
		}
		h.endTurn = end
	}
	return nil
}

// give ends the turn take took.
func (h *HostLimits) give() {
	if h.endTurn != nil {
		h.endTurn()
		h.endTurn = nil
	}
	<-h.slot
}

// setLimits replaces the weight limits, keeping what was already spent.
func (h *HostLimits) setLimits(limits []RateLimit) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if w := rebuild(h.weight, limits, "REQUEST_WEIGHT", "REQUESTS_WEIGHT"); len(w) > 0 && !sameWindows(w, h.weight) {
		h.weight = w // the clients of a host each read brokerInfo: the first sets them
	}
}

// sameWindows says a and b have the same spans and limits.
func sameWindows(a, b []*window) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].span != b[i].span || a[i].limit != b[i].limit {
			return false
		}
	}
	return true
}

// rebuild makes the windows of the limits of type a or b, each starting
// with the longest log among old (what was already spent).
func rebuild(old []*window, limits []RateLimit, a, b string) []*window {
	var spent []stamp
	for _, w := range old {
		if len(w.log) > len(spent) {
			spent = w.log
		}
	}
	var out []*window
	for _, l := range limits {
		iv := intervalOf(l.Interval)
		if t := strings.ToUpper(l.Type); iv == 0 || l.Limit <= 0 || (t != a && t != b) {
			continue
		}
		w := newWindow(iv, l.Limit)
		w.log = append([]stamp(nil), spent...)
		out = append(out, w)
	}
	return out
}

// gate is the 429/418 backoff in force at now, or nil. h.mu is held.
func (h *HostLimits) gate(now time.Time) (time.Duration, *BackoffError) {
	if now.Before(h.banUntil) {
		return h.banUntil.Sub(now), &BackoffError{Err: ErrBanned, Until: h.banUntil, Cause: h.banCause, Now: now}
	}
	if now.Before(h.rateUntil) {
		return h.rateUntil.Sub(now), &BackoffError{Err: ErrRateLimited, Until: h.rateUntil, Cause: h.rateCause, Now: now}
	}
	return 0, nil
}

// tooMany records a 429: nothing is sent until now+retryAfter, or, with
// no Retry-After (retryAfter <= 0), an exponentially growing backoff.
func (h *HostLimits) tooMany(now time.Time, retryAfter time.Duration, cause *APIError) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	if retryAfter <= 0 {
		if h.backoff == 0 {
			h.backoff = time.Second
		}
		retryAfter = h.backoff
		h.backoff = min(2*h.backoff, 64*time.Second)
	}
	if until := now.Add(retryAfter); until.After(h.rateUntil) {
		h.rateUntil = until
	}
	h.rateCause = cause
	return h.rateUntil
}

// banned records a 418 ban lasting until until.
func (h *HostLimits) banned(until time.Time, cause *APIError) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if until.After(h.banUntil) {
		h.banUntil = until
	}
	h.banCause = cause
}

// succeeded resets the exponential backoff after an answered request.
func (h *HostLimits) succeeded() {
	h.mu.Lock()
	h.backoff = 0
	h.mu.Unlock()
}

// usage is the weight spent in the first weight window and its limit.
func (h *HostLimits) usage(now time.Time) (used, limit int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.weight) == 0 {
		return 0, 0
	}
	w := h.weight[0]
	return w.used(now), w.limit
}

func (h *HostLimits) gates() (rateUntil, banUntil time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rateUntil, h.banUntil
}

// governor paces one client's requests by route weight and order count
// against the advertised limits, and holds every request while the
// service has said to back off (429) or has banned us (418). The weight
// and the gates are its host's (shared with the other clients of the same
// host, or its own); the order windows are its own. Times are local clock
// times.
type governor struct {
	host   *HostLimits
	mu     sync.Mutex // guards orders; taken before host.mu
	orders []*window
}

func newGovernor(host *HostLimits) *governor {
	if host == nil {
		host = NewHostLimits()
	}
	g := &governor{host: host}
	g.orders = rebuild(nil, DefaultRateLimits(), "ORDER", "ORDERS")
	return g
}

// setLimits replaces the limits, keeping what was already spent.
func (g *governor) setLimits(limits []RateLimit) {
	g.host.setLimits(limits)
	g.mu.Lock()
	defer g.mu.Unlock()
	if o := rebuild(g.orders, limits, "ORDER", "ORDERS"); len(o) > 0 {
		g.orders = o
	}
}

// reserve spends r's weight (and an order) at now if it fits and no
// backoff is in force, returning 0. Otherwise it spends nothing and
// returns how long to wait; gate is non-nil when a 429/418 backoff (not
// the pacing) is the reason.
func (g *governor) reserve(now time.Time, r route) (wait time.Duration, gate *BackoffError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	h := g.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if wait, gate := h.gate(now); gate != nil {
		return wait, gate
	}
	at := h.weightFitAt(now, r.weight)
	if r.order {
		for _, w := range g.orders {
			if t := w.fitAt(now, 1); t.After(at) {
				at = t
			}
		}
	}
	if at.After(now) {
		return at.Sub(now), nil
	}
	if r.weight > 0 {
		for _, w := range h.weight {
			w.log = append(w.log, stamp{now, r.weight})
		}
	}
	if r.order {
		for _, w := range g.orders {
			w.log = append(w.log, stamp{now, 1})
		}
	}
	return 0, nil
}

// weightFitAt is the earliest time, not before now, at which n more units
// of request weight fit every weight window. h.mu is held.
func (h *HostLimits) weightFitAt(now time.Time, n int) time.Time {
	at := now
	for _, w := range h.weight {
		if t := w.fitAt(now, n); t.After(at) {
			at = t
		}
	}
	return at
}

// Hold sets the 429 and 418 gates to at least rateUntil and banUntil
// (zero: unchanged): gates another process was given for this host.
func (h *HostLimits) Hold(rateUntil, banUntil time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if rateUntil.After(h.rateUntil) {
		h.rateUntil = rateUntil
	}
	if banUntil.After(h.banUntil) {
		h.banUntil = banUntil
	}
}

// Gate is the 429/418 backoff in force at now (a *BackoffError), or nil:
// with Persist, also one another process stored.
func (h *HostLimits) Gate(now time.Time) error {
	h.refresh()
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, g := h.gate(now); g != nil {
		return g
	}
	return nil
}
