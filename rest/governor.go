package rest

import (
	"strings"
	"sync"
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

// governor paces requests by route weight and order count against the
// advertised limits, and holds every request while the service has said
// to back off (429) or has banned us (418). Times are local clock times.
type governor struct {
	mu        sync.Mutex
	weight    []*window
	orders    []*window
	rateUntil time.Time // after 429: nothing is sent before
	rateCause *APIError
	banUntil  time.Time // after 418: nothing is sent before
	banCause  *APIError
	backoff   time.Duration // next backoff for a 429 without Retry-After
}

func newGovernor() *governor {
	g := &governor{}
	g.setLimits(DefaultRateLimits())
	return g
}

// setLimits replaces the limits, keeping what was already spent.
func (g *governor) setLimits(limits []RateLimit) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var weightLog, orderLog []stamp
	for _, w := range g.weight {
		if len(w.log) > len(weightLog) {
			weightLog = w.log
		}
	}
	for _, w := range g.orders {
		if len(w.log) > len(orderLog) {
			orderLog = w.log
		}
	}
	var weight, orders []*window
	for _, l := range limits {
		iv := intervalOf(l.Interval)
		if iv == 0 || l.Limit <= 0 {
			continue
		}
		switch strings.ToUpper(l.Type) {
		case "REQUEST_WEIGHT", "REQUESTS_WEIGHT":
			w := newWindow(iv, l.Limit)
			w.log = append([]stamp(nil), weightLog...)
			weight = append(weight, w)
		case "ORDER", "ORDERS":
			w := newWindow(iv, l.Limit)
			w.log = append([]stamp(nil), orderLog...)
			orders = append(orders, w)
		}
	}
	if len(weight) > 0 {
		g.weight = weight
	}
	if len(orders) > 0 {
		g.orders = orders
	}
}

// reserve spends r's weight (and an order) at now if it fits and no
// backoff is in force, returning 0. Otherwise it spends nothing and
// returns how long to wait; gate is non-nil when a 429/418 backoff (not
// the pacing) is the reason.
func (g *governor) reserve(now time.Time, r route) (wait time.Duration, gate *BackoffError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.Before(g.banUntil) {
		return g.banUntil.Sub(now), &BackoffError{Err: ErrBanned, Until: g.banUntil, Cause: g.banCause}
	}
	if now.Before(g.rateUntil) {
		return g.rateUntil.Sub(now), &BackoffError{Err: ErrRateLimited, Until: g.rateUntil, Cause: g.rateCause}
	}
	at := now
	for _, w := range g.weight {
		if t := w.fitAt(now, r.weight); t.After(at) {
			at = t
		}
	}
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
		for _, w := range g.weight {
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

// tooMany records a 429: nothing is sent until now+retryAfter, or, with
// no Retry-After (retryAfter <= 0), an exponentially growing backoff.
func (g *governor) tooMany(now time.Time, retryAfter time.Duration, cause *APIError) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if retryAfter <= 0 {
		if g.backoff == 0 {
			g.backoff = time.Second
		}
		retryAfter = g.backoff
		g.backoff = min(2*g.backoff, 64*time.Second)
	}
	if until := now.Add(retryAfter); until.After(g.rateUntil) {
		g.rateUntil = until
	}
	g.rateCause = cause
	return g.rateUntil
}

// banned records a 418 ban lasting until until.
func (g *governor) banned(until time.Time, cause *APIError) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if until.After(g.banUntil) {
		g.banUntil = until
	}
	g.banCause = cause
}

// succeeded resets the exponential backoff after an answered request.
func (g *governor) succeeded() {
	g.mu.Lock()
	g.backoff = 0
	g.mu.Unlock()
}

// usage is the weight spent in the first weight window and its limit.
func (g *governor) usage(now time.Time) (used, limit int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.weight) == 0 {
		return 0, 0
	}
	w := g.weight[0]
	return w.used(now), w.limit
}

func (g *governor) gates() (rateUntil, banUntil time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.rateUntil, g.banUntil
}
