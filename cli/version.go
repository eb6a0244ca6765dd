package cli

import (
	"fmt"
	"runtime/debug"
)

// Version is set at build time with -ldflags "-X bhtop/cli.Version=…".
var Version = "dev"

func runVersion(args []string, stdio IO) int {
	v := Version
	if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		v = info.Main.Version
	}
	fmt.Fprintf(stdio.Out, "bhtop %s\n", v)
	return ExitOK
}
