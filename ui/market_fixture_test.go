package ui

import (
	"fmt"
	"time"

	"bhtop/market"
)

// testMarket is the market around testSnapshot's account: spot tickers
// with books, the two perpetuals with instruments, mark and index, 40
// one-minute bars of BTCUSDT and a short tape of ETHUSDT.
func testMarket() *market.Snapshot {
	ms := t0.UnixMilli()
	s := &market.Snapshot{
		Version: 3,
		Quotes: map[string]market.Quote{
			"BTCUSDT":  {Symbol: "BTCUSDT", Last: "61020.5", Bid: "61020.4", BidQty: "0.8", Ask: "61020.6", AskQty: "1.1", Open24h: "60010", High24h: "61500", Low24h: "59800", Volume24h: "1523.44", QuoteVolume: "92400000.5", Updated: ms},
			"ETHBTC":   {Symbol: "ETHBTC", Last: "0.03452", Bid: "0.03451", Ask: "0.03453", Open24h: "0.0351", Volume24h: "8800.1", Updated: ms},
			"ETHUSDT":  {Symbol: "ETHUSDT", Last: "2106.3", Bid: "2106.2", Ask: "2106.4", Open24h: "2080", Volume24h: "40210.7", Updated: ms},
			"BTC-PERP": {Symbol: "BTC-PERP", Last: "61050", Bid: "61049.5", Ask: "61050.5", Mark: "61050", Index: "61021.2", Open24h: "60500", Volume24h: "12000", Updated: ms},
			"ETH-PERP": {Symbol: "ETH-PERP", Last: "2110.5", Bid: "2110", Ask: "2111", Mark: "2110.5", Index: "2106.8", Open24h: "2150", Volume24h: "98000", Updated: ms},
		},
		Instruments: map[string]market.Instrument{
			"BTCUSDT":  {Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT", Multiplier: "1"},
			"ETHBTC":   {Symbol: "ETHBTC", Base: "ETH", Quote: "BTC", Multiplier: "1"},
			"ETHUSDT":  {Symbol: "ETHUSDT", Base: "ETH", Quote: "USDT", Multiplier: "1"},
			"BTC-PERP": {Symbol: "BTC-PERP", Base: "BTC", Quote: "USDT", Contract: true, Multiplier: "1", Index: "BTCUSDT", MarginAsset: "USDT"},
			"ETH-PERP": {Symbol: "ETH-PERP", Base: "ETH", Quote: "USDT", Contract: true, Multiplier: "1", Index: "ETHUSDT", MarginAsset: "USDT"},
		},
		Candles: map[string]market.Bars{},
		Trades:  map[string][]market.Trade{},
		Health:  market.Health{Up: true, Since: ms - 60000},
	}
	// A deterministic walk: 40 one-minute bars ending at t0.
	price := 60400
	var bars []market.Candle
	for i := range 40 {
		step := (i*37)%13 - 5
		open := price
		price += step * 20
		hi, lo := max(open, price)+(i%4)*15, min(open, price)-(i%3)*15
		bars = append(bars, market.Candle{
			OpenTime: t0.Add(time.Duration(i-39) * time.Minute).UnixMilli(),
			Open:     fmt.Sprint(open), High: fmt.Sprint(hi), Low: fmt.Sprint(lo), Close: fmt.Sprint(price),
			Volume: fmt.Sprintf("%d.5", 3+i%7),
		})
	}
	s.Candles[market.CandleKey("BTCUSDT", "1m")] = market.NewBars(bars)
	for i := range 12 {
		s.Trades["ETHUSDT"] = append(s.Trades["ETHUSDT"], market.Trade{
			ID: fmt.Sprint(500 + i), Time: ms - int64(12-i)*1000, Price: fmt.Sprintf("%d.%d", 2100+(i*7)%9, i%10), Qty: "0.5",
		})
	}
	return s
}

// marketHub publishes s on a new market hub.
func marketHub(s *market.Snapshot) *market.Hub {
	h := &market.Hub{}
	h.Publish(s)
	return h
}
