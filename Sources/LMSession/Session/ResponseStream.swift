extension LanguageModelSession {
    /// The snapshots of a response as it is generated (Apple's `ResponseStream`).
    ///
    /// Each ``Snapshot`` holds the whole response so far (cumulative, never a delta). The request starts when
    /// iteration (or ``collect()``) starts and runs once per stream: ``collect()`` after (or during) an
    /// iteration continues the same request and returns its final response (after an iteration left
    /// early it throws `CancellationError`). When the sequence ends the
    /// transcript already holds the new entries. Dropping an unfinished iteration (leaving a `for try await`
    /// loop early) or the stream, or cancelling the task that consumes it, cancels the request and leaves the
    /// transcript as it was; the session can respond again at once. In top-level code a loop's iterator is never
    /// dropped: there the request is cancelled (and rolled back) when the task that left the loop makes its next
    /// request on the session, which then runs instead of throwing ``LanguageModelSession/Error/concurrentRequests``
    /// (``isResponding`` stays true until then). A stream left so and pulled again throws `CancellationError`.
    public struct ResponseStream<Content: Generable> {
        let run: ResponseRun<Content>

        /// The response so far.
        public struct Snapshot {
            /// The response so far as `Content.PartiallyGenerated` (the text so far for `String`).
            public var content: Content.PartiallyGenerated
            /// The response so far as generated content; for a structured response `isComplete` is true only
            /// once the value is complete.
            public var rawContent: GeneratedContent
        }
    }
}

extension LanguageModelSession.ResponseStream: Sendable {}
extension LanguageModelSession.ResponseStream.Snapshot: Sendable where Content.PartiallyGenerated: Sendable {}

extension LanguageModelSession.ResponseStream: AsyncSequence {
    public typealias Element = Snapshot

    /// Pulls snapshots; the first call starts the request.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let run: ResponseRun<Content>
        /// Shared by the iterator's copies; when the last goes, an unfinished request is rolled back.
        let iteration: Iteration

        /// The next snapshot, or `nil` once the response is complete and in the transcript.
        /// - Throws: what ``LanguageModelSession/respond(to:options:)-(Prompt,_)`` throws (``LanguageModelError``,
        ///   ``LanguageModelSession/ToolCallError``, `CancellationError`...); the transcript is then as before the request.
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws -> Snapshot? {
            try await run.nextSnapshot()
        }

        public mutating func next() async throws -> Snapshot? {
            try await run.nextSnapshot()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(run: run, iteration: Iteration(abandon: { [run] in run.abandon() }))
    }

    /// The lifetime of one iteration.
    final class Iteration: Sendable {
        let abandon: @Sendable () -> Void
        init(abandon: @escaping @Sendable () -> Void) { self.abandon = abandon }
        deinit { abandon() }
    }

    /// Runs the request to its end (starting it if needed) and returns the final response.
    /// - Throws: what ``LanguageModelSession/respond(to:options:)-(Prompt,_)`` throws (``LanguageModelError``,
    ///   ``LanguageModelSession/ToolCallError``, `CancellationError`...); the transcript is then as before the request.
    public nonisolated(nonsending) func collect() async throws -> sending LanguageModelSession.Response<Content> {
        try await run.finalResponse()
    }
}
