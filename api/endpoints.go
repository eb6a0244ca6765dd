package api

// Which requests count toward the ORDER limits. brokerInfo's ORDER
// (also spelled ORDERS) limits — 20 a second, 350000 a day — are about
// orders: API-FACTS.md names -1015 TOO_MANY_ORDERS "order rate limit
// broken". The docs do not say whether a cancel is one of those orders.
// We count every request that places or cancels orders (new order,
// cancel, contract order, contract cancel, batchCancel) and nothing else
// (not order/test, which places nothing, nor modifyMargin). That is the
// careful reading on both sides: a client that also paces its cancels
// never meets -1015 whichever way the service counts, and a simulator
// that also counts cancels is at least as strict as the service, so a
// client that passes it passes the service. The REST client's governor,
// the simulator's rate limiter and the cancel-all action's pacing (which
// is the governor's) all read Order from here.

// The spot and account endpoints (API-FACTS.md 'Endpoints', SPEC.md).
var (
	Ping       = Endpoint{Method: "GET", Path: "/openapi/v1/ping", Security: None, Weight: 0}
	Time       = Endpoint{Method: "GET", Path: "/openapi/v1/time", Security: None, Weight: 0}
	BrokerInfo = Endpoint{Method: "GET", Path: "/openapi/v1/brokerInfo", Security: None, Weight: 0}

	NewOrder = Endpoint{Method: "POST", Path: "/openapi/v1/order", Security: Trade, Weight: 1,
		Order: true, RecvWindow: true, Changing: true,
		Params: join(req("symbol", "side", "type", "quantity"),
			opt("timeInForce", "price", "newClientOrderId", "stopPrice", "icebergQty", "assetType"))}
	TestOrder = Endpoint{Method: "POST", Path: "/openapi/v1/order/test", Security: Trade, Weight: 1,
		Params: join(req("symbol", "side", "type", "quantity"),
			opt("timeInForce", "price", "newClientOrderId", "stopPrice", "icebergQty", "assetType"))}
	QueryOrder = Endpoint{Method: "GET", Path: "/openapi/v1/order", Security: UserData, Weight: 1,
		Params: opt("orderId", "origClientOrderId")}
	CancelOrder = Endpoint{Method: "DELETE", Path: "/openapi/v1/order", Security: Trade, Weight: 1,
		Order: true, Changing: true, Params: opt("symbol", "orderId", "clientOrderId")}
	OpenOrders = Endpoint{Method: "GET", Path: "/openapi/v1/openOrders", Security: UserData, Weight: 1,
		Params: opt("symbol", "orderId", "limit")}
	HistoryOrders = Endpoint{Method: "GET", Path: "/openapi/v1/historyOrders", Security: UserData, Weight: 5,
		Params: opt("symbol", "orderId", "startTime", "endTime", "limit")}
	Account  = Endpoint{Method: "GET", Path: "/openapi/v1/account", Security: UserData, Weight: 5}
	MyTrades = Endpoint{Method: "GET", Path: "/openapi/v1/myTrades", Security: UserData, Weight: 5,
		Params: opt("symbol", "startTime", "endTime", "fromId", "toId", "limit")}

	CreateListenKey = Endpoint{Method: "POST", Path: "/openapi/v1/userDataStream", Security: UserStream, Weight: 1}
	KeepListenKey   = Endpoint{Method: "PUT", Path: "/openapi/v1/userDataStream", Security: UserStream, Weight: 1,
		Params: req("listenKey")}
	CloseListenKey = Endpoint{Method: "DELETE", Path: "/openapi/v1/userDataStream", Security: UserStream, Weight: 1,
		Params: req("listenKey")}
)

// The contract (futures) endpoints (API-FACTS.md 'Endpoints', 'Trading extras').
var (
	ContractPositions = Endpoint{Method: "GET", Path: "/openapi/contract/v1/positions", Security: UserData, Weight: 1,
		Params: opt("symbol", "side")}
	ContractOpenOrders = Endpoint{Method: "GET", Path: "/openapi/contract/v1/openOrders", Security: UserData, Weight: 1,
		Params: opt("symbol", "orderId", "orderType", "limit")}
	ContractHistoryOrders = Endpoint{Method: "GET", Path: "/openapi/contract/v1/historyOrders", Security: UserData, Weight: 5,
		Params: opt("symbol", "orderId", "orderType", "limit")}
	ContractGetOrder = Endpoint{Method: "GET", Path: "/openapi/contract/v1/getOrder", Security: UserData, Weight: 1,
		Params: opt("orderId", "clientOrderId", "orderType")}
	ContractOrder = Endpoint{Method: "POST", Path: "/openapi/contract/v1/order", Security: Trade, Weight: 1,
		Order: true, RecvWindow: true, Changing: true,
		Params: join(req("symbol", "side", "orderType", "quantity", "clientOrderId"),
			opt("leverage", "price", "priceType", "timeInForce", "triggerPrice", "overPrice"))}
	ContractCancel = Endpoint{Method: "DELETE", Path: "/openapi/contract/v1/order/cancel", Security: Trade, Weight: 1,
		Order: true, Changing: true, Params: opt("orderId", "clientOrderId", "orderType")}
	ContractBatchCancel = Endpoint{Method: "DELETE", Path: "/openapi/contract/v1/order/batchCancel", Security: Trade, Weight: 1,
		Order: true, Changing: true, Params: opt("symbol")}
	ContractMyTrades = Endpoint{Method: "GET", Path: "/openapi/contract/v1/myTrades", Security: UserData, Weight: 1,
		Params: opt("symbol", "limit", "fromId", "toId")}
	ContractAccount      = Endpoint{Method: "GET", Path: "/openapi/contract/v1/account", Security: UserData, Weight: 1}
	ContractModifyMargin = Endpoint{Method: "POST", Path: "/openapi/contract/v1/modifyMargin", Security: Trade, Weight: 1,
		Params: req("symbol", "side", "amount")}
)

// The market-data endpoints (API-FACTS.md 'Market data'): security NONE,
// absent (404) on a service without the quote extension.
var (
	Depth = Endpoint{Method: "GET", Path: "/openapi/quote/v1/depth", Weight: 1, Weighing: ByDepthLimit, Market: true,
		Params: join(req("symbol"), opt("limit"))}
	Trades = Endpoint{Method: "GET", Path: "/openapi/quote/v1/trades", Weight: 1, Market: true,
		Params: join(req("symbol"), opt("limit"))}
	Klines = Endpoint{Method: "GET", Path: "/openapi/quote/v1/klines", Weight: 1, Market: true,
		Params: join(req("symbol", "interval"), opt("startTime", "endTime", "limit"))}
	Ticker24h = Endpoint{Method: "GET", Path: "/openapi/quote/v1/ticker/24hr", Weight: 1, Weighing: BySymbol, Market: true,
		Params: opt("symbol")}
	TickerPrice = Endpoint{Method: "GET", Path: "/openapi/quote/v1/ticker/price", Weight: 1, Market: true,
		Params: opt("symbol")}
	BookTicker = Endpoint{Method: "GET", Path: "/openapi/quote/v1/ticker/bookTicker", Weight: 1, Market: true,
		Params: opt("symbol")}
	Pairs         = Endpoint{Method: "GET", Path: "/openapi/v1/pairs", Weight: 1, Market: true}
	ContractIndex = Endpoint{Method: "GET", Path: "/openapi/quote/v1/contract/index", Weight: 0, Market: true,
		Params: opt("symbol")}
	ContractDepth = Endpoint{Method: "GET", Path: "/openapi/quote/v1/contract/depth", Weight: 1, Weighing: ByDepthLimit, Market: true,
		Params: join(req("symbol"), opt("limit"))}
	ContractTrades = Endpoint{Method: "GET", Path: "/openapi/quote/v1/contract/trades", Weight: 1, Market: true,
		Params: join(req("symbol"), opt("limit"))}
	ContractKlines = Endpoint{Method: "GET", Path: "/openapi/quote/v1/contract/klines", Weight: 1, Market: true,
		Params: join(req("symbol", "interval"), opt("limit", "to"))}
	Contracts   = Endpoint{Method: "GET", Path: "/openapi/v1/contracts", Weight: 1, Market: true}
	FundingRate = Endpoint{Method: "GET", Path: "/openapi/contract/v1/fundingRate", Weight: 0, Market: true,
		Params: join(req("symbol"), opt("state", "from", "to", "limit"))}
)

// All is every REST endpoint of the service, each once.
func All() []Endpoint {
	return []Endpoint{
		Ping, Time, BrokerInfo,
		NewOrder, TestOrder, QueryOrder, CancelOrder, OpenOrders, HistoryOrders, Account, MyTrades,
		CreateListenKey, KeepListenKey, CloseListenKey,
		ContractPositions, ContractOpenOrders, ContractHistoryOrders, ContractGetOrder, ContractOrder,
		ContractCancel, ContractBatchCancel, ContractMyTrades, ContractAccount, ContractModifyMargin,
		Depth, Trades, Klines, Ticker24h, TickerPrice, BookTicker, Pairs,
		ContractIndex, ContractDepth, ContractTrades, ContractKlines, Contracts, FundingRate,
	}
}

// Lookup finds the endpoint of method and path.
func Lookup(method, path string) (Endpoint, bool) {
	for _, e := range All() {
		if e.Method == method && e.Path == path {
			return e, true
		}
	}
	return Endpoint{}, false
}

// The WebSocket paths (SPEC.md user data stream, API-FACTS.md quote WebSocket).
const (
	// UserStreamPrefix followed by a listenKey is the user data stream.
	UserStreamPrefix = "/openapi/ws/"
	// QuoteStreamPath is the market-data WebSocket.
	QuoteStreamPath = "/openapi/quote/ws/v1"
)
