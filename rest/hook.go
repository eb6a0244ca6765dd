package rest

import "time"

// RequestInfo describes one HTTP exchange the client attempted, for
// metrics. Path is the endpoint's path, a fixed route such as
// /openapi/v1/order: never a query, parameter, signature or key.
type RequestInfo struct {
	Method string
	Path   string
	// Status is the HTTP status of the answer; 0 when none came (a
	// transport error or timeout).
	Status   int
	Duration time.Duration
}

// WithRequestHook calls fn after every HTTP exchange the client attempts
// (not for requests refused before sending: no credentials, a rate-limit
// gate). fn runs on the caller's goroutine and must be quick; it may be
// called concurrently.
func WithRequestHook(fn func(RequestInfo)) Option {
	return func(c *Client) { c.hook = fn }
}

// observe calls the request hook, if any.
func (c *Client) observe(r route, status int, start time.Time) {
	if c.hook != nil {
		c.hook(RequestInfo{Method: r.method, Path: r.path, Status: status, Duration: c.clock().Sub(start)})
	}
}
