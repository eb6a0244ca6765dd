package rest_test

import (
	"context"
	"io"
	"testing"

	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/sim"
)

// BenchmarkAccountLoopback is one signed GET /openapi/v1/account against
// the simulator over loopback: signing, governor, HTTP and decoding.
func BenchmarkAccountLoopback(b *testing.B) {
	c := simtest.Start(b, sim.Options{RequestLog: io.Discard, RateLimits: sim.RateLimits{WeightPerMinute: 1 << 30}}).Client()
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
