package rest_test

import (
	"context"
	"testing"

	"bhtop/rest"
	"bhtop/sim"
)

// BenchmarkAccountLoopback is one signed GET /openapi/v1/account against
// the simulator over loopback: signing, governor, HTTP and decoding.
func BenchmarkAccountLoopback(b *testing.B) {
	s := sim.New(sim.Options{MarketInterval: -1, RateLimits: sim.RateLimits{WeightPerMinute: 1 << 30}})
	if err := s.Start(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c := rest.New(s.URL(), rest.WithAPIKey(s.APIKey()), rest.WithSecret(s.Secret()))
	c.SetRateLimits([]rest.RateLimit{{Type: "REQUEST_WEIGHT", Interval: "MINUTE", Limit: 1 << 30}})
	ctx := context.Background()
	if err := c.SyncTime(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Account(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
