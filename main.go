// Command bhtop is a terminal dashboard for one trading account: balances,
// orders and positions folded live from the exchange's user data stream.
// See README.md; the subcommands live in package cli.
package main

import (
	"os"

	"bhtop/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], cli.StdIO()))
}
