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
    /// The kind of a sampling mode and its parameters, for executors that translate it (Apple 27, the GA
    /// spelling of its guide for model providers; the 27.0 beta called the random cases `top` and `nucleus`).
    public enum Kind: Sendable, Equatable {
        /// Always the most likely token.
        case greedy
        /// Among the `k` most likely tokens, with `seed` when given.
        case randomTopK(k: Int, seed: UInt64?)
        /// Among the most likely tokens whose probabilities add up to `threshold`, with `seed` when given.
        case randomProbabilityThreshold(threshold: Double, seed: UInt64?)
    }

    /// This mode's kind and parameters.
    public var kind: Kind {
        switch mode {
        case .greedy: .greedy
        case let .topK(k, seed): .randomTopK(k: k, seed: seed)
        case let .nucleus(p, seed): .randomProbabilityThreshold(threshold: p, seed: seed)
        }
    }
}

extension GenerationOptions {
    /// Whether the model may, must, or must not call tools (Apple 27's `ToolCallingMode`).
    ///
    /// - ``allowed`` (the default): the model answers or calls tools, as it chooses.
    /// - ``required``: the first model call of the request must call a tool; later ones (after the tool outputs
    ///   came back) may answer. Apple's framework keeps requiring calls; we relax it after one round so the
    ///   request can end.
    /// - ``disallowed``: the model cannot call tools; it answers with what it has.
    ///
    /// On the local model the mode is enforced by the token mask (see `docs/tools.md`). It has no effect on a
    /// session without tools.
    public struct ToolCallingMode: Sendable, Equatable {
        /// The three modes.
        public enum Kind: Hashable, Sendable {
            case allowed, required, disallowed
        }

        /// Which mode this is.
        public var kind: Kind

        /// The model may call tools or answer directly.
        public static let allowed = ToolCallingMode(kind: .allowed)
        /// The model must call at least one tool before it answers.
        public static let required = ToolCallingMode(kind: .required)
        /// The model must answer without calling tools.
        public static let disallowed = ToolCallingMode(kind: .disallowed)
    }

    /// Whether the model may call tools in this request; `nil` means ``ToolCallingMode/allowed``.
    public var toolCallingMode: ToolCallingMode? {
        get { storedToolCallingMode }
        set { storedToolCallingMode = newValue }
    }

    /// Creates generation options with a tool-calling mode; every other `nil` means the default described on
    /// ``GenerationOptions``.
    public init(samplingMode: SamplingMode? = nil, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
                toolCallingMode: ToolCallingMode?) {
        self.init(samplingMode: samplingMode, temperature: temperature, maximumResponseTokens: maximumResponseTokens)
        self.storedToolCallingMode = toolCallingMode
    }
}
