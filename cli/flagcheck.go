package cli

import (
	"errors"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"time"

	"bhtop/config"
)

// Range checks of numeric flags, shared by the subcommands so that every
// bad number is refused the same way: in one line naming the flag, the
// value given and what is wanted, with exit code 2. Use them after
// parsing, joined with checkFlags:
//
//	if err := checkFlags(intIn("--fps", fps, 1, 120), ratio("--rate", r)); err != nil { ... }

// checkFlags returns the first failed check, nil when all pass.
func checkFlags(checks ...error) error {
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// errFlagRange is wrapped by every range-check error.
var errFlagRange = errors.New("out of range")

// intIn wants lo <= v <= hi.
func intIn(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s %d: want a whole number from %d to %d (%w)", name, v, lo, hi, errFlagRange)
	}
	return nil
}

// atLeast wants v >= lo.
func atLeast(name string, v, lo int) error {
	if v < lo {
		return fmt.Errorf("%s %d: want a whole number of at least %d (%w)", name, v, lo, errFlagRange)
	}
	return nil
}

// floatIn wants a finite lo <= v <= hi (NaN and infinities never pass).
func floatIn(name string, v, lo, hi float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < lo || v > hi {
		return fmt.Errorf("%s %g: want a number from %g to %g (%w)", name, v, lo, hi, errFlagRange)
	}
	return nil
}

// ratio wants a fraction from 0 to 1.
func ratio(name string, v float64) error {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return fmt.Errorf("%s %g: want a fraction from 0 to 1 (%w)", name, v, errFlagRange)
	}
	return nil
}

// durationIn wants lo <= d <= hi.
func durationIn(name string, d, lo, hi time.Duration) error {
	if d < lo || d > hi {
		return fmt.Errorf("%s %s: want a duration from %s to %s (%w)", name, d, lo, hi, errFlagRange)
	}
	return nil
}

// positiveDuration wants d > 0.
func positiveDuration(name string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("%s %s: want a positive duration such as 500ms, 30s or 5m (%w)", name, d, errFlagRange)
	}
	return nil
}

// nonNegativeDuration wants d >= 0 (0 usually means off or never).
func nonNegativeDuration(name string, d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("%s %s: want 0 or a positive duration (%w)", name, d, errFlagRange)
	}
	return nil
}

// outputFile checks a file a command will write (a journal, a log, the
// metrics) before anything starts: it is not a directory and its
// directory exists. "" (no file) passes.
func outputFile(name, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s %s: is a directory; want a file", name, path)
	} else if err == nil && st.Mode()&os.ModeNamedPipe != 0 {
		// Opening a FIFO to write waits for a reader, for ever and deaf
		// to signals; without O_NONBLOCK it fails at once instead.
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if errors.Is(err, syscall.ENXIO) {
			return fmt.Errorf("%s %s: is a named pipe with no reader (writing would wait for one for ever)", name, path)
		}
		if err == nil {
			_ = f.Close()
		}
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s %s: the directory %s does not exist", name, path, dir)
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", name, path, dir)
	}
	return nil
}

// addrExamples are the listen addresses a refusal shows, by flag (serve's
// --listen otherwise).
var addrExamples = map[string]string{"--metrics-addr": "127.0.0.1:9464", "--addr": "127.0.0.1:0"}

// listenAddr checks a HOST:PORT listen address (port 0 picks a free one).
func listenAddr(name, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		example := addrExamples[name]
		if example == "" {
			example = "127.0.0.1:2222"
		}
		return fmt.Errorf("%s %q: want HOST:PORT, e.g. %s", name, addr, example)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("%s %q: the port must be a number from 0 to 65535", name, addr)
	}
	return nil
}

// symbolRE is how a symbol is spelled: BTCUSDT, BTC-PERP-REV. Whether it
// exists is the service's to say.
var symbolRE = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]{0,39}$`)

// symbolName checks a symbol's spelling (upper-cased already).
func symbolName(name, s string) error {
	if !symbolRE.MatchString(s) {
		return fmt.Errorf("%s %q: want a symbol such as BTCUSDT (letters, digits, - and _)", name, s)
	}
	return nil
}

// secretArgRefusal is what a command says when an argument holds the
// secret key (secretInArgs); it never shows the argument.
const secretArgRefusal = "refused: an argument holds the secret key (not shown; nothing was sent): " +
	"give the secret only in BHTOP_SECRET_KEY, --secret-file or the config file"

// secretInArgs reports whether one of the command line's args holds the
// secret of conn (in any letter case): typed as a symbol or a client
// order id it would be printed in a refusal, or sent to the service.
func secretInArgs(args []string, conn ...config.Conn) bool {
	for _, c := range conn {
		for _, a := range args {
			if c.Secret.Within(a) {
				return true
			}
		}
	}
	return false
}
