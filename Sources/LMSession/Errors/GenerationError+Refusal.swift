@available(*, deprecated)
extension LanguageModelSession.GenerationError.Refusal {
    /// The model's explanation of the refusal, generated on the default model from the refused transcript.
    /// - Throws: as any request does.
    public var explanation: LanguageModelSession.Response<String> {
        get async throws { try await explanationStream.collect() }
    }

    /// The model's explanation of the refusal as a stream of snapshots.
    public var explanationStream: LanguageModelSession.ResponseStream<String> {
        LanguageModelSession(transcript: Transcript(entries: transcriptEntries))
            .streamResponse(to: "Explain briefly why you could not answer the last request.")
    }
}
