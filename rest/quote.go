package rest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"bhtop/api"
)

// The quote endpoints (API-FACTS.md 'Market data'): public (security
// NONE), paced by the same rate governor as every other call, with the
// documented weights. Decimals stay exact literals and trade ids exact
// strings.

// quoteRoute is the route of a market-data endpoint; its weight comes
// from the api table and the request's parameters.
func quoteRoute(e api.Endpoint) route { return routeOf(e) }

// AllTickersWeight is the weight of GET ticker/24hr without a symbol.
const AllTickersWeight = api.AllSymbolsWeight

// IsNotFound reports whether err is an HTTP 404 answer: the service has
// no such endpoint (a service without the quote extension).
func IsNotFound(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.HTTPStatus == http.StatusNotFound
}

// PriceLevel is one level of a book: an exact price and quantity.
type PriceLevel struct {
	Price, Qty string
}

// Depth is an order book: bids high to low, asks low to high. Time is 0
// when the service sent none.
type Depth struct {
	Time int64
	Bids []PriceLevel
	Asks []PriceLevel
}

// Depth fetches the book of a spot symbol (GET /openapi/quote/v1/depth),
// or of a contract with contract set (/openapi/quote/v1/contract/depth);
// limit <= 0 is the service's default (100).
func (c *Client) Depth(ctx context.Context, symbol string, limit int, contract bool) (Depth, error) {
	ep := api.Depth
	if contract {
		ep = api.ContractDepth
	}
	var w struct {
		Time flexInt        `json:"time"`
		Bids [][]flexString `json:"bids"`
		Asks [][]flexString `json:"asks"`
	}
	if err := c.call(ctx, quoteRoute(ep), listParams(symbol, limit), &w); err != nil {
		return Depth{}, err
	}
	bids, err := levels(w.Bids)
	if err != nil {
		return Depth{}, fmt.Errorf("GET %s: bids: %w", ep.Path, err)
	}
	asks, err := levels(w.Asks)
	if err != nil {
		return Depth{}, fmt.Errorf("GET %s: asks: %w", ep.Path, err)
	}
	return Depth{Time: int64(w.Time), Bids: bids, Asks: asks}, nil
}

// levels reads [[price, qty], ...].
func levels(ws [][]flexString) ([]PriceLevel, error) {
	out := make([]PriceLevel, 0, len(ws))
	for i, l := range ws {
		if len(l) < 2 {
			return nil, fmt.Errorf("level %d has %d fields, want price and quantity", i, len(l))
		}
		out = append(out, PriceLevel{Price: string(l[0]), Qty: string(l[1])})
	}
	return out, nil
}

// PublicTrade is one trade of the public tape (GET trades).
type PublicTrade struct {
	Price, Qty   string
	Time         int64
	IsBuyerMaker bool
}

// Trades fetches the recent trades of a symbol (GET
// /openapi/quote/v1/trades, or contract/trades); limit <= 0 is the
// service's default (60, also the most).
func (c *Client) Trades(ctx context.Context, symbol string, limit int, contract bool) ([]PublicTrade, error) {
	ep := api.Trades
	if contract {
		ep = api.ContractTrades
	}
	var ws []struct {
		Price        flexString `json:"price"`
		Qty          flexString `json:"qty"`
		Time         flexInt    `json:"time"`
		IsBuyerMaker flexBool   `json:"isBuyerMaker"`
	}
	if err := c.call(ctx, quoteRoute(ep), listParams(symbol, limit), &ws); err != nil {
		return nil, err
	}
	out := make([]PublicTrade, len(ws))
	for i, w := range ws {
		out[i] = PublicTrade{Price: string(w.Price), Qty: string(w.Qty), Time: int64(w.Time), IsBuyerMaker: bool(w.IsBuyerMaker)}
	}
	return out, nil
}

// Ticker24h is the rolling 24 h ticker of one symbol.
type Ticker24h struct {
	Time                          int64
	Symbol                        string
	BestBid, BestAsk              string
	Last, Open, High, Low, Volume string
	QuoteVolume                   string // when the service sends it
}

type wireTicker24h struct {
	Time        flexInt    `json:"time"`
	Symbol      string     `json:"symbol"`
	BestBid     flexString `json:"bestBidPrice"`
	BestAsk     flexString `json:"bestAskPrice"`
	Last        flexString `json:"lastPrice"`
	Open        flexString `json:"openPrice"`
	High        flexString `json:"highPrice"`
	Low         flexString `json:"lowPrice"`
	Volume      flexString `json:"volume"`
	QuoteVolume flexString `json:"quoteVolume"`
}

// ticker converts w; an answer without its symbol is asked's.
func (w wireTicker24h) ticker(asked string) Ticker24h {
	return Ticker24h{Time: int64(w.Time), Symbol: cmp.Or(w.Symbol, asked), BestBid: string(w.BestBid), BestAsk: string(w.BestAsk),
		Last: string(w.Last), Open: string(w.Open), High: string(w.High), Low: string(w.Low),
		Volume: string(w.Volume), QuoteVolume: string(w.QuoteVolume)}
}

// Ticker24h fetches one symbol's 24 h ticker (GET ticker/24hr, weight 1).
func (c *Client) Ticker24h(ctx context.Context, symbol string) (Ticker24h, error) {
	return quoteOf(ctx, c, api.Ticker24h, symbol, wireTicker24h.ticker)
}

// Tickers24h fetches every symbol's 24 h ticker (GET ticker/24hr without a
// symbol). It weighs AllTickersWeight (40): call it rarely.
func (c *Client) Tickers24h(ctx context.Context) ([]Ticker24h, error) {
	return quotesOf(ctx, c, api.Ticker24h, wireTicker24h.ticker)
}

// BookTicker is a symbol's best bid and ask.
type BookTicker struct {
	Symbol                             string
	BidPrice, BidQty, AskPrice, AskQty string
}

type wireBookTicker struct {
	Symbol   string     `json:"symbol"`
	BidPrice flexString `json:"bidPrice"`
	BidQty   flexString `json:"bidQty"`
	AskPrice flexString `json:"askPrice"`
	AskQty   flexString `json:"askQty"`
}

// book converts w; an answer without its symbol is asked's.
func (w wireBookTicker) book(asked string) BookTicker {
	return BookTicker{Symbol: cmp.Or(w.Symbol, asked), BidPrice: string(w.BidPrice), BidQty: string(w.BidQty),
		AskPrice: string(w.AskPrice), AskQty: string(w.AskQty)}
}

// BookTicker fetches one symbol's best bid and ask (GET ticker/bookTicker).
func (c *Client) BookTicker(ctx context.Context, symbol string) (BookTicker, error) {
	return quoteOf(ctx, c, api.BookTicker, symbol, wireBookTicker.book)
}

// BookTickers fetches every symbol's best bid and ask.
func (c *Client) BookTickers(ctx context.Context) ([]BookTicker, error) {
	return quotesOf(ctx, c, api.BookTicker, wireBookTicker.book)
}

// SymbolPrice is a symbol's last price.
type SymbolPrice struct {
	Symbol, Price string
}

type wirePrice struct {
	Symbol string     `json:"symbol"`
	Price  flexString `json:"price"`
}

// price converts w; an answer without its symbol is asked's.
func (w wirePrice) price(asked string) SymbolPrice {
	return SymbolPrice{Symbol: cmp.Or(w.Symbol, asked), Price: string(w.Price)}
}

// TickerPrice fetches one symbol's last price (GET ticker/price). The
// docs' answer is {"price"}; an added "symbol" is accepted.
func (c *Client) TickerPrice(ctx context.Context, symbol string) (SymbolPrice, error) {
	return quoteOf(ctx, c, api.TickerPrice, symbol, wirePrice.price)
}

// TickerPrices fetches every symbol's last price.
func (c *Client) TickerPrices(ctx context.Context) ([]SymbolPrice, error) {
	return quotesOf(ctx, c, api.TickerPrice, wirePrice.price)
}

// quoteOf fetches endpoint e's answer for one symbol (weight 1), decoded
// as W and converted by conv.
func quoteOf[W, T any](ctx context.Context, c *Client, e api.Endpoint, symbol string, conv func(W, string) T) (T, error) {
	var w W
	if err := c.call(ctx, quoteRoute(e), listParams(symbol, 0), &w); err != nil {
		var zero T
		return zero, err
	}
	return conv(w, symbol), nil
}

// quotesOf fetches endpoint e's answer for every symbol, converted by conv.
func quotesOf[W, T any](ctx context.Context, c *Client, e api.Endpoint, conv func(W, string) T) ([]T, error) {
	return callList(ctx, c, quoteRoute(e), nil, func(w W) T { return conv(w, "") })
}

// ContractIndex is the reply of GET contract/index: index prices and
// their 10-minute averages (edp), keyed by index symbol (BTCUSDT).
type ContractIndex struct {
	Index map[string]string
	EDP   map[string]string
}

// ContractIndex fetches index prices (weight 0); symbol "" means all.
func (c *Client) ContractIndex(ctx context.Context, symbol string) (ContractIndex, error) {
	var w struct {
		Index map[string]flexString `json:"index"`
		EDP   map[string]flexString `json:"edp"`
	}
	if err := c.call(ctx, quoteRoute(api.ContractIndex), listParams(symbol, 0), &w); err != nil {
		return ContractIndex{}, err
	}
	ci := ContractIndex{Index: make(map[string]string, len(w.Index)), EDP: make(map[string]string, len(w.EDP))}
	for k, v := range w.Index {
		ci.Index[k] = string(v)
	}
	for k, v := range w.EDP {
		ci.EDP[k] = string(v)
	}
	return ci, nil
}

// ContractTicker is one entry of GET /openapi/v1/contracts.
type ContractTicker struct {
	Symbol, QuoteToken             string
	LastPrice, Bid, Ask, High, Low string
	BaseVolume, OpenInterest       string
	IndexPrice, Index              string
	FundingRate, NextFundingRate   string
	NextFundingRateTs              int64
}

// Contracts fetches the contracts' tickers (GET /openapi/v1/contracts).
func (c *Client) Contracts(ctx context.Context) ([]ContractTicker, error) {
	var ws []struct {
		Symbol            string     `json:"symbol"`
		QuoteToken        string     `json:"quoteToken"`
		LastPrice         flexString `json:"lastPrice"`
		Bid               flexString `json:"bid"`
		Ask               flexString `json:"ask"`
		High              flexString `json:"high"`
		Low               flexString `json:"low"`
		BaseVolume        flexString `json:"baseVolume"`
		OpenInterest      flexString `json:"openInterest"`
		IndexPrice        flexString `json:"indexPrice"`
		Index             string     `json:"index"`
		FundingRate       flexString `json:"fundingRate"`
		NextFundingRate   flexString `json:"nextFundingRate"`
		NextFundingRateTs flexInt    `json:"nextFundingRateTs"`
	}
	if err := c.call(ctx, quoteRoute(api.Contracts), nil, &ws); err != nil {
		return nil, err
	}
	out := make([]ContractTicker, len(ws))
	for i, w := range ws {
		out[i] = ContractTicker{Symbol: w.Symbol, QuoteToken: w.QuoteToken, LastPrice: string(w.LastPrice),
			Bid: string(w.Bid), Ask: string(w.Ask), High: string(w.High), Low: string(w.Low),
			BaseVolume: string(w.BaseVolume), OpenInterest: string(w.OpenInterest),
			IndexPrice: string(w.IndexPrice), Index: w.Index, FundingRate: string(w.FundingRate),
			NextFundingRate: string(w.NextFundingRate), NextFundingRateTs: int64(w.NextFundingRateTs)}
	}
	return out, nil
}

// ContractSymbol is one of brokerInfo's `contracts` entries: the spot
// symbol fields plus what valuing a position needs. Multiplier is "1"
// when brokerInfo gives none.
type ContractSymbol struct {
	Symbol
	Inverse     bool
	Index       string // its index symbol, e.g. BTCUSDT
	Multiplier  string // contractMultiplier
	MarginAsset string // marginToken
	RiskLimits  []RiskLimit
}

// RiskLimit is one step of a contract's risk limits.
type RiskLimit struct {
	Quantity, InitialMargin, MaintMargin string
}

// wireContract is a brokerInfo `contracts` entry.
type wireContract struct {
	wireSymbol
	Inverse     flexBool   `json:"inverse"`
	Index       string     `json:"index"`
	Multiplier  flexString `json:"contractMultiplier"`
	MarginToken string     `json:"marginToken"`
	RiskLimits  []struct {
		Quantity      flexString `json:"quantity"`
		InitialMargin flexString `json:"initialMargin"`
		MaintMargin   flexString `json:"maintMargin"`
	} `json:"riskLimits"`
}

func (w wireContract) contract() ContractSymbol {
	cs := ContractSymbol{Symbol: w.symbol(), Inverse: bool(w.Inverse), Index: w.Index,
		Multiplier: string(w.Multiplier), MarginAsset: w.MarginToken}
	if cs.Multiplier == "" {
		cs.Multiplier = "1"
	}
	for _, r := range w.RiskLimits {
		cs.RiskLimits = append(cs.RiskLimits, RiskLimit{Quantity: string(r.Quantity),
			InitialMargin: string(r.InitialMargin), MaintMargin: string(r.MaintMargin)})
	}
	return cs
}

// decodeContracts reads brokerInfo's `contracts` (absent: none).
func decodeContracts(raw json.RawMessage) ([]ContractSymbol, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var ws []wireContract
	if err := decode(raw, &ws); err != nil {
		return nil, fmt.Errorf("brokerInfo contracts: %w", err)
	}
	out := make([]ContractSymbol, len(ws))
	for i, w := range ws {
		out[i] = w.contract()
	}
	return out, nil
}
