extension FallbackLanguageModel {
    /// Generates for a ``FallbackLanguageModel``: runs the call on the primary model's executor, and when that fails
    /// with an error the model's `shouldFallBack` accepts before it sent anything, runs the same call on the fallback
    /// model's executor. Both executors come from the session's cache (``ExecutorCache``), as if each model were
    /// asked directly. The executor keeps nothing: everything it needs is in the model it is given.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = FallbackLanguageModel

        /// Nothing: the two models and the rule are the model's.
        public struct Configuration: Hashable, Sendable {}

        public init(configuration: Configuration) {}

        /// - Throws: the primary model's error when it is not one to fall back on, or came after the primary sent
        ///   part of its answer; otherwise what the fallback model throws. `CancellationError` is never retried.
        public func respond(to request: LanguageModelExecutorGenerationRequest, model: FallbackLanguageModel,
                            streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            var produced = false
            do {
                try await Self.respond(to: request, on: model.primary, into: channel, produced: &produced)
            } catch where !produced && !(error is CancellationError) && model.shouldFallBack(error) {
                try await Self.respond(to: request, on: model.fallback, into: channel, produced: &produced)
            }
        }

        public func prewarm(model: FallbackLanguageModel, transcript: Transcript) {
            model.primary.prewarmOnItsExecutor(transcript: transcript)
        }

        /// Runs `request` on `model`'s executor, passing its events on to `channel`; `produced` turns true at the first.
        private static func respond<Inner: LanguageModel>(to request: LanguageModelExecutorGenerationRequest, on model: Inner,
                                                          into channel: LanguageModelExecutorGenerationChannel,
                                                          produced: inout Bool) async throws {
            let inner = LanguageModelExecutorGenerationChannel()
            async let forwarded: Bool = {
                var any = false
                for await event in inner {
                    any = true
                    await channel.send(event)
                }
                return any
            }()
            do {
                try await model.respondOnItsExecutor(to: request, streamingInto: inner)
            } catch {
                inner.finish()
                produced = await forwarded
                throw error
            }
            inner.finish()
            produced = await forwarded
        }
    }
}
