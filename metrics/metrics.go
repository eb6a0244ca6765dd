// Package metrics exports bhtop's Prometheus metrics (DESIGN.md 'Alerts and
// metrics') from one registry per process.
//
// Most values are read when Prometheus scrapes (the state and market hubs'
// latest snapshots, the stream status), so nothing is added to the ingest
// path; the request counter is fed by the REST client's hook (or the
// simulator's) and the lag histogram by a watcher of the state hub.
// Labels never hold a secret, a listenKey or an order id: accounts are the
// configured names, endpoints are route templates.
package metrics

import (
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"bhtop/rest"
)

// DefaultAccount is the account label of a process that follows one
// unnamed account.
const DefaultAccount = "default"

// Registry holds one process's metrics. Create it with New; the zero value
// is not usable. A nil *Registry is valid everywhere and records nothing,
// so wiring needs no "metrics enabled?" branches.
type Registry struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	lag      *prometheus.HistogramVec

	mu       sync.Mutex
	accounts []*account
}

// New returns a registry holding the Go runtime and process collectors,
// bhtop_requests_total, bhtop_event_lag_seconds and the per-account
// collector (empty until AddAccount).
func New() *Registry {
	r := &Registry{reg: prometheus.NewRegistry()}
	r.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bhtop_requests_total",
		Help: "REST requests by endpoint (route template) and HTTP status (0: no answer).",
	}, []string{"endpoint", "status"})
	r.lag = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "bhtop_event_lag_seconds",
		Help:    "Age of the newest user-stream event when its state was published (now - E, on the server's clock).",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
	}, []string{"account"})
	r.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		r.requests, r.lag, accountCollector{r},
	)
	return r
}

// Gatherer is the registry to serve or test (nil for a nil Registry).
func (r *Registry) Gatherer() prometheus.Gatherer {
	if r == nil {
		return nil
	}
	return r.reg
}

// RequestHook returns the rest.WithRequestHook function that counts a
// client's requests (nil for a nil Registry).
func (r *Registry) RequestHook() func(rest.RequestInfo) {
	if r == nil {
		return nil
	}
	return func(in rest.RequestInfo) { r.CountRequest(in.Method+" "+in.Path, in.Status) }
}

// CountRequest counts one request to endpoint (a route template, never a
// raw path with a query or key) answered with status (0: no answer).
func (r *Registry) CountRequest(endpoint string, status int) {
	if r == nil {
		return
	}
	r.requests.WithLabelValues(endpoint, strconv.Itoa(status)).Inc()
}

// SetViewers exports bhtop_serve_viewers, read from count at each scrape.
func (r *Registry) SetViewers(count func() int) {
	if r == nil {
		return
	}
	r.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "bhtop_serve_viewers",
		Help: "SSH viewers watching (bhtop serve).",
	}, func() float64 { return float64(count()) }))
}
