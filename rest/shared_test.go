package rest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestShared429HoldsOtherAccounts: two accounts of one simulator share
// their host's limits. The first breaks the order limit (1 a second, per
// key and per IP) and is answered 429; the second account, which sent
// nothing itself, then holds its requests until the Retry-After has
// passed on the (fake) clock, so the IP is never banned.
func TestShared429HoldsOtherAccounts(t *testing.T) {
	s, clk := simtest.StartOnClock(t, sim.Options{Accounts: 2, RateLimits: sim.RateLimits{OrdersPerSecond: 1}})
	host := rest.NewHostLimits()
	keys := s.Accounts(sim.DemoSecret)
	opts := simtest.SharedOnClock(clk, host)
	a, b := s.ClientAs(keys[0].APIKey, keys[0].SecretKey, opts...), s.ClientAs(keys[1].APIKey, keys[1].SecretKey, opts...)
	ctx := context.Background()
	tr := rest.NewTrader(a) // its governor still holds to 20 orders a second
	var res rest.OrderResult
	for range 3 { // the clock stands still: the second order is over the limit
		if res = tr.PlaceOrder(ctx, restingBuy()); res.HTTPStatus == 429 {
			break
		}
	}
	if res.HTTPStatus != 429 {
		t.Fatalf("PlaceOrder beyond 1 order/s = %+v, want HTTP 429", res)
	}
	until := a.RetryAfter()
	if got := b.RetryAfter(); !got.Equal(until) || !until.After(clk.Now()) {
		t.Fatalf("the other account's RetryAfter() = %v, want the host's %v (in the future)", got, until)
	}
	sent := len(s.Log.Entries(t))
	done := make(chan error, 1)
	go func() { _, err := b.Account(ctx); done <- err }()
	testkit.Eventually(t, time.Second, func() bool { return clk.Waiters() > 0 }, "the other account waiting on the clock")
	if n := len(s.Log.Entries(t)); n != sent {
		t.Fatalf("%d requests reached the simulator during the 429 backoff, want 0", n-sent)
	}
	select {
	case err := <-done:
		t.Fatalf("the other account's Account returned during the backoff: %v", err)
	default:
	}
	clk.Set(until)
	if err := <-done; err != nil {
		t.Fatalf("the other account's Account after Retry-After: %v", err)
	}
	es := s.Log.Entries(t)
	if last := es[len(es)-1]; last.Path != "/openapi/v1/account" || last.Time < until.UnixMilli() {
		t.Errorf("last request %s at %d, want the account after Retry-After ended (%d)", last.Path, last.Time, until.UnixMilli())
	}
	for _, e := range es {
		if e.Status == 418 {
			t.Errorf("%s %s was banned (418)", e.Method, e.Path)
		}
	}

	// Short of patience, a held account fails at once, sending nothing.
	for res.HTTPStatus != 429 || !a.RetryAfter().After(clk.Now()) {
		if res = tr.PlaceOrder(ctx, restingBuy()); res.HTTPStatus == 0 {
			t.Fatalf("PlaceOrder = %+v, want an answer", res)
		}
	}
	sent = len(s.Log.Entries(t))
	short, cancel := context.WithDeadline(ctx, clk.Now().Add(100*time.Millisecond))
	defer cancel()
	if _, err := b.Account(short); !errors.Is(err, rest.ErrRateLimited) || !rest.NotSent(err) {
		t.Errorf("the other account's Account with a short deadline during the backoff = %v, want ErrRateLimited, not sent", err)
	}
	if n := len(s.Log.Entries(t)); n != sent {
		t.Errorf("%d requests sent during the backoff, want 0", n-sent)
	}
}
