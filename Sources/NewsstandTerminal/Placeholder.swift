// NewsstandTerminal
