package cli

func runGen(args []string, stdio IO) int { return notBuilt("gen", stdio) }
