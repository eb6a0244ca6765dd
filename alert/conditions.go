package alert

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/dec"
)

// verdicts evaluates a level rule (every kind but fill and order_rejected).
func (ev *evaluation) verdicts(r Rule) []verdict {
	switch r.Kind {
	case KindBalanceBelow:
		return []verdict{ev.balanceBelow(r)}
	case KindEquityBelow:
		return []verdict{ev.equityBelow(r)}
	case KindPnLBelow:
		return []verdict{ev.pnlBelow(r)}
	case KindLiquidationWithin:
		return ev.liquidationWithin(r)
	case KindStreamSilent:
		return []verdict{ev.streamSilent(r)}
	case KindPriceCross:
		return []verdict{ev.priceCross(r)}
	}
	return nil
}

func (ev *evaluation) balanceBelow(r Rule) verdict {
	if !ev.Ready {
		return verdict{}
	}
	total := decimal.Zero // an asset with no balance row holds nothing
	for _, b := range ev.State.Balances {
		if b.Asset == r.Asset {
			free, ok1 := dec.Parse(b.Free)
			locked, ok2 := dec.Parse(b.Locked)
			if !ok1 || !ok2 {
				return verdict{}
			}
			total = free.Add(locked)
			break
		}
	}
	return verdict{known: true, holds: total.LessThan(*r.Below),
		message: fmt.Sprintf("%s balance %s is below %s", r.Asset, total, r.Below)}
}

func (ev *evaluation) equityBelow(r Rule) verdict {
	eq, in, ok := ev.equity()
	if !ok {
		return verdict{}
	}
	return verdict{known: true, holds: eq.LessThan(*r.Below),
		message: fmt.Sprintf("equity %s %s is below %s", eq.Round(8), in, r.Below)}
}

// pnlBelow sums the unrealized PnL of the symbol's positions (both sides);
// no position is no PnL to warn about (false).
func (ev *evaluation) pnlBelow(r Rule) verdict {
	v := ev.valuation()
	if v == nil {
		return verdict{}
	}
	sum, n, asset := decimal.Zero, 0, ""
	for _, p := range v.Positions {
		if p.Symbol != r.Symbol {
			continue
		}
		if p.Unrealized == nil {
			return verdict{}
		}
		sum, n, asset = sum.Add(*p.Unrealized), n+1, p.PnLAsset
	}
	if n == 0 {
		return verdict{known: true}
	}
	return verdict{known: true, holds: sum.LessThan(*r.Below),
		message: fmt.Sprintf("%s unrealized PnL %s %s is below %s", r.Symbol, sum.Round(8), asset, r.Below)}
}

// liquidationWithin has one subject per position: symbol and side; nil
// without a valuation (unknown: no subject is re-armed), empty without
// positions (each closed one is).
func (ev *evaluation) liquidationWithin(r Rule) []verdict {
	v := ev.valuation()
	if v == nil {
		return nil
	}
	out := make([]verdict, 0, len(v.Positions))
	for _, p := range v.Positions {
		vd := verdict{subject: p.Symbol + " " + p.Side}
		if p.LiquidationPct != nil {
			dist := p.LiquidationPct.Abs()
			vd.known, vd.holds = true, dist.LessThanOrEqual(r.Percent)
			vd.message = fmt.Sprintf("%s %s is %s%% from liquidation (alert within %s%%)", p.Symbol, p.Side, dist.Round(2), r.Percent)
		}
		out = append(out, vd)
	}
	return out
}

func (ev *evaluation) streamSilent(r Rule) verdict {
	from := ev.Stream.LastFrame
	if from.IsZero() {
		from = ev.Stream.Since
	}
	if from.IsZero() {
		return verdict{}
	}
	quiet := ev.Now.Sub(from)
	return verdict{known: true, holds: quiet >= r.After,
		message: fmt.Sprintf("user stream silent for %s (alert after %s)", quiet.Round(time.Second), r.After)}
}

// priceCross compares the symbol's last price (a contract's mark when no
// trade is known) with the threshold: strictly above or below.
func (ev *evaluation) priceCross(r Rule) verdict {
	if ev.Market == nil {
		return verdict{}
	}
	q, ok := ev.Market.Quotes[r.Symbol]
	if !ok {
		return verdict{}
	}
	text := q.Last
	if text == "" {
		text = q.Mark
	}
	p, ok := dec.Parse(text)
	if !ok {
		return verdict{}
	}
	if r.Above != nil {
		return verdict{known: true, holds: p.GreaterThan(*r.Above),
			message: fmt.Sprintf("%s price %s crossed above %s", r.Symbol, text, r.Above)}
	}
	return verdict{known: true, holds: p.LessThan(*r.Below),
		message: fmt.Sprintf("%s price %s crossed below %s", r.Symbol, text, r.Below)}
}
