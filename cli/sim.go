package cli

func runSim(args []string, stdio IO) int { return notBuilt("sim", stdio) }
