package rest_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/sim"
)

// TestBackoffAfter429 breaks the sim's order limit (1 per second) without
// telling the client, then checks that nothing at all is sent before
// Retry-After has passed: a call whose deadline comes first fails fast,
// a patient one waits and then goes through.
func TestBackoffAfter429(t *testing.T) {
	c, log := startClient(t, sim.Options{RateLimits: sim.RateLimits{OrdersPerSecond: 1}})
	ctx := context.Background()
	if err := c.SyncTime(ctx); err != nil {
		t.Fatal(err)
	}
	tr := rest.NewTrader(c)
	var res rest.OrderResult
	for range 3 { // within one or two sim seconds one of these is the second
		if res = tr.PlaceOrder(ctx, restingBuy()); res.HTTPStatus == 429 {
			break
		}
	}
	if res.HTTPStatus != 429 || res.Outcome != rest.OutcomeRejected {
		t.Fatalf("PlaceOrder beyond 1 order/s = %+v, want rejected with HTTP 429", res)
	}
	until := c.RetryAfter()
	if !until.After(time.Now()) {
		t.Fatalf("RetryAfter() = %v, want in the future", until)
	}
	sent := len(log.entries(t))

	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Account(short)
	var be *rest.BackoffError
	if !errors.Is(err, rest.ErrRateLimited) || !errors.As(err, &be) || !rest.NotSent(err) {
		t.Errorf("Account during backoff with a short deadline = %v, want ErrRateLimited, not sent", err)
	}
	if time.Since(start) > 40*time.Millisecond {
		t.Errorf("Account during backoff took %v, want an immediate failure", time.Since(start))
	}
	if got := tr.PlaceOrder(short, restingBuy()); got.Outcome != rest.OutcomeRejected || got.HTTPStatus != 0 {
		t.Errorf("PlaceOrder during backoff = %+v, want rejected, not sent", got)
	}
	if n := len(log.entries(t)); n != sent {
		t.Fatalf("%d requests reached the sim during the backoff, want 0", n-sent)
	}

	if _, err := c.Account(ctx); err != nil {
		t.Fatalf("Account after waiting out Retry-After: %v", err)
	}
	if time.Now().Before(until) {
		t.Errorf("Account returned before Retry-After ended")
	}
	es := log.entries(t)
	var t429 entry
	for _, e := range es {
		if e.Status == 429 {
			t429 = e
		}
	}
	next := es[sent]
	if next.Time < t429.Time+1000-5 { // Retry-After is at least 1 s
		t.Errorf("next request reached the sim %d ms after the 429, want >= Retry-After (1000 ms)", next.Time-t429.Time)
	}
	for _, e := range es {
		if e.Status == 418 {
			t.Errorf("%s %s was banned (418)", e.Method, e.Path)
		}
	}
}

// TestHammerNeverMeets429 sends as fast as four goroutines can, through
// the governor configured from brokerInfo: the sim never answers 429 or
// 418, and what cannot fit fails fast locally with ErrRateLimited.
func TestHammerNeverMeets429(t *testing.T) {
	c, log := startClient(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 60, OrdersPerSecond: 2}})
	if _, err := c.BrokerInfo(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond)
	defer cancel()
	tr := rest.NewTrader(c)
	var ok, local, other atomic.Int64
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				var err error
				switch g {
				case 0:
					_, err = c.Account(ctx)
				case 1:
					_, err = c.OpenOrders(ctx, "", 10)
				default:
					if res := tr.PlaceOrder(ctx, restingBuy()); res.Outcome != rest.OutcomeAccepted {
						err = errors.New(res.Msg)
						if res.HTTPStatus == 0 {
							err = rest.ErrRateLimited
						}
					}
				}
				switch {
				case err == nil:
					ok.Add(1)
				case errors.Is(err, rest.ErrRateLimited) || errors.Is(err, context.DeadlineExceeded):
					local.Add(1)
					time.Sleep(10 * time.Millisecond)
				default:
					other.Add(1)
					t.Errorf("goroutine %d: %v", g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range log.entries(t) {
		if e.Status == 429 || e.Status == 418 {
			t.Errorf("%s %s got HTTP %d", e.Method, e.Path, e.Status)
		}
	}
	if ok.Load() < 10 || local.Load() == 0 {
		t.Errorf("hammering: %d succeeded, %d held back locally; want >= 10 and > 0", ok.Load(), local.Load())
	}
	if used, limit := c.Weight(); used > limit {
		t.Errorf("Weight() = %d/%d, want within the limit", used, limit)
	}
}

// TestBanStopsEverything: a second client that knows nothing of the first
// one's 429 sends during the backoff and gets the IP banned (418). It then
// sends nothing until the ban ends, failing fast with ErrBanned and the
// end time, and resumes afterwards.
func TestBanStopsEverything(t *testing.T) {
	s, log := startSim(t, sim.Options{RateLimits: sim.RateLimits{OrdersPerSecond: 1}, BanScale: 0.001})
	a, b := client(s), client(s)
	ctx := context.Background()
	tr := rest.NewTrader(a)
	for i := 0; i < 3 && a.RetryAfter().IsZero(); i++ {
		tr.PlaceOrder(ctx, restingBuy())
	}
	if a.RetryAfter().IsZero() {
		t.Fatal("no 429 after three orders at 1 order/s")
	}
	_, err := b.Account(ctx)
	var be *rest.BackoffError
	if !errors.Is(err, rest.ErrBanned) || !errors.As(err, &be) || be.Until.IsZero() {
		t.Fatalf("Account during another client's backoff = %v, want ErrBanned with an end", err)
	}
	if !b.BannedUntil().After(time.Now()) {
		t.Fatalf("BannedUntil() = %v, want in the future", b.BannedUntil())
	}
	sent := len(log.entries(t))
	_, err = b.Account(ctx)
	if !errors.Is(err, rest.ErrBanned) || !rest.NotSent(err) {
		t.Errorf("Account while banned = %v, want ErrBanned, not sent", err)
	}
	if n := len(log.entries(t)); n != sent {
		t.Errorf("%d requests sent while banned, want 0", n-sent)
	}
	time.Sleep(time.Until(b.BannedUntil()) + 10*time.Millisecond)
	if _, err := b.Account(ctx); err != nil {
		t.Errorf("Account after the ban ended: %v", err)
	}
}
