// LMTransformer module: see README for the architecture.
