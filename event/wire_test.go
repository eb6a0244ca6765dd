package event

import (
	"encoding/json"
	"testing"
)

// TestAppendIsJSON: every encoder writes one valid JSON object.
func TestAppendIsJSON(t *testing.T) {
	for _, opt := range []EncodeOptions{{}, {Optional: true}} {
		outs := [][]byte{
			AppendAccount(nil, &AccountInfo{EventTime: 1, CanTrade: true, Balances: []BalanceChange{{"BTC", "1.5", "0"}, {"E\"T", "2", "0"}}}, opt),
			AppendExecution(nil, &ExecutionReport{EventTime: 2, Symbol: "ETHBTC", ClientOrderID: "1000087761", OrderID: "4293153", Status: "NEW"}, opt),
			AppendExecution(nil, &ExecutionReport{EventTime: 2, Symbol: "ETHBTC", ClientOrderID: "bh-x", OrderID: "4293153", CommissionAsset: "BTC"}, opt),
			AppendExecution(nil, &ExecutionReport{Contract: true, EventTime: 3, OrderID: "469961015902208000", Leverage: "10"}, opt),
			AppendPosition(nil, &PositionInfo{AccountID: "1", Symbol: "BTC-PERP-REV"}, opt),
		}
		for _, b := range outs {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Errorf("not JSON (%v): %s", err, b)
			}
		}
	}
}
