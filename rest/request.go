package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"bhtop/signer"
)

// reply is an HTTP exchange that got an answer.
type reply struct {
	status  int
	header  http.Header
	body    []byte
	keyFrom string // the client's WithKeySource
}

// acquire waits until r may be sent: no other request of the host in
// flight, no 429/418 backoff in force (in this process or, with
// HostLimits.Persist, stored by another) and room under the rate limits.
// While a ban is in force it fails at once; for a 429 backoff or pacing
// it waits if ctx allows, and fails at once with a *BackoffError
// (ErrRateLimited) when ctx's deadline comes first. On success the
// caller holds the host's turn and must call release once the answer
// (or the failure) is in, so that the next request sees the gate it set.
func (c *Client) acquire(ctx context.Context, r route) (release func(), err error) {
	h := c.gov.host
	for {
		if err := h.take(ctx); err != nil {
			return nil, fmt.Errorf("waiting for the host's request in flight: %w", err)
		}
		h.refresh()
		now := c.clock()
		wait, gate := c.gov.reserve(now, r)
		if wait <= 0 {
			return h.give, nil
		}
		h.give() // waiting: others may find room (or the same gate)
		if gate != nil && gate.Err == ErrBanned {
			return nil, gate
		}
		// ctx's deadline is on the wall clock, the wait on the client's
		// (injectable) clock: compare the wait with what is left.
		if dl, ok := ctx.Deadline(); ok && wait > time.Until(dl) {
			if gate != nil {
				return nil, gate
			}
			return nil, &BackoffError{Err: ErrRateLimited, Until: now.Add(wait), Local: true, Now: now}
		}
		noticeWait(ctx, now.Add(wait))
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("waiting for the rate limit: %w", err)
		}
	}
}

// Gate is the 429/418 backoff in force for the client's host now (a
// *BackoffError), or nil: what a request sent now would wait for, or
// fail with. With HostLimits.Persist it includes a gate another process
// stored.
func (c *Client) Gate() error { return c.gov.host.Gate(c.clock()) }

// send performs one HTTP exchange of r with the parameters p, adding
// timestamp, recvWindow and signature as r's security type needs. It
// returns an error only when no HTTP answer came; a *notSentError then
// means not a byte of the request left the process. 429 and 418 answers
// also set the governor's gates here.
func (c *Client) send(ctx context.Context, r route, p *params) (reply, error) {
	if r.sec.Keyed() && c.apiKey == "" || r.sec.Signed() && c.secret.Empty() {
		return reply{}, &notSentError{ErrNoCredentials}
	}
	if r.sec.Keyed() {
		c.maybeResync(ctx)
	}
	release, err := c.acquire(ctx, r.weighed(p))
	if err != nil {
		return reply{}, &notSentError{err}
	}
	defer release()
	all := params{kv: append([][2]string(nil), p.kv...)}
	if r.sec.Keyed() {
		all.addInt("recvWindow", c.recvWindow.Milliseconds())
		all.addInt("timestamp", c.Now().UnixMilli())
	}
	text := all.encode()
	if r.sec.Signed() {
		sig := signer.Sign(c.secret, text)
		if text != "" {
			text += "&"
		}
		text += "signature=" + sig
	}

	reqCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var wrote atomic.Bool // set by the transport's writer goroutine
	reqCtx = httptrace.WithClientTrace(reqCtx, &httptrace.ClientTrace{
		WroteHeaders: func() { wrote.Store(true) },
	})
	u := c.base + r.path
	var body *strings.Reader
	if r.method == http.MethodPost || r.method == http.MethodPut {
		body = strings.NewReader(text)
	} else if text != "" {
		u += "?" + text
	}
	var req *http.Request
	if body != nil {
		req, err = http.NewRequestWithContext(reqCtx, r.method, u, body)
	} else {
		req, err = http.NewRequestWithContext(reqCtx, r.method, u, nil)
	}
	if err != nil {
		return reply{}, &notSentError{fmt.Errorf("building the request: %w", scrubURL(err))}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if r.sec.Keyed() {
		req.Header.Set("X-BH-APIKEY", c.apiKey)
	}
	start := c.clock()
	resp, err := c.hc.Do(req)
	if err != nil {
		err = scrubURL(err)
		sent := wrote.Load()
		c.log.Warn("rest request failed", "method", r.method, "path", r.path, "sent", sent, "err", err)
		c.observe(r, 0, start)
		if !sent {
			return reply{}, &notSentError{err}
		}
		return reply{}, err
	}
	defer resp.Body.Close()
	c.observe(r, resp.StatusCode, start)
	b, err := c.readBody(resp.Body)
	if err != nil {
		return reply{}, fmt.Errorf("reading the reply (HTTP %d): %w", resp.StatusCode, scrubURL(err))
	}
	rep := reply{status: resp.StatusCode, header: resp.Header, body: b, keyFrom: c.keyFrom}
	c.log.Debug("rest request", "method", r.method, "path", r.path, "status", rep.status,
		"ms", c.clock().Sub(start).Milliseconds())
	c.noteLimits(rep)
	return rep, nil
}

// noteLimits sets the governor's gates from a 429 or 418 answer, and
// resets the backoff after any other.
func (c *Client) noteLimits(rep reply) {
	switch rep.status {
	case http.StatusTooManyRequests:
		c.gov.host.tooMany(c.clock(), retryAfter(rep.header, c.clock()), apiError(rep))
		c.gov.host.save(c.clock())
	case http.StatusTeapot:
		now := c.clock()
		until := now.Add(2 * time.Minute) // the shortest ban
		ae := apiError(rep)
		if d := retryAfter(rep.header, now); d > 0 {
			until = now.Add(d)
		} else if ms := banEnd(ae.Msg); ms > 0 {
			until = time.UnixMilli(ms).Add(-c.Offset())
		}
		c.gov.host.banned(until, ae)
		c.gov.host.save(c.clock())
	default:
		c.gov.host.succeeded()
	}
}

// retryAfter reads Retry-After (seconds or an HTTP date); 0 when absent.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return t.Sub(now)
	}
	return 0
}

var banEndRE = regexp.MustCompile(`(?i)until\D{0,3}(\d{12,14})`)

// banEnd finds "until <ms>" in a 418 message (the real service's wording).
func banEnd(msg string) int64 {
	m := banEndRE.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	ms, _ := strconv.ParseInt(m[1], 10, 64)
	return ms
}

// apiError reads an error payload; a body that is not one is summarised
// in Msg.
func apiError(rep reply) *APIError {
	e := &APIError{HTTPStatus: rep.status, KeyFrom: rep.keyFrom}
	var p struct {
		Code json.Number `json:"code"`
		Msg  string      `json:"msg"`
	}
	if json.Unmarshal(rep.body, &p) == nil && (p.Code != "" || p.Msg != "") {
		code, _ := strconv.Atoi(p.Code.String())
		e.Code, e.Msg = code, p.Msg
		return e
	}
	if rep.status >= 300 && rep.status <= 399 {
		// Not the body: it may quote the redirect target with our signed
		// query. The target without its query is what a person needs.
		to, _, _ := strings.Cut(rep.header.Get("Location"), "?")
		e.Msg = "redirected to " + summary([]byte(to))
		return e
	}
	e.Msg = summary(rep.body)
	if e.Msg == "" {
		e.Msg = http.StatusText(rep.status)
	}
	return e
}

// summary is a short printable excerpt of a body for error messages.
func summary(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	s := strings.TrimSpace(strings.ToValidUTF8(string(b), "?"))
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// replyError turns a non-2XX answer into the error a caller sees.
func (c *Client) replyError(rep reply) error {
	ae := apiError(rep)
	switch rep.status {
	case http.StatusTooManyRequests:
		return &BackoffError{Err: ErrRateLimited, Until: c.RetryAfter(), Cause: ae, Now: c.clock()}
	case http.StatusTeapot:
		return &BackoffError{Err: ErrBanned, Until: c.BannedUntil(), Cause: ae, Now: c.clock()}
	}
	return ae
}

// callList calls r with p and converts each row of its JSON array answer
// with conv.
func callList[W, T any](ctx context.Context, c *Client, r route, p *params, conv func(W) T) ([]T, error) {
	var ws []W
	if err := c.call(ctx, r, p, &ws); err != nil {
		return nil, err
	}
	out := make([]T, len(ws))
	for i, w := range ws {
		out[i] = conv(w)
	}
	return out, nil
}

// call sends r and decodes a 2XX answer into out (which may be nil). A
// read-only (GET) call refused with -1021 measures the clock offset again
// and is sent once more; any other call so refused (a listenKey's) makes
// the next timestamped request measure it, as an order does.
func (c *Client) call(ctx context.Context, r route, p *params, out any) error {
	if p == nil {
		p = &params{}
	}
	err := c.call1(ctx, r, p, out)
	switch {
	case !r.sec.Keyed() || !errors.Is(err, ErrInvalidTimestamp):
	case r.method == http.MethodGet:
		if c.SyncTime(ctx) == nil {
			err = c.call1(ctx, r, p, out)
		}
	default:
		c.staleOffset()
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	return nil
}

func (c *Client) call1(ctx context.Context, r route, p *params, out any) error {
	rep, err := c.send(ctx, r, p)
	if err != nil {
		return err
	}
	if rep.status < 200 || rep.status > 299 {
		return c.replyError(rep)
	}
	if out == nil {
		return nil
	}
	if raw, ok := out.(*rawBody); ok {
		*raw = rep.body
		return nil
	}
	if err := decode(rep.body, out); err != nil {
		return fmt.Errorf("decoding the reply: %w", err)
	}
	return nil
}

// rawBody, given to call as out, receives the reply's body undecoded (the
// caller decodes it by hand).
type rawBody []byte

// decode unmarshals JSON keeping numbers exact (json.Number).
func decode(b []byte, out any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(out)
}

// scrubURL drops the query (which may hold a signature) from the URL in
// an HTTP client error.
func scrubURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		u, _, _ := strings.Cut(ue.URL, "?")
		return &url.Error{Op: ue.Op, URL: u, Err: ue.Err}
	}
	return err
}
