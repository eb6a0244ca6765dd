package sim

import (
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/internal/testkit"
)

// After a burst of background activity and market steps, the stream
// agrees with the exchange, and every locked amount is accounted for by
// open orders and position margins.
func TestActivityConsistent(t *testing.T) {
	s := New(Options{Seed: 7, MarketInterval: -1})
	events, stop := s.feed.subscribe("1", 1<<20)
	defer stop()
	s.mu.Lock()
	n := 0
	for i := range 20 {
		n += s.activityStep(500)
		if i%4 == 0 {
			s.marketStep()
		}
	}
	s.mu.Unlock()
	if n < 9500 {
		t.Errorf("20 steps of 500 published %d events, want about 10000", n)
	}
	tr := drain(t, events)
	truth := s.AccountTruth(s.APIKey())
	for asset, got := range tr.balances {
		if want := truth[asset]; !decEq(got[0], want[0]) || !decEq(got[1], want[1]) {
			t.Errorf("stream balance %s = %v, truth %v", asset, got, want)
		}
	}
	a := s.demo
	kinds := map[string]int{}
	for id, ev := range tr.orders {
		kinds[str(ev["X"])]++
		oid, _ := strconv.ParseUint(id, 10, 64)
		o := a.orders[oid]
		if o == nil {
			continue // pruned
		}
		if o.status != str(ev["X"]) || !decEq(o.executed.String(), str(ev["z"])) {
			t.Errorf("order %s: stream %s z=%s, truth %s %s", id, ev["X"], ev["z"], o.status, o.executed)
		}
	}
	for _, k := range []string{"NEW", "PARTIALLY_FILLED", "FILLED", "CANCELED"} {
		if kinds[k] == 0 {
			t.Errorf("no order ended the burst %s (%v)", k, kinds)
		}
	}
	if len(tr.positions) == 0 {
		t.Errorf("no position events")
	}
	locked := map[string]decimal.Decimal{}
	for _, o := range s.openOrders(a) {
		locked[o.lockAsset] = locked[o.lockAsset].Add(o.locked)
	}
	for _, p := range a.positions {
		locked[p.sym.marginAsset] = locked[p.sym.marginAsset].Add(p.margin)
	}
	for asset, b := range a.balances {
		if !b.locked.Equal(locked[asset]) {
			t.Errorf("%s locked %s, orders and margins hold %s", asset, b.locked, locked[asset])
		}
		if b.free.IsNegative() {
			t.Errorf("%s free %s is negative", asset, b.free)
		}
	}
}

// With Activity set, a started simulator trades by itself.
func TestActivityRuns(t *testing.T) {
	s := start(t, Options{Activity: 400, MarketInterval: 20 * time.Millisecond})
	testkit.Eventually(t, 5*time.Second, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.published >= 40
	}, "40 events of background activity published")
}

// TestLateActivityStepIsBounded: a tick that comes late (a machine too
// busy for the rate asked: under -race beside other simulators, a step of
// 20,000 events/s took longer than the tick) makes up for at most
// activityCatchUp, so one step never holds the exchange's lock for a
// second's events, starving the connections and requests (the stream
// tests' sessions, other tests' simulators) that share the machine.
func TestLateActivityStepIsBounded(t *testing.T) {
	s := New(Options{Seed: 7, MarketInterval: -1})
	const rate = 20000.0
	s.mu.Lock()
	n := s.activityStep(rate * activityDue(time.Second).Seconds())
	s.mu.Unlock()
	if most := int(rate*activityCatchUp.Seconds()) + 10; n > most {
		t.Errorf("a tick 1 s late did %d events at %v/s, want at most %d (activityCatchUp %v)", n, rate, most, activityCatchUp)
	}
	if due := activityDue(activityTick); due != activityTick {
		t.Errorf("a tick on time does %v of activity, want the tick (%v)", due, activityTick)
	}
}

// BenchmarkActivity measures background activity throughput with one
// subscriber draining the feed: go test -bench Activity -run ^$ ./sim/
func BenchmarkActivity(b *testing.B) {
	s := New(Options{Seed: 1, MarketInterval: -1})
	events, stop := s.feed.subscribe("1", 1<<16)
	defer stop()
	done := make(chan struct{})
	go func() {
		for range events {
		}
		close(done)
	}()
	b.ResetTimer()
	start := time.Now()
	total := 0
	for range b.N {
		s.mu.Lock()
		total += s.activityStep(1000) // one 50 ms tick at 20,000 events/s
		s.mu.Unlock()
	}
	b.ReportMetric(float64(total)/time.Since(start).Seconds(), "events/s")
	stop()
	testkit.Recv(b, done, 10*time.Second, "the server did not stop")
}

// TestRestingOrders: the demo account starts with the resting LIMIT
// orders asked for; without the option it starts with none.
func TestRestingOrders(t *testing.T) {
	s := New(Options{Seed: 3, MarketInterval: -1, RestingOrders: 4})
	open := 0
	for _, o := range s.demo.orders {
		if o.status == "NEW" && o.typ == "LIMIT" {
			open++
		}
	}
	if open != 4 {
		t.Errorf("%d resting LIMIT orders at the start, want 4", open)
	}
	if fresh := New(Options{Seed: 3, MarketInterval: -1}); len(fresh.demo.orders) != 0 {
		t.Errorf("%d orders at the start without RestingOrders, want none", len(fresh.demo.orders))
	}
}
