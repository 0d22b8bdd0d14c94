import Foundation
import LMGeneration
import LMTransformer
import Synchronization

/// A GGUF model run in this process by LMTransformer: what a local ``SystemLanguageModel`` holds.
///
/// The model is loaded lazily, once: every session on it shares one `TransformerModel` (read-only weights) and one
/// `ForwardEngine` (scratch, threads), and each conversation keeps its own `InferenceContext` (KV cache). Sessions
/// generating at the same time decode in one batched step per token (`BatchScheduler`); each session's output is the
/// same as when it runs alone. Prompts are rendered with the model's chat template (the GGUF's own Jinja template,
/// else the architecture's native format) from the complete transcript; generation stops at an end-of-generation
/// token, at `maximumResponseTokens`, or with ``LanguageModelError/contextSizeExceeded(_:)`` when the context window
/// is full.
package final class LocalModel: Sendable {
    /// The default model (see ``SystemLanguageModel/defaultModelCandidates(environment:)``), resolved on first use.
    static let shared: LocalModel = switch SystemLanguageModel.defaultModelPath() {
    case .success(let path): LocalModel(path: path)
    case .failure(let error): LocalModel(unresolved: error)
    }

    /// The model file, or nil when no default model was found.
    let path: String?
    /// The `mmproj` GGUF (image encoder and projector) that makes the model read images; nil for text only.
    let mmprojPath: String?
    /// The context size asked for; the effective one is capped by the model's trained context.
    let requestedContextSize: Int
    /// Threads per forward pass (nil: the runtime's default).
    let threads: Int?
    /// Memory the model may use, in bytes (nil: the machine's physical memory).
    let memoryLimit: UInt64?
    /// The KV caches this model's sessions hold at once (`maximumConcurrentSessions`).
    let budget: KVCacheBudget
    /// The sessions' conversations between requests (``LocalModelExecutor`` takes one per request).
    let conversations: LocalConversationPool
    private let unresolved: LocalModelError?
    private let state = Mutex<Result<LoadedModel, LocalModelError>?>(nil)

    /// The GGUF at `path`; nothing is read until first use (parameters: ``SystemLanguageModel/init(path:mmprojPath:contextSize:threads:memoryLimit:maximumConcurrentSessions:whenSessionLimitReached:useCase:guardrails:)``).
    init(path: String, mmprojPath: String? = nil, contextSize: Int = 4096, threads: Int? = nil, memoryLimit: UInt64? = nil,
         maximumConcurrentSessions: Int? = nil, whenSessionLimitReached: SessionLimitPolicy = .wait) {
        self.budget = KVCacheBudget(limit: maximumConcurrentSessions.map { max(1, $0) }, policy: whenSessionLimitReached)
        self.conversations = LocalConversationPool(limit: max(Self.idleConversations, maximumConcurrentSessions ?? 0))
        self.path = path
        self.mmprojPath = mmprojPath
        self.requestedContextSize = contextSize
        self.threads = threads
        self.memoryLimit = memoryLimit
        self.unresolved = nil
    }

    private init(unresolved: LocalModelError) {
        self.budget = KVCacheBudget(limit: nil, policy: .wait)
        self.conversations = LocalConversationPool(limit: Self.idleConversations)
        self.path = nil
        self.mmprojPath = nil
        self.requestedContextSize = 4096
        self.threads = nil
        self.memoryLimit = nil
        self.unresolved = unresolved
    }

    /// Loads the model now (once per model) and returns it.
    /// - Throws: ``LocalModelError`` when the file is missing or cannot be loaded.
    func loaded() throws(LocalModelError) -> LoadedModel {
        try state.withLock { state throws(LocalModelError) -> LoadedModel in
            if let state { return try state.get() }
            let result = Result { () throws(LocalModelError) -> LoadedModel in try load() }
            state = result
            return try result.get()
        }
    }

    private func load() throws(LocalModelError) -> LoadedModel {
        if let unresolved { throw unresolved }
        guard let path, FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(searched: [path ?? ""]) }
        guard requestedContextSize >= 1 else { throw .invalidContextSize(requestedContextSize) }
        if let threads, !InferenceContext.supportedThreadCounts.contains(threads) { throw .invalidThreadCount(threads) }
        let model: TransformerModel
        do {
            model = try TransformerModel(path: path)
        } catch {
            throw .loadFailed(path: path, reason: error.description)
        }
        let format: ChatFormat
        do {
            format = try ChatFormat(tokenizer: model.tokenizer, architecture: model.config.architecture)
        } catch {
            guard case .chatTemplate(let jinja) = error else { throw .loadFailed(path: path, reason: error.description) }
            throw .unsupportedChatTemplate(path: path, jinja)
        }
        let contextSize = min(requestedContextSize, model.config.contextLength > 0 ? model.config.contextLength : requestedContextSize)
        let fileSize = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value ?? 0
        let toolCalls = format.toolCalls(architecture: model.config.architecture)
        var vision: LocalVision?
        if let mmprojPath {
            guard FileManager.default.fileExists(atPath: mmprojPath) else {
                throw .loadFailed(path: mmprojPath, reason: "no mmproj file (the image encoder) at this path")
            }
            vision = try LocalVision(path: mmprojPath, tokenizer: model.tokenizer, nEmbd: model.config.nEmbd,
                                     threads: threads ?? InferenceContext.defaultThreadCount)
        }
        let renderer = TranscriptRenderer(format: format, tokenizer: model.tokenizer, toolSyntax: toolCalls.syntax,
                                          unsupportedToolCalls: toolCalls.unsupported, vision: vision)
        let engine: ForwardEngine
        do {
            engine = try ForwardEngine(model: model, contextSize: contextSize, threads: threads)
        } catch {
            throw .loadFailed(path: path, reason: error.description)
        }
        return LoadedModel(model: model, renderer: renderer, contextSize: contextSize, fileSize: fileSize,
                           scheduler: BatchScheduler(engine: engine))
    }

    /// Why the model cannot be used, or nil when it can.
    var unavailabilityCause: LocalModelError? {
        do {
            let loaded = try loaded()
            let required = loaded.requiredMemory
            let available = memoryLimit ?? ProcessInfo.processInfo.physicalMemory
            return required > available ? .insufficientMemory(required: required, available: available) : nil
        } catch {
            return error
        }
    }

    /// `.modelNotReady` when the file is missing or does not load, `.deviceNotEligible` when weights plus a
    /// full KV cache do not fit in memory, `.available` otherwise. Loads the model on first call.
    var availability: SystemLanguageModel.Availability {
        switch unavailabilityCause {
        case nil: .available
        case .insufficientMemory: .unavailable(.deviceNotEligible)
        case .some: .unavailable(.modelNotReady)
        }
    }

    /// Tokens per session: the requested size (4096 by default) capped by the model's trained context.
    /// Loads the model on first call; the requested size when the model cannot be loaded.
    var contextSize: Int {
        (try? loaded().contextSize) ?? requestedContextSize
    }

    /// The model's name (GGUF `general.name`), once loaded.
    var assetIDs: [String] {
        (try? loaded()).map { [$0.model.name] } ?? []
    }

    /// - Throws: as a request would: ``LanguageModelError/unsupportedCapability(_:)`` (`.vision`) for entries with
    ///   attachments on a model without an image encoder, ``Transcript/ImageAttachment/LoadError`` for an image that
    ///   cannot be read, what loading the model throws, what rendering throws.
    func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        let entries: [Transcript.Entry] = switch input {
        case .request(let request): Array(request.transcript)
        case .entries(let entries): entries
        case .tools, .schema: []
        }
        try refuseImagesWithoutEncoder(entries)
        for segment in entries.flatMap(\.segments) { _ = try segment.loadingAttachment() }
        let loaded = try loadedForGeneration()
        return try loaded.renderer.tokenCount(for: input)
    }

    /// Throws Apple's ``LanguageModelError/unsupportedCapability(_:)`` (`.vision`) when `entries` hold attachments and
    /// no mmproj file (image encoder) is loaded.
    func refuseImagesWithoutEncoder(_ entries: some Sequence<Transcript.Entry>) throws(LanguageModelError) {
        guard mmprojPath == nil, entries.contains(where: \.hasAttachment) else { return }
        throw .unsupportedCapability(.init(capability: .vision,
            debugDescription: "The local model reads text only (no mmproj file is loaded); the transcript holds attachments."))
    }

    /// The batching of this model's sessions once the model is loaded: decode steps run, the
    /// largest batch one of them advanced, and the sessions decoding now. For tests and diagnostics.
    package var batchStatistics: (steps: Int, largestBatch: Int, active: Int)? {
        guard let scheduler = try? loaded().scheduler else { return nil }
        let s = scheduler.statistics
        return (s.steps, s.largestBatch, scheduler.activeCount)
    }

    /// The most images decoded or encoded at once on this model so far (nil without an image encoder). For tests.
    package var peakConcurrentImageWork: Int? { (try? loaded())?.renderer.vision?.peakConcurrentImageWork }

    /// Images decoded on this model so far (nil without an image encoder). For tests.
    package var imageDecodeCount: Int? { (try? loaded())?.renderer.vision?.imageDecodeCount }

    /// KV caches this model's sessions hold now (generating or idle).
    package var heldCaches: Int { budget.held }

    /// Contexts (KV caches) alive on the loaded model's engine, whoever holds them; nil before loading.
    package var liveContexts: Int? { (try? loaded())?.scheduler.engine.liveContexts }

    /// Idle conversations (KV caches) kept between requests when `maximumConcurrentSessions` is smaller or unset.
    static let idleConversations = 16

    /// Drops the KV caches of idle conversations (they go as their queued work ends). For tests and diagnostics.
    package func dropIdleConversations() { conversations.removeAll() }

    /// Idle conversations kept now. For tests and diagnostics.
    package var idleConversationCount: Int { conversations.count }

    /// The loaded model, or ``SystemLanguageModel/Error/assetsUnavailable(_:)`` saying why not.
    func loadedForGeneration() throws(SystemLanguageModel.Error) -> LoadedModel {
        do {
            return try loaded()
        } catch {
            throw .assetsUnavailable(.init(debugDescription: error.description))
        }
    }
}

/// A loaded model with what every request needs: the renderer, the effective context size, and the
/// scheduler that batches the decode steps of every session on it.
struct LoadedModel: Sendable {
    let model: TransformerModel
    let renderer: TranscriptRenderer
    /// Tokens per session.
    let contextSize: Int
    /// Bytes of the GGUF file (memory-mapped weights).
    let fileSize: UInt64
    /// The engine every session's context computes on, and the batching of their decode steps.
    let scheduler: BatchScheduler
    /// The vocabulary prepared for token masks, built on the first guided request.
    let tokenIndex = TokenIndexCache()
    /// KV caches of instruction prefixes, shared by the sessions (128 MiB at most).
    let prefixCache = PrefixCache(byteLimit: 128 << 20)

    /// Bytes for the weights (the file) and one full KV cache as the engine maps it (``ForwardEngine/cacheBytes``:
    /// keys and values as halves).
    var requiredMemory: UInt64 {
        fileSize + UInt64(scheduler.engine.cacheBytes)
    }
}
