package cli

func runServe(args []string, stdio IO) int { return notBuilt("serve", stdio) }
