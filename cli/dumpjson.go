package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/shopspring/decimal"

	"bhtop/event"
	"bhtop/market"
	"bhtop/state"
	"bhtop/stream"
	"bhtop/value"
)

// The dump JSON of DESIGN.md with the market context: the state dump's
// keys in their order (whatever keys state.Snapshot has), each position
// with "markPrice" and "unrealizedPnl", then "market" and "valuation".

// dumpPosition is a state position with its market values (null when
// unknown).
type dumpPosition struct {
	state.Position
	MarkPrice     *string `json:"markPrice"`
	UnrealizedPnl *string `json:"unrealizedPnl"`
}

// dumpQuote is one symbol of "market": decimal strings or null.
type dumpQuote struct {
	Last    *string `json:"last"`
	Bid     *string `json:"bid"`
	Ask     *string `json:"ask"`
	Mark    *string `json:"mark"`
	Index   *string `json:"index"`
	Updated int64   `json:"updated"`
}

// dumpValuation is "valuation".
type dumpValuation struct {
	Asset    string       `json:"asset"`
	Equity   string       `json:"equity"`
	Unpriced []string     `json:"unpriced"`
	Assets   []dumpAssetV `json:"assets"`
}

type dumpAssetV struct {
	Asset string  `json:"asset"`
	Total string  `json:"total"`
	Price *string `json:"price"`
	Value *string `json:"value"`
}

// dumpMember is a key a command adds to the dump after the others (bhtop
// dump's "alerts").
type dumpMember struct {
	Key   string
	Value any
}

// writeDump writes the dump of s valued against m (nil: no market data)
// in asset valueIn, then the extra members; indent "" writes one line.
func writeDump(w io.Writer, s *state.Snapshot, m *market.Snapshot, valueIn, indent string, extra ...dumpMember) error {
	b, err := dumpJSON(s, m, valueIn, extra...)
	if err != nil {
		return fmt.Errorf("write state dump: %w", err)
	}
	if indent != "" {
		var out bytes.Buffer
		if err := json.Indent(&out, b, "", indent); err != nil {
			return fmt.Errorf("write state dump: %w", err)
		}
		b = out.Bytes()
	}
	if _, err := w.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write state dump: %w", err)
	}
	return nil
}

// dumpJSON composes the dump on one line.
func dumpJSON(s *state.Snapshot, m *market.Snapshot, valueIn string, extra ...dumpMember) ([]byte, error) {
	base, err := marshal(s)
	if err != nil {
		return nil, err
	}
	v := value.Of(s, m, valueIn)
	positions, err := marshal(dumpPositions(s, v))
	if err != nil {
		return nil, err
	}
	mkt, err := marshal(dumpMarket(m))
	if err != nil {
		return nil, err
	}
	val, err := marshal(dumpValue(v))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	member := func(k string, v []byte) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
	}
	ok := event.Fields(base, func(k, v []byte) {
		if string(k) == "positions" {
			v = positions
		}
		member(string(k), v)
	})
	if !ok {
		return nil, fmt.Errorf("the state snapshot did not encode as a JSON object")
	}
	member("market", mkt)
	member("valuation", val)
	for _, x := range extra {
		b, err := marshal(x.Value)
		if err != nil {
			return nil, err
		}
		member(x.Key, b)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping and without the newline.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func decPtr(d *decimal.Decimal) *string {
	if d == nil {
		return nil
	}
	s := d.String()
	return &s
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// dumpPositions pairs each position with its mark and unrealized PnL.
func dumpPositions(s *state.Snapshot, v *value.Valuation) []dumpPosition {
	out := make([]dumpPosition, len(s.Positions))
	for i, p := range s.Positions {
		out[i].Position = p
		if v != nil && i < len(v.Positions) {
			out[i].MarkPrice = decPtr(v.Positions[i].Mark)
			out[i].UnrealizedPnl = decPtr(v.Positions[i].Unrealized)
		}
	}
	return out
}

// dumpMarket is "market": {} without market data.
func dumpMarket(m *market.Snapshot) map[string]dumpQuote {
	out := map[string]dumpQuote{}
	if m == nil {
		return out
	}
	for sym, q := range m.Quotes {
		out[sym] = dumpQuote{Last: strPtr(q.Last), Bid: strPtr(q.Bid), Ask: strPtr(q.Ask),
			Mark: strPtr(q.Mark), Index: strPtr(q.Index), Updated: q.Updated}
	}
	return out
}

// dumpValue is "valuation": null without market data.
func dumpValue(v *value.Valuation) *dumpValuation {
	if v == nil {
		return nil
	}
	d := &dumpValuation{Asset: v.Asset, Equity: v.Equity.String(), Unpriced: v.Unpriced,
		Assets: make([]dumpAssetV, len(v.Assets))}
	if d.Unpriced == nil {
		d.Unpriced = []string{}
	}
	for i, a := range v.Assets {
		d.Assets[i] = dumpAssetV{Asset: a.Asset, Total: a.Total.String(), Price: decPtr(a.Price), Value: decPtr(a.Value)}
	}
	return d
}

// dumpStream is `bhtop dump`'s "stream": how the account's user data
// stream was at the end of the run. A state other than "live" means the
// state printed is from before it went down (as of lastFrame, ms, null
// when no frame came).
type dumpStream struct {
	State     string `json:"state"`
	Reason    string `json:"reason"`
	LastFrame *int64 `json:"lastFrame"`
}

// streamAtEnd is the "stream" of a run that ended with status st (read
// before the session is closed).
func streamAtEnd(st stream.Status) dumpStream {
	d := dumpStream{State: string(st.State)}
	if st.State != stream.StateLive {
		d.Reason = notLiveReason(st)
	}
	if !st.LastFrame.IsZero() {
		ms := st.LastFrame.UnixMilli()
		d.LastFrame = &ms
	}
	return d
}

// downAtEnd is why a stream that went live was not live at the end ("" when
// it was): the state printed is stale, which the run's stderr says.
func downAtEnd(st stream.Status) string {
	if st.State == stream.StateLive {
		return ""
	}
	s := "the user stream was not live at the end (" + string(st.State) + ": " + notLiveReason(st) + "): the state printed is from before"
	if !st.LastFrame.IsZero() {
		s += ", its last frame at " + st.LastFrame.UTC().Format("15:04:05") + " UTC"
	}
	return s
}
