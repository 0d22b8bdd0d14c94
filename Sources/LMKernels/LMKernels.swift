// LMKernels module: see README for the architecture.
