import Foundation

extension LanguageModelSession {
    /// Misuse of a session (Apple 27's `LanguageModelSession.Error`).
    ///
    /// A second request while one runs throws ``concurrentRequests`` (the 26 convention,
    /// ``ErrorConvention/sdk26``, throws ``GenerationError/concurrentRequests(_:)`` instead);
    /// ``transcriptMutationWhileResponding`` is thrown by the running request under both.
    public enum Error: Swift.Error, LocalizedError, CustomDebugStringConvertible, Hashable {
        /// The session was asked to respond while it was already responding.
        case concurrentRequests
        /// The transcript was set while a request ran. The request fails and the transcript keeps the value set.
        case transcriptMutationWhileResponding

        public var debugDescription: String {
            switch self {
            case .concurrentRequests: "The session is already responding to a request."
            case .transcriptMutationWhileResponding:
                "The transcript was changed while the session was responding; the response was discarded and the changed transcript kept."
            }
        }

        public var errorDescription: String? { debugDescription }
    }
}
