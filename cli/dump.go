package cli

func runDump(args []string, stdio IO) int { return notBuilt("dump", stdio) }
