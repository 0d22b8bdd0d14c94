/// Options that control how the model generates its response to a prompt (Apple's `GenerationOptions`).
///
/// Every field is optional; `nil` means "the model's default". Our defaults (Apple does not publish its own):
/// sampling `nil` draws from the top 40 tokens whose cumulative probability stays within 0.95
/// (with min-p 0.05), at `temperature` 0.8 (llama.cpp's defaults, also the command line's), with a
/// fresh random seed per response.
/// See ``SamplingMode`` for how each mode maps onto the local sampler.
public struct GenerationOptions: Sendable, Equatable {
    /// Storage shared by the 26 spelling (`sampling`) and the 27 spelling (`samplingMode`).
    var storedSamplingMode: SamplingMode?
    /// Storage of the 27 property `toolCallingMode` (declared in `GenerationOptions+Aliases.swift`).
    var storedToolCallingMode: ToolCallingMode?

    /// How the next token is picked; `nil` = the default random sampling described above.
    ///
    /// The 26.x spelling; Apple's 27 SDK renames it ``samplingMode``. Both refer to the same value.
    @available(*, deprecated, renamed: "samplingMode")
    public var sampling: SamplingMode? {
        get { storedSamplingMode }
        set { storedSamplingMode = newValue }
    }

    /// Scales the token distribution before sampling: below 1 sharper, above 1 flatter; `0` is greedy.
    /// `nil` = 0.8. Ignored by ``SamplingMode/greedy``. A negative or non-finite value makes the request throw
    /// ``InvalidOptionError`` when it starts.
    public var temperature: Double?

    /// The most tokens the response may have. When reached the response ends early with the text so far and
    /// no error is thrown (Apple's documented semantics). `nil` = as many as the context window holds; a
    /// response that runs out of window throws ``LanguageModelError/contextSizeExceeded(_:)``.
    /// A negative value makes the request throw ``InvalidOptionError`` when it starts.
    public var maximumResponseTokens: Int?

    /// Creates options with the 26.x label `sampling:` (deprecated in Apple's 27 SDK in favour of `samplingMode:`).
    @available(*, deprecated, renamed: "init(samplingMode:temperature:maximumResponseTokens:)")
    public init(sampling: SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil) {
        self.storedSamplingMode = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
    }

    /// Creates options with the 26.x label `sampling:` and a tool-calling mode. Apple's 27 SDK declares the
    /// tool-calling initialiser only with `samplingMode:`; this one exists so that code mixing the two spellings
    /// compiles, with a deprecation warning whose fix-it renames the label (not in Apple's API).
    @available(*, deprecated, renamed: "init(samplingMode:temperature:maximumResponseTokens:toolCallingMode:)")
    public init(sampling: SamplingMode?, temperature: Double? = nil, maximumResponseTokens: Int? = nil,
                toolCallingMode: ToolCallingMode?) {
        self.storedSamplingMode = sampling
        self.temperature = temperature
        self.maximumResponseTokens = maximumResponseTokens
        self.storedToolCallingMode = toolCallingMode
    }
}

extension GenerationOptions {
    /// A strategy for picking the next token from the model's probability distribution.
    ///
    /// - ``greedy``: always the most likely token (deterministic; `temperature` is ignored).
    /// - ``random(top:seed:)``: top-k sampling at the options' temperature.
    /// - ``random(probabilityThreshold:seed:)``: nucleus (top-p) sampling at the options' temperature.
    ///
    /// A `seed` makes random sampling repeatable on the same model, prompt and options; `nil` draws a fresh seed.
    public struct SamplingMode: Sendable, Equatable {
        enum Mode: Sendable, Equatable {
            case greedy
            case topK(Int, seed: UInt64?)
            case nucleus(Double, seed: UInt64?)
        }
        let mode: Mode

        /// Always picks the most likely token.
        public static var greedy: SamplingMode { SamplingMode(mode: .greedy) }

        /// Samples among the `k` most likely tokens (top-k). `k` below 1 makes the request throw
        /// ``GenerationOptions/InvalidOptionError`` when it starts.
        public static func random(top k: Int, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(mode: .topK(k, seed: seed))
        }

        /// Samples among the most likely tokens whose cumulative probability reaches `probabilityThreshold`
        /// (nucleus / top-p sampling), a value in `(0, 1]`; a value outside makes the request throw
        /// ``GenerationOptions/InvalidOptionError`` when it starts.
        public static func random(probabilityThreshold: Double, seed: UInt64? = nil) -> SamplingMode {
            SamplingMode(mode: .nucleus(probabilityThreshold, seed: seed))
        }
    }
}
