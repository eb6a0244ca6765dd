package notify

import (
	"context"
	"time"

	"bhtop/alert"
	"bhtop/market"
	"bhtop/state"
	"bhtop/stream"
)

// Source is one followed account as the alert rules see it.
type Source struct {
	Name    string // "default" for a single unnamed account
	State   *state.Hub
	Status  func() stream.Status
	Market  *market.Hub // nil: no market data
	ValueIn string      // "" is USDT
}

// Watcher evaluates an engine's rules over its sources whenever a state or
// market snapshot is published (at most every MinGap) and at least every
// Tick (for stream_silent), and delivers the firings.
type Watcher struct {
	Engine  *alert.Engine
	Sources []Source
	Deliver func([]alert.Firing)
	Now     func() time.Time // nil: time.Now
	Tick    time.Duration    // 0: 1s
	MinGap  time.Duration    // 0: 100ms
	// Primed, when not nil, is called once after the first evaluation in
	// which every source held a REST snapshot: the rules' baseline is
	// taken, and whatever happens from then on can fire (a caller about
	// to place orders waits for it, so that their fills are not part of
	// the baseline).
	Primed func()
	// Warn, when not nil, is told once of each rule that can never fire
	// on an account (alert.Engine.Unlisted), once its market data has the
	// service's symbols.
	Warn func(account string, n alert.NeverFires)
}

// Run watches until ctx ends.
func (w Watcher) Run(ctx context.Context) {
	if w.Now == nil {
		w.Now = time.Now
	}
	if w.Tick <= 0 {
		w.Tick = time.Second
	}
	if w.MinGap <= 0 {
		w.MinGap = 100 * time.Millisecond
	}
	wake := make(chan struct{}, 1)
	for _, s := range w.Sources {
		forward(ctx, s.State.Subscribe, wake)
		if s.Market != nil {
			forward(ctx, s.Market.Subscribe, wake)
		}
	}
	since := w.Now()
	tick := time.NewTicker(w.Tick)
	defer tick.Stop()
	var last time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-tick.C:
		}
		if gap := w.MinGap - time.Since(last); gap > 0 {
			select { // coalesce a burst of snapshots into one evaluation
			case <-ctx.Done():
				return
			case <-time.After(gap):
			}
		}
		last = time.Now()
		if w.evaluate(since) && w.Primed != nil {
			w.Primed()
			w.Primed = nil
		}
	}
}

// evaluate runs the rules over every source once; ready says every
// source held a REST snapshot.
func (w Watcher) evaluate(since time.Time) (ready bool) {
	var fired []alert.Firing
	now := w.Now()
	ready = true
	for _, s := range w.Sources {
		st := s.Status()
		ready = ready && !st.LastSnapshot.IsZero()
		in := alert.Input{
			Account: s.Name, Now: now, State: s.State.Latest(),
			Ready:   !st.LastSnapshot.IsZero(),
			ValueIn: s.ValueIn,
			Stream:  alert.Stream{LastFrame: st.LastFrame, Since: since},
		}
		if s.Market != nil {
			in.Market = s.Market.Latest()
			if ins := in.Market.Instruments; w.Warn != nil && len(ins) > 0 {
				for _, n := range w.Engine.Unlisted(s.Name, func(sym string) bool { _, ok := ins[sym]; return ok }) {
					w.Warn(s.Name, n)
				}
			}
		}
		fired = append(fired, w.Engine.Evaluate(in)...)
	}
	if len(fired) > 0 {
		w.Deliver(fired)
	}
	return ready
}

// forward turns a hub's notices into wakes until ctx ends.
func forward(ctx context.Context, subscribe func() (<-chan struct{}, func()), wake chan<- struct{}) {
	notice, unsub := subscribe()
	go func() {
		defer unsub()
		for {
			select {
			case <-ctx.Done():
				return
			case <-notice:
				select {
				case wake <- struct{}{}:
				default:
				}
			}
		}
	}()
}
