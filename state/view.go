package state

import "bhtop/api"

// The read model. A Snapshot is what every reader sees: the dashboard, each
// SSH viewer and `bhtop dump`. Its JSON encoding is the state dump of
// DESIGN.md (a contract): change it only by extending it.

// Snapshot is an immutable picture of the account at one moment. Readers
// must not modify it or anything it points to; the writer never does.
type Snapshot struct {
	// Version grows by one with every published snapshot; 0 is "nothing yet".
	Version uint64 `json:"-"`

	Account   *Account   `json:"account"`   // nil until an account event or snapshot
	Balances  []Balance  `json:"balances"`  // sorted by asset
	Orders    OrderRows  `json:"orders"`    // open and retained closed; market, then orderId by number; rows and chunks of rows are shared between snapshots while unchanged
	Positions []Position `json:"positions"` // symbol, side, accountId; zero totals omitted
	Pending   []Pending  `json:"pending"`   // orders sent by this process, outcome not yet known
	Fills     []Fill     `json:"fills"`     // executions: time, then tradeId by number
	Stats     Stats      `json:"stats"`

	// LastEventTime is the greatest E applied so far (ms), for the lag shown
	// in the status line; 0 when none.
	LastEventTime int64 `json:"-"`
}

// Account holds the account flags of the last applied account update.
type Account struct {
	CanTrade    bool  `json:"canTrade"`    // T
	CanWithdraw bool  `json:"canWithdraw"` // W
	CanDeposit  bool  `json:"canDeposit"`  // D
	Updated     int64 `json:"updated"`     // E of the last applied update
}

// Balance is one asset's balance. Decimals are the exact literals received.
type Balance struct {
	Asset   string `json:"asset"`   // a
	Free    string `json:"free"`    // f
	Locked  string `json:"locked"`  // l
	Updated int64  `json:"updated"` // E
}

// Market tells spot orders (executionReport) from contract orders
// (contractExecutionReport).
const (
	MarketSpot     = "spot"
	MarketContract = "contract"
)

// Order is one order as last applied. AvgPrice is Z/z with at least 12
// significant digits, nil when z is zero. Leverage and Close are nil for
// spot orders.
type Order struct {
	Market             string  `json:"market"`
	Symbol             string  `json:"symbol"`             // s
	OrderID            string  `json:"orderId"`            // i, exact digits
	ClientOrderID      string  `json:"clientOrderId"`      // c, exact literal
	Side               string  `json:"side"`               // S
	Type               string  `json:"type"`               // o
	TimeInForce        string  `json:"timeInForce"`        // f
	Price              string  `json:"price"`              // p
	Quantity           string  `json:"quantity"`           // q
	ExecutedQty        string  `json:"executedQty"`        // z
	CumulativeQuoteQty string  `json:"cumulativeQuoteQty"` // Z
	AvgPrice           *string `json:"avgPrice"`           // Z/z
	Status             string  `json:"status"`             // X
	Working            bool    `json:"working"`            // w
	Maker              bool    `json:"maker"`              // m
	Created            int64   `json:"created"`            // O
	Updated            int64   `json:"updated"`            // E
	Leverage           *string `json:"leverage"`           // v (contract only)
	Close              *bool   `json:"close"`              // C (contract only)
}

// Open reports whether the order is still working on the book: status NEW
// or PARTIALLY_FILLED. Any other status, unknown ones included, is closed.
func (o *Order) Open() bool { return api.Open(o.Status) }

// Position is one contract position, keyed by (AccountID, Symbol, Side).
type Position struct {
	AccountID        string `json:"accountId"`        // A ("" when only a REST snapshot has been seen)
	Symbol           string `json:"symbol"`           // s
	Side             string `json:"side"`             // S
	AvgPrice         string `json:"avgPrice"`         // p
	Total            string `json:"total"`            // P
	Available        string `json:"available"`        // a
	LiquidationPrice string `json:"liquidationPrice"` // f
	Margin           string `json:"margin"`           // m
	RealizedPnl      string `json:"realizedPnl"`      // r
}

// Pending statuses: sent with no answer yet, answered with a 5XX or timed
// out, or known never to have been placed.
const (
	PendingSent      = "PENDING"
	PendingUnknown   = "UNKNOWN"
	PendingNotPlaced = "NOT_PLACED"
)

// Pending is an order this process sent whose outcome is not known yet.
type Pending struct {
	ClientOrderID string `json:"clientOrderId"`
	Symbol        string `json:"symbol"`
	Side          string `json:"side"`
	// The order's terms as sent, so that what is in flight shows: type
	// (LIMIT, MARKET, …; a contract order's LIMIT or STOP), quantity and
	// price ("" when it has none, e.g. MARKET; a contract order's price
	// type when it is not INPUT, e.g. OPPONENT).
	Type        string `json:"type"`
	TimeInForce string `json:"timeInForce"` // as sent; "" when none (MARKET, LIMIT_MAKER)
	Quantity    string `json:"quantity"`
	Price       string `json:"price"`
	Status      string `json:"status"` // PENDING, UNKNOWN or NOT_PLACED
	Since       int64  `json:"since"`  // ms when it was sent
	Reason      string `json:"reason"` // e.g. "HTTP 504"

	// refused: the service refused this send outright (a 4XX); no report
	// or query can settle it, as any order with its clientOrderId is
	// another one (e.g. the order whose id it duplicated).
	refused bool
}

// Stats counts what the fold has seen. Events == Applied + Stale.
type Stats struct {
	Events      int64 `json:"events"`
	Applied     int64 `json:"applied"`
	Stale       int64 `json:"stale"`
	Malformed   int64 `json:"malformed"`
	UnknownType int64 `json:"unknownType"`

	// ByType splits Events by event type, in the order of EventTypes (for
	// metrics; not part of the dump).
	ByType [4]int64 `json:"-"`
}

// EventTypes names the four event types, in the order of Stats.ByType.
func EventTypes() [4]string {
	return [4]string{"outboundAccountInfo", "executionReport", "contractExecutionReport", "outboundContractPositionInfo"}
}

// Fill is one execution of the account (an order event with l > 0 or a
// myTrades record). Decimals are exact literals but QuoteQty, which is
// price × qty computed exactly. TradeID is "" when no trade id is known
// (then the fill is keyed by orderId and the cumulative quantity after
// it). RealizedPnl comes from contract myTrades records only.
type Fill struct {
	Market          string `json:"market"`
	Symbol          string `json:"symbol"`
	OrderID         string `json:"orderId"`
	TradeID         string `json:"tradeId"`
	Side            string `json:"side"`
	Price           string `json:"price"`
	Qty             string `json:"qty"`
	QuoteQty        string `json:"quoteQty"`
	Commission      string `json:"commission"`
	CommissionAsset string `json:"commissionAsset"`
	Maker           bool   `json:"maker"`
	Time            int64  `json:"time"`
	RealizedPnl     string `json:"realizedPnl,omitempty"`
	// Seq names the fill within its Store while the Store keeps it (its
	// arrival number), the same when an event and a record of one trade
	// become one fill (an event without t gains the record's trade id);
	// 0 in a fill no Store made. Not in the dump.
	Seq uint64 `json:"-"`
	// Again, when not 0, is the Seq of a fill the Store has since
	// dropped (retention) of which this one is the other half (its
	// myTrades record, or its event after its record): one execution,
	// counted once (FillScan counts this fill only when it did not see
	// that one). Not in the dump.
	Again uint64 `json:"-"`
}
