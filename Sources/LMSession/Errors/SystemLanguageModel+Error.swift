import Foundation

extension SystemLanguageModel {
    /// Why the model cannot run a request (Apple 27's `SystemLanguageModel.Error`).
    ///
    /// Thrown by a request (and by ``SystemLanguageModel/tokenCount(for:)-(PromptRepresentable)``) when the local model
    /// cannot be used: its file is missing or is not a model we run (bad GGUF, unsupported architecture or chat
    /// template), weights plus KV cache do not fit in memory, or the inference context cannot be created. The 26
    /// spelling is ``LanguageModelSession/GenerationError/assetsUnavailable(_:)``. Loading a model yourself
    /// (``SystemLanguageModel/init(fileURL:contextSize:threads:useCase:guardrails:)``) throws the detailed
    /// ``LocalModelError`` instead.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible {
        /// The model's assets (for us: the GGUF file and the memory to run it) are not available.
        case assetsUnavailable(AssetsUnavailable)

        /// What is missing, for developers (the searched paths, the load error, the memory needed).
        public struct AssetsUnavailable: Sendable {
            public var debugDescription: String

            public init(debugDescription: String) {
                self.debugDescription = debugDescription
            }
        }

        public var debugDescription: String {
            switch self {
            case .assetsUnavailable(let p): p.debugDescription
            }
        }

        public var errorDescription: String? {
            switch self {
            case .assetsUnavailable: "The model's assets are unavailable. \(debugDescription)"
            }
        }

        public var recoverySuggestion: String? {
            switch self {
            case .assetsUnavailable: "Check the model file (LMSESSION_MODEL or Models/) and the available memory."
            }
        }
    }
}
