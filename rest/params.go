package rest

import (
	"net/url"
	"strconv"
	"strings"

	"bhtop/api"
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

// route is one endpoint of the api table and the weight of one request
// of it (the table's weight, or the one its parameters give).
type route struct {
	method, path string
	sec          api.Security
	weight       int
	order        bool
	ep           *api.Endpoint // the table entry (for weights by parameter)
}

// routeOf is the route of an endpoint of the api table.
func routeOf(e api.Endpoint) route {
	return route{method: e.Method, path: e.Path, sec: e.Security, weight: e.Weight, order: e.Order, ep: &e}
}

// weighed is r with the weight its parameters p give (ticker/24hr
// without a symbol, depth by limit).
func (r route) weighed(p *params) route {
	if r.ep.Weighing != api.Fixed {
		r.weight = r.ep.WeightOf(p.get)
	}
	return r
}

// get is the value of parameter k, or "".
func (p *params) get(k string) string {
	if p == nil {
		return ""
	}
	for _, kv := range p.kv {
		if kv[0] == k {
			return kv[1]
		}
	}
	return ""
}

// The endpoints the client calls.
var (
	routePing          = routeOf(api.Ping)
	routeTime          = routeOf(api.Time)
	routeBrokerInfo    = routeOf(api.BrokerInfo)
	routeNewOrder      = routeOf(api.NewOrder)
	routeTestOrder     = routeOf(api.TestOrder)
	routeQueryOrder    = routeOf(api.QueryOrder)
	routeCancelOrder   = routeOf(api.CancelOrder)
	routeOpenOrders    = routeOf(api.OpenOrders)
	routeHistoryOrders = routeOf(api.HistoryOrders)
	routeAccount       = routeOf(api.Account)
	routeCreateListen  = routeOf(api.CreateListenKey)
	routeKeepAlive     = routeOf(api.KeepListenKey)
	routeCloseListen   = routeOf(api.CloseListenKey)
	routeContractPos   = routeOf(api.ContractPositions)
	routeContractOpen  = routeOf(api.ContractOpenOrders)
)
