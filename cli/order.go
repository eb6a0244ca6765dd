package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"bhtop/config"
	"bhtop/rest"
)

// orderFlags are the flags of `bhtop order new|cancel`.
type orderFlags struct {
	conn                   *config.Flags
	symbol, side, typ, tif string
	quantity, price        string
	orderID, clientOrderID string
	timeout                time.Duration
}

func newOrderFlags(fs *flag.FlagSet) *orderFlags {
	f := &orderFlags{conn: config.AddFlags(fs)}
	fs.StringVar(&f.symbol, "symbol", "", "symbol, e.g. BTCUSDT (new: required; cancel: optional)")
	fs.StringVar(&f.side, "side", "", "BUY or SELL (new)")
	fs.StringVar(&f.typ, "type", "LIMIT", "LIMIT, MARKET or LIMIT_MAKER (new)")
	fs.StringVar(&f.tif, "tif", "", "time in force: GTC, IOC or FOK (new; default GTC for LIMIT)")
	fs.StringVar(&f.quantity, "quantity", "", "quantity, a decimal (new)")
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
	r := rest.CancelRequest{Symbol: strings.ToUpper(f.symbol), OrderID: f.orderID, ClientOrderID: f.clientOrderID}
	if r.OrderID == "" && r.ClientOrderID == "" {
		return r, errors.New("--order-id or --client-order-id is required")
	}
	if r.Symbol != "" {
		if err := symbolName("--symbol", r.Symbol); err != nil {
			return r, err
		}
	}
	return r, nil
}

// runOrder is `bhtop order new|cancel`: one signed order-changing request,
// its outcome printed as one JSON object (rest.OrderResult), exit code 0
// accepted, 1 rejected, 3 unknown, 2 for usage errors.
func runOrder(args []string, stdio IO) int {
	fs := flag.NewFlagSet("order", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintln(out, "usage: bhtop order new --symbol S --side BUY|SELL [--type LIMIT] [--tif GTC] --quantity Q [--price P]")
		fmt.Fprintln(out, "       bhtop order cancel (--order-id ID | --client-order-id ID) [--symbol S]")
		fmt.Fprintln(out, "Credentials: BHTOP_API_KEY and BHTOP_SECRET_KEY (or --secret-file). Exit: 0 accepted, 1 rejected, 3 unknown, 2 usage.")
		fs.PrintDefaults()
	}
	f := newOrderFlags(fs)
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	if err != nil {
		return ExitUsage
	}
	if len(pos) != 1 || (pos[0] != "new" && pos[0] != "cancel") {
		fmt.Fprintln(stdio.Err, "bhtop order: want exactly one of: new, cancel")
		fs.Usage()
		return ExitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stdio.Err, "bhtop order: "+format+"\n", a...)
		return ExitUsage
	}
	if err := durationIn("--timeout", f.timeout, time.Millisecond, time.Hour); err != nil {
		return fail("%v", err)
	}
	var newReq rest.OrderRequest
	var cancelReq rest.CancelRequest
	if pos[0] == "new" {
		newReq, err = f.newRequest()
	} else {
		cancelReq, err = f.cancelRequest()
	}
	if err != nil {
		return fail("%v", err)
	}
	conn, err := f.conn.Resolve(stdio.Getenv)
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

	opts := append(conn.RESTOptions(), rest.WithTimeout(f.timeout), rest.WithLogger(logger))
	client := rest.New(conn.BaseURL, opts...)
	ctx := context.Background()
	var res rest.OrderResult
	if err := client.SyncTime(ctx); err != nil {
		res = rest.OrderResult{Outcome: rest.OutcomeRejected, Symbol: newReq.Symbol + cancelReq.Symbol,
			ClientOrderID: newReq.NewClientOrderID + cancelReq.ClientOrderID, OrderID: cancelReq.OrderID,
			Msg: "not sent: " + err.Error()}
	} else if tr := rest.NewTrader(client); pos[0] == "new" {
		res = tr.PlaceOrder(ctx, newReq)
	} else {
		res = tr.CancelOrder(ctx, cancelReq)
	}
	b, _ := json.Marshal(res)
	fmt.Fprintf(stdio.Out, "%s\n", b)
	if err := closeLog(); err != nil {
		// Said, but the exit code stays the order's: a script must never
		// take an accepted order for a failed one and send it again.
		fmt.Fprintf(stdio.Err, "bhtop order: %v\n", err)
	}
	switch res.Outcome {
	case rest.OutcomeAccepted:
		return ExitOK
	case rest.OutcomeUnknown:
		fmt.Fprintf(stdio.Err, "bhtop order: outcome unknown; settle it by client order id %s (GET /openapi/v1/order?origClientOrderId=...)\n", res.ClientOrderID)
		return ExitUnknown
	}
	return ExitFail
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
