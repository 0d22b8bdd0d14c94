import Synchronization

/// The executors the process made, one per executor type and distinct configuration, as Apple's framework keeps
/// them: a model's executor is created on its first request and serves every later request whose model has an
/// equal ``LanguageModel/executorConfiguration``, in any session.
///
/// Holds at most ``limit`` executors; beyond that the least recently used one is dropped (its requests in
/// flight keep it alive), so a stream of distinct configurations cannot grow memory without bound.
final class ExecutorCache: Sendable {
    static let shared = ExecutorCache()
    static let limit = 1024

    // @unchecked: `configuration` is only ever made from a `Hashable & Sendable` value (an executor's
    // `Configuration`); `AnyHashable` itself does not say so.
    private struct Key: Hashable, @unchecked Sendable {
        let executorType: ObjectIdentifier
        let configuration: AnyHashable
    }

    private struct State {
        var executors: [Key: any Sendable] = [:]
        /// Keys in the order their executors were last asked for, least recent first.
        var order: [Key] = []
    }

    private let state = Mutex(State())

    /// The executor of `model`'s configuration, made now when there is none.
    /// - Throws: what the executor's `init(configuration:)` throws; nothing is kept then.
    func executor<Model: LanguageModel>(for model: Model) throws -> Model.Executor {
        let configuration = model.executorConfiguration
        let key = Key(executorType: ObjectIdentifier(Model.Executor.self), configuration: AnyHashable(configuration))
        return try state.withLock { state in
            if let kept = state.executors[key] as? Model.Executor {
                if let index = state.order.lastIndex(of: key), index != state.order.count - 1 {
                    state.order.append(state.order.remove(at: index))
                }
                return kept
            }
            // Made under the lock so two first requests of one configuration share one executor.
            let made = try Model.Executor(configuration: configuration)
            state.executors[key] = made
            state.order.append(key)
            if state.order.count > Self.limit { state.executors[state.order.removeFirst()] = nil }
            return made
        }
    }

    /// How many executors are kept (for tests).
    var count: Int { state.withLock { $0.executors.count } }
}

extension LanguageModel {
    /// Runs `request` on this model's executor, the one ``ExecutorCache`` keeps for its configuration.
    /// - Throws: what making the executor throws, then what its `respond` throws.
    func respondOnItsExecutor(to request: LanguageModelExecutorGenerationRequest,
                              streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
        try await ExecutorCache.shared.executor(for: self).respond(to: request, model: self, streamingInto: channel)
    }

    /// Prewarms this model's executor for `transcript`; nothing when the executor cannot be made.
    func prewarmOnItsExecutor(transcript: Transcript) {
        (try? ExecutorCache.shared.executor(for: self))?.prewarm(model: self, transcript: transcript)
    }
}
