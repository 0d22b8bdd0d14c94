/// What a ``LanguageModel`` can do (Apple's 27 `LanguageModelCapabilities`).
public struct LanguageModelCapabilities: Sendable, Equatable {
    /// One thing a model can do.
    public struct Capability: Sendable, Hashable {
        let name: String

        /// Image input (attachments).
        public static let vision = Capability(name: "vision")
        /// Responses that follow a ``GenerationSchema``.
        public static let guidedGeneration = Capability(name: "guidedGeneration")
        /// A reasoning phase before the response (thinking, effort levels).
        public static let reasoning = Capability(name: "reasoning")
        /// Calls to the session's tools.
        public static let toolCalling = Capability(name: "toolCalling")
    }

    let set: Set<Capability>

    /// Capabilities made of `capabilities` (Apple 27.0's label).
    public init(capabilities: [Capability]) {
        set = Set(capabilities)
    }

    /// Capabilities made of `capabilities` (Apple 27.1's spelling).
    public init(_ capabilities: [Capability]) {
        self.init(capabilities: capabilities)
    }

    /// Whether `capability` is one of them.
    public func contains(_ capability: Capability) -> Bool {
        set.contains(capability)
    }
}
