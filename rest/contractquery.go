package rest

import (
	"context"

	"bhtop/api"
)

// routeContractQuery is GET /openapi/contract/v1/getOrder (an extension;
// the simulator serves it). Added for the stream's resync: a contract
// order open locally but absent from the contract open orders is queried
// here for its final state.
var routeContractQuery = routeOf(api.ContractGetOrder)

// ContractQueryOrder fetches one contract order by OrderID or by client
// order id (sent as clientOrderId). An order the service does not know
// fails with an error matching ErrNoSuchOrder.
func (c *Client) ContractQueryOrder(ctx context.Context, q OrderQuery) (OrderRecord, error) {
	return c.queryOrder(ctx, routeContractQuery, "clientOrderId", q)
}
