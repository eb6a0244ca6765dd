package ui

import (
	"maps"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	declit "bhtop/dec"
	"bhtop/state"
)

// feeSums is the Fills pane's fee note over one snapshot's fills, with
// what it was summed from, so that the next snapshot's note costs only
// the fills it evicted and added. It means what actions.FeeTotals does:
// the totals of the fills shown (the kept ones), per asset, each asset
// that has at least one parsed commission.
type feeSums struct {
	fills []state.Fill // the fills summed; held, so their identity is theirs alone
	sums  map[string]feeSum
	note  string
}

// feeSum is one asset's total and how many fills make it up (at zero
// fills the asset leaves the note, as FeeTotals leaves it out).
type feeSum struct {
	total decimal.Decimal
	n     int
}

// same reports whether fills are exactly the fills summed: the same rows
// in memory (a snapshot never rewrites a row it shows).
func (f *feeSums) same(fills []state.Fill) bool {
	return len(fills) == len(f.fills) && (len(fills) == 0 || &fills[0] == &f.fills[0])
}

// next returns the sums over fills, built from f's when fills continue
// f's (the oldest ones evicted, new ones appended past them: how a
// Store's snapshots follow each other), else summed afresh.
func (f *feeSums) next(fills []state.Fill) *feeSums {
	k := f.shift(fills)
	if k < 0 {
		return newFeeSums(fills)
	}
	out := &feeSums{fills: fills, sums: make(map[string]feeSum, len(f.sums))}
	for a, s := range f.sums {
		out.sums[a] = s
	}
	for i := range f.fills[:k] {
		out.add(&f.fills[i], -1)
	}
	for i := len(f.fills) - k; i < len(fills); i++ {
		out.add(&fills[i], 1)
	}
	out.note = out.format()
	return out
}

// shift is how many of f's oldest fills fills no longer shows when the
// rest of f's are fills' first ones (the same rows in memory), else -1.
func (f *feeSums) shift(fills []state.Fill) int {
	if len(fills) == 0 || len(f.fills) == 0 {
		return -1
	}
	for k := range f.fills {
		if &f.fills[k] == &fills[0] {
			if len(fills) < len(f.fills)-k {
				return -1
			}
			return k
		}
	}
	return -1
}

func newFeeSums(fills []state.Fill) *feeSums {
	out := &feeSums{fills: fills, sums: map[string]feeSum{}}
	for i := range fills {
		out.add(&fills[i], 1)
	}
	out.note = out.format()
	return out
}

// add adds (sign 1) or takes away (-1) one fill's commission.
func (f *feeSums) add(x *state.Fill, sign int) {
	if x.CommissionAsset == "" {
		return
	}
	c, ok := declit.Parse(x.Commission)
	if !ok {
		return
	}
	s := f.sums[x.CommissionAsset]
	if sign < 0 {
		s.total, s.n = s.total.Sub(c), s.n-1
	} else {
		s.total, s.n = s.total.Add(c), s.n+1
	}
	if s.n == 0 {
		delete(f.sums, x.CommissionAsset)
		return
	}
	f.sums[x.CommissionAsset] = s
}

// format is the note: "fees 1.5 BNB · 0.3 USDT", by asset.
func (f *feeSums) format() string {
	if len(f.sums) == 0 {
		return ""
	}
	assets := slices.Sorted(maps.Keys(f.sums))
	parts := make([]string, len(assets))
	for i, a := range assets {
		parts[i] = f.sums[a].total.String() + " " + a
	}
	return "fees " + strings.Join(parts, " · ")
}
