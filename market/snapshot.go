// Package market keeps the public market around an account: tickers, best
// bid and ask, book tops, recent trades and candles per symbol, fed by the
// service's quote endpoints and quote WebSocket (API-FACTS.md 'Market data').
package market

import "bhtop/hub"

// Quote is what is known of one symbol's market. Prices and amounts are
// the exact decimal literals the service sent ("" when unknown); they are
// never float64.
type Quote struct {
	Symbol string
	Last   string // last trade price
	Bid    string // best bid price
	BidQty string
	Ask    string // best ask price
	AskQty string

	// The rolling 24 h ticker.
	Open24h     string
	High24h     string
	Low24h      string
	Volume24h   string // base asset
	QuoteVolume string

	// Contracts only: Mark is the contract's last price (the positions
	// endpoint's lastPrice), Index the price of its index symbol.
	Mark  string
	Index string

	Updated int64 // ms of the newest change to any field above
}

// Level is one price level of a book.
type Level struct {
	Price string
	Qty   string
}

// Book is the top of one symbol's order book: bids high to low, asks low to
// high.
type Book struct {
	Bids    []Level
	Asks    []Level
	Time    int64  // ms
	Version string // the service's book version, when it sends one
}

// Trade is one trade on the public tape.
type Trade struct {
	ID         string // exact; may exceed 2^53
	Time       int64  // ms
	Price      string
	Qty        string
	BuyerMaker bool
}

// Candle is one kline bar. Open is the bar's open time in ms.
type Candle struct {
	OpenTime int64
	Open     string
	High     string
	Low      string
	Close    string
	Volume   string
}

// Instrument describes a symbol as brokerInfo lists it. Multiplier is the
// contract multiplier ("1" when brokerInfo gives none); Index names the
// index symbol of a contract (BTCUSDT for BTC-PERP-REV).
type Instrument struct {
	Symbol      string
	Base        string
	Quote       string
	Contract    bool
	Inverse     bool
	Multiplier  string
	Index       string
	MarginAsset string
}

// Health says whether market data is flowing. When it is not, Reason says
// why ("quote endpoints answer 404", "quote socket refused: ...") and the
// dashboard shows "no market data (Reason)"; everything else still works.
type Health struct {
	Up     bool
	Reason string
	Since  int64 // ms of the last change of Up
}

// Snapshot is an immutable picture of the market at one moment. Readers
// must not modify it or anything it points to. Maps are keyed by symbol.
type Snapshot struct {
	// Version grows by one with every published snapshot; 0 is "nothing yet".
	Version uint64

	Quotes      map[string]Quote
	Books       map[string]Book
	Trades      map[string][]Trade // oldest first, newest last, at most 60 each
	Candles     map[string]Bars    // key Symbol + "@" + interval ("BTCUSDT@1m")
	Instruments map[string]Instrument
	Health      Health
	// BarsWait says, by CandleKey, why a series a chart asked for
	// (Client.LoadCandles) has no bars yet: BarsLoading, BarsNoWeight,
	// BarsNone, or a failed load's reason (retried).
	BarsWait map[string]string

	// moves is what changed since the store's previous publication
	// (MovedSince); nil in a snapshot not made by a Store.
	moves *moveLog
}

// CandleKey is the key of Snapshot.Candles for a symbol and interval.
func CandleKey(symbol, interval string) string { return symbol + "@" + interval }

// Intervals are the kline intervals the service knows, shortest first.
var Intervals = []string{"1m", "5m", "15m", "30m", "1h", "2h", "4h", "6h", "12h", "1d", "1w", "1M"}

// Hub hands the market store's latest Snapshot to readers (see hub.Hub).
type Hub = hub.Hub[Snapshot]
