package sim

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"bhtop/api"
	"bhtop/signer"
)

// ServeHTTP routes every request: /openapi/ws/ to the user stream, the
// rest through rate limits, authentication, the timing rule and faults.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	var body string
	if r.URL.Path == api.QuoteStreamPath {
		rec.onHijack = func() { s.logRequest(r, "", rec) }
		s.serveQuoteStream(rec, r)
		if rec.hijacked {
			return
		}
	} else if strings.HasPrefix(r.URL.Path, api.UserStreamPrefix) {
		// An accepted connection is logged as it opens (it may last
		// hours); a refused handshake when it has been answered.
		rec.onHijack = func() { s.logRequest(r, "", rec) }
		s.serveUserStream(rec, r)
		if rec.hijacked {
			return
		}
	} else {
		b, e := s.readBody(rec, r)
		if e != nil {
			s.writeError(rec, e)
		} else {
			body = string(b)
			s.serve(rec, r, body)
		}
	}
	s.logRequest(r, body, rec)
}

// readBody reads a request body of at most Limits.MaxBodyBytes; a larger
// one is refused with 413 rather than cut (a cut body would fail its
// signature check with a misleading error).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	limit := s.opts.Limits.MaxBodyBytes
	tooLarge := errf(http.StatusRequestEntityTooLarge, codeUnknown,
		"Request body too large: the limit is %d bytes.", limit)
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, tooLarge
	case err != nil:
		return nil, errf(http.StatusBadRequest, codeUnknown, "Could not read the request body.")
	}
	return b, nil
}

func (s *Server) serve(w *recorder, r *http.Request, body string) {
	rt, ok := routeTable[r.Method+" "+r.URL.Path]
	if !ok || (rt.ep.Market && s.opts.NoMarketData) {
		s.writeError(w, errf(http.StatusNotFound, codeUnknown, "Unknown path %s %s.", r.Method, r.URL.Path))
		return
	}
	now := s.Now()
	ids := []string{"ip:" + clientIP(r)}
	if k := r.Header.Get("X-BH-APIKEY"); s.keys[k] != nil {
		ids = append(ids, "key:"+k)
	}
	weight := rt.ep.Weight
	if rt.ep.Weighing != api.Fixed { // parse the query only when it matters
		weight = rt.ep.WeightOf(r.URL.Query().Get)
	}
	if e := s.limiter.admit(now, ids, weight, rt.ep.Order); e != nil {
		s.writeError(w, e)
		return
	}
	p, e := parseParams(r.URL.RawQuery, body, r.Header.Get("Content-Type"))
	if e != nil {
		s.writeError(w, e)
		return
	}
	c := &call{p: p, now: now}
	if c.key, e = s.authenticate(r, rt, p, body); e != nil {
		s.writeError(w, e)
		return
	}
	if e := checkTiming(rt, p, now); e != nil {
		s.writeError(w, e)
		return
	}
	if rt.ep.Changing && s.opts.Faults.OrderErrorRate > 0 && s.faultRoll() {
		if s.opts.Faults.OrderErrorTakesEffect {
			s.locked(func() { _, _ = rt.handler(s, c) })
		}
		s.writeError(w, errf(s.opts.Faults.OrderErrorStatus, codeTimeout,
			"Timeout waiting for response from backend server. Send status unknown; execution status unknown."))
		return
	}
	var res any
	s.locked(func() { res, e = rt.handler(s, c) })
	if e != nil {
		s.writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) faultRoll() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rnd.Float64() < s.opts.Faults.OrderErrorRate
}

// authenticate checks the key header, permissions and, for TRADE and
// USER_DATA, the signature over the raw query and body.
func (s *Server) authenticate(r *http.Request, rt route, p params, body string) (*keyInfo, *apiError) {
	if !rt.ep.Security.Keyed() {
		return nil, nil
	}
	k := r.Header.Get("X-BH-APIKEY")
	if k == "" {
		return nil, errf(http.StatusUnauthorized, codeUnauthorized, "You are not authorized to execute this request.")
	}
	if !validKeyFormat(k) {
		return nil, errf(http.StatusUnauthorized, codeBadAPIKeyFmt, "API-key format invalid.")
	}
	ki := s.keys[k]
	if ki == nil || (ki.perms != nil && !ki.perms[rt.ep.Security.String()]) {
		return nil, errf(http.StatusUnauthorized, codeRejectedKey, "Invalid API-key, IP, or permissions for action.")
	}
	if rt.ep.Security.Signed() {
		q, qsig := signer.StripSignature(r.URL.RawQuery)
		b, bsig := signer.StripSignature(body)
		sig := qsig
		if sig == "" {
			sig = bsig
		}
		if sig == "" {
			return nil, errMandatory("signature")
		}
		if !signer.Verify(ki.Secret, signer.Text(q, b), sig) {
			return nil, badParam(codeInvalidSignature, "Signature for this request is not valid.")
		}
	}
	if _, ok := p["timestamp"]; !ok {
		return nil, errMandatory("timestamp")
	}
	return ki, nil
}

// checkTiming applies SPEC.md's rule to any request carrying a timestamp:
// timestamp < serverTime+1000 and serverTime-timestamp <= recvWindow, with
// the request's recvWindow for order creation and 5000 otherwise.
func checkTiming(rt route, p params, now time.Time) *apiError {
	v, ok := p["timestamp"]
	if !ok {
		return nil
	}
	ts, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return errMandatory("timestamp")
	}
	window := int64(5000)
	if rt.ep.RecvWindow {
		rw, e := p.int64("recvWindow", 5000)
		if e != nil {
			return e
		}
		window = rw
	}
	st := now.UnixMilli()
	if !(ts < st+1000 && st-ts <= window) {
		return badParam(codeInvalidTimestamp, "Timestamp for this request is outside of the recvWindow.")
	}
	return nil
}

func validKeyFormat(k string) bool {
	if len(k) < 1 || len(k) > 256 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func (s *Server) writeError(w *recorder, e *apiError) {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.retryAfter))
	}
	code := e.code
	w.code = &code
	writeJSON(w, e.status, map[string]any{"code": e.code, "msg": e.msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"code":-1000,"msg":"An unknown error occurred while processing the request."}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// recorder remembers the status and error code of a reply for the request
// log; it passes Hijack through for the WebSocket upgrade.
type recorder struct {
	http.ResponseWriter
	status   int
	code     *int
	hijacked bool
	onHijack func() // called once the connection is taken over
}

func (r *recorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := r.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("hijack: response writer cannot hijack")
	}
	c, rw, err := h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	r.hijacked, r.status = true, http.StatusSwitchingProtocols
	if r.onHijack != nil {
		r.onHijack()
	}
	return c, rw, nil
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// endpointOf is the route template of r for metrics: a known route, the
// user stream with its listenKey replaced, or "other".
func endpointOf(r *http.Request) string {
	if r.URL.Path == api.QuoteStreamPath {
		return "GET " + api.QuoteStreamPath
	}
	if strings.HasPrefix(r.URL.Path, api.UserStreamPrefix) {
		return "GET " + api.UserStreamPrefix + "{listenKey}"
	}
	key := r.Method + " " + r.URL.Path
	if _, ok := routeTable[key]; ok {
		return key
	}
	return "other"
}

// logRequest writes the request-log line of DESIGN.md. The raw query and
// body are logged as sent (a signature is not a secret), each cut to
// Limits.LogFieldBytes; the secret never travels in a request, so it
// cannot appear here.
func (s *Server) logRequest(r *http.Request, body string, w *recorder) {
	if s.opts.OnRequest != nil {
		s.opts.OnRequest(endpointOf(r), w.status)
	}
	if s.opts.RequestLog == nil {
		return
	}
	n := s.opts.Limits.LogFieldBytes
	line := struct {
		Time   int64  `json:"time"`
		Method string `json:"method"`
		Path   string `json:"path"`
		Query  string `json:"query"`
		Body   string `json:"body"`
		APIKey bool   `json:"apiKey"`
		Status int    `json:"status"`
		Code   *int   `json:"code"`
	}{s.nowMs(), cut(r.Method, 16), cut(r.URL.Path, n), cut(r.URL.RawQuery, n), cut(body, n),
		r.Header.Get("X-BH-APIKEY") != "", w.status, w.code}
	b, _ := json.Marshal(line)
	b = append(b, '\n')
	s.logMu.Lock()
	defer s.logMu.Unlock()
	_, _ = s.opts.RequestLog.Write(b)
}
