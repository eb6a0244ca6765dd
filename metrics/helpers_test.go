package metrics

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
	"bhtop/stream"
)

// live is a registry following a stream session on a simulator.
type live struct {
	sim  *simtest.Sim
	sess *stream.Session
	reg  *Registry
	rest *rest.Client
}

// newLive starts a simulator with background activity and a live session
// on it whose REST client feeds the registry, and follows it as account
// name.
func newLive(t *testing.T, name string, activity float64) *live {
	t.Helper()
	return newLiveOn(t, name, sim.Options{Activity: activity})
}

// newLiveOn is newLive on a simulator started with opts.
func newLiveOn(t *testing.T, name string, opts sim.Options) *live {
	t.Helper()
	return newLiveInto(t, name, opts, nil)
}

// newLiveInto is newLiveOn folding into store (nil: the session's own).
func newLiveInto(t *testing.T, name string, opts sim.Options, store *state.Store) *live {
	t.Helper()
	reg := New()
	s := simtest.Start(t, opts)
	c := s.Client(rest.WithRequestHook(reg.RequestHook()))
	sess, err := stream.New(stream.Config{REST: c, WSURL: s.WSURL(), Trader: rest.NewTrader(c), Store: store})
	testkit.Live(t, sess, err)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	reg.AddAccount(ctx, Account{Name: name, State: sess.Hub(), Status: sess.Status})
	return &live{sim: s, sess: sess, reg: reg, rest: c}
}

// series are the values of the family name for the live account, by
// the value of label.
func (l *live) series(t *testing.T, name, label string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, s := range gather(t, l.reg, name) {
		out[s.labels[label]] = s.value
	}
	return out
}

// sample is one gathered series.
type sample struct {
	labels map[string]string
	value  float64
	count  uint64 // histograms
}

// gather returns the series of the family name.
func gather(t *testing.T, r *Registry, name string) []sample {
	t.Helper()
	fams, err := r.Gatherer().Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		var out []sample
		for _, m := range f.GetMetric() {
			s := sample{labels: map[string]string{}}
			for _, l := range m.GetLabel() {
				s.labels[l.GetName()] = l.GetValue()
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				s.value = m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				s.value = m.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				s.count = m.GetHistogram().GetSampleCount()
				s.value = m.GetHistogram().GetSampleSum()
			}
			out = append(out, s)
		}
		return out
	}
	return nil
}

// find is the sample whose labels include want (nil when none).
func find(ss []sample, want map[string]string) *sample {
	for i, s := range ss {
		ok := true
		for k, v := range want {
			ok = ok && s.labels[k] == v
		}
		if ok {
			return &ss[i]
		}
	}
	return nil
}

// waitFor polls cond until it holds or 10 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testkit.Eventually(t, 10*time.Second, cond, "waiting for %s", what)
}

// labelsHold reports whether any label value of any family contains s.
func labelsHold(t *testing.T, r *Registry, s string) string {
	t.Helper()
	fams, err := r.Gatherer().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if s != "" && strings.Contains(l.GetValue(), s) {
					return f.GetName() + "{" + l.GetName() + "=" + l.GetValue() + "}"
				}
			}
		}
	}
	return ""
}

// serveOn serves reg on a free loopback port until ctx ends and returns
// its address.
func serveOn(ctx context.Context, t *testing.T, reg *Registry) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	reg.Serve(ctx, ln, nil)
	return ln.Addr().String()
}
