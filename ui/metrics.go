package ui

import (
	"slices"
	"sync"
	"time"
)

// Metrics collects what the dashboard can measure about itself: counters
// and two latencies, from the newest frame's receipt to the state change
// notice (receipt → applied) and from the notice to the screen being
// rebuilt for it (applied → rendered). A nil *Metrics records nothing;
// the zero value is ready to use.
type Metrics struct {
	mu       sync.Mutex
	counters map[string]int64
	applied  []time.Duration // receipt → applied, bounded ring
	rendered []time.Duration // applied → rendered
}

// NewMetrics returns an empty recorder.
func NewMetrics() *Metrics { return &Metrics{} }

const maxSamples = 100000

func (mt *Metrics) count(name string) {
	if mt == nil {
		return
	}
	mt.mu.Lock()
	if mt.counters == nil {
		mt.counters = make(map[string]int64)
	}
	mt.counters[name]++
	mt.mu.Unlock()
}

// applied records one coalesced state change: noticed at, newest frame
// received at lastFrame, screen rebuilt at done.
func (mt *Metrics) record(at, lastFrame, done time.Time) {
	if mt == nil {
		return
	}
	mt.count("renders")
	mt.mu.Lock()
	defer mt.mu.Unlock()
	if !lastFrame.IsZero() && !at.Before(lastFrame) && at.Sub(lastFrame) < time.Minute && len(mt.applied) < maxSamples {
		mt.applied = append(mt.applied, at.Sub(lastFrame))
	}
	if len(mt.rendered) < maxSamples {
		mt.rendered = append(mt.rendered, done.Sub(at))
	}
}

// MetricsReport is the JSON written by `--metrics FILE`.
type MetricsReport struct {
	Counters          map[string]int64 `json:"counters"`
	ReceiptToApplied  Percentiles      `json:"receiptToAppliedMs"`
	AppliedToRendered Percentiles      `json:"appliedToRenderedMs"`
}

// Percentiles of a latency in milliseconds (fractional), with the sample
// count.
type Percentiles struct {
	Count int     `json:"count"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
}

// Report summarises what was recorded (nothing for a nil *Metrics).
func (mt *Metrics) Report() MetricsReport {
	if mt == nil {
		return MetricsReport{Counters: map[string]int64{}}
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	r := MetricsReport{Counters: map[string]int64{}}
	for k, v := range mt.counters {
		r.Counters[k] = v
	}
	r.ReceiptToApplied = percentiles(mt.applied)
	r.AppliedToRendered = percentiles(mt.rendered)
	return r
}

func percentiles(d []time.Duration) Percentiles {
	if len(d) == 0 {
		return Percentiles{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	at := func(q int) float64 { return ms(s[min(len(s)-1, len(s)*q/100)]) }
	return Percentiles{Count: len(s), P50: at(50), P90: at(90), P99: at(99), Max: ms(s[len(s)-1])}
}
