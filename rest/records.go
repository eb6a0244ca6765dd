package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// flexString takes a JSON string or number literal and keeps its text
// exactly (ids and decimals never pass through float64). null is "".
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*f = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = flexString(s)
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		*f = flexString(b)
	default:
		return fmt.Errorf("want a string or number, got %.20s", b)
	}
	return nil
}

// flexInt takes an integer as a JSON number or a string of digits.
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	var s flexString
	if err := s.UnmarshalJSON(b); err != nil {
		return err
	}
	if s == "" {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil {
		return fmt.Errorf("want an integer, got %q", s)
	}
	*f = flexInt(n)
	return nil
}

// flexBool takes true/false as JSON booleans or strings.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	var s flexString
	if string(bytes.TrimSpace(b)) == "true" || string(bytes.TrimSpace(b)) == "false" {
		*f = string(bytes.TrimSpace(b)) == "true"
		return nil
	}
	if err := s.UnmarshalJSON(b); err != nil {
		return err
	}
	v, err := strconv.ParseBool(string(s))
	if s != "" && err != nil {
		return fmt.Errorf("want a boolean, got %q", s)
	}
	*f = flexBool(v)
	return nil
}

// OrderRecord is one order as the REST endpoints report it (spot or
// contract). Decimals are exact literals; OrderID is the exact id text
// (ids may exceed 2^53). CumulativeQuoteQty is "" when the record has none
// (contract records). Side is kept raw: contract records say BUY_OPEN,
// SELL_OPEN, BUY_CLOSE or SELL_CLOSE.
type OrderRecord struct {
	Symbol             string
	OrderID            string
	ClientOrderID      string
	Price              string
	OrigQty            string
	ExecutedQty        string
	CumulativeQuoteQty string
	AvgPrice           string
	Status             string
	TimeInForce        string
	Type               string // type, or orderType for contract records
	Side               string
	StopPrice          string
	Time               int64
	UpdateTime         int64
	IsWorking          bool
	Leverage           string // contract records only
	PriceType          string // contract records only
}

type wireOrder struct {
	Symbol              string     `json:"symbol"`
	OrderID             flexString `json:"orderId"`
	ClientOrderID       flexString `json:"clientOrderId"`
	Price               flexString `json:"price"`
	OrigQty             flexString `json:"origQty"`
	ExecutedQty         flexString `json:"executedQty"`
	CummulativeQuoteQty flexString `json:"cummulativeQuoteQty"` // sic
	AvgPrice            flexString `json:"avgPrice"`
	Status              string     `json:"status"`
	TimeInForce         string     `json:"timeInForce"`
	Type                string     `json:"type"`
	OrderType           string     `json:"orderType"`
	Side                string     `json:"side"`
	StopPrice           flexString `json:"stopPrice"`
	Time                flexInt    `json:"time"`
	UpdateTime          flexInt    `json:"updateTime"`
	IsWorking           flexBool   `json:"isWorking"`
	Leverage            flexString `json:"leverage"`
	PriceType           string     `json:"priceType"`
}

func (w wireOrder) record() OrderRecord {
	typ := w.Type
	if typ == "" {
		typ = w.OrderType
	}
	return OrderRecord{
		Symbol: w.Symbol, OrderID: string(w.OrderID), ClientOrderID: string(w.ClientOrderID),
		Price: string(w.Price), OrigQty: string(w.OrigQty), ExecutedQty: string(w.ExecutedQty),
		CumulativeQuoteQty: string(w.CummulativeQuoteQty), AvgPrice: string(w.AvgPrice),
		Status: w.Status, TimeInForce: w.TimeInForce, Type: typ, Side: w.Side,
		StopPrice: string(w.StopPrice), Time: int64(w.Time), UpdateTime: int64(w.UpdateTime),
		IsWorking: bool(w.IsWorking), Leverage: string(w.Leverage), PriceType: w.PriceType,
	}
}

func orderRecords(ws []wireOrder) []OrderRecord {
	out := make([]OrderRecord, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.record())
	}
	return out
}

// PositionRecord is one contract position (GET
// /openapi/contract/v1/positions); every number is an exact literal.
type PositionRecord struct {
	Symbol        string
	Side          string // LONG or SHORT
	AvgPrice      string
	Position      string
	Available     string
	Leverage      string
	LastPrice     string
	PositionValue string
	Flp           string // liquidation price
	Margin        string
	MarginRate    string
	UnrealizedPnL string
	ProfitRate    string
	RealizedPnL   string
}

type wirePosition struct {
	Symbol        string     `json:"symbol"`
	Side          string     `json:"side"`
	AvgPrice      flexString `json:"avgPrice"`
	Position      flexString `json:"position"`
	Available     flexString `json:"available"`
	Leverage      flexString `json:"leverage"`
	LastPrice     flexString `json:"lastPrice"`
	PositionValue flexString `json:"positionValue"`
	Flp           flexString `json:"flp"`
	Margin        flexString `json:"margin"`
	MarginRate    flexString `json:"marginRate"`
	UnrealizedPnL flexString `json:"unrealizedPnL"`
	ProfitRate    flexString `json:"profitRate"`
	RealizedPnL   flexString `json:"realizedPnL"`
}

func (w wirePosition) record() PositionRecord {
	return PositionRecord{
		Symbol: w.Symbol, Side: w.Side, AvgPrice: string(w.AvgPrice), Position: string(w.Position),
		Available: string(w.Available), Leverage: string(w.Leverage), LastPrice: string(w.LastPrice),
		PositionValue: string(w.PositionValue), Flp: string(w.Flp), Margin: string(w.Margin),
		MarginRate: string(w.MarginRate), UnrealizedPnL: string(w.UnrealizedPnL),
		ProfitRate: string(w.ProfitRate), RealizedPnL: string(w.RealizedPnL),
	}
}

// AccountRecord is the reply of GET /openapi/v1/account.
type AccountRecord struct {
	CanTrade, CanWithdraw, CanDeposit bool
	UpdateTime                        int64
	Balances                          []BalanceRecord
}

// BalanceRecord is one asset's balance; amounts are exact literals.
type BalanceRecord struct {
	Asset, Free, Locked string
}

type wireAccount struct {
	CanTrade    flexBool `json:"canTrade"`
	CanWithdraw flexBool `json:"canWithdraw"`
	CanDeposit  flexBool `json:"canDeposit"`
	UpdateTime  flexInt  `json:"updateTime"`
	Balances    []struct {
		Asset  string     `json:"asset"`
		Free   flexString `json:"free"`
		Locked flexString `json:"locked"`
	} `json:"balances"`
}
