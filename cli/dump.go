package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strings"
	"time"

	"bhtop/config"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/stream"
)

// dumpSimActivity is the background activity of the simulator `bhtop
// dump` starts without credentials: a few events per second, as in the
// dashboard's demo.
const dumpSimActivity = 5

// orderList collects the repeatable --order 'k=v&k=v' flag.
type orderList []rest.OrderRequest

func (l *orderList) String() string { return fmt.Sprintf("%d orders", len(*l)) }

// Set parses one order: symbol, side, type, timeInForce (or tif),
// quantity, price, newClientOrderId (or clientOrderId); type defaults to
// LIMIT and a LIMIT order's timeInForce to GTC.
func (l *orderList) Set(v string) error {
	q, err := url.ParseQuery(v)
	if err != nil {
		return fmt.Errorf("parse order %q: %w", v, err)
	}
	r := rest.OrderRequest{Type: "LIMIT"}
	for k, vs := range q {
		val := vs[len(vs)-1]
		switch strings.ToLower(k) {
		case "symbol":
			r.Symbol = strings.ToUpper(val)
		case "side":
			r.Side = strings.ToUpper(val)
		case "type":
			r.Type = strings.ToUpper(val)
		case "timeinforce", "tif":
			r.TimeInForce = strings.ToUpper(val)
		case "quantity":
			r.Quantity = val
		case "price":
			r.Price = val
		case "newclientorderid", "clientorderid":
			r.NewClientOrderID = val
		default:
			return fmt.Errorf("order %q: unknown key %q (want symbol, side, type, timeInForce, quantity, price, newClientOrderId)", v, k)
		}
	}
	if r.Symbol == "" || r.Side == "" || r.Quantity == "" {
		return fmt.Errorf("order %q: symbol, side and quantity are required", v)
	}
	// The checks of `bhtop order new`, so that a typo is refused here and
	// not sent.
	of := orderFlags{symbol: r.Symbol, side: r.Side, typ: r.Type, tif: r.TimeInForce,
		quantity: r.Quantity, price: r.Price, clientOrderID: r.NewClientOrderID}
	checked, err := of.newRequest()
	if err != nil {
		return fmt.Errorf("order %q: %s", v, strings.ReplaceAll(err.Error(), "--", ""))
	}
	*l = append(*l, checked)
	return nil
}

// runDump is `bhtop dump`: connect, resync, stream and fold for --for (or
// until SIGINT/SIGTERM), place the --order orders once live, then close
// the listenKey and print the state dump (a second signal meanwhile ends
// it at once, exit 130). Without credentials it runs on an in-process
// simulator.
func runDump(args []string, stdio IO) int {
	return untilSecondSignal("bhtop dump", runDumpContext, args, stdio, stopSignals...)
}

func runDumpContext(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("bhtop dump", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	connFlags := config.AddFlags(fs).AddMarketFlags()
	var (
		forD      time.Duration
		rawOrders stringList
		orders    orderList
		indent    bool
	)
	fs.DurationVar(&forD, "for", 0, "stream this long (from start), then print the dump; 0 = until SIGINT/SIGTERM")
	// Checked after the credentials are resolved (see below).
	fs.Var(&rawOrders, "order", "place this spot order once live: 'symbol=ETHBTC&side=BUY&type=LIMIT&quantity=1&price=0.05' (repeatable)")
	fs.BoolVar(&indent, "indent", false, "indent the JSON")
	df := addDeskFlags(fs)
	fail := failer(stdio.Err, "bhtop dump")
	if exit, ok := parseFlagsOnly(fs, args, fail); !ok {
		return exit
	}
	// Resolved before --order is checked, so that a secret typed into an
	// order is refused before a message quotes it; its own error waits
	// for the flags' checks, as before.
	accts, resolveErr := connFlags.ResolveAccounts(stdio.Getenv)
	if resolveErr == nil && secretInArgs(args, accountConns(accts)...) {
		return fail(ExitUsage, "%s", secretArgRefusal)
	}
	for _, o := range rawOrders {
		if err := orders.Set(o); err != nil {
			return fail(ExitUsage, "invalid value %q for flag -order: %s (bhtop dump -h lists the flags)", o, oneLine(err.Error()))
		}
	}
	if err := checkDeskFlags(df); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	if forD < 0 {
		return fail(ExitUsage, "--for %s: want a positive duration", forD)
	}
	if resolveErr != nil {
		return fail(ExitUsage, "%v", resolveErr)
	}
	conn := accts[0].Conn
	if len(accts) > 1 && len(orders) > 0 {
		return fail(ExitUsage, "--order places on one account: pick it with --account NAME")
	}
	if err := checkFlags(outputFile("--record", conn.Record), outputFile("--log", conn.Log)); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	if conn.ReadOnly && len(orders) > 0 {
		return fail(ExitUsage, "--order is refused in read-only mode")
	}
	if forD > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, forD)
		defer cancel()
	}

	dl, code, err := openDeskLog(df, conn.Log)
	if err != nil {
		return fail(code, "%v", err)
	}
	defer dl.release()
	logger := dl.logger
	var limits *rest.HostLimits
	if len(accts) == 1 && conn.HasCredentials() && conn.BaseURL != "" {
		// A 429/418 any bhtop process got for the host: like bhtop order,
		// send nothing while it holds (the stream could not go live).
		limits = rest.NewHostLimits()
		persistGates(stdio.Getenv, conn.BaseURL, limits)
		if gate := limits.Gate(time.Now()); gate != nil {
			return fail(ExitFail, "not sent: %v", gate)
		}
	}
	dk := openDesk(context.WithoutCancel(ctx), df, conn, logger, nil)
	defer dk.close(finishWait)
	if len(accts) > 1 {
		return dumpAccounts(ctx, accts, dk, logger, dl.close, ind(indent), stdio)
	}
	up, err := openUpstream(ctx, conn, upstreamOptions{simActivity: dumpSimActivity, trade: !conn.ReadOnly, logger: logger, metrics: dk.reg, limits: limits})
	if err != nil {
		return fail(upstreamExitCode(err), "%v", err)
	}
	sess := up.sess
	up.Start()
	dk.follow(accts[0].Name, up)
	live := sess.WaitLive(ctx) == nil
	if live {
		if len(orders) > 0 {
			dk.waitPrimed(ctx) // the orders' fills must come after the rules' baseline
		}
		for _, o := range orders {
			res := sess.PlaceOrder(ctx, o)
			logger.Info("order placed", "outcome", res.Outcome, "clientOrderId", res.ClientOrderID, "msg", res.Msg)
		}
		<-ctx.Done()
	}
	if err := up.Close(); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop dump: %v\n", err)
	}
	// The status as Close found the session (after it, only "session
	// closed"): why the stream never went live, or how it was when the
	// state printed below was taken.
	st := up.EndStatus()
	// One account of a file's tables (--account NAME) is named, as in a
	// several-account dump.
	who := ""
	if accts[0].Name != config.DefaultAccount {
		who = "account " + accts[0].Name + ": "
	}
	if !live {
		if st.Reason == "" && st.LastError == "" {
			// Nothing went wrong: --for or a signal came first.
			return fail(ExitFail, "%sstopped before the user stream went live (it was %s): nothing to dump", who, st.State)
		}
		return fail(ExitFail, "%sthe user stream never went live: %s", who, notLiveReason(st))
	}
	if st.LastSnapshot.IsZero() {
		// Live on the listenKey alone (USER_STREAM needs no signature),
		// but no signed snapshot: the state lacks balances and orders.
		return fail(ExitFail, "%sno REST snapshot was ever taken, so the state would be incomplete: %s", who, notLiveReason(st))
	}
	var mkt *market.Snapshot
	if h := up.MarketHub(); h != nil {
		mkt = h.Latest()
	}
	// The watcher stops: the alerts fired during the run are final, and
	// their commands have finished.
	dk.close(finishWait)
	alerts := dumpMember{"alerts", dk.alerts()}
	if err := writeDump(stdio.Out, sess.Hub().Latest(), mkt, conn.ValueIn, ind(indent), alerts, dumpMember{"stream", streamAtEnd(st)}); err != nil {
		return fail(ExitFail, "%v", err)
	}
	// The state is printed (it is whole), but a journal or log that lost
	// lines is a failure. A stream that died before the end is not: the
	// contract's exit 0 stands (a reconnect blip at the end is no failed
	// run), its "stream" member says so and stderr warns in one line.
	if why := downAtEnd(st); why != "" {
		fmt.Fprintf(stdio.Err, "bhtop dump: warning: %s%s\n", who, why)
	}
	for _, w := range dk.warnings() {
		fmt.Fprintf(stdio.Err, "bhtop dump: warning: %s%s\n", who, w.text)
	}
	if err := errors.Join(up.RecordErr(), dl.close()); err != nil {
		return fail(ExitFail, "%v", err)
	}
	return ExitOK
}

// notLiveReason is why a stream that never went live did not: the
// state's reason (it names no retry, which the exiting dump will never
// make), else the newest error.
func notLiveReason(st stream.Status) string {
	switch {
	case st.Reason != "":
		// A wait says until when, as the dashboard's header does.
		if !st.RetryAt.IsZero() && !strings.Contains(st.Reason, " until ") {
			return st.Reason + " until " + st.RetryAt.UTC().Format("15:04:05") + " UTC"
		}
		return st.Reason
	case st.LastError != "":
		return st.LastError
	case st.State == stream.StateResyncing:
		// Connected, its snapshots (or their newest trades) still being
		// asked for: paced by the host's request weight when it is spent.
		why := "resyncing: the REST snapshots not finished"
		if st.WeightLimit > 0 {
			why += fmt.Sprintf(" (request weight %d/%d used this minute)", st.WeightUsed, st.WeightLimit)
		}
		return why
	}
	return string(st.State)
}

// stringList collects a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, " ") }

func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// accountConns are the accounts' connection settings.
func accountConns(accts []config.Account) []config.Conn {
	out := make([]config.Conn, len(accts))
	for i, a := range accts {
		out[i] = a.Conn
	}
	return out
}
