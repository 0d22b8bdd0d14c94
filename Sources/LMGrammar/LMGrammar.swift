// LMGrammar module: see README for the architecture.
