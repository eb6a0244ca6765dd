package cli

import (
	"flag"
	"fmt"

	"bhtop/gen"
)

// runGen writes a deterministic synthetic journal to stdout.
func runGen(args []string, stdio IO) int {
	fs := flag.NewFlagSet("bhtop gen", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	events := fs.Int("events", 1000, "event objects to write (duplicates included)")
	seed := fs.Uint64("seed", 1, "random seed: the same seed writes the same journal")
	open := fs.Int("open", 200, "open orders kept working at once")
	inOrder := fs.Bool("in-order", false, "deliver every event once, in order, one per frame")
	rest, exit, ok := parseFlags(fs, args)
	if !ok {
		return exit
	}
	if err := checkFlags(atLeast("--events", *events, 0), intIn("--open", *open, 1, 10_000_000)); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop gen: %v\n", err)
		return ExitUsage
	}
	if len(rest) > 0 {
		fmt.Fprintln(stdio.Err, "usage: bhtop gen [--events N] [--seed S] [--open N] [--in-order]")
		return ExitUsage
	}
	opt := gen.Options{Events: *events, Seed: *seed, OpenOrders: *open, InOrder: *inOrder}
	if err := gen.Write(stdio.Out, opt); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop gen: %v\n", err)
		return ExitFail
	}
	return ExitOK
}
