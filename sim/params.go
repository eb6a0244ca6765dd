package sim

import (
	"mime"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// params are a request's parameters, merged from the query string and the
// form body (the query wins when both carry a name). A parameter sent
// empty counts as absent. Unknown parameters are ignored, as the real
// service does for most of them (the simulator never answers -1103).
type params map[string]string

// parseParams merges the raw query and the raw body. The same name twice
// within one part is -1101; a body without the form content type, or an
// undecodable escape, is refused.
func parseParams(rawQuery, rawBody, contentType string) (params, *apiError) {
	if rawBody != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err != nil || mt != "application/x-www-form-urlencoded" {
			return nil, badParam(codeMandatoryParam, "A request body must be sent with Content-Type application/x-www-form-urlencoded.")
		}
	}
	q, e := parseRaw(rawQuery)
	if e != nil {
		return nil, e
	}
	b, e := parseRaw(rawBody)
	if e != nil {
		return nil, e
	}
	for k, v := range b {
		if _, ok := q[k]; !ok {
			q[k] = v
		}
	}
	return q, nil
}

func parseRaw(raw string) (params, *apiError) {
	m := params{}
	if raw == "" {
		return m, nil
	}
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			return nil, badParam(codeIllegalChars, "Illegal characters found in a parameter name.")
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return nil, badParam(codeIllegalChars, "Illegal characters found in parameter '%s'.", key)
		}
		if val == "" {
			continue
		}
		if _, dup := m[key]; dup {
			return nil, badParam(codeTooManyParams, "Duplicate values for a parameter detected: '%s'.", key)
		}
		m[key] = val
	}
	return m, nil
}

// str returns a parameter and whether it was sent.
func (p params) str(name string) (string, bool) {
	v, ok := p[name]
	return v, ok
}

// required returns a parameter that must be sent.
func (p params) required(name string) (string, *apiError) {
	v, ok := p[name]
	if !ok {
		return "", errMandatory(name)
	}
	return v, nil
}

// int64 parses an optional integer parameter; def when absent.
func (p params) int64(name string, def int64) (int64, *apiError) {
	v, ok := p[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, badParam(codeIllegalChars, "Illegal characters found in parameter '%s'; legal range is '^[0-9]{1,20}$'.", name)
	}
	return n, nil
}

// intParam names an optional integer parameter and its value when absent.
type intParam struct {
	name string
	def  int64
}

// ints parses optional integer parameters in the order given (the order
// the service checks them); the first bad one is the error.
func (p params) ints(want ...intParam) ([]int64, *apiError) {
	out := make([]int64, len(want))
	for i, w := range want {
		v, e := p.int64(w.name, w.def)
		if e != nil {
			return nil, e
		}
		out[i] = v
	}
	return out, nil
}

var decimalRe = regexp.MustCompile(`^[0-9]{1,20}(\.[0-9]{1,20})?$`)

// decimal parses an optional positive decimal parameter (plain digits,
// optional fraction); ok is false when absent.
func (p params) decimal(name string) (d decimal.Decimal, ok bool, e *apiError) {
	v, ok := p[name]
	if !ok {
		return decimal.Zero, false, nil
	}
	if !decimalRe.MatchString(v) {
		return decimal.Zero, true, badParam(codeIllegalChars, "Illegal characters found in parameter '%s'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.", name)
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		return decimal.Zero, true, badParam(codeIllegalChars, "Illegal characters found in parameter '%s'.", name)
	}
	return d, true, nil
}

// oneOf reads an optional parameter that must be one of allowed; def
// when it is absent, and a code error with msg when it is none of them.
func (p params) oneOf(name, def string, code int, msg string, allowed ...string) (string, *apiError) {
	v, ok := p.str(name)
	if !ok {
		return def, nil
	}
	if !slices.Contains(allowed, v) {
		return "", badParam(code, "%s", msg)
	}
	return v, nil
}

// requiredDecimal parses a mandatory positive decimal parameter.
func (p params) requiredDecimal(name string) (decimal.Decimal, *apiError) {
	d, ok, e := p.decimal(name)
	if e != nil {
		return decimal.Zero, e
	}
	if !ok {
		return decimal.Zero, errMandatory(name)
	}
	return d, nil
}

// symbol reads the mandatory symbol parameter: a spot symbol, or with
// contract set a contract symbol; anything else is -1121.
func (s *Server) symbol(p params, contract bool) (*symbol, *apiError) {
	name, e := p.required("symbol")
	if e != nil {
		return nil, e
	}
	sym := s.symbols[name]
	if sym == nil || sym.contract != contract {
		return nil, badParam(codeBadSymbol, "Invalid symbol.")
	}
	return sym, nil
}
