package rest

import (
	"context"
	"strconv"
	"strings"

	"bhtop/api"
)

// The trade history endpoints (API-FACTS.md 'Trading extras').
var (
	routeMyTrades         = routeOf(api.MyTrades)
	routeContractMyTrades = routeOf(api.ContractMyTrades)
)

// MaxTradesPage is the most rows one myTrades request returns.
const MaxTradesPage = 1000

// TradeRecord is one execution of the account as myTrades reports it
// (spot or contract). Decimals and ids are exact literals.
type TradeRecord struct {
	Contract        bool
	Symbol          string
	TradeID         string // spot id, contract tradeId
	OrderID         string
	Side            string // BUY or SELL (a contract record's BUY_OPEN... is cut at "_")
	Close           bool   // contract *_CLOSE
	Price           string
	Qty             string
	Commission      string
	CommissionAsset string
	Maker           bool
	MakerKnown      bool // false when the record does not say (contract records may not)
	Time            int64
	RealizedPnl     string // contract pnl
}

// TradeQuery selects myTrades rows. Zero fields are not sent. Symbol is
// optional for both markets.
type TradeQuery struct {
	Symbol             string
	StartTime, EndTime int64 // spot only
	FromID, ToID       string
	Limit              int // spot default 500, contract 20; max 1000
}

func (q TradeQuery) params(contract bool) *params {
	p := &params{}
	p.add("symbol", q.Symbol)
	if !contract {
		if q.StartTime > 0 {
			p.addInt("startTime", q.StartTime)
		}
		if q.EndTime > 0 {
			p.addInt("endTime", q.EndTime)
		}
	}
	p.add("fromId", q.FromID).add("toId", q.ToID)
	if q.Limit > 0 {
		p.add("limit", strconv.Itoa(q.Limit))
	}
	return p
}

type wireSpotTrade struct {
	Symbol          string     `json:"symbol"`
	ID              flexString `json:"id"`
	OrderID         flexString `json:"orderId"`
	Price           flexString `json:"price"`
	Qty             flexString `json:"qty"`
	Commission      flexString `json:"commission"`
	CommissionAsset string     `json:"commissionAsset"`
	Time            flexInt    `json:"time"`
	IsBuyer         flexBool   `json:"isBuyer"`
	IsMaker         flexBool   `json:"isMaker"`
}

type wireContractTrade struct {
	Time       flexInt    `json:"time"`
	TradeID    flexString `json:"tradeId"`
	OrderID    flexString `json:"orderId"`
	SymbolID   string     `json:"symbolId"`
	Symbol     string     `json:"symbol"`
	Price      flexString `json:"price"`
	Quantity   flexString `json:"quantity"`
	FeeTokenID string     `json:"feeTokenId"`
	Fee        flexString `json:"fee"`
	Type       string     `json:"type"`
	Side       string     `json:"side"`
	Pnl        flexString `json:"pnl"`
	IsMaker    *flexBool  `json:"isMaker"`
}

func (w wireSpotTrade) record() TradeRecord {
	side := "SELL"
	if w.IsBuyer {
		side = "BUY"
	}
	return TradeRecord{Symbol: w.Symbol, TradeID: string(w.ID), OrderID: string(w.OrderID), Side: side,
		Price: string(w.Price), Qty: string(w.Qty), Commission: string(w.Commission),
		CommissionAsset: w.CommissionAsset, Maker: bool(w.IsMaker), MakerKnown: true, Time: int64(w.Time)}
}

func (w wireContractTrade) record() TradeRecord {
	sym := w.SymbolID
	if sym == "" {
		sym = w.Symbol
	}
	side, suffix, _ := strings.Cut(strings.ToUpper(w.Side), "_")
	r := TradeRecord{Contract: true, Symbol: sym, TradeID: string(w.TradeID), OrderID: string(w.OrderID),
		Side: side, Close: suffix == "CLOSE", Price: string(w.Price), Qty: string(w.Quantity),
		Commission: string(w.Fee), CommissionAsset: w.FeeTokenID, Time: int64(w.Time), RealizedPnl: string(w.Pnl)}
	switch {
	case w.IsMaker != nil:
		r.Maker, r.MakerKnown = bool(*w.IsMaker), true
	case strings.EqualFold(w.Type, "MAKER"), strings.EqualFold(w.Type, "TAKER"):
		r.Maker, r.MakerKnown = strings.EqualFold(w.Type, "MAKER"), true
	}
	return r
}

// MyTrades fetches one page of the account's spot executions (GET
// /openapi/v1/myTrades), newest first.
func (c *Client) MyTrades(ctx context.Context, q TradeQuery) ([]TradeRecord, error) {
	return callList(ctx, c, routeMyTrades, q.params(false), wireSpotTrade.record)
}

// ContractMyTrades fetches one page of the account's contract executions
// (GET /openapi/contract/v1/myTrades).
func (c *Client) ContractMyTrades(ctx context.Context, q TradeQuery) ([]TradeRecord, error) {
	return callList(ctx, c, routeContractMyTrades, q.params(true), wireContractTrade.record)
}

// RecentTrades fetches up to max of the newest executions of one market
// (contract or spot), paging backwards with toId below the oldest id seen
// (pages of page rows; <= 0 or above MaxTradesPage: MaxTradesPage) until
// a page comes back short. Rows are
// returned as the pages gave them; a trade id may appear twice only if
// the service's toId is inclusive and ids repeat, which callers dedupe.
func (c *Client) RecentTrades(ctx context.Context, contract bool, max, page int) ([]TradeRecord, error) {
	fetch := c.MyTrades
	if contract {
		fetch = c.ContractMyTrades
	}
	if page <= 0 || page > MaxTradesPage {
		page = MaxTradesPage
	}
	var out []TradeRecord
	q := TradeQuery{Limit: min(max, page)}
	for len(out) < max && q.Limit > 0 {
		rows, err := fetch(ctx, q)
		if err != nil {
			return out, err
		}
		out = append(out, rows...)
		oldest := ""
		for _, r := range rows {
			if oldest == "" || compareIDs(r.TradeID, oldest) < 0 {
				oldest = r.TradeID
			}
		}
		if len(rows) < q.Limit || oldest == "" || strings.Trim(oldest, "0") == "" {
			break
		}
		next := decrementID(oldest)
		if q.ToID != "" && compareIDs(next, q.ToID) >= 0 {
			break // the service ignored toId: no progress
		}
		q.ToID = next
		q.Limit = min(max-len(out), page)
	}
	return out, nil
}

// compareIDs orders decimal digit strings by value (any length).
func compareIDs(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// decrementID is id - 1 for a decimal digit string of any length ("0"
// for zero).
func decrementID(id string) string {
	if strings.Trim(id, "0") == "" {
		return "0"
	}
	b := []byte(id)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] > '0' {
			b[i]--
			break
		}
		b[i] = '9'
	}
	s := strings.TrimLeft(string(b), "0")
	if s == "" {
		return "0"
	}
	return s
}
