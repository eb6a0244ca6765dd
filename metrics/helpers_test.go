package metrics

import (
	"context"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"bhtop/rest"
	"bhtop/sim"
	"bhtop/stream"
)

// live is a registry following a stream session on a simulator.
type live struct {
	sim  *sim.Server
	sess *stream.Session
	reg  *Registry
	rest *rest.Client
}

// newLive starts a simulator with background activity and a session on it
// whose REST client feeds the registry, and follows it as account name.
func newLive(t *testing.T, name string, activity float64) *live {
	t.Helper()
	reg := New()
	s := sim.New(sim.Options{Activity: activity, OnRequest: nil})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	c := rest.New(s.URL(), rest.WithAPIKey(s.APIKey()), rest.WithSecret(s.Secret()), rest.WithRequestHook(reg.RequestHook()))
	sess, err := stream.New(stream.Config{REST: c, WSURL: s.WSURL(), Trader: rest.NewTrader(c)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		cctx, ccancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer ccancel()
		_ = sess.Close(cctx)
	})
	sess.Start()
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	if err := sess.WaitLive(wctx); err != nil {
		t.Fatalf("the session never went live: %v", err)
	}
	reg.AddAccount(ctx, Account{Name: name, State: sess.Hub(), Status: sess.Status})
	return &live{sim: s, sess: sess, reg: reg, rest: c}
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

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
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
