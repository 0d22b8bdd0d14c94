// LMSession module: see README for the architecture.
