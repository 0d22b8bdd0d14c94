// Apple 27: token usage per response and per session.

extension LanguageModelSession {
    /// Token counts of a response or of a whole session (Apple's 27 `Usage`).
    public struct Usage: Sendable {
        /// Input tokens: instructions, tool definitions, transcript, prompt and schema, for every model call.
        public struct Input: Sendable, Equatable {
            /// All input tokens, cached ones included.
            public var totalTokenCount: Int
            /// Input tokens re-used from the KV cache instead of being processed again.
            public var cachedTokenCount: Int

            public init(totalTokenCount: Int, cachedTokenCount: Int = 0) {
                self.totalTokenCount = totalTokenCount
                self.cachedTokenCount = cachedTokenCount
            }
        }

        /// Output tokens.
        public struct Output: Sendable, Equatable {
            /// All generated tokens.
            public var totalTokenCount: Int
            /// Of ``totalTokenCount``, the tokens spent reasoning: a local model's `<think>` block (markers
            /// included), a server's reported reasoning tokens; 0 when the model did not reason or does not say.
            public var reasoningTokenCount: Int

            public init(totalTokenCount: Int, reasoningTokenCount: Int = 0) {
                self.totalTokenCount = totalTokenCount
                self.reasoningTokenCount = reasoningTokenCount
            }
        }

        public var input: Input
        public var output: Output
        /// Extra values a provider reports; empty for the local model.
        public var metadata: [String: any Sendable & Codable & Equatable]

        /// Input plus output tokens.
        public var totalTokenCount: Int { input.totalTokenCount + output.totalTokenCount }

        public init(input: Input, output: Output, metadata: [String: any Sendable & Codable & Equatable] = [:]) {
            self.input = input
            self.output = output
            self.metadata = metadata
        }

        init(_ usage: LanguageModelUsage) {
            self.init(input: Input(totalTokenCount: usage.inputTokens, cachedTokenCount: usage.cachedInputTokens),
                      output: Output(totalTokenCount: usage.outputTokens, reasoningTokenCount: usage.reasoningTokens))
        }
    }

    /// Tokens used by every request of this session so far (accumulates; failed requests count too).
    public final var usage: Usage {
        Usage(state.withLock { $0.usage })
    }
}

extension LanguageModelSession.Response {
    /// Tokens this response used: input (and how much of it came from the KV cache) and output, summed over
    /// the model calls of the request (one per tool-calling step).
    public var usage: LanguageModelSession.Usage { LanguageModelSession.Usage(tokenUsage) }
}
