// Package api is the exchange's contract as data: every REST endpoint
// (method, path, security type, weight, whether it counts toward the ORDER
// limit, parameters), the WebSocket paths, the error codes and the order
// statuses of docs/SPEC.md and docs/API-FACTS.md. It does no I/O: the REST
// client (rest), the simulator's router and rate limiter (sim) and the
// user data stream (stream) all read it, so the three cannot disagree.
//
// To add an endpoint: declare it in endpoints.go, list it in All, give the
// simulator a handler (sim/routes.go) and the client a method (rest).
// TestServesEveryEndpoint (sim) and TestClientCallsOnlyTable (rest) fail
// until both sides agree.
package api

import "strconv"

// Security is an endpoint's security type (SPEC.md "Security types").
type Security int

// The security types, from open to order-changing.
const (
	None       Security = iota // open
	UserStream                 // API key
	UserData                   // API key, timestamp, signature
	Trade                      // API key, timestamp, signature; changes orders or funds
)

// String is the type's name as the docs spell it.
func (s Security) String() string {
	switch s {
	case UserStream:
		return "USER_STREAM"
	case UserData:
		return "USER_DATA"
	case Trade:
		return "TRADE"
	}
	return "NONE"
}

// Keyed reports whether a request must carry the X-BH-APIKEY header.
func (s Security) Keyed() bool { return s != None }

// Signed reports whether a request must carry a timestamp and signature.
func (s Security) Signed() bool { return s == UserData || s == Trade }

// Weighing says how an endpoint's weight depends on its parameters.
type Weighing int

const (
	// Fixed: the weight is Endpoint.Weight.
	Fixed Weighing = iota
	// ByDepthLimit: Weight up to limit 100, 5 up to 500, 10 above
	// (API-FACTS.md: "1; 5 for limit 500, 10 for 1000").
	ByDepthLimit
	// BySymbol: Weight with a symbol, AllSymbolsWeight without one
	// (ticker/24hr: "40 without symbol").
	BySymbol
)

// AllSymbolsWeight is the weight of ticker/24hr asked for every symbol.
const AllSymbolsWeight = 40

// Param is one request parameter of an endpoint.
type Param struct {
	Name     string
	Required bool
}

// Endpoint is one REST endpoint of the service.
type Endpoint struct {
	Method, Path string
	Security     Security
	// Weight counts toward REQUEST_WEIGHT; see Weighing for the
	// endpoints whose weight depends on their parameters.
	Weight   int
	Weighing Weighing
	// Order: the request counts toward the ORDER limits (see Order's
	// doc in endpoints.go for which ones and why).
	Order bool
	// RecvWindow: the service applies the request's own recvWindow
	// (SPEC.md: order creation); other signed requests get 5000 ms.
	RecvWindow bool
	// Changing: the request changes orders or funds, so a 5XX or a
	// timeout leaves its outcome unknown (API-FACTS.md 'Errors').
	Changing bool
	// Market: a market-data extension endpoint; a service without the
	// quote extension answers 404.
	Market bool
	// Params are the endpoint's own parameters; timestamp, recvWindow
	// and signature, which every signed request carries, are not listed.
	Params []Param
}

// Key is "METHOD /path", the endpoint's name in routers and metrics.
func (e Endpoint) Key() string { return e.Method + " " + e.Path }

// WeightOf is the request's weight given its parameters (get returns a
// parameter's value, "" when absent).
func (e Endpoint) WeightOf(get func(name string) string) int {
	switch e.Weighing {
	case ByDepthLimit:
		return DepthWeight(atoi(get("limit")))
	case BySymbol:
		if get("symbol") == "" {
			return AllSymbolsWeight
		}
	}
	return e.Weight
}

// DepthWeight is the weight of a depth request for limit: 1 up to 100
// (and for the default, limit <= 0), 5 up to 500, 10 above.
func DepthWeight(limit int) int {
	switch {
	case limit > 500:
		return 10
	case limit > 100:
		return 5
	}
	return 1
}

// HasParam reports whether name is one of the endpoint's parameters (or
// a signed request's timestamp, recvWindow or signature).
func (e Endpoint) HasParam(name string) bool {
	if e.Security.Keyed() && (name == "timestamp" || name == "recvWindow" || name == "signature") {
		return true
	}
	for _, p := range e.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// req and opt build parameter lists: req("symbol"), opt("limit", "fromId").
func req(names ...string) []Param { return params(true, names) }
func opt(names ...string) []Param { return params(false, names) }

func params(required bool, names []string) []Param {
	out := make([]Param, len(names))
	for i, n := range names {
		out[i] = Param{Name: n, Required: required}
	}
	return out
}

func join(lists ...[]Param) []Param {
	var out []Param
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
