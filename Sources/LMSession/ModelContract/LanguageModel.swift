import Foundation

/// A model a ``LanguageModelSession`` can run on (Apple's `LanguageModel`, iOS/macOS 27): a lightweight
/// description of the model (its identity, what it can do, how to reach it) whose ``Executor`` does the work.
///
/// The contract of Apple's model layer, as its guide for provider packages describes it: the session creates
/// one ``Executor`` per distinct ``executorConfiguration`` and keeps it for the life of the process, hands it
/// every request on this model (``LanguageModelExecutor/respond(to:model:streamingInto:)``), and turns the
/// events the executor streams into transcript entries. Tool execution, snapshots, the transcript, rollback
/// and the one-request-at-a-time rule stay in the session. A request that needs a capability the model does
/// not declare in ``capabilities`` throws ``LanguageModelError/unsupportedCapability(_:)`` before the executor
/// is called.
///
/// Every model of this package is one: the server models (``OpenAICompatibleLanguageModel``,
/// ``ClaudeLanguageModel``, ``FallbackLanguageModel``) and the local GGUF model, ``SystemLanguageModel``, each with an
/// executor of its own. What a session asks of a model beyond this protocol (availability, context size, token
/// counts) is ``LanguageModelDetails`` (see docs/differences.md). 27.2's data attachments and entries (`supportsDataAttachmentType(_:)`,
/// `supportsDataEntryType(_:)`) are not here: they need `UTType`, which Linux's Foundation lacks.
public protocol LanguageModel: Sendable {
    /// The type that generates for this model; its `Model` is this type.
    associatedtype Executor: LanguageModelExecutor where Executor.Model == Self

    /// What the model can do; a request needing more throws ``LanguageModelError/unsupportedCapability(_:)``.
    var capabilities: LanguageModelCapabilities { get }

    /// Everything the executor needs, as a hashable snapshot: the session keeps one executor per distinct value.
    var executorConfiguration: Executor.Configuration { get }
}

/// What generates for a ``LanguageModel`` (Apple's `LanguageModelExecutor`, iOS/macOS 27).
///
/// Created by the session with ``init(configuration:)``, once per distinct configuration, and kept: per-executor
/// resources (an HTTP client, a loaded model, caches) live as long as the process. One executor may serve
/// several requests at once (from different sessions), so it must be safe to call concurrently.
public protocol LanguageModelExecutor: Sendable {
    /// A snapshot of everything the executor needs (endpoint, model name, credential); only hashable values.
    associatedtype Configuration: Hashable & Sendable
    /// The model this executor generates for.
    associatedtype Model: LanguageModel

    /// Creates an executor for `configuration`.
    /// - Throws: whatever the executor finds wrong with the configuration; the request that needed the
    ///   executor throws it, and the next request tries again.
    init(configuration: Configuration) throws

    /// Generates the next step of `request`'s transcript, sending its text, reasoning, tool calls, usage and
    /// metadata into `channel` as it goes, and returns when the step is complete.
    ///
    /// Runs in a task the session cancels when the request is cancelled: check `Task.checkCancellation()` in the
    /// stream loop and return or throw `CancellationError`. Throw ``LanguageModelError`` cases for model-level
    /// failures (context size, rate limits, refusals, guardrails, timeouts); other errors reach the caller as
    /// they are.
    func respond(to request: LanguageModelExecutorGenerationRequest, model: Model,
                 streamingInto channel: LanguageModelExecutorGenerationChannel) async throws

    /// Starts preparing for a request that continues `transcript` (loading a model, opening a connection,
    /// processing a prefix) and returns at once. Best effort, never fails visibly. Defaults to doing nothing.
    func prewarm(model: Model, transcript: Transcript)
}

extension LanguageModelExecutor {
    public func prewarm(model: Model, transcript: Transcript) {}
}
