package state

import (
	"bytes"
	"reflect"
	"testing"
)

// filled is execFill of an update that fills the order (FILLED).
func filled(mkt, id string, e int64, l, price, z string) []byte {
	return bytes.Replace(execFill(mkt, id, e, l, price, z, ""), []byte("PARTIALLY_FILLED"), []byte("FILLED"), 1)
}

// TestFillCoverRepeats: a usual fill above every z of its order's fills
// is added without a look in the z index (foldExecFill); a repeat is
// still found when its z is not above (an update with a greater E
// repeating an earlier fill), when the ordering rules refused the fill
// that it repeats (wild), and when that fill's order was dropped and made
// again (orphan). Each against the store that looks every fill up
// (eager).
func TestFillCoverRepeats(t *testing.T) {
	for _, c := range []struct {
		name   string
		frames [][]byte
		want   int
	}{
		{"repeat with a greater E", [][]byte{
			execFill(MarketSpot, "7", 30, "1", "0.05", "1", ""),
			execFill(MarketSpot, "7", 31, "1", "0.05", "2", ""),
			execFill(MarketSpot, "7", 32, "1", "0.05", "1", ""), // applied (E greater), z 1 again
			execFill(MarketSpot, "7", 33, "1", "0.05", "3", ""),
		}, 3},
		{"repeat of a refused fill", [][]byte{
			execFill(MarketSpot, "7", 20, "1", "0.05", "1", ""),
			execFill(MarketSpot, "7", 18, "2", "0.05", "3", ""), // stale: refused, its fill kept
			execFill(MarketSpot, "7", 25, "2", "0.05", "3", ""), // applied, above the order's fills
			execFill(MarketSpot, "7", 26, "1", "0.05", "4", ""),
		}, 3},
		{"repeat of a dropped order's fill", [][]byte{
			execFill(MarketSpot, "7", 10, "1", "0.05", "1", ""),
			filled(MarketSpot, "7", 11, "1", "0.05", "2"),       // closed: dropped at once (retention 0)
			execFill(MarketSpot, "7", 12, "1", "0.05", "1", ""), // E above the tombstone's: made again
			execFill(MarketSpot, "7", 13, "1", "0.05", "2", ""),
			execFill(MarketSpot, "7", 14, "1", "0.05", "3", ""),
		}, 3},
		{"z by value, written apart", [][]byte{
			execFill(MarketContract, "9", 10, "1", "3000", "1.50", ""),
			execFill(MarketContract, "9", 11, "1", "3000", "2.5", ""),
			execFill(MarketContract, "9", 12, "1", "3000", "1.5", ""),
			execFill(MarketContract, "9", 13, "1", "3000", "00002.500", ""),
			execFill(MarketContract, "9", 14, "1", "3000", "0.000000000000000000001", ""),
			execFill(MarketContract, "9", 15, "1", "3000", "3", ""),
			execFill(MarketContract, "9", 16, "1", "3000", "3.000000000000000000000001", ""), // over 19 digits: unbounded
			execFill(MarketContract, "9", 17, "1", "3000", "4", ""),
			execFill(MarketContract, "9", 18, "1", "3000", "3", ""),
		}, 6},
	} {
		for _, limit := range []int{1, 2, 3, 100} {
			s := NewStore(WithRetention(0), WithFillRetention(limit))
			eager := NewStore(WithRetention(0), WithFillRetention(limit))
			eager.fills.eager = true
			for i, f := range c.frames {
				s.ApplyFrame(f, nil)
				eager.ApplyFrame(f, nil)
				if got, want := fillsOf(s), fillsOf(eager); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, retention %d, after %d frames: fills %+v, looked up %+v", c.name, limit, i+1, got, want)
				}
			}
			if n := len(fillsOf(s)); n != min(limit, c.want) {
				t.Errorf("%s, retention %d: %d fills, want %d", c.name, limit, n, min(limit, c.want))
			}
		}
	}
}

// TestZAbove: zAbove orders decimals by magnitude as decValue and
// zRank give them.
func TestZAbove(t *testing.T) {
	lits := []string{"0", "0.000000000000000000001", "0.05", "0.5", "0.50001", "1", "1.5", "2", "10", "10.5", "99", "100", "1000000000000000000"}
	rank := func(lit string) (int64, uint64) {
		sig, exp, _ := decValue([]byte(lit))
		return zRank(sig, exp)
	}
	for i, a := range lits {
		for j, b := range lits {
			ea, ma := rank(a)
			eb, mb := rank(b)
			if got := zAbove(ea, ma, eb, mb); got != (i > j) {
				t.Errorf("zAbove(%s, %s) = %v", a, b, got)
			}
		}
		e, m := rank(a)
		if zAbove(e, m, 1<<63-1, 1<<64-1) {
			t.Errorf("zAbove(%s, unbounded) = true", a)
		}
	}
}
