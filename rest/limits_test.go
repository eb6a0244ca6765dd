package rest_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestBackoffAfter429 breaks the sim's order limit (1 per second) without
// telling the client, then checks that nothing at all is sent before
// Retry-After has passed: a call whose deadline comes first fails fast,
// a patient one waits and then goes through. The client and the sim are
// on a fake clock that stands still, so the backoff left is the whole
// Retry-After however slow the machine: the short call must return
// before its (wall-clock) deadline, and the patient one only once the
// clock is moved past Retry-After.
func TestBackoffAfter429(t *testing.T) {
	s, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{OrdersPerSecond: 1}})
	c, log := s.Client(simtest.OnClock(clk)...), reqLog{s.Log}
	ctx := context.Background()
	if err := c.SyncTime(ctx); err != nil {
		t.Fatal(err)
	}
	tr := rest.NewTrader(c)
	var res rest.OrderResult
	for range 3 { // the clock stands still: the second order is over the limit
		if res = tr.PlaceOrder(ctx, restingBuy()); res.HTTPStatus == 429 {
			break
		}
	}
	if res.HTTPStatus != 429 || res.Outcome != rest.OutcomeRejected {
		t.Fatalf("PlaceOrder beyond 1 order/s = %+v, want rejected with HTTP 429", res)
	}
	until := c.RetryAfter()
	if !until.After(clk.Now()) {
		t.Fatalf("RetryAfter() = %v, want after the clock's %v", until, clk.Now())
	}
	sent := len(log.entries(t))

	// Shorter than the backoff left (Retry-After is at least 1 s and the
	// clock stands still): a call that waited would outlive it.
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_, err := c.Account(short)
	var be *rest.BackoffError
	if !errors.Is(err, rest.ErrRateLimited) || !errors.As(err, &be) || !rest.NotSent(err) {
		t.Errorf("Account during backoff with a short deadline = %v, want ErrRateLimited, not sent", err)
	}
	if short.Err() != nil {
		t.Errorf("Account during backoff returned only at its deadline, want an immediate failure")
	}
	if got := tr.PlaceOrder(short, restingBuy()); got.Outcome != rest.OutcomeRejected || got.HTTPStatus != 0 {
		t.Errorf("PlaceOrder during backoff = %+v, want rejected, not sent", got)
	}
	if n := len(log.entries(t)); n != sent {
		t.Fatalf("%d requests reached the sim during the backoff, want 0", n-sent)
	}

	done := make(chan error, 1)
	go func() { _, err := c.Account(ctx); done <- err }()
	testkit.Eventually(t, 10*time.Second, func() bool { return clk.Waiters() > 0 }, "the patient Account waiting on the clock")
	clk.Set(until.Add(-time.Millisecond))
	select {
	case err := <-done:
		t.Fatalf("Account returned a ms before Retry-After ended: %v", err)
	default:
	}
	if n := len(log.entries(t)); n != sent {
		t.Fatalf("%d requests reached the sim during the backoff, want 0", n-sent)
	}
	clk.Set(until)
	if err := testkit.Recv(t, done, 10*time.Second, "Account did not return once Retry-After passed"); err != nil {
		t.Fatalf("Account after waiting out Retry-After: %v", err)
	}
	es := log.entries(t)
	var t429 entry
	for _, e := range es {
		if e.Status == 429 {
			t429 = e
		}
	}
	next := es[sent]
	if next.Time < t429.Time+1000 { // Retry-After is at least 1 s
		t.Errorf("next request reached the sim %d ms after the 429, want >= Retry-After (1000 ms)", next.Time-t429.Time)
	}
	noneBanned(t, log.RequestLog)
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
	if err := testkit.Recv(t, done, 10*time.Second, "the other account's Account did not return after Retry-After"); err != nil {
		t.Fatalf("the other account's Account after Retry-After: %v", err)
	}
	es := s.Log.Entries(t)
	if last := es[len(es)-1]; last.Path != "/openapi/v1/account" || last.Time < until.UnixMilli() {
		t.Errorf("last request %s at %d, want the account after Retry-After ended (%d)", last.Path, last.Time, until.UnixMilli())
	}
	noneBanned(t, s.Log)

	// Short of patience, a held account fails at once, sending nothing.
	for res.HTTPStatus != 429 || !a.RetryAfter().After(clk.Now()) {
		if res = tr.PlaceOrder(ctx, restingBuy()); res.HTTPStatus == 0 {
			t.Fatalf("PlaceOrder = %+v, want an answer", res)
		}
	}
	sent = len(s.Log.Entries(t))
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond) // a deadline on the wall clock, as every context's
	defer cancel()
	if _, err := b.Account(short); !errors.Is(err, rest.ErrRateLimited) || !rest.NotSent(err) {
		t.Errorf("the other account's Account with a short deadline during the backoff = %v, want ErrRateLimited, not sent", err)
	}
	if n := len(s.Log.Entries(t)); n != sent {
		t.Errorf("%d requests sent during the backoff, want 0", n-sent)
	}
}

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
			testkit.Recv(t, hold.Held, 10*time.Second, "the first request never went out") // in flight
			queued, cancel := context.WithCancel(ctx)
			defer cancel()
			errs := make(chan error, 4)
			for i := range 4 {
				path := []string{klinesPath, accountPath}[i%2]
				go func() { errs <- call[path](queued) }()
			}
			time.Sleep(30 * time.Millisecond) // (the four reach the client)
			close(hold.Release)
			if err := testkit.Recv(t, firstErr, 10*time.Second, "the request in flight did not return once let go"); !errors.Is(err, rest.ErrRateLimited) || rest.NotSent(err) {
				t.Fatalf("the request in flight = %v, want answered 429", err)
			}
			until := acct.RetryAfter()
			testkit.Eventually(t, 5*time.Second, func() bool { return clk.Waiters() >= 4 }, "the queued requests waiting for Retry-After")
			es := s.Log.Entries(t)[sent:]
			if len(es) != 1 || es[0].Path != first || es[0].Status != http.StatusTooManyRequests {
				t.Fatalf("requests since the weight was spent: %+v, want only %s answered 429\n%s", es, first, s.Log.Raw())
			}

			clk.Set(until)
			if err := testkit.Recv(t, errs, 10*time.Second, "no queued request returned after Retry-After"); err != nil {
				t.Fatalf("a queued request after Retry-After: %v", err)
			}
			cancel()
			for range 3 {
				testkit.Recv(t, errs, 10*time.Second, "a queued request did not return once cancelled")
			}
			for _, e := range s.Log.Entries(t)[sent+1:] {
				if e.Time < until.UnixMilli() {
					t.Errorf("%s %s reached the service at %d, before Retry-After ended (%d)", e.Method, e.Path, e.Time, until.UnixMilli())
				}
			}
			noneBanned(t, s.Log)
		})
	}
}

// noneBanned fails the test if the service banned (418) any request.
func noneBanned(t *testing.T, l *testkit.RequestLog) {
	t.Helper()
	if n := l.Banned(); n > 0 {
		t.Errorf("%d requests banned (418):\n%s", n, l.Raw())
	}
}

// weight12 is a client paced (and waiting) on a fake clock, of a
// simulator on that clock whose REQUEST_WEIGHT is 12 a minute.
func weight12(t *testing.T) (*rest.Client, *clock.Fake) {
	t.Helper()
	return weight12Off(t, 0)
}

// weight12Off is weight12 with the fake clock off the wall clock by off.
func weight12Off(t *testing.T, off time.Duration) (*rest.Client, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(time.Now().Add(off).Truncate(time.Millisecond))
	s, _ := startSim(t, simtest.OnFake(clk, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 12}}))
	c := client(s, simtest.OnClock(clk)...)
	if _, err := c.BrokerInfo(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c, clk
}

// TestWeightWait: WeightWait says how long requests of a weight would be
// paced now (the window's span from the oldest spent weight it must
// outlive), without spending any.
func TestWeightWait(t *testing.T) {
	t.Parallel()
	c, clk := weight12(t)
	if d := c.WeightWait(8); d != 0 {
		t.Fatalf("nothing spent: WeightWait(8) = %s, want 0", d)
	}
	for range 2 { // 10 of 12
		if _, err := c.Account(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(10 * time.Second)
	if d := c.WeightWait(2); d != 0 {
		t.Errorf("WeightWait(2) = %s with 2 left, want 0", d)
	}
	const span = time.Minute + 2*time.Second // the minute and the governor's margin
	if d := c.WeightWait(8); d != span-10*time.Second {
		t.Errorf("WeightWait(8) = %s, want %s (until the spent weight leaves the window)", d, span-10*time.Second)
	}
	if used, _ := c.Weight(); used != 10 {
		t.Errorf("Weight() = %d after WeightWait, want 10 (nothing spent)", used)
	}
}

// TestWaitNotice: a request that must wait for request weight first calls
// its context's WithWaitNotice function with when it expects to go; one
// that fits calls nothing.
func TestWaitNotice(t *testing.T) {
	t.Parallel()
	c, clk := weight12(t)
	var mu sync.Mutex
	var notices []time.Time
	ctx := rest.WithWaitNotice(context.Background(), func(until time.Time) {
		mu.Lock()
		notices = append(notices, until)
		mu.Unlock()
	})
	start := clk.Now()
	for range 2 {
		if _, err := c.Account(ctx); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() { _, err := c.Account(ctx); done <- err }()
	noticed := func() bool { mu.Lock(); defer mu.Unlock(); return len(notices) > 0 }
	if !testkit.Within(5*time.Second, noticed) {
		t.Fatal("no notice of the wait for weight")
	}
	mu.Lock()
	got := notices
	mu.Unlock()
	if want := start.Add(time.Minute + 2*time.Second); len(got) != 1 || !got[0].Equal(want) {
		t.Errorf("notices %v, want one, until %s", got, want)
	}
	if err := recvAdvancing(t, clk, done, "the request still waits after the window"); err != nil {
		t.Fatal(err)
	}
}

// TestPacedWithinDeadlineOnOffClock: acquire compares the wait for request
// weight with what is left of the context's deadline, not the wait's end
// on the client's clock with the deadline on the wall clock: a client
// whose clock runs minutes ahead of the wall still waits 22 s under a
// 30 s deadline, and one minutes behind fails at once, without sleeping,
// when the wait is longer than the deadline leaves.
func TestPacedWithinDeadlineOnOffClock(t *testing.T) {
	t.Parallel()
	// spent spends 10 of 12 and lets 40 s pass: an Account (5) waits 22 s.
	spent := func(t *testing.T, off time.Duration) (*rest.Client, *clock.Fake) {
		c, clk := weight12Off(t, off)
		for range 2 {
			if _, err := c.Account(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		clk.Advance(40 * time.Second)
		if d := c.WeightWait(8); d != 22*time.Second {
			t.Fatalf("WeightWait(8) = %s, want 22s", d)
		}
		return c, clk
	}
	t.Run("ahead", func(t *testing.T) {
		t.Parallel()
		c, clk := spent(t, 10*time.Minute)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		done := make(chan error, 1)
		go func() { _, err := c.Account(ctx); done <- err }()
		if err := recvAdvancing(t, clk, done, "the paced request did not return"); err != nil {
			t.Fatalf("paced 22 s under a 30 s deadline, clock 10 min ahead: %v, want it sent", err)
		}
	})
	t.Run("behind", func(t *testing.T) {
		t.Parallel()
		c, _ := spent(t, -10*time.Minute)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := c.Account(ctx)
		var be *rest.BackoffError
		if !errors.As(err, &be) || !errors.Is(err, rest.ErrRateLimited) {
			t.Fatalf("paced 22 s under a 5 s deadline, clock 10 min behind: %v, want a *BackoffError (ErrRateLimited)", err)
		}
		if waited := time.Since(start); waited > 4*time.Second {
			t.Errorf("failed after %s, want at once", waited)
		}
	})
}

// TestTurn: the clients of one HostLimits take Turn one at a time; a
// client waiting for it gets it once the holder releases it, and fails
// with ErrTurnStopped when stop is closed first (or ctx's error).
// TryTurn takes it only when it is free.
func TestTurn(t *testing.T) {
	t.Parallel()
	host := rest.NewHostLimits()
	a := rest.New("http://127.0.0.1:1", rest.WithSharedLimits(host))
	b := rest.New("http://127.0.0.1:1", rest.WithSharedLimits(host))
	ctx := context.Background()
	release, err := a.Turn(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.TryTurn(); ok {
		t.Error("TryTurn given while another held the turn")
	}
	stop := make(chan struct{})
	close(stop)
	if _, err := b.Turn(ctx, stop); !errors.Is(err, rest.ErrTurnStopped) {
		t.Errorf("Turn held by another, stop closed = %v, want ErrTurnStopped", err)
	}
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if _, err := b.Turn(short, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Turn held by another, ctx ended = %v, want context.DeadlineExceeded", err)
	}
	got := make(chan func(), 1)
	go func() {
		r, err := b.Turn(ctx, nil)
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	select {
	case <-got:
		t.Fatal("Turn given while another held it")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	testkit.Recv(t, got, 5*time.Second, "Turn not given after the holder released it")()
	again, ok := a.TryTurn()
	if !ok {
		t.Fatal("TryTurn not given with the turn free")
	}
	again()
}

// recvAdvancing moves clk a second at a time until done answers, and
// returns its answer; it fails the test with why when none came within
// 10 s.
func recvAdvancing(t *testing.T, clk *clock.Fake, done <-chan error, why string) error {
	t.Helper()
	var err error
	if !testkit.Advancing(clk, time.Second, 10*time.Second, func() bool {
		select {
		case err = <-done:
			return true
		default:
			return false
		}
	}) {
		t.Fatal(why)
	}
	return err
}
