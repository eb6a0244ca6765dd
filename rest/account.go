package rest

import (
	"context"
	"strconv"

	"bhtop/api"
)

// Account fetches the account flags and balances (GET /openapi/v1/account).
func (c *Client) Account(ctx context.Context) (AccountRecord, error) {
	var w wireAccount
	if err := c.call(ctx, routeAccount, nil, &w); err != nil {
		return AccountRecord{}, err
	}
	a := AccountRecord{CanTrade: bool(w.CanTrade), CanWithdraw: bool(w.CanWithdraw),
		CanDeposit: bool(w.CanDeposit), UpdateTime: int64(w.UpdateTime)}
	for _, b := range w.Balances {
		a.Balances = append(a.Balances, BalanceRecord{Asset: b.Asset, Free: string(b.Free), Locked: string(b.Locked)})
	}
	return a, nil
}

func listParams(symbol string, limit int) *params {
	p := &params{}
	p.add("symbol", symbol)
	if limit > 0 {
		p.add("limit", strconv.Itoa(limit))
	}
	return p
}

// OpenOrders lists open spot orders (GET /openapi/v1/openOrders); symbol
// "" means all, limit <= 0 the service's default (500; max 1000).
func (c *Client) OpenOrders(ctx context.Context, symbol string, limit int) ([]OrderRecord, error) {
	var ws []wireOrder
	if err := c.call(ctx, routeOpenOrders, listParams(symbol, limit), &ws); err != nil {
		return nil, err
	}
	return orderRecords(ws), nil
}

// HistoryOrders lists canceled, filled or rejected spot orders (GET
// /openapi/v1/historyOrders), same paging as OpenOrders.
func (c *Client) HistoryOrders(ctx context.Context, symbol string, limit int) ([]OrderRecord, error) {
	var ws []wireOrder
	if err := c.call(ctx, routeHistoryOrders, listParams(symbol, limit), &ws); err != nil {
		return nil, err
	}
	return orderRecords(ws), nil
}

// OrderQuery names one order by OrderID or by its client order id.
type OrderQuery struct {
	OrderID           string
	OrigClientOrderID string
}

// QueryOrder fetches one order (GET /openapi/v1/order). An order the
// service does not know fails with an error matching ErrNoSuchOrder.
func (c *Client) QueryOrder(ctx context.Context, q OrderQuery) (OrderRecord, error) {
	return c.queryOrder(ctx, routeQueryOrder, "origClientOrderId", q)
}

// queryOrder fetches one order on r, sending the client order id as
// clientIDParam (spot and contract name it differently).
func (c *Client) queryOrder(ctx context.Context, r route, clientIDParam string, q OrderQuery) (OrderRecord, error) {
	p := &params{}
	p.add("orderId", q.OrderID).add(clientIDParam, q.OrigClientOrderID)
	var w wireOrder
	if err := c.call(ctx, r, p, &w); err != nil {
		return OrderRecord{}, err
	}
	return w.record(), nil
}

// ContractPositions lists the contract positions (GET
// /openapi/contract/v1/positions).
func (c *Client) ContractPositions(ctx context.Context) ([]PositionRecord, error) {
	var ws []wirePosition
	if err := c.call(ctx, routeContractPos, nil, &ws); err != nil {
		return nil, err
	}
	out := make([]PositionRecord, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.record())
	}
	return out, nil
}

// ContractOpenOrders lists open contract orders (GET
// /openapi/contract/v1/openOrders). The service returns 20 rows unless
// limit (> 0) is sent.
func (c *Client) ContractOpenOrders(ctx context.Context, limit int) ([]OrderRecord, error) {
	var ws []wireOrder
	if err := c.call(ctx, routeContractOpen, listParams("", limit), &ws); err != nil {
		return nil, err
	}
	return orderRecords(ws), nil
}

// routeContractHistory is GET /openapi/contract/v1/historyOrders (an
// extension): closed contract orders.
var routeContractHistory = routeOf(api.ContractHistoryOrders)

// ContractHistoryOrders lists closed contract orders (GET
// /openapi/contract/v1/historyOrders); symbol "" means all, limit <= 0
// the service's default (20).
func (c *Client) ContractHistoryOrders(ctx context.Context, symbol string, limit int) ([]OrderRecord, error) {
	var ws []wireOrder
	if err := c.call(ctx, routeContractHistory, listParams(symbol, limit), &ws); err != nil {
		return nil, err
	}
	return orderRecords(ws), nil
}
