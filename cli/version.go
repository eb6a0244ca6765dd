package cli

import (
	"flag"
	"fmt"
	"runtime/debug"
)

// Version is set at build time with -ldflags "-X bhtop/cli.Version=…".
var Version = "dev"

func runVersion(args []string, stdio IO) int {
	fs := flag.NewFlagSet("bhtop version", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	fail := failer(stdio.Err, "bhtop version")
	if exit, ok := parseFlagsOnly(fs, args, fail); !ok {
		return exit
	}
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	if _, err := fmt.Fprintf(stdio.Out, "bhtop %s\n", v); err != nil {
		return fail(ExitFail, "%v", err)
	}
	return ExitOK
}
