package sim

import (
	"fmt"
	"time"

	"bhtop/api"
)

// route is one REST endpoint of the api table and the handler serving it.
type route struct {
	ep      api.Endpoint
	handler func(s *Server, c *call) (any, *apiError)
}

// call is one authenticated request being served.
type call struct {
	p   params
	key *keyInfo // nil for NONE endpoints
	now time.Time
}

// handlers serve the api table's endpoints, by api.Endpoint.Key. To add
// an endpoint: declare it in package api, then add its handler here.
func handlers() map[string]func(s *Server, c *call) (any, *apiError) {
	return map[string]func(s *Server, c *call) (any, *apiError){
		api.Ping.Key():            (*Server).handlePing,
		api.Time.Key():            (*Server).handleTime,
		api.BrokerInfo.Key():      (*Server).handleBrokerInfo,
		api.NewOrder.Key():        (*Server).handleNewOrder,
		api.TestOrder.Key():       (*Server).handleTestOrder,
		api.QueryOrder.Key():      (*Server).handleQueryOrder,
		api.CancelOrder.Key():     (*Server).handleCancelOrder,
		api.OpenOrders.Key():      (*Server).handleOpenOrders,
		api.HistoryOrders.Key():   (*Server).handleHistoryOrders,
		api.Account.Key():         (*Server).handleAccount,
		api.MyTrades.Key():        (*Server).handleMyTrades,
		api.CreateListenKey.Key(): (*Server).handleCreateListenKey,
		api.KeepListenKey.Key():   (*Server).handleKeepalive,
		api.CloseListenKey.Key():  (*Server).handleCloseListenKey,

		api.ContractPositions.Key():     (*Server).handlePositions,
		api.ContractOpenOrders.Key():    (*Server).handleContractOpenOrders,
		api.ContractHistoryOrders.Key(): (*Server).handleContractHistory,
		api.ContractGetOrder.Key():      (*Server).handleContractQuery,
		api.ContractOrder.Key():         (*Server).handleContractOrder,
		api.ContractCancel.Key():        (*Server).handleContractCancel,
		api.ContractBatchCancel.Key():   (*Server).handleBatchCancel,
		api.ContractMyTrades.Key():      (*Server).handleContractMyTrades,
		api.ContractAccount.Key():       (*Server).handleContractAccount,
		api.ContractModifyMargin.Key():  (*Server).handleModifyMargin,

		api.Depth.Key():          (*Server).handleDepth,
		api.Trades.Key():         (*Server).handleTrades,
		api.Klines.Key():         (*Server).handleKlines,
		api.Ticker24h.Key():      (*Server).handleTicker24,
		api.TickerPrice.Key():    (*Server).handleTickerPrice,
		api.BookTicker.Key():     (*Server).handleBookTicker,
		api.Pairs.Key():          (*Server).handlePairs,
		api.ContractIndex.Key():  (*Server).handleIndex,
		api.ContractDepth.Key():  (*Server).handleContractDepth,
		api.ContractTrades.Key(): (*Server).handleContractPublicTrades,
		api.ContractKlines.Key(): (*Server).handleContractKlines,
		api.Contracts.Key():      (*Server).handleContracts,
		api.FundingRate.Key():    (*Server).handleFundingRate,
	}
}

// routes pairs every endpoint of the api table with its handler; a
// handler for an endpoint outside the table, or an endpoint without one,
// is a programming error caught when the package loads.
func routes() map[string]route {
	hs := handlers()
	out := make(map[string]route, len(hs))
	for _, e := range api.All() {
		h, ok := hs[e.Key()]
		if !ok {
			panic(fmt.Sprintf("sim: no handler for %s", e.Key()))
		}
		out[e.Key()] = route{ep: e, handler: h}
	}
	if len(out) != len(hs) {
		panic("sim: a handler serves an endpoint outside the api table")
	}
	return out
}

// routeTable is built once from the api table; it never changes.
var routeTable = routes()
