package rest

import "testing"

// The myTrades payloads of the docs (API-FACTS.md 'Trading extras').
const (
	docSpotTrades = `[{"symbol":"ETHBTC","id":28457,"orderId":100234,"matchOrderId":109834,"price":"4.00000100","qty":"12.00000000",
		"commission":"10.10000000","commissionAsset":"ETH","time":1499865549590,"isBuyer":true,"isMaker":false,
		"feeTokenId":"ETH","feeAmount":"10.10000000"}]`
	docContractTrades = `[{"time":"1570759718825","tradeId":"469961015902208000","orderId":"469961015902208001",
		"matchOrderId":"0","symbolId":"BTC-PERP-REV","price":"8531.17","quantity":"1","feeTokenId":"BTC",
		"fee":"0.00000007","type":"LIMIT","side":"SELL_CLOSE","pnl":"0.00000100"}]`
)

func TestTradeRecordsFromDocs(t *testing.T) {
	var spot []wireSpotTrade
	if err := decode([]byte(docSpotTrades), &spot); err != nil {
		t.Fatal(err)
	}
	want := TradeRecord{Symbol: "ETHBTC", TradeID: "28457", OrderID: "100234", Side: "BUY", Price: "4.00000100",
		Qty: "12.00000000", Commission: "10.10000000", CommissionAsset: "ETH", MakerKnown: true, Time: 1499865549590}
	if got := spot[0].record(); got != want {
		t.Errorf("spot record = %+v\nwant %+v", got, want)
	}
	var ctr []wireContractTrade
	if err := decode([]byte(docContractTrades), &ctr); err != nil {
		t.Fatal(err)
	}
	wantC := TradeRecord{Contract: true, Symbol: "BTC-PERP-REV", TradeID: "469961015902208000", OrderID: "469961015902208001",
		Side: "SELL", Close: true, Price: "8531.17", Qty: "1", Commission: "0.00000007", CommissionAsset: "BTC",
		Time: 1570759718825, RealizedPnl: "0.00000100"}
	if got := ctr[0].record(); got != wantC {
		t.Errorf("contract record = %+v\nwant %+v", got, wantC)
	}
	var maker []wireContractTrade
	if err := decode([]byte(`[{"tradeId":"1","orderId":"2","side":"BUY_OPEN","isMaker":"true"},{"tradeId":"3","orderId":"2","side":"BUY_OPEN","type":"TAKER"}]`), &maker); err != nil {
		t.Fatal(err)
	}
	if a, b := maker[0].record(), maker[1].record(); !a.Maker || !a.MakerKnown || b.Maker || !b.MakerKnown || a.Close {
		t.Errorf("maker flags: %+v %+v", a, b)
	}
}

func TestIDArithmetic(t *testing.T) {
	for _, tt := range []struct{ in, dec string }{{"1", "0"}, {"10", "9"}, {"1000", "999"}, {"469961015902208000", "469961015902207999"}, {"0", "0"}} {
		if got := decrementID(tt.in); got != tt.dec {
			t.Errorf("decrementID(%s) = %s, want %s", tt.in, got, tt.dec)
		}
	}
	if compareIDs("99", "100") >= 0 || compareIDs("0100", "100") != 0 || compareIDs("469961015902208001", "469961015902208000") <= 0 {
		t.Error("compareIDs")
	}
}

// FuzzTradeRecords: any JSON decodes into records without panicking, and
// ids and decimals are kept as the literal text.
func FuzzTradeRecords(f *testing.F) {
	f.Add([]byte(docSpotTrades), true)
	f.Add([]byte(docContractTrades), false)
	f.Add([]byte(`[{"id":1e400,"price":-0.0,"isBuyer":"maybe"}]`), true)
	f.Fuzz(func(t *testing.T, in []byte, spot bool) {
		if spot {
			var ws []wireSpotTrade
			if decode(in, &ws) == nil {
				for _, w := range ws {
					if r := w.record(); r.TradeID != string(w.ID) || r.Qty != string(w.Qty) {
						t.Fatalf("record %+v of %+v", r, w)
					}
				}
			}
			return
		}
		var ws []wireContractTrade
		if decode(in, &ws) == nil {
			for _, w := range ws {
				r := w.record()
				if r.TradeID != string(w.TradeID) || !r.Contract {
					t.Fatalf("record %+v of %+v", r, w)
				}
			}
		}
	})
}
