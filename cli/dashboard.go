package cli

func runDashboard(args []string, stdio IO) int { return notBuilt("(dashboard)", stdio) }
