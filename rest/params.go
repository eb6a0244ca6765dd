package rest

import (
	"net/url"
	"strconv"
	"strings"
)

// params is an ordered list of request parameters. It is encoded in the
// order the parameters were added, so the signed text is exactly the text
// sent (never a map printed in some order).
type params struct{ kv [][2]string }

// add appends k=v; an empty v is skipped (the service treats an empty
// parameter as absent anyway).
func (p *params) add(k, v string) *params {
	if v != "" {
		p.kv = append(p.kv, [2]string{k, v})
	}
	return p
}

func (p *params) addInt(k string, v int64) *params { return p.add(k, strconv.FormatInt(v, 10)) }

// encode writes the parameters as application/x-www-form-urlencoded text.
func (p *params) encode() string {
	var b strings.Builder
	for i, kv := range p.kv {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(kv[0]))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(kv[1]))
	}
	return b.String()
}

// security is an endpoint's security type (SPEC.md "Security types").
type security int

const (
	secNone       security = iota // open
	secUserStream                 // API key, timestamp
	secUserData                   // API key, timestamp, signature
	secTrade                      // API key, timestamp, signature
)

func (s security) keyed() bool  { return s != secNone }
func (s security) signed() bool { return s == secUserData || s == secTrade }

// route is one endpoint with its weight (API-FACTS.md) and whether it
// counts toward the ORDER limit.
type route struct {
	method, path string
	sec          security
	weight       int
	order        bool
}

// The endpoints the client calls.
var (
	routePing          = route{"GET", "/openapi/v1/ping", secNone, 0, false}
	routeTime          = route{"GET", "/openapi/v1/time", secNone, 0, false}
	routeBrokerInfo    = route{"GET", "/openapi/v1/brokerInfo", secNone, 0, false}
	routeNewOrder      = route{"POST", "/openapi/v1/order", secTrade, 1, true}
	routeTestOrder     = route{"POST", "/openapi/v1/order/test", secTrade, 1, false}
	routeQueryOrder    = route{"GET", "/openapi/v1/order", secUserData, 1, false}
	routeCancelOrder   = route{"DELETE", "/openapi/v1/order", secTrade, 1, true}
	routeOpenOrders    = route{"GET", "/openapi/v1/openOrders", secUserData, 1, false}
	routeHistoryOrders = route{"GET", "/openapi/v1/historyOrders", secUserData, 5, false}
	routeAccount       = route{"GET", "/openapi/v1/account", secUserData, 5, false}
	routeCreateListen  = route{"POST", "/openapi/v1/userDataStream", secUserStream, 1, false}
	routeKeepAlive     = route{"PUT", "/openapi/v1/userDataStream", secUserStream, 1, false}
	routeCloseListen   = route{"DELETE", "/openapi/v1/userDataStream", secUserStream, 1, false}
	routeContractPos   = route{"GET", "/openapi/contract/v1/positions", secUserData, 1, false}
	routeContractOpen  = route{"GET", "/openapi/contract/v1/openOrders", secUserData, 1, false}
)
