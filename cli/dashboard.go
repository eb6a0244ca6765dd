package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"bhtop/config"
	"bhtop/state"
	"bhtop/themes"
	"bhtop/ui"
)

// dashboardSimActivity is the background activity (events per second) of
// the simulator the dashboard starts when no credentials are configured,
// and dashboardSimResting the resting orders its account starts with.
const (
	dashboardSimActivity = 5
	dashboardSimResting  = 4
)

// dashboardStartWait is how long the dashboard draws nothing while its
// account connects (ui.WithStartWait): on a service that answers within
// it (the local simulator: about 15 ms) the first frame is the live
// account, not a "connecting" frame that the painter would make the live
// one wait a frame behind; on a slower one "connecting" shows after it.
// A variable so that a test on a loaded machine can wait longer.
var dashboardStartWait = 200 * time.Millisecond

// dashboardFPS is the default cap of frames drawn a second (--fps): the
// painter (package paint, newPaintedProgram) draws at most this many and
// state changes are coalesced at the same pace; a key still shows within
// one frame (67 ms). An idle painter does not wake (Bubble Tea v2.0.10's
// renderer, used before, woke at this rate even when nothing changed).
const dashboardFPS = 15

// runDashboard is `bhtop` with no subcommand: the dashboard on the
// configured account, or on an in-process simulator without credentials.
// SIGINT, SIGTERM and SIGHUP end it (through its context only: see
// runDashboardContext); ctrl+c is a key to it. Once the terminal is
// given back, during the shutdown left (closing listenKeys, up to 5 s),
// a signal — ctrl+c, the terminal cooked again — ends the process at
// once (untilArmedSignal), once --metrics is written.
func runDashboard(args []string, stdio IO) int {
	run := func(ctx context.Context, arm func(flush func()), args []string, stdio IO) int {
		return runDashboardContext(ctx, args, stdio, arm)
	}
	return untilArmedSignal("bhtop", false, run, args, stdio, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
}

// runDashboardContext runs the dashboard until `q`, ctrl+c or ctx ends,
// then closes the listenKey and writes --metrics. termGiven (may be nil)
// is called once the program has ended and the terminal is given back,
// with what a process ending before the shutdown does must still do:
// write --metrics (with the state at that moment), or wait for the
// writing under way.
func runDashboardContext(ctx context.Context, args []string, stdio IO, termGiven func(flush func()), progOpts ...tea.ProgramOption) int {
	fs := flag.NewFlagSet("bhtop", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	connFlags := config.AddFlags(fs).AddMarketFlags()
	fps := fs.Int("fps", dashboardFPS, "most frames per second drawn (1-120); lower saves CPU when idle, higher shows keys sooner")
	metricsFile := fs.String("metrics", "", "on exit, write counters and latency percentiles as JSON to this file")
	df := addDeskFlags(fs)
	cpuProfile := fs.String("cpuprofile", "", "") // hidden: write a pprof CPU profile of the whole run
	hideFlags(fs, "cpuprofile")
	pos, exit, ok := parseFlags(fs, args)
	if !ok {
		return exit
	}
	fail := failer(stdio.Err, "bhtop")
	if err := intIn("--fps", *fps, 1, 120); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	if len(pos) > 0 {
		return fail(ExitUsage, "unknown command %q (see bhtop help)", pos[0])
	}
	if err := checkDeskFlags(df); err != nil {
		return fail(ExitUsage, "%v", err)
	}
	accts, err := connFlags.ResolveAccounts(stdio.Getenv)
	if err != nil {
		return fail(ExitUsage, "%v", err)
	}
	conn := accts[0].Conn // the settings every account shares (theme, log, alerts)
	if conn.Theme != "" && !slices.Contains(themes.Names(), conn.Theme) {
		return fail(ExitUsage, "%s %q: want one of %v", conn.ThemeFrom, conn.Theme, themes.Names())
	}
	if err := checkFlags(outputFile("--record", conn.Record), outputFile("--log", conn.Log),
		outputFile("--metrics", *metricsFile)); err != nil {
		return fail(ExitUsage, "%v", err)
	}

	// Checked before anything is opened: a stdin that is a file but no
	// terminal (/dev/null, a pipe) cannot drive the dashboard.
	if f, ok := stdio.In.(term.File); ok && !term.IsTerminal(f.Fd()) {
		return fail(ExitUsage, "the dashboard needs a terminal on stdin; for output without one see bhtop dump")
	}

	if *cpuProfile != "" {
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return fail(ExitFail, "%v", err)
		}
		defer stopProfile()
	}

	dl, code, err := openDeskLog(df, conn.Log)
	if err != nil {
		return fail(code, "%v", err)
	}
	defer dl.release()
	logger := dl.logger
	toasts := newUIAlerts(stdio.Getenv)
	dk := openDesk(ctx, df, conn, logger, toasts.deliver)
	defer dk.close(exitWait)
	as, err := openAccounts(ctx, accts, upstreamOptions{simActivity: dashboardSimActivity, simResting: dashboardSimResting, trade: true, logger: logger, metrics: dk.reg, getenv: stdio.Getenv})
	if err != nil {
		return fail(upstreamExitCode(err), "%v", err)
	}
	defer as.Close()            // idempotent: the normal path closes it below
	first := as.list[0].up.sess // --metrics reads its state after Close
	as.Start()
	as.follow(dk)
	logger.Info("dashboard started", "accounts", len(as.list), "simulated", as.list[0].up.simulated, "readOnly", conn.ReadOnly)

	var metrics *ui.Metrics
	if *metricsFile != "" {
		metrics = ui.NewMetrics()
	}
	uiOpts := []ui.Option{
		ui.WithTheme(conn.Theme),
		ui.WithNoColor(stdio.Getenv("NO_COLOR") != ""),
		ui.WithContext(ctx),
		ui.WithMetrics(metrics),
		ui.WithFrameInterval(time.Second / time.Duration(*fps)),
		ui.WithStartWait(dashboardStartWait),
	}
	// Read-only is a capability: an account without a Trader has no way
	// to send an order, and openUpstream built no rest.Trader for it.
	model := func(term io.Writer) tea.Model {
		return ui.NewDesk(as.uiAccounts(false), append(uiOpts, ui.WithTerminalOutput(term))...)
	}
	// Signals end the program through ctx alone: Bubble Tea's own
	// handler, answering the same SIGTERM, blocked for ever sending its
	// quit to a program ctx had stopped, and Run waited for it.
	opts := append([]tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler()}, progOpts...)
	prog := newPaintedProgramFor(model, stdio, *fps, opts...)
	go toasts.run(dk.ctx, prog.Program)
	_, runErr := prog.Run()
	// Written once: after the shutdown, or by an interrupt during it.
	saveMetrics := sync.OnceValue(func() error {
		if metrics == nil {
			return nil
		}
		return writeMetrics(*metricsFile, metrics, first.Hub().Latest())
	})
	// Said once: after the shutdown, or first thing on an interrupt
	// during it (the orders in flight then most need naming).
	unsettled := as.unsettledOrders() // the hubs taken now: Close lets the sessions go
	sayUnsettled := sync.OnceFunc(func() {
		for _, l := range unsettled() {
			logger.Warn(l)
			fmt.Fprintf(stdio.Err, "bhtop: %s\n", l)
		}
	})
	if termGiven != nil {
		termGiven(func() {
			sayUnsettled()
			if err := saveMetrics(); err != nil {
				fmt.Fprintf(stdio.Err, "bhtop: %v\n", err)
			}
		})
	}

	if err := as.Close(); err != nil {
		logger.Warn("closing the session", "err", err)
		fmt.Fprintf(stdio.Err, "bhtop: closing the user stream: %v\n", err)
	}
	sayUnsettled()
	var lost []error // files that could not be written: the run fails
	if err := saveMetrics(); err != nil {
		lost = append(lost, err)
	}
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() == nil {
		logger.Error("dashboard failed", "err", runErr)
		return fail(ExitFail, "dashboard: %v", runErr)
	}
	logger.Info("dashboard closed")
	lost = append(lost, as.RecordErr(), dl.close())
	if err := errors.Join(lost...); err != nil {
		return fail(ExitFail, "%v", err)
	}
	return ExitOK
}

// writeMetrics writes the --metrics JSON: the dashboard's counters and
// latencies, and the fold's counters.
func writeMetrics(path string, m *ui.Metrics, s *state.Snapshot) error {
	out := struct {
		ui.MetricsReport
		State state.Stats `json:"state"`
	}{m.Report(), s.Stats}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the metrics: %w", err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write the metrics: %w", err)
	}
	return nil
}

// startCPUProfile writes a pprof CPU profile to path until the returned
// function is called (the hidden --cpuprofile flag, for finding what the
// dashboard spends its time on).
func startCPUProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create the --cpuprofile file: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("start the CPU profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// hideFlags leaves the named flags out of -h's list.
func hideFlags(fs *flag.FlagSet, names ...string) {
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
		shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		shown.SetOutput(out)
		fs.VisitAll(func(f *flag.Flag) {
			if !slices.Contains(names, f.Name) {
				shown.Var(f.Value, f.Name, f.Usage)
			}
		})
		shown.PrintDefaults()
	}
}
