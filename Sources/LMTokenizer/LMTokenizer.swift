// LMTokenizer module: see README for the architecture.
