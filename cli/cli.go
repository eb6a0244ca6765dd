// Package cli implements bhtop's subcommands: it parses flags and wires
// the packages together, and holds no logic of its own beyond that.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	"bhtop/config"
	"bhtop/signer"
)

// IO is where a command reads and writes; tests pass buffers.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	Getenv   func(string) string
}

// StdIO is the process's own standard streams and environment.
func StdIO() IO { return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, Getenv: os.Getenv} }

// Exit codes shared by the subcommands.
const (
	ExitOK      = 0
	ExitFail    = 1 // the operation failed (e.g. order rejected)
	ExitUsage   = 2 // bad flags or arguments, or a command not built yet
	ExitUnknown = 3 // the outcome is not known (order sent, no definite answer)
)

type command struct {
	summary string
	run     func(args []string, stdio IO) int
}

// commands maps each subcommand name to its implementation. The dashboard
// (no subcommand) is "".
var commands = map[string]command{
	"":        {"open the dashboard (on the built-in simulator without credentials)", runDashboard},
	"sim":     {"run the local exchange simulator", runSim},
	"dump":    {"headless: stream, fold and print the state JSON", runDump},
	"replay":  {"play a journal into the dashboard, or fold it with --dump", runReplay},
	"gen":     {"write a deterministic synthetic journal", runGen},
	"order":   {"signed orders for scripts: new, cancel, close, cancel-all", runOrder},
	"serve":   {"serve the read-only dashboard over SSH", runServe},
	"version": {"print the version", runVersion},
	"help":    {"show this help", nil},
}

// stopSignals end a headless command (sim, dump, serve) cleanly.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// untilSignal runs a command with a context that ends when the process
// gets one of sigs.
func untilSignal(run func(ctx context.Context, args []string, stdio IO) int, args []string, stdio IO, sigs ...os.Signal) int {
	ctx, stop := signal.NotifyContext(context.Background(), sigs...)
	defer stop()
	return run(ctx, args, stdio)
}

// exitNow ends the process (os.Exit; a test's child process is real).
var exitNow = os.Exit

// flushWait bounds the flush an armed signal waits for before quitting
// (untilArmedSignal): a write that never ends (a FIFO whose reader left,
// a stalled disk) must not keep the process from ending.
var flushWait = 2 * time.Second

// untilSecondSignal is untilSignal for a headless command whose shutdown
// takes a while (dump closes its listenKeys, up to 5 s): a second signal
// meanwhile ends the process at once (untilArmedSignal, armed by the
// first signal).
func untilSecondSignal(name string, run func(ctx context.Context, args []string, stdio IO) int, args []string, stdio IO, sigs ...os.Signal) int {
	armed := func(ctx context.Context, _ func(flush func()), args []string, stdio IO) int {
		return run(ctx, args, stdio)
	}
	return untilArmedSignal(name, true, armed, args, stdio, sigs...)
}

// untilArmedSignal runs a command with a context that ends at the first
// of sigs. Once armed — by that first signal when onFirst, or when run
// calls arm (the dashboard, once its terminal is given back) — a signal
// ends the process at once, as a second ctrl+c ends a CLI tool, with one
// line on stderr and exit 128 + the signal's number (130 for SIGINT): the
// shutdown left (closing listenKeys, up to 5 s) is abandoned, but for
// the flush that armed it (may be nil), run first: what must still be
// written (the dashboard's --metrics); a further signal during the flush,
// or flushWait passing, abandons it too. The dashboard must not arm it
// while it holds the terminal.
func untilArmedSignal(name string, onFirst bool, run func(ctx context.Context, arm func(flush func()), args []string, stdio IO) int, args []string, stdio IO, sigs ...os.Signal) int {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, sigs...)
	defer signal.Stop(ch)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	armed := make(chan struct{})
	var flush func() // set once, before armed is closed
	once := sync.Once{}
	arm := func(f func()) { once.Do(func() { flush = f; close(armed) }) }
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		again := false // a signal came before
		for {
			select {
			case sig := <-ch:
				select {
				case <-armed:
					how := "interrupted"
					if again {
						how = "interrupted again"
					}
					fmt.Fprintf(stdio.Err, "%s: %s (%v): quitting at once, the shutdown abandoned\n", name, how, sig)
					if flush != nil {
						// A write that never ends (a FIFO whose reader
						// left, a stalled disk) must not leave bhtop deaf
						// to signals: another one abandons it, and so
						// does flushWait passing.
						flushed := make(chan struct{})
						go func() { defer close(flushed); flush() }()
						timer := time.NewTimer(flushWait)
						select {
						case <-flushed:
						case sig = <-ch:
							fmt.Fprintf(stdio.Err, "%s: interrupted again (%v): quitting without finishing the write\n", name, sig)
						case <-timer.C:
							fmt.Fprintf(stdio.Err, "%s: the write did not end within %v: quitting without finishing it\n", name, flushWait)
						}
						timer.Stop()
					}
					code := ExitFail
					if n, ok := sig.(syscall.Signal); ok {
						code = 128 + int(n)
					}
					exitNow(code)
					return
				default:
				}
				again = true
				cancel()
				if onFirst {
					arm(nil)
				}
			case <-finished:
				return
			}
		}
	}()
	return run(ctx, arm, args, stdio)
}

// Run executes the command line args (without the program name) and
// returns the process exit code.
func Run(args []string, stdio IO) int {
	if stdio.Err != nil {
		// A message that quotes an argument refused before the settings
		// resolve (--for, --account, a misspelt command) would show a
		// secret typed into it: every secret the run could use is known
		// before anything is written.
		var secrets []signer.Secret
		for _, s := range append(config.KnownSecrets(args, stdio.Getenv), simKeySecrets(args)...) {
			secrets = append(secrets, s)
			if q := s.Quoted(); !q.Empty() {
				secrets = append(secrets, q) // as a message's %q shows it
			}
		}
		if len(secrets) > 0 {
			stdio.Err = redactWriter{w: stdio.Err, secrets: secrets}
		}
	}
	name := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, args = args[0], args[1:]
	}
	if name == "help" && len(args) > 0 && args[0] != "help" {
		// bhtop help COMMAND is bhtop COMMAND -h.
		if _, ok := commands[args[0]]; !ok || args[0] == "" {
			fmt.Fprintf(stdio.Err, "bhtop: unknown command %q (bhtop help lists the commands)\n", args[0])
			return ExitUsage
		}
		return commands[args[0]].run([]string{"-h"}, stdio)
	}
	if name == "help" || (name == "" && len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help")) {
		if err := usage(stdio.Out); err != nil {
			fmt.Fprintf(stdio.Err, "bhtop: %v\n", err)
			return ExitFail
		}
		// The dashboard's own flags: its -h is this one.
		fmt.Fprintln(stdio.Out)
		return runDashboardContext(context.Background(), []string{"-h"}, IO{Out: stdio.Out, Err: stdio.Out}, nil)
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(stdio.Err, "bhtop: unknown command %q (bhtop help lists the commands)\n", name)
		return ExitUsage
	}
	return cmd.run(args, stdio)
}

// usage writes the command list to w in one write and returns its error.
func usage(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintln(&b, "usage: bhtop [command] [flags]")
	fmt.Fprintln(&b)
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		label := n
		if n == "" {
			label = "(none)"
		}
		fmt.Fprintf(&b, "  %-9s %s\n", label, commands[n].summary)
	}
	fmt.Fprintln(&b, "\nRun 'bhtop COMMAND -h' for a command's flags.")
	_, err := w.Write(b.Bytes())
	return err
}

// parseInterspersed parses flags that may stand before or after the
// positional arguments (DESIGN.md: `replay FILE --dump` and `replay --dump
// FILE` both work) and returns the positional ones. "--" ends flags. A bad
// flag is reported in one line on fs's output ("bhtop gen: invalid value
// ..."), not followed by the whole flag list, which -h still prints.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	out := fs.Output()
	var msg bytes.Buffer
	fs.SetOutput(&msg)
	defer fs.SetOutput(out)
	pos, err := parseArgs(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		_, _ = out.Write(msg.Bytes())
	case err != nil:
		name := fs.Name()
		if !strings.HasPrefix(name, "bhtop") {
			name = "bhtop " + name
		}
		fmt.Fprintf(out, "%s: %s (%s -h lists the flags)\n", name, oneLine(err.Error()), name)
	}
	return pos, err
}

// parseFlags parses args with parseInterspersed. When not ok the command
// ends here with exit: ExitOK after -h (the usage is written), ExitUsage
// after a bad flag (its one line is written).
func parseFlags(fs *flag.FlagSet, args []string) (pos []string, exit int, ok bool) {
	pos, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, ExitOK, false
	case err != nil:
		return nil, ExitUsage, false
	}
	return pos, 0, true
}

// parseFlagsOnly is parseFlags for a command that takes no positional
// argument: one is refused through fail.
func parseFlagsOnly(fs *flag.FlagSet, args []string, fail func(code int, format string, a ...any) int) (exit int, ok bool) {
	pos, exit, ok := parseFlags(fs, args)
	if ok && len(pos) > 0 {
		return fail(ExitUsage, "unexpected argument %q", pos[0]), false
	}
	return exit, ok
}

// failer returns how a command named name refuses: it writes one line
// "name: message" to w and returns code, the exit code to end with.
func failer(w io.Writer, name string) func(code int, format string, a ...any) int {
	return func(code int, format string, a ...any) int {
		fmt.Fprintf(w, name+": "+format+"\n", a...)
		return code
	}
}

// oneLine escapes the control characters of s (a line break or a
// terminal escape typed into an argument), so that a message quoting an
// argument stays one harmless line.
func oneLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	args = slices.Clone(args) // checkDecimalInts may rewrite a value
	if err := checkDecimalInts(fs, args); err != nil {
		return nil, err
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// decimalRE is a whole number as a person writes it.
var decimalRE = regexp.MustCompile(`^[+-]?[0-9]+$`)

// checkDecimalInts refuses a whole-number flag's value that is not plain
// decimal digits. The flag package reads Go literals: --recv-window 0x10
// was 16 ms and --recv-window 05000 octal, 2560 ms. Here a leading zero
// means nothing (strconv reads "05000" as 5000 only in base 10, so such
// a value is rewritten in args without its zeros).
func checkDecimalInts(fs *flag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, val, hasVal := strings.Cut(name, "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		at := i
		if !hasVal {
			if i+1 >= len(args) {
				return nil
			}
			i++
			at, val = i, args[i]
		}
		if !isIntFlag(f) {
			continue
		}
		if !decimalRE.MatchString(val) {
			return fmt.Errorf("invalid value %q for flag -%s: parse error: want a whole number in decimal digits", val, name)
		}
		if trimmed := trimZeros(val); trimmed != val {
			if hasVal {
				args[at] = a[:len(a)-len(val)] + trimmed
			} else {
				args[at] = trimmed
			}
		}
	}
	return nil
}

// isIntFlag says whether f holds a whole number.
func isIntFlag(f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	switch g.Get().(type) {
	case int, int64, uint, uint64:
		return true
	}
	return false
}

// trimZeros drops the leading zeros of a decimal whole number ("-007" is
// "-7", "000" is "0").
func trimZeros(s string) string {
	sign := ""
	if s[0] == '+' || s[0] == '-' {
		sign, s = s[:1], s[1:]
	}
	s = strings.TrimLeft(s, "0")
	if s == "" {
		s = "0"
	}
	return sign + s
}

// simKeySecrets are the secrets of bhtop sim's --key APIKEY:SECRET[:PERMS]
// values in args, for redaction (only sim has a --key flag).
func simKeySecrets(args []string) []signer.Secret {
	var out []signer.Secret
	for _, v := range config.ArgValues(args, "key") {
		if parts := strings.SplitN(v, ":", 3); len(parts) >= 2 && parts[1] != "" {
			out = append(out, signer.NewSecret(parts[1]))
		}
	}
	return out
}

// redactWriter writes to w with every occurrence of each secret replaced.
type redactWriter struct {
	w       io.Writer
	secrets []signer.Secret
}

func (r redactWriter) Write(p []byte) (int, error) {
	text := string(p)
	for _, s := range r.secrets {
		text = s.Redact(text)
	}
	if text == string(p) {
		return r.w.Write(p)
	}
	if _, err := io.WriteString(r.w, text); err != nil {
		return 0, err
	}
	return len(p), nil
}
