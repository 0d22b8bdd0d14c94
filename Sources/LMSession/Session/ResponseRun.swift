import Foundation
import LMGrammar
import Synchronization

/// What one request asks for, fixed when the request is made.
struct RequestPlan: Sendable {
    var prompt: Prompt
    var options: GenerationOptions
    /// `nil` for a text response.
    var responseFormat: Transcript.ResponseFormat?
    var includeSchemaInPrompt: Bool
    /// Apple 27's context options of the request (reasoning level); `includeSchemaInPrompt` above wins.
    var contextOptions = ContextOptions()
    /// Apple 27's request metadata, handed to the model.
    var metadata: [String: any Sendable & Codable & Equatable] = [:]
}

/// One request from start to commit: drives the provider's event stream, runs tool calls, builds cumulative
/// snapshots, and ends the request on the session with the new transcript (success) or none (rollback).
///
/// Snapshots are built only while a stream is iterated: `respond` (``finalResponse()``) reads the events and
/// parses a structured response once, at the end. A structured snapshot comes from an incremental reading of
/// the JSON so far (``IncrementalJSONReader``), and every snapshot and the final content of one response carry
/// one ``GenerationID``.
///
/// The request starts on the first `nextSnapshot()`/`finalResponse()`, in the consumer's task, so cancelling
/// that task cancels generation. If the run is dropped unfinished, `deinit` rolls back.
///
/// This file holds the state machine (phases, steps, the tool loop, rollback); the checks before each model call
/// are in `ResponseRun+Checks.swift`, the step's output (snapshots, the response entry, the end of the request)
/// in `ResponseRun+Output.swift`. Their state is internal, not private, so that those files reach it; nothing
/// outside this type touches it.
final class ResponseRun<Content: Generable>: @unchecked Sendable {
    // @unchecked: the mutable fields below are only touched by the one consumer holding `consuming`
    // (a second concurrent consumer is turned away with `concurrentRequests`).
    let session: LanguageModelSession
    let plan: RequestPlan
    private let consuming = Mutex(false)

    enum Phase {
        case notStarted
        case running
        case finished(Result<Final, any Error>)
    }
    struct Final {
        var rawContent: GeneratedContent
        var transcript: Transcript
        var firstNewEntry: Int
        var usage: LanguageModelUsage
    }

    var phase = Phase.notStarted
    var base = Transcript()
    var newEntries: [Transcript.Entry] = []
    var events: AsyncThrowingStream<LanguageModelEvent, any Error>.AsyncIterator?
    var text = ""
    /// Segments of this step other than its text (``LanguageModelEvent/segment(_:)``), each with the UTF-8
    /// length of `text` when it came, so the response entry interleaves them with the text.
    var extraSegments: [(segment: Transcript.Segment, textOffset: Int)] = []
    /// Reasoning entries of this step (``LanguageModelEvent/reasoning(text:signature:)``), entered before its
    /// tool calls or response once the step completes.
    var stepReasoning: [Transcript.Entry] = []
    /// The structured response so far, read as it streams (only while snapshots are asked for).
    var json = IncrementalJSONReader()
    var structured: GeneratedContent?
    /// The identity of this response's structured content, in every snapshot and the final response.
    let generationID = GenerationID()
    var stepUsage: LanguageModelUsage?
    /// The id and metadata an executor gave the step's response entry (``LanguageModelEvent/responseDetails(_:)``).
    var responseDetails: LanguageModelResponseDetails?
    var usage = LanguageModelUsage(inputTokens: 0, outputTokens: 0)
    /// Tool-calling rounds run so far, and how many the session allows (read when the request starts).
    var toolRounds = 0
    var maximumToolRounds = LanguageModelSession.defaultMaximumToolCallRounds
    /// The calls of the current step, run once its stream has ended (after its usage arrived).
    var pendingCalls: [Transcript.ToolCall]?
    /// The tools of the current model call: the session's, or what its profile (or dynamic instructions) gave.
    var tools: [any Tool] = []
    /// The current model call's model and profile settings and callbacks (nil before the first).
    var call: ModelCallSetup?
    /// The task that pulled the last snapshot (``TaskIdentity``), and whether the request was then ended because
    /// that task started another one (``LeftBehindRequest``): the next pull throws `CancellationError` once.
    var lastPuller: Int?
    var endedAsLeft = false
    /// The current model call's model (the session's before the first call).
    var model: SessionModel { call?.model ?? session.model }
    /// The life-cycle callbacks of the current model call's profile.
    var callbacks: ProfileCallbacks { call?.callbacks ?? ProfileCallbacks() }

    init(session: LanguageModelSession, plan: RequestPlan) {
        self.session = session
        self.plan = plan
    }

    deinit {
        if case .running = phase { session.endRequest(transcript: nil, usage: usage) }
    }

    /// The next cumulative snapshot, or nil when the request has completed (or had already ended).
    /// - Throws: the failure in the session's ``LanguageModelSession/errorConvention``.
    func nextSnapshot() async throws -> LanguageModelSession.ResponseStream<Content>.Snapshot? {
        do { try enter() } catch { throw surfaced(error) }
        defer { leave() }
        lastPuller = TaskIdentity.current
        if endedAsLeft {
            endedAsLeft = false
            throw surfaced(CancellationError())
        }
        // After the end (or an error, which the iteration already threw) a sequence only returns nil;
        // `finalResponse()` still reports the outcome.
        if case .finished = phase { return nil }
        do {
            return try await session.propertyValues.bound { try await advance(snapshots: true) }
        } catch {
            fail(error)
            throw surfaced(error)
        }
    }

    /// Rolls the request back if it is still running and nobody is consuming it: called when an
    /// iteration is dropped before the end, so the session is free again even while the stream value
    /// itself lives on (a stream kept in a global, as in top-level code).
    func abandon() {
        guard (try? enter()) != nil else { return }
        defer { leave() }
        fail(CancellationError())
    }

    /// Runs the request to its end and returns the final response.
    /// - Throws: the failure in the session's ``LanguageModelSession/errorConvention``.
    func finalResponse() async throws -> LanguageModelSession.Response<Content> {
        do { try enter() } catch { throw surfaced(error) }
        defer { leave() }
        do {
            try await session.propertyValues.bound {
                while case .notStarted = phase { _ = try await advance(snapshots: false) }
                while case .running = phase { _ = try await advance(snapshots: false) }
            }
        } catch {
            fail(error)
            throw surfaced(error)
        }
        guard case .finished(let result) = phase else { throw CancellationError() }
        let final: Final
        do { final = try result.get() } catch { throw surfaced(error) }
        do {
            return LanguageModelSession.Response(
                content: try Content(final.rawContent), rawContent: final.rawContent,
                transcriptEntries: final.transcript.entries[final.firstNewEntry...], tokenUsage: final.usage)
        } catch {
            throw surfaced(GeneratedContent.ParsingError(rawContent: final.rawContent.jsonString, underlyingError: error,
                                                         debugDescription: "The response does not decode as \(Content.self): \(error)"))
        }
    }

    /// `error` in the types the session's ``LanguageModelSession/errorConvention`` throws (a model may throw
    /// either Apple's 26 or 27 types; the session throws one set). A parsing error without its raw content
    /// (the local decoder's) gets the step's text. Reads the request's state only while this consumer holds
    /// it, or for `concurrentRequests`, which needs none.
    private func surfaced(_ error: any Error) -> any Error {
        var error = error
        if var parsing = error as? GeneratedContent.ParsingError, parsing.rawContent.isEmpty {
            parsing.rawContent = text
            error = parsing
        }
        return session.errorConvention.converting(error, context: ErrorConversionContext(
            contextSize: model.contextSize, schemaName: plan.responseFormat.flatMap { $0.name.isEmpty ? nil : $0.name },
            transcriptEntries: base.entries + newEntries))
    }

    // MARK: - Steps

    private func enter() throws {
        let busy = consuming.withLock { busy in
            defer { busy = true }
            return busy
        }
        if busy { throw LanguageModelSession.Error.concurrentRequests }
    }

    private func leave() {
        consuming.withLock { $0 = false }
    }

    /// Pulls events until there is a snapshot to show (when `snapshots`; otherwise until the request
    /// completes); returns nil when the request completes.
    private func advance(snapshots: Bool) async throws -> LanguageModelSession.ResponseStream<Content>.Snapshot? {
        if case .notStarted = phase { try await start() }
        while true {
            guard var iterator = events else { return nil }
            let event = try await iterator.next()
            events = iterator
            guard let event else {
                try Task.checkCancellation()
                if let calls = pendingCalls {
                    pendingCalls = nil
                    try await runTools(calls)
                    continue
                }
                try await complete()
                return nil
            }
            switch event {
            case .text(let delta):
                text += delta
                guard snapshots else { continue }
                if plan.responseFormat != nil { json.append(delta) }
                if let snapshot = try snapshot() { return snapshot }
            case .content(let content):
                structured = content
                if snapshots, let snapshot = try snapshot() { return snapshot }
            case .usage(let reported):
                stepUsage = reported
            case .toolCalls(let calls):
                pendingCalls = (pendingCalls ?? []) + calls
            case .segment(let segment):
                extraSegments.append((segment, text.utf8.count))
            case .reasoning(let text, let signature):
                // Recorded with the step's tool calls or response, so a failed step leaves none behind.
                stepReasoning.append(.reasoning(Transcript.Reasoning(segments: [.text(Transcript.TextSegment(content: text))], signature: signature)))
            case .reasoningEntry(let reasoning):
                stepReasoning.append(.reasoning(reasoning))
            case .replaceText(let whole):
                text = whole
                guard snapshots else { continue }
                if plan.responseFormat != nil {
                    json = IncrementalJSONReader()
                    json.append(whole)
                }
                if let snapshot = try snapshot() { return snapshot }
            case .responseDetails(let details):
                responseDetails = details
            }
        }
    }

    private func start() async throws {
        try plan.options.validate()
        base = try session.beginRequest(self)
        phase = .running
        session.propertyValues.state.withLock { $0.request = self }
        maximumToolRounds = session.maximumToolCallRounds
        try await startStep()
    }

    /// Sets up the next model call (evaluating the session's profile: its instructions, tools, model, settings,
    /// and the activation callbacks of a profile change), checks the model and the budget (unless the
    /// model checks it on the tokens it renders), runs `onPrompt` before the first call, and starts it.
    /// - Throws: ``SystemLanguageModel/Error/assetsUnavailable(_:)`` for an unavailable model (with the cause the
    ///   model gives, ``LanguageModelDetails/unavailabilityDescription``), ``LanguageModelSession/InvalidToolNameError`` for a tool
    ///   name no model can call by, ``LanguageModelSession/DuplicateToolNameError`` for tools that share a name, what ``checkCapabilities(_:)`` and `validate()` throw, ``LanguageModelError/contextSizeExceeded(_:)`` when the
    ///   request's input alone needs more tokens than the context holds, and what the profile's callbacks throw.
    private func startStep() async throws {
        let call = session.setUpNextCall(activating: true)
        self.call = call
        await call.deactivated?.deactivate()
        if call.activated { await call.callbacks.activate() }
        var options = call.options(over: plan.options)
        try options.validate()
        let model = call.model
        try checkAvailability(of: model)
        try checkCapabilities(model.capabilities)
        tools = call.tools
        if let invalid = LanguageModelSession.InvalidToolNameError.check(tools) { throw invalid }
        if let duplicate = LanguageModelSession.DuplicateToolNameError.check(tools) { throw duplicate }
        try checkSchemasBuilt()
        if let instructions = call.instructions { base.setInstructions(instructions) }
        try checkAttachments(model.capabilities)
        try checkToolCalling(model)
        if toolRounds == 0 {
            let instructions = base.first.flatMap { entry -> String? in
                if case .instructions(let i) = entry { return i.segments.descriptionText } else { return nil }
            }
            try checkGuardrails([instructions, plan.prompt.text].compactMap { $0 }.joined(separator: "\n"), .input)
            // The prompt joins the request's entries once the checks passed: a request refused by them leaves the
            // transcript as it was, whatever the error policy.
            // Images made from a file URL are read now, so the transcript keeps their bytes.
            let segments = try plan.prompt.segments.map { segment throws(Transcript.ImageAttachment.LoadError) in try segment.loadingAttachment() }
            let prompt = Transcript.Prompt(metadata: plan.metadata, segments: segments, options: plan.options,
                                           responseFormat: plan.responseFormat, contextOptions: plan.contextOptions)
            newEntries = [.prompt(prompt)]
            try await call.callbacks.prompt(prompt)
        }
        text = ""
        extraSegments = []
        stepReasoning = []
        json = IncrementalJSONReader()
        structured = nil
        stepUsage = nil
        responseDetails = nil
        pendingCalls = nil
        // `.required` forces a call in the first round only; after it the model may answer.
        if options.toolCallingMode == .required && toolRounds > 0 { options.toolCallingMode = .allowed }
        let request = LanguageModelRequest(
            transcript: call.transcript(from: Transcript(entries: base.entries + newEntries)), options: options,
            schema: plan.responseFormat?.schema, includeSchemaInPrompt: plan.includeSchemaInPrompt,
            toolDefinitions: tools.map { Transcript.ToolDefinition(tool: $0) },
            contextOptions: call.contextOptions(over: plan.contextOptions), metadata: plan.metadata)
        if !model.checksContextBudget {
            let needed = try await model.tokenCount(for: .request(request))
            if needed > model.contextSize {
                throw LanguageModelError.contextSizeExceeded(needed: needed, contextSize: model.contextSize)
            }
        }
        events = model.generate(request).makeAsyncIterator()
    }

    func endStep() {
        if let stepUsage {
            usage.inputTokens += stepUsage.inputTokens
            usage.cachedInputTokens += stepUsage.cachedInputTokens
            usage.outputTokens += stepUsage.outputTokens
            usage.reasoningTokens += stepUsage.reasoningTokens
        }
        stepUsage = nil
    }

    /// Runs one round: records the calls, runs them concurrently, records their outputs, starts the next step.
    /// - Throws: ``LanguageModelSession/ToolCallRoundLimitError`` beyond the session's round limit,
    ///   ``LanguageModelSession/ToolCallError`` when a tool throws, `CancellationError`.
    private func runTools(_ calls: [Transcript.ToolCall]) async throws {
        endStep()
        events = nil
        toolRounds += 1
        guard toolRounds <= maximumToolRounds else {
            throw LanguageModelSession.ToolCallRoundLimitError(limit: max(0, maximumToolRounds), toolCalls: calls)
        }
        try await callbacks.reasoning(in: stepReasoning)
        newEntries += stepReasoning
        stepReasoning = []
        newEntries.append(.toolCalls(Transcript.ToolCalls(calls)))
        for toolCall in calls { try await callbacks.toolCall(toolCall) }
        let outputs = try await ToolRunner(tools: tools).run(calls)
        newEntries += outputs.map { .toolOutput($0) }
        for (toolCall, output) in zip(calls, outputs) { try await callbacks.toolOutput(toolCall, output) }
        try Task.checkCancellation()
        try await startStep()
    }

    private func fail(_ error: any Error) {
        guard case .running = phase else {
            if case .notStarted = phase { phase = .finished(.failure(error)) }
            return
        }
        events = nil
        endStep()
        phase = .finished(.failure(error))
        session.propertyValues.state.withLock { $0.request = nil }
        // The active profile's policy (nil when no modifier sets one, or sets nil), else the session's.
        let profilePolicy = call?.settings.transcriptErrorHandlingPolicy ?? nil
        let keeps = (profilePolicy ?? session.transcriptErrorHandlingPolicy) == .preserveTranscript
        session.endRequest(transcript: keeps ? Transcript(entries: base.entries + newEntries) : nil, usage: usage)
    }
}

extension ResponseRun: LeftBehindRequest {
    func endIfLeft(by task: Int) -> Bool {
        guard (try? enter()) != nil else { return false }
        defer { leave() }
        guard case .running = phase, lastPuller == task else { return false }
        fail(CancellationError())
        endedAsLeft = true
        return true
    }
}

extension ResponseRun: RequestHistoryAccess {
    /// The request's transcript so far without instructions, for ``SessionPropertyValues/history``. A write that
    /// ends with this request's entries (same ids) keeps them as this request's; otherwise it replaces them too.
    var requestHistory: [Transcript.Entry] {
        get { Array(Transcript(entries: base.entries + newEntries).history) }
        set {
            let ids = newEntries.map(\.id)
            let keeps = newValue.count >= ids.count && newValue.suffix(ids.count).map(\.id) == ids
            base.history = keeps ? newValue.dropLast(ids.count)[...] : newValue[...]
            if !keeps { newEntries = [] }
        }
    }
}
