import Foundation

extension LanguageModelSession {
    /// How many tool-calling rounds one request may run unless ``maximumToolCallRounds`` says otherwise: 8.
    public static let defaultMaximumToolCallRounds = 8

    /// The most tool-calling rounds one request may run (default ``defaultMaximumToolCallRounds``). A round is
    /// one model call that asks for tools plus running them; a model that asks for one more round fails the
    /// request with ``ToolCallRoundLimitError``. Values below 1 allow no round. Not in Apple's API (Apple has
    /// no bound). Read when a request starts.
    public final var maximumToolCallRounds: Int {
        get { state.withLock { $0.maximumToolCallRounds } }
        set { state.withLock { $0.maximumToolCallRounds = newValue } }
    }

    /// The model kept calling tools: it asked for a round beyond ``LanguageModelSession/maximumToolCallRounds``.
    /// The request ends, those calls are not run, and the transcript is rolled back to before the request.
    /// Not in Apple's API.
    public struct ToolCallRoundLimitError: Swift.Error, LocalizedError, CustomDebugStringConvertible, Sendable {
        /// The limit in force (rounds that did run).
        public var limit: Int
        /// The calls the model asked for in the round that was refused.
        public var toolCalls: [Transcript.ToolCall]

        public init(limit: Int, toolCalls: [Transcript.ToolCall]) {
            self.limit = limit
            self.toolCalls = toolCalls
        }

        public var errorDescription: String? {
            let names = toolCalls.map(\.toolName).joined(separator: ", ")
            return "The model asked for more than \(limit) tool-calling rounds in one request (refused: \(names))."
        }

        /// The sentence of ``errorDescription``, so that `print(error)` and `"\(error)"` read as one.
        public var debugDescription: String { errorDescription ?? "ToolCallRoundLimitError" }
    }
}
