package state

import (
	"reflect"
	"testing"

	"bhtop/gen"
)

// collidingStore is a store whose fill keys keep only the bits of keep:
// most keys are shared by several fills (keyOr), as two identities
// could share a 64-bit key by chance.
func collidingStore(limit int, keep uint64) *Store {
	s := NewStore(WithFillRetention(limit))
	s.fills.keyOr = ^keep
	return s
}

// TestFillKeyCollision: with every fill key the same, each fill is
// still found by its own identity: a repeat of either of two fills of one
// order (z keys shared) or of two trades (trade keys shared) is merged
// into its fill, never added again, and never taken for the other.
func TestFillKeyCollision(t *testing.T) {
	a := execFill(MarketSpot, "7", 10, "1", "0.05", "1", "")
	c := execFill(MarketSpot, "7", 11, "1", "0.05", "2", "")
	d := execFill(MarketSpot, "8", 12, "1", "0.05", "1", "")
	ta := execFill(MarketSpot, "9", 13, "1", "0.05", "1", "501")
	tc := execFill(MarketSpot, "9", 14, "1", "0.05", "2", "502")
	for _, limit := range []int{1, 2, 3, 10} {
		s, ref := collidingStore(limit, 0), NewStore(WithFillRetention(limit))
		for _, f := range [][]byte{a, c, a, c, d, a, d, ta, tc, ta, tc, c} {
			s.ApplyFrame(f, nil)
			ref.ApplyFrame(f, nil)
			if got, want := fillsOf(s), fillsOf(ref); !reflect.DeepEqual(got, want) {
				t.Fatalf("retention %d: fills with keys colliding %+v, want %+v", limit, got, want)
			}
		}
		if n := len(fillsOf(s)); n != min(limit, 5) {
			t.Fatalf("retention %d: %d fills, want %d", limit, n, min(limit, 5))
		}
	}
	s := collidingStore(10, 0)
	fold(s, a, c, a, c, a)
	s.ApplyTrades([]TradeSnap{{Market: MarketSpot, TradeID: "77", OrderID: "7", Qty: "1", Price: "0.05"}})
	if fills := fillsOf(s); len(fills) != 2 || fills[0].TradeID != "77" || fills[1].TradeID != "" {
		t.Fatalf("fills = %+v, want z 1 with trade 77, then z 2", fills)
	}
}

// TestFillKeyCollisionsAgree: the gen corpus folded with fill keys of 2
// and 8 bits (most keys shared) keeps the fills of the usual keys, at
// every retention and snapshot.
func TestFillKeyCollisionsAgree(t *testing.T) {
	frames := gen.Frames(gen.Options{Events: 6000, Seed: 11})
	for _, keep := range []int{1, 7, 100, 1000} {
		for _, bits := range []uint64{3, 0xff} {
			s, ref := collidingStore(keep, bits), NewStore(WithFillRetention(keep))
			for i, f := range frames {
				s.ApplyFrame(f.Data, nil)
				ref.ApplyFrame(f.Data, nil)
				if i%499 == 0 || i == len(frames)-1 {
					if a, b := s.Snapshot().Fills, ref.Snapshot().Fills; !reflect.DeepEqual(a, b) {
						t.Fatalf("retention %d, keys of mask %#x, after %d frames: fills %+v, want %+v", keep, bits, i+1, a, b)
					}
				}
			}
		}
	}
}
