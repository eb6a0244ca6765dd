package rest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestQueuedRequestsHeldBy429: weight spent outside bhtop (another
// program on the IP) makes the service answer 429 to whichever request of
// the host comes next. The requests queued behind it, of the other kind
// (chart history behind an account request, and the other way round),
// must not reach the service until Retry-After has passed: the service
// bans (418) a request that arrives while it told the IP to wait.
func TestQueuedRequestsHeldBy429(t *testing.T) {
	const (
		klinesPath  = "/openapi/quote/v1/klines"
		accountPath = "/openapi/v1/account"
	)
	for _, first := range []string{klinesPath, accountPath} {
		t.Run(first, func(t *testing.T) {
			s, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 10}})
			ctx := context.Background()
			hold := testkit.NewHoldFirst(first)
			host := rest.NewHostLimits()
			opts := simtest.SharedOnClock(clk, host, rest.WithHTTPClient(&http.Client{Transport: hold}))
			acct := s.Client(opts...)         // the account's requests
			mkt := rest.New(s.URL(), opts...) // the market client's (chart history)
			if err := acct.SyncTime(ctx); err != nil {
				t.Fatal(err)
			}
			call := map[string]func(context.Context) error{
				klinesPath: func(ctx context.Context) error {
					_, err := mkt.Klines(ctx, rest.KlineRequest{Symbol: "BTCUSDT", Interval: "1m", Limit: 10})
					return err
				},
				accountPath: func(ctx context.Context) error { _, err := acct.Account(ctx); return err },
			}
			s.SpendWeight(t, clk.Now, 10) // another program on the IP: 10 of the minute's 10
			sent := len(s.Log.Entries(t))

			firstErr := make(chan error, 1)
			go func() { firstErr <- call[first](ctx) }()
			<-hold.Held // in flight
			queued, cancel := context.WithCancel(ctx)
			defer cancel()
			errs := make(chan error, 4)
			for i := range 4 {
				path := []string{klinesPath, accountPath}[i%2]
				go func() { errs <- call[path](queued) }()
			}
			time.Sleep(30 * time.Millisecond) // (the four reach the client)
			close(hold.Release)
			if err := <-firstErr; !errors.Is(err, rest.ErrRateLimited) || rest.NotSent(err) {
				t.Fatalf("the request in flight = %v, want answered 429", err)
			}
			until := acct.RetryAfter()
			testkit.Eventually(t, 5*time.Second, func() bool { return clk.Waiters() >= 4 }, "the queued requests waiting for Retry-After")
			es := s.Log.Entries(t)[sent:]
			if len(es) != 1 || es[0].Path != first || es[0].Status != http.StatusTooManyRequests {
				t.Fatalf("requests since the weight was spent: %+v, want only %s answered 429\n%s", es, first, s.Log.Raw())
			}

			clk.Set(until)
			if err := <-errs; err != nil {
				t.Fatalf("a queued request after Retry-After: %v", err)
			}
			cancel()
			for range 3 {
				<-errs
			}
			for _, e := range s.Log.Entries(t)[sent+1:] {
				if e.Time < until.UnixMilli() {
					t.Errorf("%s %s reached the service at %d, before Retry-After ended (%d)", e.Method, e.Path, e.Time, until.UnixMilli())
				}
			}
			if n := s.Log.Banned(); n > 0 {
				t.Errorf("%d requests banned (418):\n%s", n, s.Log.Raw())
			}
		})
	}
}
