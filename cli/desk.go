package cli

import (
	"context"
	"flag"
	"log/slog"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/alert"
	"bhtop/config"
	"bhtop/metrics"
	"bhtop/notify"
	"bhtop/serve"
	"bhtop/stream"
	"bhtop/ui"
)

// deskFlags are the alert and metrics flags of the dashboard, dump and
// serve (DESIGN.md 'Alerts and metrics').
type deskFlags struct {
	metricsAddr string
	alertCmd    string
	metricsLn   net.Listener // bound by bind, served by openDesk
}

// addDeskFlags registers --metrics-addr and --alert-cmd on fs.
func addDeskFlags(fs *flag.FlagSet) *deskFlags {
	d := &deskFlags{}
	fs.StringVar(&d.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://`HOST:PORT`/metrics (e.g. 127.0.0.1:9464)")
	fs.StringVar(&d.alertCmd, "alert-cmd", "", "run `CMD` (with /bin/sh) for each alert, the alert as JSON on stdin (at most 4 at once, 10s each)")
	return d
}

// desk is a command's metrics registry and alert delivery. A zero field
// is switched off; every method works on a desk with nothing on.
type desk struct {
	reg    *metrics.Registry
	rules  []alert.Rule
	disp   *notify.Dispatcher
	cmd    *notify.Command
	ctx    context.Context
	cancel context.CancelFunc
	primed []chan struct{} // one per watcher: closed once its baseline is taken
	notes  alertNotes      // every firing also goes to its account's events log
	// viewers, once serve's server runs, gets each firing for the SSH
	// viewers allowed to see its account.
	viewers atomic.Pointer[serve.Server]

	logger *slog.Logger
	warnMu sync.Mutex
	warned []deskWarning // rules that can never fire (Watcher.Warn), for dump's stderr
}

// deskWarning is a rule that can never fire on an account.
type deskWarning struct{ account, text string }

// bind binds --metrics-addr, before anything is opened: an address that
// cannot be had is refused at once (exit 2), as a taken --listen is, in
// one line naming it once. The caller defers unbind.
func (df *deskFlags) bind() error {
	if df.metricsAddr == "" {
		return nil
	}
	ln, err := listenOn("--metrics-addr", df.metricsAddr)
	df.metricsLn = ln
	return err
}

// unbind closes the metrics listener if openDesk never served it.
func (df *deskFlags) unbind() {
	if df.metricsLn != nil {
		_ = df.metricsLn.Close()
	}
}

// deskLog is the --log logger and the --metrics-addr listener, the
// first things the dashboard and dump open (openDeskLog).
type deskLog struct {
	logger *slog.Logger
	// close closes the log file and returns its first write error: a log
	// that could not be written is a failure, not a silence. Idempotent.
	close func() error
	df    *deskFlags
}

// release, deferred by the caller, closes the log and the listener
// unless openDesk served it.
func (l deskLog) release() {
	_ = l.close()
	l.df.unbind()
}

// openDeskLog binds --metrics-addr before anything is opened, then opens
// the --log file (openOrderLog). It returns the exit code of a failure:
// ExitUsage for an address that cannot be had, ExitFail for a log that
// cannot be opened; nothing stays open then.
func openDeskLog(df *deskFlags, path string) (deskLog, int, error) {
	if err := df.bind(); err != nil {
		return deskLog{}, ExitUsage, err
	}
	logger, closeLog, err := openOrderLog(path)
	if err != nil {
		df.unbind()
		return deskLog{}, ExitFail, err
	}
	return deskLog{logger: logger, close: closeLog, df: df}, ExitOK, nil
}

// openDesk serves the metrics on the listener bind made (with
// --metrics-addr) and starts the alert delivery (with rules in conn);
// toUI, when not nil, also gets each firing.
func openDesk(ctx context.Context, df *deskFlags, conn config.Conn, logger *slog.Logger, toUI func(alert.Firing)) *desk {
	d := &desk{rules: conn.Alerts, logger: logger}
	d.ctx, d.cancel = context.WithCancel(ctx)
	if df.metricsLn != nil {
		d.reg = metrics.New()
		d.reg.Serve(d.ctx, df.metricsLn, logger)
		logger.Info("serving metrics", "url", "http://"+df.metricsLn.Addr().String()+"/metrics")
	}
	if df.alertCmd != "" {
		d.cmd = notify.NewCommand(df.alertCmd, 0, 0, logger)
	}
	d.disp = notify.NewDispatcher(logger, d.cmd, func(f alert.Firing) {
		d.notes.note(f)
		if toUI != nil {
			toUI(f)
		}
		if srv := d.viewers.Load(); srv != nil {
			srv.Alert(f.Accounts(), ui.AlertMsg{Text: alertText(f), Bell: true})
		}
	})
	return d
}

// follow exports the upstream's metrics and starts evaluating the alert
// rules on it, until the desk closes.
func (d *desk) follow(name string, up *upstream) {
	if name == "" {
		name = metrics.DefaultAccount
	}
	mkt := up.MarketHub()
	d.reg.AddAccount(d.ctx, metrics.Account{Name: name, State: up.sess.Hub(), Status: up.sess.Status, Market: mkt, ValueIn: up.valueIn})
	if len(d.rules) == 0 {
		return
	}
	w := notify.Watcher{
		Engine:  alert.NewEngine(d.rules),
		Sources: []notify.Source{{Name: name, State: up.sess.Hub(), Status: up.sess.Status, Market: mkt, ValueIn: up.valueIn}},
		Deliver: d.disp.Deliver,
		Warn: func(account string, n alert.NeverFires) {
			// Said where the operator looks: the log and dump's stderr
			// (once), and the Events pane (the dashboard's and serve's
			// viewers') of each account it concerns: a market rule's
			// every account of the host, whose viewers see its alerts.
			d.logger.Warn("alert rule can never fire", "account", account, "why", n.Text)
			d.notes.noteError(n)
			d.warnMu.Lock()
			d.warned = append(d.warned, deskWarning{account, n.Text})
			d.warnMu.Unlock()
		},
	}
	primed := make(chan struct{})
	w.Primed = func() { close(primed) }
	d.primed = append(d.primed, primed)
	go w.Run(d.ctx)
}

// primedWait bounds how long waitPrimed waits for the rules' baseline.
const primedWait = 5 * time.Second

// waitPrimed waits until every alert watcher has taken its baseline (its
// first evaluation on a REST snapshot), so that what the caller does next,
// such as placing orders, can fire the rules; at most primedWait, and not
// past ctx.
func (d *desk) waitPrimed(ctx context.Context) {
	timeout := time.NewTimer(primedWait)
	defer timeout.Stop()
	for _, p := range d.primed {
		select {
		case <-p:
		case <-ctx.Done():
			return
		case <-timeout.C:
			return
		}
	}
}

// warnings returns the rules that can never fire, for the dump's stderr.
func (d *desk) warnings() []deskWarning {
	d.warnMu.Lock()
	defer d.warnMu.Unlock()
	return slices.Clone(d.warned)
}

// alerts returns the firings so far, for the dump.
func (d *desk) alerts() []notify.Record { return d.disp.Records() }

// close stops the watchers and the metrics server, and waits up to wait
// for running alert commands (each is killed at its own timeout anyway).
func (d *desk) close(wait time.Duration) {
	d.cancel()
	if d.cmd != nil {
		d.cmd.Wait(wait)
	}
}

// exitWait is how long the dashboard and serve wait on exit for alert
// commands still running; dump waits for them to finish (finishWait).
const (
	exitWait   = time.Second
	finishWait = notify.DefaultCommandTimeout + time.Second
)

// alertNotes makes each firing a line of its account's events log
// (keyed by the firing's account name), so the dashboard and serve's
// viewers keep every alert in their Events pane (a toast shows only the
// newest, and serve has none). Set by of before the watchers start.
type alertNotes struct {
	notes map[string]func(stream.NoteKind, string)
}

// of notes the firings of the accounts in as.
func (n *alertNotes) of(as *accounts) {
	n.notes = map[string]func(stream.NoteKind, string){}
	for _, a := range as.list {
		name, sess := a.name, a.up.sess
		if name == "" {
			name = metrics.DefaultAccount
		}
		n.notes[name] = sess.Note
	}
}

// note adds f to its accounts' events logs: its account's, or for a
// market alert each of its host's.
func (n *alertNotes) note(f alert.Firing) {
	for _, a := range f.Accounts() {
		if note := n.notes[a]; note != nil {
			note(stream.NoteAlert, f.Message)
		}
	}
}

// noteError adds a rule that can never fire to its accounts' events logs
// as an error line.
func (n *alertNotes) noteError(nf alert.NeverFires) {
	for _, a := range nf.Accounts {
		if note := n.notes[a]; note != nil {
			note(stream.NoteError, nf.Text)
		}
	}
}

// uiAlerts hands firings to a dashboard program without ever blocking the
// deliverer: a small queue, dropped when full, drained by one goroutine
// that calls Program.Send.
type uiAlerts struct {
	ch      chan ui.AlertMsg
	desktop bool
}

func newUIAlerts(getenv func(string) string) *uiAlerts {
	return &uiAlerts{ch: make(chan ui.AlertMsg, 16), desktop: notify.Desktop(getenv)}
}

// alertText is a firing's toast: its message, after its account's name
// unless that is the only, unnamed, account or the alert is the market's
// (shown to viewers of other accounts, who are not told of this one).
func alertText(f alert.Firing) string {
	text := f.Message
	if f.Account != metrics.DefaultAccount && !f.Market() {
		text = f.Account + ": " + text
	}
	return notify.Clean(text)
}

// deliver queues f for the dashboard.
func (u *uiAlerts) deliver(f alert.Firing) {
	select {
	case u.ch <- ui.AlertMsg{Text: alertText(f), Bell: true, Desktop: u.desktop}:
	default:
	}
}

// run forwards queued alerts to p until ctx ends.
func (u *uiAlerts) run(ctx context.Context, p *tea.Program) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-u.ch:
			p.Send(m)
		}
	}
}

// checkDeskFlags validates the flags before anything starts.
func checkDeskFlags(df *deskFlags) error {
	if df.metricsAddr != "" {
		return listenAddr("--metrics-addr", df.metricsAddr)
	}
	return nil
}
