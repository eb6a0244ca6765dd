package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"maps"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode"

	"bhtop/config"
	"bhtop/rest"
)

// orderFlags are the flags of `bhtop order new|cancel|close|cancel-all`.
type orderFlags struct {
	conn                   *config.Flags
	market                 string
	symbol, side, typ, tif string
	quantity, price        string
	orderID, clientOrderID string
	leverage, priceType    string
	orderType, trigger     string
	overPrice              string
	timeout                time.Duration
}

func newOrderFlags(fs *flag.FlagSet) *orderFlags {
	f := &orderFlags{conn: config.AddFlags(fs)}
	fs.StringVar(&f.market, "market", "", "spot (default) or contract (new, cancel); cancel-all: both unless given")
	fs.StringVar(&f.symbol, "symbol", "", "symbol, e.g. BTCUSDT (new, close: required; cancel, cancel-all: optional)")
	fs.StringVar(&f.side, "side", "", "new: BUY or SELL (spot), BUY_OPEN, SELL_OPEN, BUY_CLOSE or SELL_CLOSE (contract); close: LONG or SHORT")
	fs.StringVar(&f.typ, "type", "LIMIT", "LIMIT, MARKET or LIMIT_MAKER (new, spot)")
	fs.StringVar(&f.tif, "tif", "", "time in force: GTC, IOC or FOK, contract also LIMIT_MAKER (new; spot: LIMIT only, default GTC)")
	fs.StringVar(&f.leverage, "leverage", "", "leverage of a contract order that opens (not for *_CLOSE)")
	fs.StringVar(&f.priceType, "price-type", "", "contract: INPUT (default: --price), OPPONENT, QUEUE, OVER or MARKET")
	fs.StringVar(&f.orderType, "order-type", "", "contract: LIMIT (default) or STOP (with --trigger-price); cancel: the order's type")
	fs.StringVar(&f.trigger, "trigger-price", "", "contract STOP orders: the trigger price")
	fs.StringVar(&f.overPrice, "over-price", "", "contract OVER orders: added to the best opposite price (a buy; taken off for a sell)")
	fs.StringVar(&f.quantity, "quantity", "", "quantity, a decimal (new; close: default the whole available quantity)")
	fs.StringVar(&f.price, "price", "", "price, a decimal (new; not for MARKET)")
	fs.StringVar(&f.orderID, "order-id", "", "order id to cancel (cancel)")
	fs.StringVar(&f.clientOrderID, "client-order-id", "", "cancel: the order's client order id; new: use this id instead of a generated one")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Second, "HTTP timeout of each request (no reply in time: outcome unknown)")
	return f
}

var orderDecimalRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)

// newRequest checks the flags of `order new` and builds the request.
func (f *orderFlags) newRequest() (rest.OrderRequest, error) {
	r := rest.OrderRequest{
		Symbol: strings.ToUpper(f.symbol), Side: strings.ToUpper(f.side), Type: strings.ToUpper(f.typ),
		TimeInForce: strings.ToUpper(f.tif), Quantity: f.quantity, Price: f.price, NewClientOrderID: f.clientOrderID,
	}
	if err := f.checkIDs(); err != nil {
		return r, err
	}
	switch {
	case r.Symbol == "":
		return r, errors.New("--symbol is required")
	case symbolName("--symbol", r.Symbol) != nil:
		return r, symbolName("--symbol", r.Symbol)
	case r.Side != "BUY" && r.Side != "SELL":
		return r, fmt.Errorf("--side %q: want BUY or SELL", f.side)
	case r.Type != "LIMIT" && r.Type != "MARKET" && r.Type != "LIMIT_MAKER":
		return r, fmt.Errorf("--type %q: want LIMIT, MARKET or LIMIT_MAKER", f.typ)
	case !orderDecimalRE.MatchString(r.Quantity):
		return r, fmt.Errorf("--quantity %q: want a decimal such as 0.001", f.quantity)
	case r.Type == "MARKET" && r.Price != "":
		return r, errors.New("--price is not allowed for a MARKET order")
	case r.Type != "LIMIT" && r.TimeInForce != "":
		return r, fmt.Errorf("--tif is not allowed for a %s order (time in force is for LIMIT)", r.Type)
	case r.Type != "MARKET" && !orderDecimalRE.MatchString(r.Price):
		return r, fmt.Errorf("--price %q: want a decimal such as 30000.5", f.price)
	}
	if r.Type == "LIMIT" && r.TimeInForce == "" {
		r.TimeInForce = "GTC"
	}
	if r.TimeInForce != "" && r.TimeInForce != "GTC" && r.TimeInForce != "IOC" && r.TimeInForce != "FOK" {
		return r, fmt.Errorf("--tif %q: want GTC, IOC or FOK", f.tif)
	}
	return r, nil
}

// cancelRequest checks the flags of `order cancel` and builds the request.
func (f *orderFlags) cancelRequest() (rest.CancelRequest, error) {
	r := rest.CancelRequest{Symbol: strings.ToUpper(f.symbol), OrderID: f.orderID, ClientOrderID: f.clientOrderID,
		Contract: f.isContract(), OrderType: strings.ToUpper(f.orderType)}
	if r.OrderID == "" && r.ClientOrderID == "" {
		return r, errors.New("--order-id or --client-order-id is required")
	}
	if r.OrderID != "" && r.ClientOrderID != "" {
		return r, errors.New("give --order-id or --client-order-id, not both")
	}
	if r.Symbol != "" {
		if err := symbolName("--symbol", r.Symbol); err != nil {
			return r, err
		}
	}
	return r, nil
}

// orderVerbs are the verbs of `bhtop order`.
var orderVerbs = []string{"new", "cancel", "close", "cancel-all"}

// runOrder is `bhtop order new|cancel|close|cancel-all`: signed
// order-changing requests, each sent once. new, cancel and close print
// one JSON object (rest.OrderResult), exit code 0 accepted, 1 rejected,
// 3 unknown; cancel-all prints its counts (actions.Summary). 2 is for
// usage errors; read-only mode refuses every verb.
func runOrder(args []string, stdio IO) int {
	// A closed stdout (`bhtop order ... | head -c0`) must not kill the
	// process after the order went out: the write fails instead, the
	// result goes to stderr and the exit code stays the order's.
	signal.Ignore(syscall.SIGPIPE)
	fs := flag.NewFlagSet("order", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintln(out, "usage: bhtop order new --symbol S --side BUY|SELL [--type LIMIT] [--tif GTC] --quantity Q [--price P]")
		fmt.Fprintln(out, "       bhtop order new --market contract --symbol S --side BUY_OPEN|SELL_OPEN|BUY_CLOSE|SELL_CLOSE --quantity Q")
		fmt.Fprintln(out, "                 [--price P] [--price-type INPUT|OPPONENT|QUEUE|OVER|MARKET [--over-price D]] [--leverage L]")
		fmt.Fprintln(out, "                 [--order-type LIMIT|STOP --trigger-price T] [--tif GTC|FOK|IOC|LIMIT_MAKER]")
		fmt.Fprintln(out, "       bhtop order cancel (--order-id ID | --client-order-id ID) [--symbol S] [--market contract [--order-type STOP]]")
		fmt.Fprintln(out, "       bhtop order close --symbol S --side LONG|SHORT [--quantity Q]")
		fmt.Fprintln(out, "       bhtop order cancel-all [--symbol S] [--market spot|contract]")
		fmt.Fprintln(out, "Credentials: BHTOP_API_KEY and BHTOP_SECRET_KEY (or --secret-file). Exit: 0 accepted, 1 rejected, 3 unknown, 2 usage.")
		fs.PrintDefaults()
	}
	f := newOrderFlags(fs)
	pos, exit, ok := parseFlags(fs, args)
	if !ok {
		return exit
	}
	if len(pos) > 1 && slices.Contains(orderVerbs, pos[0]) {
		fmt.Fprintf(stdio.Err, "bhtop order: unexpected argument %q\n", pos[1])
		return ExitUsage
	}
	if len(pos) != 1 || !slices.Contains(orderVerbs, pos[0]) {
		fmt.Fprintln(stdio.Err, "bhtop order: want exactly one of: new, cancel, close, cancel-all (bhtop order -h shows each)")
		return ExitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Err, "bhtop order: "+format+"\n", a...)
		return ExitUsage
	}
	// Resolved first so that a secret typed into an argument is refused
	// before any message quotes that argument; its own error waits for
	// the flags' checks, as before.
	conn, err := f.conn.Resolve(stdio.Getenv)
	if err == nil && secretInArgs(args, conn) {
		return fail("%s", secretArgRefusal)
	}
	if err := durationIn("--timeout", f.timeout, time.Millisecond, time.Hour); err != nil {
		return fail("%v", err)
	}
	verb := pos[0]
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if err := f.check(verb, set); err != nil {
		return fail("%v", err)
	}
	switch {
	case err != nil:
		return fail("%v", err)
	case conn.ReadOnly:
		return fail("refused: read-only mode (--read-only / BHTOP_READ_ONLY) sends no order-changing request")
	case !conn.HasCredentials():
		return fail("needs credentials: set BHTOP_API_KEY and BHTOP_SECRET_KEY (or --secret-file); it never starts a simulator")
	case conn.BaseURL == "":
		return fail("needs the service's URL: set --base-url or BHTOP_BASE_URL")
	}
	logger, closeLog, err := openOrderLog(conn.Log)
	if err != nil {
		return fail("%v", err)
	}
	defer closeLog()

	limits := rest.NewHostLimits()
	persistGates(stdio.Getenv, conn.BaseURL, limits) // a 429/418 any process got, and ours at once
	opts := append(conn.RESTOptions(), rest.WithTimeout(f.timeout), rest.WithLogger(logger), rest.WithSharedLimits(limits))
	client := rest.New(conn.BaseURL, opts...)
	// SIGINT/SIGTERM end the request under way instead of the process:
	// an order already sent then prints as unknown, with the client
	// order id to settle it by (exit 3), and cancel-all stops and prints
	// what it did. Nothing is sent after the signal.
	ctx, stopSignal := signal.NotifyContext(context.Background(), stopSignals...)
	defer stopSignal()
	if gate := limits.Gate(time.Now()); gate != nil {
		printResult(stdio, f.notSent(gate))
		return ExitFail
	}
	if verb == "cancel-all" {
		code := f.cancelAll(ctx, client, stdio)
		if err := closeLog(); err != nil {
			fmt.Fprintf(stdio.Err, "bhtop order: %v\n", err) // the counts' exit code stands
		}
		return code
	}
	var res rest.OrderResult
	if err := client.SyncTime(ctx); err != nil {
		res = f.notSent(err)
	} else {
		res = f.send(ctx, verb, rest.NewTrader(client))
	}
	printResult(stdio, res)
	if err := closeLog(); err != nil {
		// Said, but the exit code stays the order's: a script must never
		// take an accepted order for a failed one and send it again.
		fmt.Fprintf(stdio.Err, "bhtop order: %v\n", err)
	}
	switch res.Outcome {
	case rest.OutcomeAccepted:
		return ExitOK
	case rest.OutcomeUnknown:
		how := "GET /openapi/v1/order?origClientOrderId=..."
		if f.isContract() || verb == "close" {
			how = "GET /openapi/contract/v1/getOrder?clientOrderId=..."
		}
		fmt.Fprintf(stdio.Err, "bhtop order: outcome unknown; settle it by client order id %s (%s)\n", res.ClientOrderID, how)
		return ExitUnknown
	}
	return ExitFail
}

// orderIDRE is an order id: digits (DESIGN.md 'Decoding rules').
var orderIDRE = regexp.MustCompile(`^[0-9]+$`)

// checkIDs refuses an order id that is not digits and a client order id
// holding a space or a control character (a line break would split the
// log lines and the dashboard's rows it is shown in); the service would
// only refuse or, worse, keep them.
func (f *orderFlags) checkIDs() error {
	if f.orderID != "" && !orderIDRE.MatchString(f.orderID) {
		return fmt.Errorf("--order-id %q: want the order's id, digits only", f.orderID)
	}
	if strings.IndexFunc(f.clientOrderID, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return fmt.Errorf("--client-order-id %q: want an id without spaces or control characters", f.clientOrderID)
	}
	return nil
}

// verbFlags are the order flags each verb uses; another one given is
// refused, never ignored (the connection flags and --timeout are every
// verb's).
var verbFlags = map[string][]string{
	"new": {"market", "symbol", "side", "type", "tif", "leverage", "price-type", "order-type", "trigger-price",
		"over-price", "quantity", "price", "client-order-id"},
	"cancel":     {"market", "symbol", "order-id", "client-order-id", "order-type"},
	"close":      {"market", "symbol", "side", "quantity", "price", "leverage", "price-type", "trigger-price", "over-price", "client-order-id"},
	"cancel-all": {"market", "symbol"},
}

// checkVerbFlags refuses a flag given (set) that is another verb's only.
func checkVerbFlags(verb string, set map[string]bool) error {
	for _, name := range slices.Sorted(maps.Keys(set)) {
		if slices.Contains(verbFlags[verb], name) {
			continue
		}
		for _, other := range orderVerbs {
			if slices.Contains(verbFlags[other], name) {
				return fmt.Errorf("--%s is not for %s (bhtop order -h lists each verb's flags)", name, verb)
			}
		}
	}
	return nil
}

// check checks the flags of verb before anything is resolved or sent;
// set holds the flags given.
func (f *orderFlags) check(verb string, set map[string]bool) error {
	if err := f.checkIDs(); err != nil {
		return err
	}
	if err := checkVerbFlags(verb, set); err != nil {
		return err
	}
	switch f.market {
	case "", "spot", "contract":
	default:
		return fmt.Errorf("--market %q: want spot or contract", f.market)
	}
	var err error
	switch verb {
	case "new":
		if !f.isContract() && f.leverage+f.priceType+f.orderType+f.trigger+f.overPrice != "" {
			return errors.New("--leverage, --price-type, --order-type, --trigger-price and --over-price are for --market contract")
		}
		if f.isContract() {
			_, err = f.contractRequest()
		} else {
			_, err = f.newRequest()
		}
	case "cancel":
		_, err = f.cancelRequest()
	case "close":
		_, err = f.closeSide()
	case "cancel-all":
		if f.symbol != "" {
			err = symbolName("--symbol", strings.ToUpper(f.symbol))
		}
	}
	return err
}

// notSent is the result of a request that could not be sent.
func (f *orderFlags) notSent(err error) rest.OrderResult {
	return rest.OrderResult{Outcome: rest.OutcomeRejected, Symbol: strings.ToUpper(f.symbol),
		ClientOrderID: f.clientOrderID, OrderID: f.orderID, Msg: "not sent: " + err.Error()}
}

// send sends the one request of verb (new, cancel or close).
func (f *orderFlags) send(ctx context.Context, verb string, tr *rest.Trader) rest.OrderResult {
	switch {
	case verb == "close":
		return f.closePosition(ctx, tr)
	case verb == "cancel":
		req, _ := f.cancelRequest()
		return tr.Cancel(ctx, req)
	case f.isContract():
		return f.placeContract(ctx, tr)
	}
	req, _ := f.newRequest()
	return tr.PlaceOrder(ctx, req)
}

// openOrderLog opens the --log file for appending (nil path: discard).
// The returned close reports the first write error: a log that could not
// be written is a failure, not a silence.
func openOrderLog(path string) (*slog.Logger, func() error, error) {
	if path == "" {
		return slog.New(slog.DiscardHandler), func() error { return nil }, nil
	}
	f, err := openSink("--log", path, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the log: %w", err)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug})), f.Close, nil
}

// printResult writes res, one JSON line, to stdout. When that fails (a
// full disk, a closed pipe) the line goes to stderr with the error, and
// the exit code stays the order's: a script must never take an accepted
// order for a failed one and send it again.
func printResult(stdio IO, res any) {
	b, _ := json.Marshal(res)
	if _, err := fmt.Fprintf(stdio.Out, "%s\n", b); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop order: write the result: %v; it was: %s\n", err, b)
	}
}
