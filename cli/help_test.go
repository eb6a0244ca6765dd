package cli

import (
	"strings"
	"testing"
)

// TestDashboardHelpListsItsFlags: `bhtop -h` (and `bhtop help`) list the
// commands and the dashboard's own flags; a bad dashboard flag says
// "bhtop -h lists the flags", and --fps, --metrics and the connection
// flags were nowhere to be read.
func TestDashboardHelpListsItsFlags(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		var out, errOut strings.Builder
		code := Run(args, IO{Out: &out, Err: &errOut})
		got := out.String()
		if code != ExitOK {
			t.Errorf("bhtop %v: exit %d, want 0", args, code)
		}
		for _, want := range []string{"dump ", "serve ", "-fps", "-metrics", "-no-market", "-base-url", "-alert-cmd"} {
			if !strings.Contains(got, want) {
				t.Errorf("bhtop %v: stdout lacks %q:\n%s", args, want, got)
			}
		}
		if strings.Contains(got, "cpuprofile") || errOut.Len() != 0 {
			t.Errorf("bhtop %v: a hidden flag listed, or stderr %q", args, errOut.String())
		}
	}
}

// TestCommandHelpNamesTheCommand: each command's -h begins "Usage of
// bhtop CMD:" (gen, order, replay and serve said "Usage of serve:",
// dump and sim "Usage of bhtop dump:").
func TestCommandHelpNamesTheCommand(t *testing.T) {
	for _, cmd := range []string{"dump", "gen", "replay", "serve", "sim", "version"} {
		var out, errOut strings.Builder
		code := Run([]string{cmd, "-h"}, IO{Out: &out, Err: &errOut, Getenv: func(string) string { return "" }})
		all := out.String() + errOut.String()
		if code != ExitOK || !strings.Contains(all, "Usage of bhtop "+cmd+":") {
			t.Errorf("bhtop %s -h: exit %d, output %q; want 0 and \"Usage of bhtop %s:\"", cmd, code, all, cmd)
		}
	}
}

// TestUsageErrorsAreOneLine: an unknown command, and bhtop order without
// its verb, are refused in one line that says where the help is (exit
// 2), not followed by the whole command or flag list (60 lines for
// order).
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"help", "nope"}, {"order"}, {"order", "bogus"}} {
		var out, errOut strings.Builder
		code := Run(args, IO{Out: &out, Err: &errOut, Getenv: func(string) string { return "" }})
		if got := errOut.String(); code != ExitUsage || strings.Count(got, "\n") != 1 || !strings.Contains(got, " -h") && !strings.Contains(got, "bhtop help") || out.Len() != 0 {
			t.Errorf("bhtop %q: exit %d, stderr %q, stdout %q; want 2 and one line saying where the help is", args, code, got, out.String())
		}
	}
}
