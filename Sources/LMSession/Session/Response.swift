extension LanguageModelSession {
    /// The result of a completed request (Apple's `Response`).
    public struct Response<Content: Generable> {
        /// The response as `Content` (the text for `String`, the decoded value for a `Generable` type).
        public let content: Content
        /// The response as generated content (the text as a string value, or the structured value).
        public let rawContent: GeneratedContent
        /// The entries this request appended to the transcript (prompt, tool calls and outputs, response),
        /// indexed as in the session's transcript.
        public let transcriptEntries: ArraySlice<Transcript.Entry>
        /// Token counts of the request (public as Apple's 27 `usage`, see `Session/Usage.swift`).
        let tokenUsage: LanguageModelUsage
    }
}

extension LanguageModelSession.Response: Sendable where Content: Sendable {}
