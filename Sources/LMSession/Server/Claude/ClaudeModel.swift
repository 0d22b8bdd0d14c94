/// A Claude model: its API id and what its requests may carry (the published package's `ClaudeModel`).
///
/// The capabilities decide which request fields are sent: the Messages API rejects a field a model does
/// not accept with HTTP 400, so a field outside the capabilities is never sent. Sampling parameters and an
/// effort level are hints and are left out when the model does not take them; a response schema is a
/// contract, so a schema for a model without ``Capabilities/structuredOutput`` throws
/// ``LanguageModelError/unsupportedGenerationGuide(_:)`` before anything is sent.
///
/// There is no id-only initializer on purpose: it would have to guess the capabilities.
public struct ClaudeModel: Sendable, Hashable {
    /// The model id sent as `model` (for example `claude-sonnet-4-5`).
    public let id: String
    /// What the model accepts.
    public let capabilities: Capabilities
    /// Tokens of input plus output the model holds (the API's context window). Reported as
    /// ``ClaudeLanguageModel/contextSize``; the server enforces it.
    public let contextSize: Int

    /// A model named `id` that accepts what `capabilities` says.
    /// - Parameter contextSize: tokens of the model's context window (not part of the published
    ///   initializer, which has no context size; 200,000 when not given).
    public init(id: String, capabilities: Capabilities, contextSize: Int = 200_000) {
        self.id = id
        self.capabilities = capabilities
        self.contextSize = contextSize
    }

    /// The request fields a model accepts.
    public struct Capabilities: Sendable, Hashable {
        /// `temperature`, `top_p` and `top_k`.
        public var samplingParams: Bool
        /// The `output_config.effort` levels the model accepts; empty when it takes none.
        public var effortLevels: Set<Effort>
        /// Extended (adaptive) thinking; advertised as ``LanguageModelCapabilities/Capability/reasoning``.
        public var adaptiveThinking: Bool
        /// `output_config.format` (JSON-schema constrained output); advertised as
        /// ``LanguageModelCapabilities/Capability/guidedGeneration``.
        public var structuredOutput: Bool
        /// Image content blocks; advertised as ``LanguageModelCapabilities/Capability/vision``.
        public var imageInput: Bool
        /// `tool_choice` `any`, which ``GenerationOptions/ToolCallingMode/required`` needs. True by default: a
        /// wrong `true` fails loudly (HTTP 400 naming `tool_choice`), a wrong `false` would refuse a mode the
        /// model has.
        public var forcedToolUse: Bool

        public init(samplingParams: Bool = false, effortLevels: Set<Effort> = [], adaptiveThinking: Bool = false,
                    structuredOutput: Bool = false, imageInput: Bool = false, forcedToolUse: Bool = true) {
            self.samplingParams = samplingParams
            self.effortLevels = effortLevels
            self.adaptiveThinking = adaptiveThinking
            self.structuredOutput = structuredOutput
            self.imageInput = imageInput
            self.forcedToolUse = forcedToolUse
        }
    }

    /// How much reasoning and output the model spends (`output_config.effort`), lowest first.
    public enum Effort: String, Sendable, Hashable, CaseIterable {
        case low, medium, high, xhigh, max
    }
}

// Capabilities per the Messages API's model pages: sampling parameters are rejected from Opus 4.7 and the
// 5 generation on, `xhigh` exists only there, `max` needs the 4.6 generation or newer.
extension ClaudeModel {
    private static let allEfforts: Set<Effort> = [.low, .medium, .high, .xhigh, .max]
    private static let effortsUpToMax: Set<Effort> = [.low, .medium, .high, .max]

    /// `claude-sonnet-4-5`.
    public static let sonnet4_5 = ClaudeModel(id: "claude-sonnet-4-5", capabilities: .init(
        samplingParams: true, structuredOutput: true, imageInput: true))
    /// `claude-haiku-4-5`: extended thinking only with a token budget, which this package does not send.
    public static let haiku4_5 = ClaudeModel(id: "claude-haiku-4-5", capabilities: .init(
        samplingParams: true, structuredOutput: true, imageInput: true))
    /// `claude-opus-4-6`.
    public static let opus4_6 = ClaudeModel(id: "claude-opus-4-6", capabilities: .init(
        samplingParams: true, effortLevels: effortsUpToMax, adaptiveThinking: true, structuredOutput: true, imageInput: true),
        contextSize: 1_000_000)
    /// `claude-sonnet-4-6`.
    public static let sonnet4_6 = ClaudeModel(id: "claude-sonnet-4-6", capabilities: .init(
        samplingParams: true, effortLevels: effortsUpToMax, adaptiveThinking: true, structuredOutput: true, imageInput: true),
        contextSize: 1_000_000)
    /// `claude-opus-4-7`: sampling parameters are rejected from this generation on.
    public static let opus4_7 = ClaudeModel(id: "claude-opus-4-7", capabilities: .init(
        effortLevels: allEfforts, adaptiveThinking: true, structuredOutput: true, imageInput: true), contextSize: 1_000_000)
    /// `claude-opus-5`.
    public static let opus5 = ClaudeModel(id: "claude-opus-5", capabilities: .init(
        effortLevels: allEfforts, adaptiveThinking: true, structuredOutput: true, imageInput: true), contextSize: 1_000_000)
    /// `claude-sonnet-5`.
    public static let sonnet5 = ClaudeModel(id: "claude-sonnet-5", capabilities: .init(
        effortLevels: allEfforts, adaptiveThinking: true, structuredOutput: true, imageInput: true), contextSize: 1_000_000)
}
