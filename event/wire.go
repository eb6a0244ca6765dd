// Package event holds the wire types of the four user-stream payloads of
// SPEC.md and turns them into bytes and back.
package event

import "strconv"

// Event type names, the value of field e.
const (
	TypeAccount           = "outboundAccountInfo"
	TypeExecution         = "executionReport"
	TypeContractExecution = "contractExecutionReport"
	TypePosition          = "outboundContractPositionInfo"
)

// AccountInfo is an outboundAccountInfo payload.
type AccountInfo struct {
	EventTime   int64           // E
	CanTrade    bool            // T
	CanWithdraw bool            // W
	CanDeposit  bool            // D
	Balances    []BalanceChange // B: the balances that changed
}

// BalanceChange is one element of B. Decimals are exact literals.
type BalanceChange struct {
	Asset  string // a
	Free   string // f
	Locked string // l
}

// ExecutionReport is an executionReport (spot) or, with Contract set, a
// contractExecutionReport. Decimals and ids are exact literals.
type ExecutionReport struct {
	Contract        bool   // contractExecutionReport when true
	EventTime       int64  // E
	Symbol          string // s
	ClientOrderID   string // c
	Side            string // S
	Type            string // o
	TimeInForce     string // f
	Quantity        string // q
	Price           string // p
	Status          string // X
	OrderID         string // i
	LastQty         string // l
	CumQty          string // z
	LastPrice       string // L
	Commission      string // n
	CommissionAsset string // N ("" encodes as null for spot)
	Working         bool   // w
	Maker           bool   // m
	Created         int64  // O
	CumQuote        string // Z
	TradeID         string // t: trade id of this fill (digits, may exceed 2^53); "" when no fill
	Close           bool   // C (contract only)
	Leverage        string // v (contract only)
}

// PositionInfo is an outboundContractPositionInfo payload.
type PositionInfo struct {
	AccountID        string // A
	Symbol           string // s
	Side             string // S
	AvgPrice         string // p
	Total            string // P
	Available        string // a
	LiquidationPrice string // f
	Margin           string // m
	RealizedPnl      string // r
}

// EncodeOptions changes how payloads are written.
type EncodeOptions struct {
	// Optional adds the optional fields SPEC.md lists as commented out
	// (m t b s u on accounts; P F g x r T t I M on spot orders; M A on
	// contract orders), as the service may send them. A correct decoder
	// must not be disturbed by them (m/M, t/T, ... differ only in case).
	Optional bool
}

// AppendAccount appends the JSON object of a to dst, as the service sends it.
func AppendAccount(dst []byte, a *AccountInfo, o EncodeOptions) []byte {
	dst = append(dst, `{"e":"outboundAccountInfo","E":`...)
	dst = strconv.AppendInt(dst, a.EventTime, 10)
	if o.Optional {
		dst = append(dst, `,"m":10,"t":10,"b":0,"s":0`...)
	}
	dst = appendBool(append(dst, `,"T":`...), a.CanTrade)
	dst = appendBool(append(dst, `,"W":`...), a.CanWithdraw)
	dst = appendBool(append(dst, `,"D":`...), a.CanDeposit)
	if o.Optional {
		dst = strconv.AppendInt(append(dst, `,"u":`...), a.EventTime, 10)
	}
	dst = append(dst, `,"B":[`...)
	for i, b := range a.Balances {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendStr(append(dst, `{"a":`...), b.Asset)
		dst = appendStr(append(dst, `,"f":`...), b.Free)
		dst = appendStr(append(dst, `,"l":`...), b.Locked)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// AppendExecution appends the JSON object of r to dst: spot numbers where
// SPEC.md shows numbers (E, i, O; c when it is all digits), contract values
// all as strings but the booleans.
func AppendExecution(dst []byte, r *ExecutionReport, o EncodeOptions) []byte {
	if r.Contract {
		return appendContractExecution(dst, r, o)
	}
	dst = append(dst, `{"e":"executionReport","E":`...)
	dst = strconv.AppendInt(dst, r.EventTime, 10)
	dst = appendStr(append(dst, `,"s":`...), r.Symbol)
	dst = append(dst, `,"c":`...)
	if isDigits(r.ClientOrderID) {
		dst = append(dst, r.ClientOrderID...)
	} else {
		dst = appendStr(dst, r.ClientOrderID)
	}
	dst = appendStr(append(dst, `,"S":`...), r.Side)
	dst = appendStr(append(dst, `,"o":`...), r.Type)
	dst = appendStr(append(dst, `,"f":`...), r.TimeInForce)
	dst = appendStr(append(dst, `,"q":`...), r.Quantity)
	dst = appendStr(append(dst, `,"p":`...), r.Price)
	if o.Optional {
		dst = append(dst, `,"P":"0","F":"0","g":-1,"x":`...)
		dst = appendStr(dst, r.Status)
		dst = append(dst, `,"r":"NONE","T":`...)
		dst = strconv.AppendInt(dst, r.EventTime, 10)
		dst = append(dst, `,"I":12345,"M":false`...)
		if r.TradeID == "" {
			dst = append(dst, `,"t":-1`...)
		}
	}
	if r.TradeID != "" {
		dst = append(append(dst, `,"t":`...), r.TradeID...)
	}
	dst = appendStr(append(dst, `,"X":`...), r.Status)
	dst = append(append(dst, `,"i":`...), r.OrderID...)
	dst = appendStr(append(dst, `,"l":`...), r.LastQty)
	dst = appendStr(append(dst, `,"z":`...), r.CumQty)
	dst = appendStr(append(dst, `,"L":`...), r.LastPrice)
	dst = appendStr(append(dst, `,"n":`...), r.Commission)
	dst = append(dst, `,"N":`...)
	if r.CommissionAsset == "" {
		dst = append(dst, "null"...)
	} else {
		dst = appendStr(dst, r.CommissionAsset)
	}
	dst = append(dst, `,"u":true`...)
	dst = appendBool(append(dst, `,"w":`...), r.Working)
	dst = appendBool(append(dst, `,"m":`...), r.Maker)
	dst = strconv.AppendInt(append(dst, `,"O":`...), r.Created, 10)
	dst = appendStr(append(dst, `,"Z":`...), r.CumQuote)
	return append(dst, '}')
}

func appendContractExecution(dst []byte, r *ExecutionReport, o EncodeOptions) []byte {
	dst = append(dst, `{"e":"contractExecutionReport","E":"`...)
	dst = strconv.AppendInt(dst, r.EventTime, 10)
	dst = appendStr(append(dst, `","s":`...), r.Symbol)
	dst = appendStr(append(dst, `,"c":`...), r.ClientOrderID)
	dst = appendStr(append(dst, `,"S":`...), r.Side)
	dst = appendStr(append(dst, `,"o":`...), r.Type)
	dst = appendStr(append(dst, `,"f":`...), r.TimeInForce)
	dst = appendStr(append(dst, `,"q":`...), r.Quantity)
	dst = appendStr(append(dst, `,"p":`...), r.Price)
	dst = appendStr(append(dst, `,"X":`...), r.Status)
	dst = appendStr(append(dst, `,"i":`...), r.OrderID)
	dst = appendStr(append(dst, `,"l":`...), r.LastQty)
	dst = appendStr(append(dst, `,"z":`...), r.CumQty)
	dst = appendStr(append(dst, `,"L":`...), r.LastPrice)
	dst = appendStr(append(dst, `,"n":`...), r.Commission)
	dst = appendStr(append(dst, `,"N":`...), r.CommissionAsset)
	dst = append(dst, `,"u":true`...)
	dst = appendBool(append(dst, `,"w":`...), r.Working)
	dst = appendBool(append(dst, `,"m":`...), r.Maker)
	dst = append(dst, `,"O":"`...)
	dst = strconv.AppendInt(dst, r.Created, 10)
	dst = appendStr(append(dst, `","Z":`...), r.CumQuote)
	if r.TradeID != "" {
		dst = appendStr(append(dst, `,"t":`...), r.TradeID)
	}
	if o.Optional {
		dst = append(dst, `,"M":"0","A":"0"`...)
	}
	dst = appendBool(append(dst, `,"C":`...), r.Close)
	dst = appendStr(append(dst, `,"v":`...), r.Leverage)
	return append(dst, '}')
}

// AppendPosition appends the JSON object of p to dst (all values strings).
func AppendPosition(dst []byte, p *PositionInfo, _ EncodeOptions) []byte {
	dst = append(dst, `{"e":"outboundContractPositionInfo"`...)
	dst = appendStr(append(dst, `,"A":`...), p.AccountID)
	dst = appendStr(append(dst, `,"s":`...), p.Symbol)
	dst = appendStr(append(dst, `,"S":`...), p.Side)
	dst = appendStr(append(dst, `,"p":`...), p.AvgPrice)
	dst = appendStr(append(dst, `,"P":`...), p.Total)
	dst = appendStr(append(dst, `,"a":`...), p.Available)
	dst = appendStr(append(dst, `,"f":`...), p.LiquidationPrice)
	dst = appendStr(append(dst, `,"m":`...), p.Margin)
	dst = appendStr(append(dst, `,"r":`...), p.RealizedPnl)
	return append(dst, '}')
}

func appendBool(dst []byte, b bool) []byte { return strconv.AppendBool(dst, b) }

func appendStr(dst []byte, s string) []byte { return strconv.AppendQuote(dst, s) }

func isDigits(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s[0] != '0' || len(s) == 1
}
