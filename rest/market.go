package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// BrokerInfo is the reply of GET /openapi/v1/brokerInfo.
type BrokerInfo struct {
	Timezone   string
	ServerTime int64
	RateLimits []RateLimit
	Symbols    []Symbol
	// Contracts are the contract symbols (brokerInfo `contracts`).
	Contracts []ContractSymbol
}

// Ping checks that the service answers (GET /openapi/v1/ping).
func (c *Client) Ping(ctx context.Context) error {
	return c.call(ctx, routePing, nil, nil)
}

// ServerTime asks the service's clock (GET /openapi/v1/time), in ms.
func (c *Client) ServerTime(ctx context.Context) (int64, error) {
	var t struct {
		ServerTime flexInt `json:"serverTime"`
	}
	if err := c.call(ctx, routeTime, nil, &t); err != nil {
		return 0, err
	}
	return int64(t.ServerTime), nil
}

type wireFilter struct {
	FilterType  string     `json:"filterType"`
	MinPrice    flexString `json:"minPrice"`
	MaxPrice    flexString `json:"maxPrice"`
	TickSize    flexString `json:"tickSize"`
	MinQty      flexString `json:"minQty"`
	MaxQty      flexString `json:"maxQty"`
	StepSize    flexString `json:"stepSize"`
	MinNotional flexString `json:"minNotional"`
}

type wireSymbol struct {
	Symbol     string       `json:"symbol"`
	Status     string       `json:"status"`
	BaseAsset  string       `json:"baseAsset"`
	QuoteAsset string       `json:"quoteAsset"`
	Filters    []wireFilter `json:"filters"`
}

// symbol reads a brokerInfo symbol with its filters.
func (s wireSymbol) symbol() Symbol {
	sym := Symbol{Symbol: s.Symbol, Status: s.Status, BaseAsset: s.BaseAsset, QuoteAsset: s.QuoteAsset}
	for _, f := range s.Filters {
		switch f.FilterType {
		case "PRICE_FILTER":
			sym.MinPrice, sym.MaxPrice, sym.TickSize = string(f.MinPrice), string(f.MaxPrice), string(f.TickSize)
		case "LOT_SIZE":
			sym.MinQty, sym.MaxQty, sym.StepSize = string(f.MinQty), string(f.MaxQty), string(f.StepSize)
		case "MIN_NOTIONAL":
			sym.MinNotional = string(f.MinNotional)
		}
	}
	return sym
}

// BrokerInfo fetches the symbols, their filters and the rate limits, and
// sets the client's governor to those limits.
func (c *Client) BrokerInfo(ctx context.Context) (BrokerInfo, error) {
	var w struct {
		Timezone   string  `json:"timezone"`
		ServerTime flexInt `json:"serverTime"`
		RateLimits []struct {
			Type     string      `json:"rateLimitType"`
			Interval string      `json:"interval"`
			Limit    json.Number `json:"limit"`
		} `json:"rateLimits"`
		Symbols   []wireSymbol    `json:"symbols"`
		Contracts json.RawMessage `json:"contracts"`
	}
	if err := c.call(ctx, routeBrokerInfo, nil, &w); err != nil {
		return BrokerInfo{}, err
	}
	bi := BrokerInfo{Timezone: w.Timezone, ServerTime: int64(w.ServerTime)}
	for _, l := range w.RateLimits {
		n, err := l.Limit.Int64()
		if err != nil {
			return BrokerInfo{}, fmt.Errorf("brokerInfo: rate limit %s/%s: %w", l.Type, l.Interval, err)
		}
		bi.RateLimits = append(bi.RateLimits, RateLimit{
			Type: strings.ToUpper(l.Type), Interval: strings.ToUpper(l.Interval), Limit: int(n)})
	}
	for _, s := range w.Symbols {
		bi.Symbols = append(bi.Symbols, s.symbol())
	}
	var err error
	if bi.Contracts, err = decodeContracts(w.Contracts); err != nil {
		return BrokerInfo{}, err
	}
	if len(bi.RateLimits) > 0 {
		c.gov.setLimits(bi.RateLimits)
	}
	return bi, nil
}
