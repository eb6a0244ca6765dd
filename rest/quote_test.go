package rest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"bhtop/rest"
	"bhtop/sim"
)

// docsPayloads are answers shaped as API-FACTS.md 'Market data' shows
// them, with literals that float64 would not keep.
var docsPayloads = map[string]string{
	"/openapi/quote/v1/depth":             `{"time":1550829103981,"bids":[["3.90000000000000000001","431.00000000"],["3.8","1"]],"asks":[["4.00000200","9.00000000"]]}`,
	"/openapi/quote/v1/contract/depth":    `{"bids":[[8183.5,"12"]],"asks":[]}`,
	"/openapi/quote/v1/trades":            `[{"price":"4.00000100","qty":"12.00000000","time":1499865549590,"isBuyerMaker":true}]`,
	"/openapi/quote/v1/klines":            `[[1499040000000,"0.01634790","0.80000000","0.01575800","0.01577100","148976.11427815",1499644799999,"2434.19055334",308,"1756.87402397","28.46694368"]]`,
	"/openapi/quote/v1/contract/klines":   `[[1499040000000,"8000","8100","7900","8050","12"]]`,
	"/openapi/quote/v1/ticker/24hr":       `{"time":1538725500422,"symbol":"ETHBTC","bestBidPrice":"4.00000200","bestAskPrice":"4.00006300","lastPrice":"4.00000200","openPrice":"99.00000000","highPrice":"100.00000000","lowPrice":"0.10000000","volume":"8913.30000000"}`,
	"/openapi/quote/v1/ticker/price":      `{"price":"4.00000200"}`,
	"/openapi/quote/v1/ticker/bookTicker": `{"symbol":"LTCBTC","bidPrice":"4.00000000","bidQty":"431.00000000","askPrice":"4.00000200","askQty":"9.00000000"}`,
	"/openapi/quote/v1/contract/index":    `{"index":{"BTCUSDT":"8243.2"},"edp":{"BTCUSDT":"8258.9"}}`,
	"/openapi/v1/contracts":               `[{"symbol":"BTC-PERP-REV","quoteToken":"USDT","lastPrice":"8183.5","bid":"8183","ask":"8184","high":"8300","low":"8000","baseVolume":"123","openInterest":"456","indexPrice":"8243.2","index":"BTCUSDT","fundingRate":"0.0001","nextFundingRate":"0.0002","nextFundingRateTs":"1565107200000"}]`,
	"/openapi/v1/brokerInfo":              `{"timezone":"UTC","serverTime":1,"rateLimits":[],"symbols":[],"contracts":[{"symbol":"BTC-PERP-REV","status":"TRADING","baseAsset":"BTC","quoteAsset":"USDT","filters":[{"filterType":"PRICE_FILTER","minPrice":"0.5","maxPrice":"100000","tickSize":"0.5"}],"inverse":true,"index":"BTCUSDT","contractMultiplier":"1.0","marginToken":"BTC","riskLimits":[{"quantity":"1000000","initialMargin":"0.01","maintMargin":"0.005"}]},{"symbol":"ETH-PERP","baseAsset":"ETH","quoteAsset":"USDT","inverse":false,"marginToken":"USDT"}]}`,
}

// docsClient is a client of a server that answers docsPayloads (the
// all-symbols variants as arrays) and fails the test on any keyed or
// signed request.
func docsClient(t *testing.T, opts ...rest.Option) *rest.Client {
	t.Helper()
	return serverClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-BH-APIKEY") != "" || r.URL.Query().Has("signature") || r.URL.Query().Has("timestamp") {
			t.Errorf("%s sent a key, timestamp or signature: quote endpoints are security NONE", r.URL.Path)
		}
		body, ok := docsPayloads[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if !r.URL.Query().Has("symbol") && strings.HasPrefix(body, "{") && strings.Contains(r.URL.Path, "ticker") {
			body = "[" + body + "]"
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}), opts...)
}

func TestQuoteEndpointsDecodeDocsPayloads(t *testing.T) {
	c := docsClient(t, keyed()...)
	ctx := context.Background()

	d, err := c.Depth(ctx, "ETHBTC", 0, false)
	if err != nil || d.Time != 1550829103981 || len(d.Bids) != 2 || d.Bids[0].Price != "3.90000000000000000001" || d.Asks[0].Qty != "9.00000000" {
		t.Errorf("Depth = %+v, %v", d, err)
	}
	cd, err := c.Depth(ctx, "BTC-PERP-REV", 5, true)
	if err != nil || len(cd.Bids) != 1 || cd.Bids[0].Price != "8183.5" || len(cd.Asks) != 0 {
		t.Errorf("contract Depth = %+v, %v", cd, err)
	}
	tr, err := c.Trades(ctx, "ETHBTC", 60, false)
	if err != nil || len(tr) != 1 || tr[0] != (rest.PublicTrade{Price: "4.00000100", Qty: "12.00000000", Time: 1499865549590, IsBuyerMaker: true}) {
		t.Errorf("Trades = %+v, %v", tr, err)
	}
	ks, err := c.Klines(ctx, rest.KlineRequest{Symbol: "ETHBTC", Interval: "1m", Limit: 10})
	wantK := rest.Kline{OpenTime: 1499040000000, Open: "0.01634790", High: "0.80000000", Low: "0.01575800", Close: "0.01577100",
		Volume: "148976.11427815", CloseTime: 1499644799999, QuoteVolume: "2434.19055334", Trades: 308,
		TakerBuyBaseVolume: "1756.87402397", TakerBuyQuoteVol: "28.46694368"}
	if err != nil || len(ks) != 1 || ks[0] != wantK {
		t.Errorf("Klines = %+v, %v; want %+v", ks, err, wantK)
	}
	ck, err := c.Klines(ctx, rest.KlineRequest{Symbol: "BTC-PERP-REV", Interval: "1h", Contract: true, To: 1})
	if err != nil || len(ck) != 1 || ck[0].Close != "8050" || ck[0].CloseTime != 0 {
		t.Errorf("contract Klines = %+v, %v", ck, err)
	}
	tk, err := c.Ticker24h(ctx, "ETHBTC")
	if err != nil || tk.Last != "4.00000200" || tk.BestAsk != "4.00006300" || tk.Open != "99.00000000" || tk.Time != 1538725500422 {
		t.Errorf("Ticker24h = %+v, %v", tk, err)
	}
	all, err := c.Tickers24h(ctx)
	if err != nil || len(all) != 1 || all[0].Symbol != "ETHBTC" {
		t.Errorf("Tickers24h = %+v, %v", all, err)
	}
	pr, err := c.TickerPrice(ctx, "ETHBTC")
	if err != nil || pr != (rest.SymbolPrice{Symbol: "ETHBTC", Price: "4.00000200"}) {
		t.Errorf("TickerPrice = %+v, %v (the docs' answer has no symbol: the asked one is kept)", pr, err)
	}
	bt, err := c.BookTicker(ctx, "LTCBTC")
	if err != nil || bt != (rest.BookTicker{Symbol: "LTCBTC", BidPrice: "4.00000000", BidQty: "431.00000000", AskPrice: "4.00000200", AskQty: "9.00000000"}) {
		t.Errorf("BookTicker = %+v, %v", bt, err)
	}
	bts, err := c.BookTickers(ctx)
	if err != nil || len(bts) != 1 {
		t.Errorf("BookTickers = %+v, %v", bts, err)
	}
	ci, err := c.ContractIndex(ctx, "")
	if err != nil || ci.Index["BTCUSDT"] != "8243.2" || ci.EDP["BTCUSDT"] != "8258.9" {
		t.Errorf("ContractIndex = %+v, %v", ci, err)
	}
	cs, err := c.Contracts(ctx)
	if err != nil || len(cs) != 1 || cs[0].Index != "BTCUSDT" || cs[0].IndexPrice != "8243.2" || cs[0].NextFundingRateTs != 1565107200000 {
		t.Errorf("Contracts = %+v, %v", cs, err)
	}
	bi, err := c.BrokerInfo(ctx)
	if err != nil || len(bi.Contracts) != 2 {
		t.Fatalf("BrokerInfo contracts = %+v, %v", bi.Contracts, err)
	}
	rev, perp := bi.Contracts[0], bi.Contracts[1]
	if !rev.Inverse || rev.Index != "BTCUSDT" || rev.Multiplier != "1.0" || rev.MarginAsset != "BTC" || rev.TickSize != "0.5" ||
		rev.BaseAsset != "BTC" || len(rev.RiskLimits) != 1 || rev.RiskLimits[0].MaintMargin != "0.005" {
		t.Errorf("BTC-PERP-REV = %+v", rev)
	}
	if perp.Inverse || perp.Multiplier != "1" || perp.MarginAsset != "USDT" {
		t.Errorf("ETH-PERP = %+v, want linear, multiplier defaulting to 1", perp)
	}
}

func TestQuoteWeights(t *testing.T) {
	c := docsClient(t)
	ctx := context.Background()
	steps := []struct {
		name string
		call func() error
		want int
	}{
		{"depth", func() error { _, err := c.Depth(ctx, "ETHBTC", 100, false); return err }, 1},
		{"depth 500", func() error { _, err := c.Depth(ctx, "ETHBTC", 500, false); return err }, 5},
		{"depth 1000", func() error { _, err := c.Depth(ctx, "ETHBTC", 1000, false); return err }, 10},
		{"ticker one", func() error { _, err := c.Ticker24h(ctx, "ETHBTC"); return err }, 1},
		{"ticker all", func() error { _, err := c.Tickers24h(ctx); return err }, 40},
		{"index", func() error { _, err := c.ContractIndex(ctx, ""); return err }, 0},
		{"contracts", func() error { _, err := c.Contracts(ctx); return err }, 1},
	}
	for _, s := range steps {
		before, _ := c.Weight()
		if err := s.call(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if after, _ := c.Weight(); after-before != s.want {
			t.Errorf("%s weighed %d, want %d", s.name, after-before, s.want)
		}
	}
}

func TestQuote404(t *testing.T) {
	_, err := serverClient(t, http.NotFoundHandler()).Ticker24h(context.Background(), "ETHBTC")
	if !rest.IsNotFound(err) {
		t.Errorf("Ticker24h on a service without quote endpoints: %v, want IsNotFound", err)
	}
}

func TestQuoteEndpointsAgainstSim(t *testing.T) {
	c, log := startClient(t, sim.Options{})
	ctx := context.Background()

	d, err := c.Depth(ctx, "BTCUSDT", 5, false)
	if err != nil || len(d.Bids) == 0 || len(d.Bids) > 5 || len(d.Asks) == 0 {
		t.Errorf("Depth(BTCUSDT, 5) = %d bids %d asks, %v", len(d.Bids), len(d.Asks), err)
	}
	if cd, err := c.Depth(ctx, "BTC-PERP-REV", 0, true); err != nil || len(cd.Bids) == 0 {
		t.Errorf("contract Depth = %+v, %v", cd, err)
	}
	if tr, err := c.Trades(ctx, "BTCUSDT", 10, false); err != nil || len(tr) > 10 {
		t.Errorf("Trades = %d, %v", len(tr), err)
	}
	ks, err := c.Klines(ctx, rest.KlineRequest{Symbol: "ETHBTC", Interval: "5m", Limit: 3})
	if err != nil || len(ks) == 0 || len(ks) > 3 || ks[0].OpenTime%300000 != 0 {
		t.Errorf("Klines(5m, 3) = %+v, %v", ks, err)
	}
	if ck, err := c.Klines(ctx, rest.KlineRequest{Symbol: "ETH-PERP", Interval: "1m", Contract: true, Limit: 2}); err != nil || len(ck) == 0 {
		t.Errorf("contract Klines = %+v, %v", ck, err)
	}
	tk, err := c.Ticker24h(ctx, "BTCUSDT")
	if err != nil || tk.Symbol != "BTCUSDT" || tk.Last == "" || tk.BestBid == "" {
		t.Errorf("Ticker24h = %+v, %v", tk, err)
	}
	if all, err := c.Tickers24h(ctx); err != nil || len(all) < 2 {
		t.Errorf("Tickers24h = %d, %v", len(all), err)
	}
	if p, err := c.TickerPrice(ctx, "ETHBTC"); err != nil || p.Price == "" {
		t.Errorf("TickerPrice = %+v, %v", p, err)
	}
	if ps, err := c.TickerPrices(ctx); err != nil || len(ps) < 2 {
		t.Errorf("TickerPrices = %d, %v", len(ps), err)
	}
	if b, err := c.BookTicker(ctx, "BTCUSDT"); err != nil || b.BidPrice == "" || b.AskPrice == "" {
		t.Errorf("BookTicker = %+v, %v", b, err)
	}
	if bs, err := c.BookTickers(ctx); err != nil || len(bs) < 2 {
		t.Errorf("BookTickers = %d, %v", len(bs), err)
	}
	if ci, err := c.ContractIndex(ctx, ""); err != nil || ci.Index["BTCUSDT"] == "" {
		t.Errorf("ContractIndex = %+v, %v", ci, err)
	}
	if cs, err := c.Contracts(ctx); err != nil || len(cs) == 0 || cs[0].LastPrice == "" {
		t.Errorf("Contracts = %+v, %v", cs, err)
	}
	bi, err := c.BrokerInfo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rev rest.ContractSymbol
	for _, cs := range bi.Contracts {
		if cs.Symbol.Symbol == "BTC-PERP-REV" {
			rev = cs
		}
	}
	if !rev.Inverse || rev.Index != "BTCUSDT" || rev.Multiplier == "" || rev.MarginAsset != "BTC" {
		t.Errorf("BTC-PERP-REV = %+v", rev)
	}

	_, err = c.Ticker24h(ctx, "NOPE")
	var ae *rest.APIError
	if !errors.As(err, &ae) || ae.Code != -1121 {
		t.Errorf("Ticker24h(NOPE) = %v, want -1121", err)
	}
	for _, e := range log.entries(t) {
		if strings.HasPrefix(e.Path, "/openapi/quote/") && e.APIKey {
			t.Errorf("%s sent the API key: quote endpoints are security NONE", e.Path)
		}
	}
}

func TestQuoteEndpointsWithoutMarketData(t *testing.T) {
	s, _ := startSim(t, sim.Options{NoMarketData: true})
	_, err := client(s).Depth(context.Background(), "BTCUSDT", 0, false)
	if !rest.IsNotFound(err) {
		t.Errorf("Depth on --no-market-data = %v, want a 404", err)
	}
}
