package rest

import "fmt"

// Shared vocabulary of order placement, used by the stream session, the
// dashboard and `bhtop order`. Quantities and prices are exact decimal
// literals (strings), never float64.

// OrderRequest is a new spot order (POST /openapi/v1/order). An empty
// NewClientOrderID is filled in by the client before sending, so every
// order can be reconciled by its client order id.
type OrderRequest struct {
	Symbol           string
	Side             string // BUY or SELL
	Type             string // LIMIT, MARKET, LIMIT_MAKER
	TimeInForce      string // GTC, IOC, FOK; empty for MARKET
	Quantity         string
	Price            string // empty for MARKET
	NewClientOrderID string
}

// CancelRequest cancels one order by OrderID or ClientOrderID: a spot
// order (DELETE /openapi/v1/order), or with Contract set a contract order
// (DELETE /openapi/contract/v1/order/cancel, whose OrderType is LIMIT by
// default or STOP).
type CancelRequest struct {
	Symbol        string // optional
	OrderID       string
	ClientOrderID string
	Contract      bool
	OrderType     string // contract orders only
}

// Outcome is what became of an order-changing request.
type Outcome string

// The three outcomes. Unknown means a 5XX or a transport timeout: the
// request may have taken effect, so it is reconciled by client order id,
// never retried blindly.
const (
	OutcomeAccepted Outcome = "accepted"
	OutcomeRejected Outcome = "rejected"
	OutcomeUnknown  Outcome = "unknown"
)

// OrderResult is the outcome of a new-order or cancel request. Its JSON is
// the output of `bhtop order` (DESIGN.md).
type OrderResult struct {
	Outcome       Outcome `json:"outcome"`
	OrderID       string  `json:"orderId"`
	ClientOrderID string  `json:"clientOrderId"`
	Symbol        string  `json:"symbol"`
	Status        string  `json:"status"`
	HTTPStatus    int     `json:"httpStatus"`
	Code          int     `json:"code"`
	Msg           string  `json:"msg"`
}

// APIError is an error reply of the service: an HTTP status with the
// payload {"code": negative int, "msg": "..."}. Match it with errors.As.
type APIError struct {
	HTTPStatus int
	Code       int
	Msg        string
	// KeyFrom is where the client's API key came from (WithKeySource),
	// "" when not said: the hints of a rejected key name it.
	KeyFrom string
}

// Error gives the status, code and message, followed by a hint a person
// can act on where one is known.
func (e *APIError) Error() string {
	s := fmt.Sprintf("HTTP %d, code %d: %s", e.HTTPStatus, e.Code, e.Msg)
	if h := e.Hint(); h != "" {
		s += " (" + h + ")"
	}
	return s
}

// Symbol is one tradable symbol from brokerInfo with its filters. Zero
// filter values mean "no such filter". Decimal fields are exact literals.
type Symbol struct {
	Symbol      string
	Status      string
	BaseAsset   string
	QuoteAsset  string
	MinPrice    string
	MaxPrice    string
	TickSize    string
	MinQty      string
	MaxQty      string
	StepSize    string
	MinNotional string
}
