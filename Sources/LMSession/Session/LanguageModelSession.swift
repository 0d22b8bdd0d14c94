import Observation
import Synchronization

/// A conversation with a language model (Apple's `LanguageModelSession`): instructions, a transcript of the
/// turns so far, and the requests that extend it.
///
/// A session answers one request at a time: a second request while ``isResponding`` throws
/// ``LanguageModelSession/Error/concurrentRequests``. A request that fails or is cancelled leaves the transcript as it
/// was before it. Many sessions may run at once on one model; on the local model a session's next turn continues the
/// KV cache of its last one while the model keeps it (only the new part of the transcript is processed). Observable: ``transcript`` and ``isResponding``
/// report changes through the `Observation` module.
public final class LanguageModelSession: Sendable {
    /// The model this session talks to (a profile's ``DynamicProfile/model(_:)-(any LanguageModel)`` may choose
    /// another for a call).
    let model: SessionModel
    /// The tools the model may call, fixed at creation.
    let tools: [any Tool]
    /// The dynamic profile evaluated before every model call (Apple 27): its instructions and tools replace the
    /// transcript's instructions entry and ``tools``, its model and settings configure the call. Sessions made
    /// with dynamic instructions have a profile of just those; nil for sessions made with fixed instructions.
    let profile: Mutex<ProfileState?>

    struct State {
        var transcript: Transcript
        var isResponding = false
        var usage = LanguageModelUsage(inputTokens: 0, outputTokens: 0)
        var maximumToolCallRounds = LanguageModelSession.defaultMaximumToolCallRounds
        var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy?
        /// Set when the transcript is replaced while a request runs; that request then fails.
        var transcriptMutatedWhileResponding = false
        /// Which of Apple's error types failed requests throw.
        var errorConvention = LanguageModelSession.defaultErrorConvention
        /// The running request, which a new request of the task that left it may end (``LeftBehindRequest``).
        weak var running: (any LeftBehindRequest)?
    }
    let state: Mutex<State>
    let registrar = ObservationRegistrar()
    /// What `@SessionProperty` wrappers read while this session evaluates its profile or calls tools (Apple 27).
    let propertyValues = SessionPropertyValues()

    init(model: SessionModel, tools: [any Tool], initialTranscript: Transcript,
         profile: sending LanguageModelSession.AnyDynamicProfile? = nil) {
        self.tools = tools
        self.model = model
        self.profile = Mutex(profile.map { ProfileState(profile: $0) })
        self.state = Mutex(State(transcript: initialTranscript))
        propertyValues.state.withLock { $0.session = self }
    }

    /// Creates a session whose instructions are `instructions`; `tools` are the tools the model may call.
    @_disfavoredOverload
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: String? = nil) {
        self.init(model: model, tools: tools, instructions: instructions.map { Instructions($0) })
    }

    /// Creates a session whose instructions are built by `instructions`.
    /// - Throws: whatever `instructions` throws.
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], @InstructionsBuilder instructions: () throws -> Instructions) rethrows {
        self.init(model: model, tools: tools, instructions: try instructions())
    }

    /// Creates a session with `instructions` (none when `nil`). The first transcript entry holds the
    /// instructions and the definitions of the tools whose `includesSchemaInInstructions` is true; a session
    /// with neither starts with an empty transcript.
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], instructions: Instructions? = nil) {
        self.init(anyModel: model.sessionModel, tools: tools, instructions: instructions)
    }

    /// Creates a session that continues `transcript` (its instructions entry, if any, stays the instructions).
    /// It renders the same prompt as the session the transcript came from.
    public convenience init(model: SystemLanguageModel = .default, tools: [any Tool] = [], transcript: Transcript) {
        self.init(model: model.sessionModel, tools: tools, initialTranscript: transcript)
    }

    convenience init(anyModel model: SessionModel, tools: [any Tool], instructions: Instructions?) {
        let definitions = tools.filter(\.includesSchemaInInstructions).map { Transcript.ToolDefinition(tool: $0) }
        var entries: [Transcript.Entry] = []
        if instructions != nil || !definitions.isEmpty {
            entries.append(.instructions(Transcript.Instructions(segments: instructions?.segments ?? [], toolDefinitions: definitions)))
        }
        self.init(model: model, tools: tools, initialTranscript: Transcript(entries: entries))
    }

    /// Every entry so far: instructions, then the prompts, tool calls, tool outputs and responses of the
    /// completed requests. Updated when a request completes (not while it streams).
    ///
    /// Settable (Apple 27): trim old turns after ``LanguageModelError/contextSizeExceeded(_:)`` and respond again, or edit the
    /// history. The local model keeps its KV cache up to the first changed token. Set while a request runs, the
    /// new value stays and that request throws ``LanguageModelSession/Error/transcriptMutationWhileResponding``.
    public final var transcript: Transcript {
        get {
            registrar.access(self, keyPath: \.transcript)
            return state.withLock { $0.transcript }
        }
        set {
            registrar.withMutation(of: self, keyPath: \.transcript) {
                state.withLock { state in
                    state.transcript = newValue
                    if state.isResponding { state.transcriptMutatedWhileResponding = true }
                }
            }
        }
    }

    /// What a failed request leaves in ``transcript`` (Apple 27); `nil` means ``TranscriptErrorHandlingPolicy/revertTranscript``.
    public final var transcriptErrorHandlingPolicy: TranscriptErrorHandlingPolicy? {
        get { state.withLock { $0.transcriptErrorHandlingPolicy } }
        set { state.withLock { $0.transcriptErrorHandlingPolicy = newValue } }
    }

    /// Whether a request is in progress.
    public final var isResponding: Bool {
        registrar.access(self, keyPath: \.isResponding)
        return state.withLock { $0.isResponding }
    }

    /// Loads the model and processes the instructions (and `promptPrefix`, the expected start of the next
    /// prompt) in the background, so that the next request starts sooner. No effect while responding.
    /// With a profile, the one the next model call would resolve to is prewarmed: its model, instructions and
    /// history transform.
    public final func prewarm(promptPrefix: Prompt? = nil) {
        let snapshot = state.withLock { $0.isResponding ? nil : $0.transcript }
        guard let snapshot else { return }
        let call = setUpNextCall(activating: false)
        call.model.prewarm(transcript: call.transcript(from: snapshot), promptPrefix: promptPrefix)
    }
}

extension LanguageModelSession: Observable {}

extension LanguageModelSession {
    /// Marks the session responding for `request` and returns the transcript the request starts from.
    ///
    /// When the session is already responding to a stream that the current task was reading and is no longer
    /// reading (it left the `for try await` loop, but the iterator lives on, as in top-level code, where a loop's
    /// iterator is never released), that request is rolled back first, as dropping its iterator would have done.
    /// - Throws: ``LanguageModelSession/Error/concurrentRequests`` when a request is already running (being
    ///   pulled, or left by another task).
    func beginRequest(_ request: any LeftBehindRequest) throws(LanguageModelSession.Error) -> Transcript {
        if let transcript = claim(for: request) { return transcript }
        let running = state.withLock { $0.running }
        guard let running, let task = TaskIdentity.current, running.endIfLeft(by: task),
              let transcript = claim(for: request) else { throw .concurrentRequests }
        return transcript
    }

    /// Marks the session responding for `request`; nil when it already is.
    private func claim(for request: any LeftBehindRequest) -> Transcript? {
        let transcript: Transcript? = state.withLock { state in
            guard !state.isResponding else { return nil }
            state.isResponding = true
            state.transcriptMutatedWhileResponding = false
            state.running = request
            return state.transcript
        }
        if transcript != nil { registrar.withMutation(of: self, keyPath: \.isResponding) {} }
        return transcript
    }

    /// Ends the running request: with `transcript` (the request's result, or what a failed request keeps under
    /// ``TranscriptErrorHandlingPolicy/preserveTranscript``), or with the transcript unchanged when `transcript`
    /// is nil. Returns false, storing nothing, when the transcript was set while the request ran.
    @discardableResult
    func endRequest(transcript: Transcript?, usage: LanguageModelUsage) -> Bool {
        let stored = state.withLock { state in
            let mutated = state.transcriptMutatedWhileResponding
            state.transcriptMutatedWhileResponding = false
            if let transcript, !mutated { state.transcript = transcript }
            state.isResponding = false
            state.running = nil
            state.usage.inputTokens += usage.inputTokens
            state.usage.cachedInputTokens += usage.cachedInputTokens
            state.usage.outputTokens += usage.outputTokens
            state.usage.reasoningTokens += usage.reasoningTokens
            return !mutated
        }
        if transcript != nil && stored { registrar.withMutation(of: self, keyPath: \.transcript) {} }
        registrar.withMutation(of: self, keyPath: \.isResponding) {}
        return stored
    }
}
