package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"bhtop/event"
	"bhtop/market"
	"bhtop/sim"
	"bhtop/state"
)

// keysOf lists the members of a JSON object in order.
func keysOf(t *testing.T, b []byte) []string {
	t.Helper()
	var keys []string
	if !event.Fields(b, func(k, _ []byte) { keys = append(keys, string(k)) }) {
		t.Fatalf("not a JSON object: %s", b)
	}
	return keys
}

func TestDumpJSONComposition(t *testing.T) {
	s := &state.Snapshot{
		Balances: []state.Balance{{Asset: "BTC", Free: "1", Locked: "0.5"}, {Asset: "XYZ", Free: "2", Locked: "0"}},
		Positions: []state.Position{{AccountID: "1", Symbol: "ETH-PERP", Side: "LONG", AvgPrice: "3000", Total: "2",
			Available: "2", LiquidationPrice: "2500", Margin: "600", RealizedPnl: "0"}},
	}
	m := &market.Snapshot{Version: 3,
		Quotes: map[string]market.Quote{
			"BTCUSDT":  {Symbol: "BTCUSDT", Last: "60000", Bid: "59999.5", Ask: "60000.5", Updated: 1700000000000},
			"ETH-PERP": {Symbol: "ETH-PERP", Last: "3010", Mark: "3010", Index: "3009.5", Updated: 1700000000001},
		},
		Instruments: map[string]market.Instrument{
			"BTCUSDT":  {Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT", Multiplier: "1"},
			"ETH-PERP": {Symbol: "ETH-PERP", Base: "ETH", Quote: "USDT", Contract: true, Multiplier: "1", MarginAsset: "USDT"},
		},
	}
	b, err := dumpJSON(s, m, "USDT")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(keysOf(t, b), ","), "account,balances,orders,positions,pending,fills,stats,market,valuation"; got != want {
		t.Errorf("dump keys = %s, want %s", got, want)
	}
	var d struct {
		Positions []json.RawMessage
		Market    map[string]map[string]any
		Valuation struct {
			Asset, Equity string
			Unpriced      []string
			Assets        []map[string]any
		}
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(keysOf(t, d.Positions[0]), ","),
		"accountId,symbol,side,avgPrice,total,available,liquidationPrice,margin,realizedPnl,markPrice,unrealizedPnl"; got != want {
		t.Errorf("position keys = %s, want %s", got, want)
	}
	if !bytes.Contains(d.Positions[0], []byte(`"markPrice":"3010","unrealizedPnl":"20"`)) {
		t.Errorf("position = %s, want mark 3010 and PnL (3010-3000)*2 = 20", d.Positions[0])
	}
	btc := d.Market["BTCUSDT"]
	if btc["last"] != "60000" || btc["bid"] != "59999.5" || btc["ask"] != "60000.5" || btc["mark"] != nil ||
		btc["index"] != nil || btc["updated"] != float64(1700000000000) {
		t.Errorf("market BTCUSDT = %v", btc)
	}
	if p := d.Market["ETH-PERP"]; p["mark"] != "3010" || p["index"] != "3009.5" {
		t.Errorf("market ETH-PERP = %v", p)
	}
	// 1.5 BTC · 60000 + 20 USDT of PnL; XYZ is unpriced.
	v := d.Valuation
	if v.Asset != "USDT" || v.Equity != "90020" || len(v.Unpriced) != 1 || v.Unpriced[0] != "XYZ" || len(v.Assets) != 2 {
		t.Errorf("valuation = %+v", v)
	}
	if a := v.Assets[0]; a["asset"] != "BTC" || a["total"] != "1.5" || a["price"] != "60000" || a["value"] != "90000" {
		t.Errorf("BTC asset = %v", a)
	}
	if a := v.Assets[1]; a["price"] != nil || a["value"] != nil {
		t.Errorf("XYZ asset = %v, want price and value null", a)
	}

	// Without market data: market {}, valuation null, positions' market
	// fields null.
	b, err = dumpJSON(s, nil, "USDT")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"market":{}`, `"valuation":null`, `"markPrice":null,"unrealizedPnl":null`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("dump without market data lacks %s: %s", want, b)
		}
	}
}

// dumpSim starts a simulator for the dump tests with the orderKey pair.
func dumpSim(t *testing.T, opts sim.Options) (*sim.Server, *lockedLog) {
	t.Helper()
	log := &lockedLog{}
	opts.RequestLog = log
	if opts.MarketInterval == 0 {
		opts.MarketInterval = 500 * time.Millisecond // the simulator's own default walk
	}
	return keyedSim(t, opts).Server, log
}

// dumpObject runs `bhtop dump` with args and decodes its output.
func dumpObject(t *testing.T, s *sim.Server, args ...string) map[string]json.RawMessage {
	t.Helper()
	d, _ := dumpOK[map[string]json.RawMessage](t, orderEnv(t, s, nil), args...)
	return d
}

// TestDumpWithoutQuoteEndpoints: a service whose quote endpoints answer
// 404 still dumps, with market {} and valuation null, exit 0; --no-market
// sends no quote request at all.
func TestDumpWithoutQuoteEndpoints(t *testing.T) {
	s, log := dumpSim(t, noMarketData())
	d := dumpObject(t, s, "--for", "2s")
	if string(d["market"]) != "{}" || string(d["valuation"]) != "null" {
		t.Errorf("market %s, valuation %s; want {} and null", d["market"], d["valuation"])
	}
	if !log.has("GET", "/openapi/v1/account", "") {
		t.Error("the account was never fetched")
	}

	s2, log2 := dumpSim(t, sim.Options{})
	d = dumpObject(t, s2, "--for", "1s", "--no-market")
	if string(d["market"]) != "{}" || string(d["valuation"]) != "null" {
		t.Errorf("--no-market: market %s, valuation %s; want {} and null", d["market"], d["valuation"])
	}
	if strings.Contains(log2.String(), "/openapi/quote/") {
		t.Errorf("--no-market sent quote requests:\n%s", log2.String())
	}
}

// TestDumpWithMarketData: against the simulator's market, the dump holds
// quotes of the touched symbols and the watch list, and a valuation in
// --value-in.
func TestDumpWithMarketData(t *testing.T) {
	s, _ := dumpSim(t, sim.Options{MarketActivity: 20})
	d := dumpObject(t, s, "--for", "3s", "--watch", "ltcbtc", "--value-in", "USDT")
	var mkt map[string]struct {
		Last, Bid, Ask, Mark, Index *string
		Updated                     int64
	}
	if err := json.Unmarshal(d["market"], &mkt); err != nil {
		t.Fatal(err)
	}
	for _, sym := range []string{"BTCUSDT", "LTCBTC"} {
		q, ok := mkt[sym]
		if !ok || q.Last == nil || q.Bid == nil || q.Ask == nil || q.Updated == 0 || q.Mark != nil {
			t.Errorf("market %s = %+v (present %v), want last, bid, ask, updated; mark null (spot); market: %s; balances %s", sym, q, ok, d["market"], d["balances"])
		}
	}
	var v struct {
		Asset, Equity string
		Unpriced      []string
		Assets        []struct {
			Asset, Total string
			Price, Value *string
		}
	}
	if err := json.Unmarshal(d["valuation"], &v); err != nil || v.Asset != "USDT" || v.Equity == "" || v.Unpriced == nil {
		t.Fatalf("valuation = %s (%v)", d["valuation"], err)
	}
	for _, a := range v.Assets {
		if a.Asset == "USDT" && (a.Price == nil || *a.Price != "1" || a.Value == nil) {
			t.Errorf("USDT asset = %+v, want price 1", a)
		}
	}
}
