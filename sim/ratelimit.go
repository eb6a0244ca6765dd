package sim

import (
	"net/http"
	"sync"
	"time"
)

// Ban lengths of SPEC.md: 2 minutes for a first offence, doubling for each
// repeat, at most 3 days (before Options.BanScale).
const (
	banFirst = 2 * time.Minute
	banMax   = 72 * time.Hour
)

// limiter counts REQUEST_WEIGHT per minute and ORDERS per second and per
// day for each subject (an API key or an IP), answers 429 when a limit
// would be broken, and bans (418) a subject that sends again while it was
// told to wait.
type limiter struct {
	mu       sync.Mutex
	lim      RateLimits
	banScale float64
	subjects map[string]*subject
}

type subject struct {
	minute, second, day    int64 // window numbers of the counts below
	weight, ordersSec      int
	ordersDay              int
	waitUntil, bannedUntil time.Time
	bans                   int
}

func newLimiter(lim RateLimits, banScale float64) *limiter {
	return &limiter{lim: lim, banScale: banScale, subjects: map[string]*subject{}}
}

// admit counts one request of the given weight (and one order when order
// is set) against every subject at time now, or returns the 429/418 reply.
func (l *limiter) admit(now time.Time, ids []string, weight int, order bool) *apiError {
	l.mu.Lock()
	defer l.mu.Unlock()
	subs := make([]*subject, len(ids))
	for i, id := range ids {
		s := l.subjects[id]
		if s == nil {
			s = &subject{}
			l.subjects[id] = s
		}
		subs[i] = s
	}
	for _, s := range subs {
		if now.Before(s.bannedUntil) {
			return banned(now, s.bannedUntil)
		}
	}
	for _, s := range subs {
		if now.Before(s.waitUntil) {
			s.bans++
			d := banFirst << (s.bans - 1)
			if d > banMax || d <= 0 {
				d = banMax
			}
			d = time.Duration(float64(d) * l.banScale)
			if d < time.Millisecond {
				d = time.Millisecond
			}
			s.bannedUntil = now.Add(d)
			s.waitUntil = time.Time{}
			return banned(now, s.bannedUntil)
		}
	}
	ms := now.UnixMilli()
	minute, second, day := floorDiv(ms, 60_000), floorDiv(ms, 1000), floorDiv(ms, 86_400_000)
	for _, s := range subs {
		if s.minute != minute {
			s.minute, s.weight = minute, 0
		}
		if s.second != second {
			s.second, s.ordersSec = second, 0
		}
		if s.day != day {
			s.day, s.ordersDay = day, 0
		}
		switch {
		case s.weight+weight > l.lim.WeightPerMinute:
			return l.tooMany(s, now, (minute+1)*60_000, codeTooManyRequests,
				"Too much request weight used; current limit is %d request weight per 1 MINUTE.", l.lim.WeightPerMinute)
		case order && s.ordersSec+1 > l.lim.OrdersPerSecond:
			return l.tooMany(s, now, (second+1)*1000, codeTooManyOrders,
				"Too many new orders; current limit is %d orders per SECOND.", l.lim.OrdersPerSecond)
		case order && s.ordersDay+1 > l.lim.OrdersPerDay:
			return l.tooMany(s, now, (day+1)*86_400_000, codeTooManyOrders,
				"Too many new orders; current limit is %d orders per DAY.", l.lim.OrdersPerDay)
		}
	}
	for _, s := range subs {
		s.weight += weight
		if order {
			s.ordersSec++
			s.ordersDay++
		}
	}
	return nil
}

func (l *limiter) tooMany(s *subject, now time.Time, untilMs int64, code int, format string, limit int) *apiError {
	s.waitUntil = time.UnixMilli(untilMs)
	e := errf(http.StatusTooManyRequests, code, format, limit)
	e.retryAfter = ceilSeconds(s.waitUntil.Sub(now))
	return e
}

func banned(now, until time.Time) *apiError {
	e := errf(http.StatusTeapot, codeTooManyRequests, "Way too many requests; IP banned until %d.", until.UnixMilli())
	e.retryAfter = ceilSeconds(until.Sub(now))
	return e
}

func ceilSeconds(d time.Duration) int {
	n := int((d + time.Second - 1) / time.Second)
	if n < 1 {
		n = 1
	}
	return n
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}
