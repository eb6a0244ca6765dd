package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bhtop/config"
	"bhtop/serve"
	"bhtop/themes"
)

// serveFlags are bhtop serve's own flags (the connection flags come from
// config.AddFlags).
type serveFlags struct {
	listen, authorizedKeys, hostKey string
	hostKeyDefault                  bool // hostKey is the default path, not --host-key
	maxSessions, fps                int
	idleTimeout, shutdownWait       time.Duration
	simActivity                     float64
	getenv                          func(string) string // finds the gate files; nil: none
}

// runServe is `bhtop serve`: the read-only dashboard over SSH for every
// key in the authorized keys file, all sessions sharing one upstream.
func runServe(args []string, stdio IO) int {
	fs := flag.NewFlagSet("bhtop serve", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	sf := serveFlags{getenv: stdio.Getenv}
	fs.StringVar(&sf.listen, "listen", serve.DefaultAddr, "SSH listen `ADDR`")
	fs.StringVar(&sf.authorizedKeys, "authorized-keys", "", "OpenSSH authorized_keys `FILE` of the viewers (default ~/.ssh/authorized_keys; re-read when it changes)")
	fs.StringVar(&sf.hostKey, "host-key", "", "host key `FILE`, created (ed25519, mode 0600) if missing, in an existing directory (default $XDG_CONFIG_HOME/bhtop/ssh_host_ed25519)")
	fs.IntVar(&sf.maxSessions, "max-sessions", serve.DefaultMaxSessions, "most viewers at once")
	fs.DurationVar(&sf.idleTimeout, "idle-timeout", serve.DefaultIdleTimeout, "close a session after this long without input (0: never)")
	fs.IntVar(&sf.fps, "fps", serve.DefaultFPS, "most frames per second sent to each viewer")
	fs.DurationVar(&sf.shutdownWait, "shutdown-wait", 5*time.Second, "on SIGINT/SIGTERM, how long sessions get to close")
	fs.Float64Var(&sf.simActivity, "sim-activity", 5, "background events per second of the built-in simulator (without credentials)")
	conn := config.AddFlags(fs).AddMarketFlags()
	df := addDeskFlags(fs)
	fail := failer(stdio.Err, "bhtop serve")
	if exit, ok := parseFlagsOnly(fs, args, fail); !ok {
		return exit
	}
	if err := checkFlags(sf.check(), listenAddr("--listen", sf.listen)); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	accts, err := conn.ResolveAccounts(stdio.Getenv)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	c := accts[0].Conn // the settings every account shares (theme, log, alerts)
	if err := checkDeskFlags(df); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	if err := sf.defaults(stdio.Getenv); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	if c.Theme != "" && !slices.Contains(themes.Names(), c.Theme) {
		return fail(ExitUsage, "%s %q: want one of %v", c.ThemeFrom, c.Theme, themes.Names())
	}
	for _, a := range accts {
		if !a.HasCredentials() && a.BaseURL != "" {
			return fail(ExitUsage, "needs credentials for %s: set BHTOP_API_KEY and BHTOP_SECRET_KEY (or --secret-file); without a base URL it serves the built-in simulator", a.BaseURL)
		}
	}
	if err := checkFlags(outputFile("--record", c.Record), outputFile("--log", c.Log), sf.files()); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	// The address is bound before anything is opened: one taken is
	// refused at once, with no listenKey, stream or host key made for it.
	ln, err := listenOn("--listen", sf.listen)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	defer ln.Close()
	if err := df.bind(); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	defer df.unbind()
	logger := slog.New(slog.NewTextHandler(stdio.Err, nil))
	closeLog := func() error { return nil }
	if c.Log != "" {
		l, cl, err := openOrderLog(c.Log)
		if err != nil {
			return fail(ExitUsage, "%v", err)
		}
		defer cl()
		logger, closeLog = l, cl
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	dk := openDesk(ctx, df, c, logger, nil)
	defer dk.close(exitWait)
	if err := errors.Join(serveAccounts(ctx, sf, ln, accts, logger, dk), closeLog()); err != nil {
		return fail(ExitFail, "%v", err)
	}
	return ExitOK
}

// check range-checks the numeric flags.
func (sf *serveFlags) check() error {
	return checkFlags(
		intIn("--max-sessions", sf.maxSessions, 1, 10_000),
		intIn("--fps", sf.fps, 1, 120),
		nonNegativeDuration("--idle-timeout", sf.idleTimeout),
		nonNegativeDuration("--shutdown-wait", sf.shutdownWait),
		floatIn("--sim-activity", sf.simActivity, 0, maxSimActivity),
	)
}

// files checks, before anything starts, that the authorized keys file
// exists and is a file, and that the host key's directory exists when the
// key is to be created.
func (sf *serveFlags) files() error {
	st, err := os.Stat(sf.authorizedKeys)
	switch {
	case err != nil:
		return fmt.Errorf("--authorized-keys %s: %w", sf.authorizedKeys, errors.Unwrap(err))
	case st.IsDir():
		return fmt.Errorf("--authorized-keys %s: is a directory; want the OpenSSH authorized_keys file", sf.authorizedKeys)
	}
	if err := serve.CheckAuthorizedKeys(sf.authorizedKeys); err != nil {
		return fmt.Errorf("--authorized-keys: %w", err)
	}
	st, err = os.Stat(sf.hostKey)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("--host-key %s: is a directory; want the key file", sf.hostKey)
	case err == nil || !errors.Is(err, fs.ErrNotExist):
		return nil // loaded (or refused with the reason) by serve.New
	case sf.hostKeyDefault:
		// bhtop's own config directory holds the default key: made
		// (0700) like the config file's, and the log says the key was created.
		if err := os.MkdirAll(filepath.Dir(sf.hostKey), 0o700); err != nil {
			return fmt.Errorf("host key directory: %w", err)
		}
		return nil
	}
	dir := filepath.Dir(sf.hostKey)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("--host-key %s: directory %s does not exist; the key is created only in an existing directory", sf.hostKey, dir)
	}
	return nil
}

// defaults fills the file paths not given.
func (sf *serveFlags) defaults(getenv func(string) string) error {
	home := getenv("HOME")
	if sf.authorizedKeys == "" {
		if home == "" {
			return errors.New("--authorized-keys is needed ($HOME is not set)")
		}
		sf.authorizedKeys = filepath.Join(home, ".ssh", "authorized_keys")
	}
	if sf.hostKey == "" {
		dir := getenv("XDG_CONFIG_HOME")
		if dir == "" {
			if home == "" {
				return errors.New("--host-key is needed ($XDG_CONFIG_HOME and $HOME are not set)")
			}
			dir = filepath.Join(home, ".config")
		}
		sf.hostKey = filepath.Join(dir, "bhtop", "ssh_host_ed25519")
		sf.hostKeyDefault = true
	}
	if sf.idleTimeout == 0 {
		sf.idleTimeout = -1 // serve.Config: negative is never
	}
	return nil
}

// listenOn binds addr, the value of flag: a failure is one line naming
// the flag and the address once, and why.
func listenOn(flag, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, addr, listenReason(err))
	}
	return ln, nil
}

// listenReason is the cause of a failed listen without the "listen tcp
// ADDR:" the --listen flag already names.
func listenReason(err error) error {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		var sys *os.SyscallError
		if errors.As(op.Err, &sys) {
			return sys.Err
		}
		return op.Err
	}
	return err
}

// serveUntilDone serves the one account of c on sf.listen (see serveAccounts).
func serveUntilDone(ctx context.Context, sf serveFlags, c config.Conn, logger *slog.Logger, dk *desk) error {
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	return serveAccounts(ctx, sf, ln, []config.Account{{Name: config.DefaultAccount, Conn: c}}, logger, dk)
}

// serveAccounts opens the accounts, serves SSH on ln until ctx ends, then
// closes the sessions and after them the accounts (DELETE listenKey). One
// account without [accounts.NAME] tables is served as it always was;
// otherwise each viewer sees the accounts its key allows. A nil dk
// exports no metrics and evaluates no alerts.
func serveAccounts(ctx context.Context, sf serveFlags, ln net.Listener, accts []config.Account, logger *slog.Logger, dk *desk) error {
	if dk == nil {
		dk = &desk{}
	}
	// Serve is read-only: no rest.Trader is made (trade is false).
	as, err := openAccounts(ctx, accts, upstreamOptions{simActivity: sf.simActivity, logger: logger, metrics: dk.reg, getenv: sf.getenv})
	if err != nil {
		return err
	}
	defer func() {
		if err := as.Close(); err != nil {
			logger.Warn("close the user stream", "err", err)
		}
	}()
	c := accts[0].Conn
	cfg := serve.Config{
		AuthorizedKeys: sf.authorizedKeys,
		HostKey:        sf.hostKey,
		MaxSessions:    sf.maxSessions,
		IdleTimeout:    sf.idleTimeout,
		FPS:            sf.fps,
		Theme:          c.Theme,
		Logger:         logger,
	}
	if up := as.list[0].up; len(accts) == 1 && accts[0].Name == config.DefaultAccount {
		cfg.Upstream, cfg.Options = up.sess, up.uiOptions()
	} else {
		cfg.Accounts = as.uiAccounts(true)
		names := make([]string, len(accts))
		for i, a := range accts {
			names[i] = a.Name
		}
		logger.Info("serving accounts", "accounts", strings.Join(names, ","))
	}
	srv, err := serve.New(cfg)
	if err != nil {
		return err
	}
	as.Start()            // only now that the setup is known good: no listenKey for nothing
	dk.viewers.Store(srv) // the viewers get the alerts of the accounts their keys allow
	as.follow(dk)
	dk.reg.SetViewers(srv.Sessions)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down", "sessions", srv.Sessions())
	sctx, cancel := context.WithTimeout(context.Background(), sf.shutdownWait)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		logger.Warn("shutdown", "err", err)
	}
	<-served
	if err := as.Close(); err != nil {
		logger.Warn("close the user stream", "err", err)
	}
	return as.RecordErr()
}
