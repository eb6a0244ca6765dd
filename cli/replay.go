package cli

func runReplay(args []string, stdio IO) int { return notBuilt("replay", stdio) }
