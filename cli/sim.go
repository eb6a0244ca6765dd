package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"bhtop/metrics"
	"bhtop/signer"
	"bhtop/sim"
)

func runSim(args []string, stdio IO) int {
	return untilSignal(runSimContext, args, stdio, stopSignals...)
}

// keyFlags collects repeated --key APIKEY:SECRET[:PERMS] values.
type keyFlags struct {
	keys    []sim.Key
	secrets []string // the secret text of each key, for the connection line
	err     error    // the first bad value's fault, reported after parsing
}

func (k *keyFlags) String() string { return fmt.Sprintf("%d keys", len(k.keys)) }

// Set parses one --key. A bad value is not refused here: the flag package
// would quote it, secret and all, in its message. Its fault is kept in
// err, which names the API key but not the secret.
func (k *keyFlags) Set(v string) error {
	if err := k.set(v); err != nil && k.err == nil {
		k.err = err
	}
	return nil
}

func (k *keyFlags) set(v string) error {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return errors.New("want APIKEY:SECRET[:PERMS] (the value is not shown: it holds a secret)")
	}
	for _, have := range k.keys {
		if have.APIKey == parts[0] {
			return fmt.Errorf("API key %q given twice; give each key once", parts[0])
		}
	}
	key := sim.Key{APIKey: parts[0], Secret: signer.NewSecret(parts[1])}
	if len(parts) == 3 && parts[2] != "" {
		for _, p := range strings.Split(parts[2], ",") {
			switch p = strings.ToUpper(strings.TrimSpace(p)); p {
			case "TRADE", "USER_DATA", "USER_STREAM", "MARKET_DATA":
				key.Perms = append(key.Perms, p)
			default:
				return fmt.Errorf("key %q: unknown permission %q (want TRADE, USER_DATA, USER_STREAM, MARKET_DATA)", parts[0], p)
			}
		}
	}
	k.keys = append(k.keys, key)
	k.secrets = append(k.secrets, parts[1])
	return nil
}

// parseRateLimits reads "weight=1500,orders=20,daily=350000" (any subset).
func parseRateLimits(v string) (sim.RateLimits, error) {
	var rl sim.RateLimits
	if v == "" {
		return rl, nil
	}
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		n, err := strconv.Atoi(val)
		if !ok || err != nil || n <= 0 {
			return rl, fmt.Errorf("rate limit %q: want NAME=POSITIVE_INTEGER", kv)
		}
		switch k {
		case "weight":
			rl.WeightPerMinute = n
		case "orders":
			rl.OrdersPerSecond = n
		case "daily":
			rl.OrdersPerDay = n
		default:
			return rl, fmt.Errorf("rate limit %q: want weight, orders or daily", k)
		}
	}
	return rl, nil
}

// maxSimActivity is the most background events per second asked of a
// simulator (tens of thousands work).
const maxSimActivity = 1e6

// maxSimMarketActivity is the most simulated taker trades per second
// on each symbol (--market-activity): a million made each market step
// take seconds and +Inf never ended one, not even on SIGTERM.
const maxSimMarketActivity = 1e5

// maxSimAccounts is the most accounts one simulator holds (--accounts):
// each has its own balances, orders and key pair, and a million were
// accepted before.
const maxSimAccounts = 1000

// minSimInterval is the shortest market step and ping interval: at 1ns
// the market stepped as fast as it could, a third of a core with nobody
// connected, and pings flooded every user-stream connection.
const minSimInterval = 10 * time.Millisecond

// marketIntervalIn wants --market-interval 0 (the market stopped) or a
// step from minSimInterval to a day.
func marketIntervalIn(d time.Duration) error {
	if d != 0 && (d < minSimInterval || d > 24*time.Hour) {
		return fmt.Errorf("--market-interval %s: want 0 (stopped) or a duration from %s to 24h (%w)", d, minSimInterval, errFlagRange)
	}
	return nil
}

// checkSimFlags range-checks the simulator's numeric flags.
func checkSimFlags(o sim.Options, marketInterval time.Duration) error {
	return checkFlags(
		floatIn("--activity", o.Activity, 0, maxSimActivity),
		floatIn("--market-activity", o.MarketActivity, 0, maxSimMarketActivity),
		intIn("--accounts", o.Accounts, 1, maxSimAccounts),
		positiveDuration("--listen-key-ttl", o.ListenKeyTTL),
		positiveDuration("--conn-max-age", o.ConnMaxAge),
		durationIn("--ping-interval", o.PingInterval, minSimInterval, 24*time.Hour),
		positiveDuration("--quote-idle", o.QuoteIdle),
		durationIn("--skew", o.Skew, -24*time.Hour, 24*time.Hour),
		floatIn("--ban-scale", o.BanScale, 1e-9, 1e6),
		marketIntervalIn(marketInterval),
		nonNegativeDuration("--reorder-window", o.Faults.ReorderWindow),
		ratio("--duplicate-rate", o.Faults.DuplicateRate),
		nonNegativeDuration("--drop-every", o.Faults.DropEvery),
		ratio("--order-error-rate", o.Faults.OrderErrorRate),
	)
}

// runSimContext runs the simulator until ctx ends (SIGINT/SIGTERM).
func runSimContext(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("bhtop sim", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	var (
		opts     sim.Options
		keys     keyFlags
		logPath  string
		limits   string
		errStat  int
		interval time.Duration
	)
	fs.StringVar(&opts.Addr, "addr", "127.0.0.1:0", "listen address (port 0 picks a free port, printed on the first line)")
	fs.Int64Var(&opts.Seed, "seed", 1, "seed of the synthetic market and the activity")
	fs.Float64Var(&opts.Activity, "activity", 2, "background order events per second on the demo account (0 = none)")
	fs.Var(&keys, "key", "accept API key APIKEY:SECRET[:PERMS] (repeatable; PERMS a comma list of TRADE,USER_DATA,USER_STREAM,MARKET_DATA, default all).\n"+
		"This puts a secret on the command line: acceptable only because it is the simulator's own test key.\n"+
		"Without --key the public demo pair of the API docs is used. The first key is the one printed.")
	fs.StringVar(&logPath, "log-requests", "", "append one JSON line per request to FILE (never a secret)")
	fs.DurationVar(&opts.ListenKeyTTL, "listen-key-ttl", 60*time.Minute, "listenKey validity after creation or keepalive")
	fs.DurationVar(&opts.ConnMaxAge, "conn-max-age", 24*time.Hour, "user-stream connections are cut at this age")
	fs.DurationVar(&opts.PingInterval, "ping-interval", 30*time.Second, "JSON {\"ping\":N} interval on user-stream connections")
	fs.DurationVar(&opts.Skew, "skew", 0, "server clock offset from this machine's clock (e.g. 3s, -3s)")
	fs.StringVar(&limits, "rate-limits", "", "rate limits, e.g. weight=1500,orders=20,daily=350000 (per minute, second, day)")
	fs.Float64Var(&opts.BanScale, "ban-scale", 1, "multiplies the 2 min..3 day ban lengths (e.g. 0.001 for tests)")
	fs.DurationVar(&interval, "market-interval", 500*time.Millisecond, "step of the synthetic market (price walk and fills)")
	fs.Float64Var(&opts.MarketActivity, "market-activity", 2, "simulated other traders' trades per second on each symbol (0 = none, at most 100000)")
	fs.IntVar(&opts.Accounts, "accounts", 1, "independent accounts (own balances, orders, positions, key pair); all listed under \"accounts\" on the first line")
	fs.BoolVar(&opts.NoMarketData, "no-market-data", false, "answer 404 on every quote endpoint and refuse the quote socket (to test a client's degraded path)")
	fs.DurationVar(&opts.QuoteIdle, "quote-idle", 5*time.Minute, "close a quote socket that sent no JSON ping for this long")
	fs.DurationVar(&opts.Faults.ReorderWindow, "reorder-window", 0, "fault: deliver user-stream events out of order within this window")
	fs.Float64Var(&opts.Faults.DuplicateRate, "duplicate-rate", 0, "fault: fraction (0..1) of events delivered twice")
	fs.DurationVar(&opts.Faults.DropEvery, "drop-every", 0, "fault: drop every user-stream connection after this long")
	fs.BoolVar(&opts.Faults.ArrayFrames, "array-frames", false, "fault: wrap events in JSON arrays")
	fs.BoolVar(&opts.Faults.OptionalFields, "optional-fields", false, "include SPEC.md's optional event fields")
	fs.Float64Var(&opts.Faults.OrderErrorRate, "order-error-rate", 0, "fault: fraction (0..1) of order requests answered with a 5XX")
	fs.IntVar(&errStat, "order-error-status", 504, "fault: HTTP status of those answers (500..599)")
	fs.BoolVar(&opts.Faults.OrderErrorTakesEffect, "order-error-takes-effect", false, "fault: the order request takes effect despite the 5XX")
	metricsAddr := fs.String("metrics-addr", "", "serve Prometheus metrics (requests served, Go runtime) at http://`HOST:PORT`/metrics")
	fail := failer(stdio.Err, "bhtop sim")
	if exit, ok := parseFlagsOnly(fs, args, fail); !ok {
		return exit
	}
	if err := checkFlags(checkSimFlags(opts, interval), listenAddr("--addr", opts.Addr), outputFile("--log-requests", logPath),
		checkDeskFlags(&deskFlags{metricsAddr: *metricsAddr})); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	if keys.err != nil {
		return fail(ExitUsage, "--key: %v", keys.err)
	}
	var err error
	if opts.RateLimits, err = parseRateLimits(limits); err != nil {
		return fail(ExitUsage, "--rate-limits: %v", err)
	}
	if errStat < 500 || errStat > 599 {
		return fail(ExitUsage, "--order-error-status %d: want 500..599", errStat)
	}
	opts.Faults.OrderErrorStatus = errStat
	opts.MarketInterval = interval
	if interval <= 0 {
		opts.MarketInterval = -1
	}
	if opts.MarketActivity == 0 {
		opts.MarketActivity = -1 // Options: zero is the default, negative none
	}
	opts.Keys = keys.keys
	secret := sim.DemoSecret
	if len(keys.secrets) > 0 {
		secret = keys.secrets[0]
	}
	// Bound before anything is opened: a taken address is refused at once.
	if *metricsAddr != "" {
		ln, err := listenOn("--metrics-addr", *metricsAddr)
		if err != nil {
			return fail(ExitUsage, "%v", err)
		}
		reg := metrics.New()
		reg.Serve(ctx, ln, nil)
		fmt.Fprintf(stdio.Err, "bhtop sim: metrics at http://%s/metrics\n", ln.Addr())
		opts.OnRequest = reg.CountRequest
	}
	var reqLog *sink
	if logPath != "" {
		// A request log that cannot be written is said at once (the
		// simulator serves on) and fails the run at exit.
		reqLog, err = openSink("--log-requests", logPath, func(err error) { fmt.Fprintf(stdio.Err, "bhtop sim: %v\n", err) })
		if err != nil {
			return fail(ExitFail, "%v", err)
		}
		defer reqLog.Close()
		opts.RequestLog = reqLog
	}
	s := sim.New(opts)
	if err := s.Start(); err != nil {
		return fail(ExitFail, "%v", err)
	}
	line, _ := json.Marshal(struct {
		BaseURL   string           `json:"baseUrl"`
		WSURL     string           `json:"wsUrl"`
		APIKey    string           `json:"apiKey"`
		SecretKey string           `json:"secretKey"`
		Accounts  []sim.AccountKey `json:"accounts"`
	}{s.URL(), s.WSURL(), s.APIKey(), secret, s.Accounts(secret)})
	if _, err := fmt.Fprintf(stdio.Out, "%s\n", line); err != nil {
		// Nobody can learn where it listens: serving on helps no one.
		_ = s.Close()
		return fail(ExitFail, "write the connection line: %v", err)
	}
	<-ctx.Done()
	if err := s.Close(); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop sim: %v\n", err)
	}
	if reqLog.Close() != nil {
		return ExitFail // said when it happened
	}
	return ExitOK
}
