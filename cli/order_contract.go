package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
)

// The contract side of `bhtop order`: new --market contract, close and
// cancel-all.

func (f *orderFlags) isContract() bool { return f.market == "contract" }

// contractRequest checks the flags of `order new --market contract` that
// need no filters and builds the request.
func (f *orderFlags) contractRequest() (rest.ContractOrderRequest, error) {
	r := rest.ContractOrderRequest{
		Symbol: strings.ToUpper(f.symbol), Side: strings.ToUpper(f.side), OrderType: strings.ToUpper(f.orderType),
		Quantity: f.quantity, Price: f.price, PriceType: strings.ToUpper(f.priceType), TriggerPrice: f.trigger, OverPrice: f.overPrice,
		Leverage: f.leverage, TimeInForce: strings.ToUpper(f.tif), ClientOrderID: f.clientOrderID,
	}
	if r.Symbol == "" {
		return r, errors.New("--symbol is required")
	}
	if err := symbolName("--symbol", r.Symbol); err != nil {
		return r, err
	}
	if f.typ != "LIMIT" {
		return r, errors.New("--type is for spot orders; contract orders take --order-type LIMIT|STOP and --price-type")
	}
	// Everything but the filters (checked once brokerInfo is known).
	if p := actions.CheckContractOrder(rest.ContractSymbol{Symbol: rest.Symbol{Symbol: r.Symbol}}, r, ""); len(p) > 0 {
		return r, flagProblems(p)
	}
	return r, nil
}

// flagProblems names the flags of the failed checks.
func flagProblems(p actions.Problems) error {
	flags := map[string]string{"side": "--side", "orderType": "--order-type", "priceType": "--price-type",
		"timeInForce": "--tif", "quantity": "--quantity", "price": "--price", "triggerPrice": "--trigger-price",
		"overPrice": "--over-price", "leverage": "--leverage"}
	parts := make([]string, 0, len(p))
	for _, e := range p {
		name := flags[e.Field]
		if name == "" {
			name = e.Field
		}
		parts = append(parts, name+": "+e.Msg)
	}
	return errors.New(strings.Join(parts, "; "))
}

// placeContract checks the order against the contract's filters
// (brokerInfo; skipped when the service lists no contracts) and sends it
// once.
func (f *orderFlags) placeContract(ctx context.Context, tr *rest.Trader) rest.OrderResult {
	req, _ := f.contractRequest()
	return f.checkAndPlace(ctx, tr, req)
}

// checkAndPlace checks req against its contract's filters, then sends it
// once (new --market contract, close).
func (f *orderFlags) checkAndPlace(ctx context.Context, tr *rest.Trader, req rest.ContractOrderRequest) rest.OrderResult {
	bi, err := tr.Client().BrokerInfo(ctx)
	if err != nil {
		return f.notSent(fmt.Errorf("reading the contract's filters: %w", err))
	}
	for _, sym := range bi.Contracts {
		if sym.Symbol.Symbol == req.Symbol {
			if p := actions.CheckContractOrder(sym, req, ""); len(p) > 0 {
				return f.notSent(flagProblems(p))
			}
			return tr.PlaceContractOrder(ctx, req)
		}
	}
	if len(bi.Contracts) > 0 {
		return f.notSent(fmt.Errorf("%s is not one of the service's contracts", req.Symbol))
	}
	return tr.PlaceContractOrder(ctx, req) // no contract list: the service checks
}

// closeSide checks the flags of `order close`.
func (f *orderFlags) closeSide() (string, error) {
	side := strings.ToUpper(f.side)
	switch {
	case f.symbol == "":
		return "", errors.New("--symbol is required")
	case symbolName("--symbol", strings.ToUpper(f.symbol)) != nil:
		return "", symbolName("--symbol", strings.ToUpper(f.symbol))
	case side != "LONG" && side != "SHORT":
		return "", fmt.Errorf("--side %q: want LONG or SHORT (the position to close)", f.side)
	case f.quantity != "" && !orderDecimalRE.MatchString(f.quantity):
		return "", fmt.Errorf("--quantity %q: want a decimal such as 10", f.quantity)
	case f.price != "" || f.leverage != "" || f.priceType != "" || f.trigger != "" || f.overPrice != "":
		return "", errors.New("close takes --symbol, --side and --quantity only (priceType OPPONENT)")
	}
	return side, nil
}

// closePosition reads the position and sends its closing order once.
func (f *orderFlags) closePosition(ctx context.Context, tr *rest.Trader) rest.OrderResult {
	side, _ := f.closeSide()
	recs, err := tr.Client().ContractPositions(ctx)
	if err != nil {
		return f.notSent(fmt.Errorf("reading the positions: %w", err))
	}
	rows := make([]state.Position, len(recs))
	for i, r := range recs {
		rows[i] = actions.PositionOf(r)
	}
	p, err := actions.FindPosition(rows, strings.ToUpper(f.symbol), side)
	if err != nil {
		return f.notSent(err)
	}
	req, err := actions.CloseOrder(p, f.quantity)
	if err != nil {
		return f.notSent(err)
	}
	req.ClientOrderID = f.clientOrderID
	return f.checkAndPlace(ctx, tr, req)
}

// cancelAll is `order cancel-all`: it lists the open orders (of --symbol
// and --market when given), cancels them and prints the counts. Exit 0
// when none failed or is unknown, 3 when some are unknown and none
// failed, 1 otherwise.
func (f *orderFlags) cancelAll(ctx context.Context, client *rest.Client, stdio IO) int {
	sum := actions.Summary{Errors: []string{}}
	targets, err := f.openTargets(ctx, client)
	if err == nil {
		c := actions.Canceller{Trader: rest.NewTrader(client)}
		sum = c.CancelAll(ctx, targets)
	} else {
		sum.Errors = append(sum.Errors, "listing the open orders: "+err.Error())
		sum.Failed = 1
	}
	printResult(stdio, sum)
	switch {
	case sum.Failed > 0:
		return ExitFail
	case sum.Unknown > 0:
		return ExitUnknown
	}
	return ExitOK
}

// openTargets lists the open orders cancel-all is for.
func (f *orderFlags) openTargets(ctx context.Context, client *rest.Client) ([]actions.Target, error) {
	if err := client.SyncTime(ctx); err != nil {
		return nil, err
	}
	if _, err := client.BrokerInfo(ctx); err != nil { // the governor learns the real limits
		return nil, err
	}
	symbol := strings.ToUpper(f.symbol)
	var out []actions.Target
	if f.market != "contract" {
		recs, err := client.OpenOrders(ctx, symbol, 1000)
		if err != nil {
			return nil, fmt.Errorf("spot: %w", err)
		}
		for _, r := range recs {
			out = append(out, actions.Target{Market: state.MarketSpot, Symbol: r.Symbol, OrderID: r.OrderID, ClientOrderID: r.ClientOrderID})
		}
	}
	if f.market != "spot" {
		recs, err := client.ContractOpenOrders(ctx, 1000)
		if err != nil && f.market == "contract" {
			return nil, fmt.Errorf("contract: %w", err)
		}
		for _, r := range recs {
			if symbol == "" || r.Symbol == symbol {
				out = append(out, actions.Target{Market: state.MarketContract, Symbol: r.Symbol, OrderID: r.OrderID, ClientOrderID: r.ClientOrderID})
			}
		}
	}
	return out, nil
}
