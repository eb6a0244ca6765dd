package market

import "testing"

// TestStoreUnchangedBarPublishesNothing: the service pushes the current
// bar every second; the same bar again leaves the store clean, so a quiet
// market publishes nothing and wakes no reader.
func TestStoreUnchangedBarPublishesNothing(t *testing.T) {
	s := testStore()
	bar := `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":60000,"c":"2","h":"2","l":"1","o":"1","v":"3"}]}`
	push(t, s, bar)
	first := s.Publish()
	push(t, s, bar)
	if again := s.Publish(); again != first {
		t.Errorf("the same bar again published version %d after %d, want nothing new", again.Version, first.Version)
	}
	push(t, s, `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":60000,"c":"3","h":"3","l":"1","o":"1","v":"4"}]}`)
	if next := s.Publish(); next == first || next.Candles[CandleKey("BTCUSDT", "1m")].At(0).Close != "3" {
		t.Errorf("a changed bar was not published")
	}
}
