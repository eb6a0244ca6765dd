package cli

func runOrder(args []string, stdio IO) int { return notBuilt("order", stdio) }
