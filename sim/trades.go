package sim

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"
)

// accountTrade is one fill of an account's order, as the myTrades
// endpoints report it.
type accountTrade struct {
	id, orderID, matchID uint64
	o                    *order
	price, qty           decimal.Decimal
	fee                  decimal.Decimal
	feeAsset             string
	pnl                  decimal.Decimal
	time                 int64
	maker                bool
}

// maxAccountTrades bounds the trades kept per account; older ones are
// forgotten.
const maxAccountTrades = 100_000

// pickTrades selects the account's trades of one market by the myTrades
// parameters: symbol, startTime, endTime, fromId, toId (inclusive) and
// limit; the newest that qualify (with only fromId: the oldest from it),
// newest first.
func (s *Server) pickTrades(c *call, contract bool, def int64) ([]*accountTrade, *apiError) {
	name, hasSym := c.p.str("symbol")
	if hasSym {
		if sym := s.symbols[name]; sym == nil || sym.contract != contract {
			return nil, badParam(codeBadSymbol, "Invalid symbol.")
		}
	}
	n, e := c.p.ints(intParam{"startTime", 0}, intParam{"endTime", 0}, intParam{"fromId", 0}, intParam{"toId", 0}, intParam{"limit", 0})
	if e != nil {
		return nil, e
	}
	from, to, fromID, toID, limit := n[0], n[1], n[2], n[3], n[4]
	if limit <= 0 {
		limit = def
	}
	limit = min(limit, 1000)
	var rows []*accountTrade
	for i := range c.key.account.trades {
		t := &c.key.account.trades[i]
		switch {
		case t.o.sym.contract != contract, hasSym && t.o.sym.name != name,
			from > 0 && t.time < from, to > 0 && t.time > to,
			fromID > 0 && t.id < uint64(fromID), toID > 0 && t.id > uint64(toID):
			continue
		}
		rows = append(rows, t)
	}
	slices.SortStableFunc(rows, func(a, b *accountTrade) int { return cmp.Compare(a.id, b.id) })
	if int64(len(rows)) > limit {
		if fromID > 0 && toID == 0 {
			rows = rows[:limit]
		} else {
			rows = rows[int64(len(rows))-limit:]
		}
	}
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
	return rows, nil
}

// spotTrade is a record of GET /openapi/v1/myTrades (ids and times are
// numbers, as in the docs).
type spotTrade struct {
	Symbol          string      `json:"symbol"`
	ID              json.Number `json:"id"`
	OrderID         json.Number `json:"orderId"`
	MatchOrderID    json.Number `json:"matchOrderId"`
	Price           string      `json:"price"`
	Qty             string      `json:"qty"`
	Commission      string      `json:"commission"`
	CommissionAsset string      `json:"commissionAsset"`
	Time            int64       `json:"time"`
	IsBuyer         bool        `json:"isBuyer"`
	IsMaker         bool        `json:"isMaker"`
	FeeTokenID      string      `json:"feeTokenId"`
	FeeAmount       string      `json:"feeAmount"`
}

func num(v uint64) json.Number { return json.Number(strconv.FormatUint(v, 10)) }

// myTrades answers the myTrades endpoint of one market: the trades
// pickTrades selects (limit default def), each written as record makes it.
func myTrades[R any](s *Server, c *call, contract bool, def int64, record func(*accountTrade) R) (any, *apiError) {
	rows, e := s.pickTrades(c, contract, def)
	if e != nil {
		return nil, e
	}
	out := make([]R, len(rows))
	for i, t := range rows {
		out[i] = record(t)
	}
	return out, nil
}

func (s *Server) handleMyTrades(c *call) (any, *apiError) {
	return myTrades(s, c, false, 500, (*accountTrade).spot)
}

func (t *accountTrade) spot() spotTrade {
	return spotTrade{
		Symbol: t.o.sym.name, ID: num(t.id), OrderID: num(t.orderID), MatchOrderID: num(t.matchID),
		Price: t.price.String(), Qty: t.qty.String(), Commission: t.fee.String(), CommissionAsset: t.feeAsset,
		Time: t.time, IsBuyer: t.o.side == "BUY", IsMaker: t.maker, FeeTokenID: t.feeAsset, FeeAmount: t.fee.String(),
	}
}

// contractTrade is a record of GET /openapi/contract/v1/myTrades (all
// strings, ids beyond 2^53).
type contractTrade struct {
	Time         string `json:"time"`
	TradeID      string `json:"tradeId"`
	OrderID      string `json:"orderId"`
	MatchOrderID string `json:"matchOrderId"`
	SymbolID     string `json:"symbolId"`
	Price        string `json:"price"`
	Quantity     string `json:"quantity"`
	FeeTokenID   string `json:"feeTokenId"`
	Fee          string `json:"fee"`
	Type         string `json:"type"`
	Side         string `json:"side"`
	Pnl          string `json:"pnl"`
}

func (s *Server) handleContractMyTrades(c *call) (any, *apiError) {
	return myTrades(s, c, true, 20, (*accountTrade).contract)
}

func (t *accountTrade) contract() contractTrade {
	typ := t.o.typ
	if t.o.priceType == "MARKET" {
		typ = "MARKET"
	}
	return contractTrade{
		Time: strconv.FormatInt(t.time, 10), TradeID: strconv.FormatUint(t.id, 10),
		OrderID: strconv.FormatUint(t.orderID, 10), MatchOrderID: strconv.FormatUint(t.matchID, 10),
		SymbolID: t.o.sym.name, Price: t.price.String(), Quantity: t.qty.String(),
		FeeTokenID: t.feeAsset, Fee: t.fee.String(), Type: typ, Side: contractSide(t.o), Pnl: t.pnl.String(),
	}
}
