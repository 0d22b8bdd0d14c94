// Apple's 27 SDK spellings (back-deployed there to 26.0): `samplingMode` and `init(samplingMode:…)`.

extension GenerationOptions {
    /// How the next token is picked; `nil` = the default random sampling (see ``GenerationOptions``).
    public var samplingMode: SamplingMode? {
        get { storedSamplingMode }
        set { storedSamplingMode = newValue }
    }

    /// Creates generation options; every `nil` means the default described on ``GenerationOptions``.
    public init(samplingMode: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.storedSamplingMode = samplingMode
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
    }
}

extension GenerationOptions.SamplingMode {
    /// The kind of a sampling mode and its parameters (27.0 beta interface spelling; 27.1 notes report
    /// `randomTopK`/`randomProbabilityThreshold`, which may replace these names).
    public enum Kind: Sendable, Equatable {
        case greedy
        case top(k: Int, seed: UInt64?)
        case nucleus(threshold: Double, seed: UInt64?)
    }

    /// This mode's kind and parameters.
    public var kind: Kind {
        switch mode {
        case .greedy: .greedy
        case let .topK(k, seed): .top(k: k, seed: seed)
        case let .nucleus(p, seed): .nucleus(threshold: p, seed: seed)
        }
    }
}
