package rest

import (
	"context"
	"time"
)

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

type waitKey struct{}

// WithWaitNotice is ctx whose requests call fn each time one waits before
// it is sent: for room under the request weight (or an order) limit, or
// for a 429 backoff to end. until is when it expects to go (the client's
// clock); fn runs on the caller's goroutine, before the wait, and must be
// quick. A caller that is holding something while it asks (a stream
// holding its frames for a snapshot) can say so.
func WithWaitNotice(ctx context.Context, fn func(until time.Time)) context.Context {
	return context.WithValue(ctx, waitKey{}, fn)
}

// noticeWait calls ctx's WithWaitNotice function, if any.
func noticeWait(ctx context.Context, until time.Time) {
	if fn, ok := ctx.Value(waitKey{}).(func(time.Time)); ok && fn != nil {
		fn(until)
	}
}
