import Foundation
import LMGrammar
import Synchronization

/// One session's connection to the Messages API: each `generate` is one streamed `POST /v1/messages` (more
/// when the API pauses the turn).
///
/// The server checks the context budget (``ChecksContextBudget``: the session sends without counting first,
/// and an overflow comes back as ``LanguageModelError/contextSizeExceeded(_:)``). Blocks of a step that ended
/// in tool calls and that the transcript does not hold (redacted thinking, server tool calls and results) are
/// kept per tool call id for the session's life and sent back in front of those calls; thinking goes back
/// from the transcript's reasoning entries.
final class ClaudeConversation: LanguageModelConversation, ChecksContextBudget {
    let model: ClaudeLanguageModel
    /// Replayed blocks by the id of the first tool call of the step that produced them.
    private let replay = Mutex<[String: [JSONValue]]>([:])

    init(model: ClaudeLanguageModel) {
        self.model = model
    }

    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.run(request) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Turns the API may pause (`pause_turn`, a long server tool run) before a request gives up.
    static let maximumContinuations = 8

    /// Runs the model call: one request, plus one more per `pause_turn` (each sending the paused turn back),
    /// and reports their events as one step (usage summed).
    /// - Throws: ``ClaudeError/missingCredential`` for an empty key (nothing sent), the request body's
    ///   errors, the transport's (``ServerModelError/unreachable(_:)``, ``LanguageModelError/timeout(_:)``),
    ///   the mapped HTTP and stream errors, ``ServerModelError/connectionLost(_:)`` for a stream that ends
    ///   before `message_stop`, ``ClaudeError/api(status:type:message:)`` after too many pauses,
    ///   ``ServerModelError/invalidBaseURL(_:)`` before sending, and what ``ServerStepCheck`` throws. With
    ///   `maximumResponseTokens` 0 nothing is sent and the step is empty.
    private func run(_ request: LanguageModelRequest, yield: (LanguageModelEvent) -> Void) async throws {
        if let problem = ServerEndpoint.problem(with: model.baseURL) { throw problem }
        if case .apiKey(let key) = model.auth, key.isEmpty { throw ClaudeError.missingCredential }
        // As the local model: no token may be generated, so no request (the API rejects `max_tokens: 0`).
        if request.options.maximumResponseTokens == 0 { return }
        var continuing: [JSONValue] = []
        var earlier = LanguageModelUsage(inputTokens: 0, outputTokens: 0)
        var text = ""
        var calledTools = false
        for _ in 0...Self.maximumContinuations {
            var last = LanguageModelUsage(inputTokens: 0, outputTokens: 0)
            let decoder = try await send(request, continuing: continuing) { event in
                switch event {
                case .usage(let usage):
                    last = usage
                    yield(.usage(LanguageModelUsage(inputTokens: earlier.inputTokens + usage.inputTokens,
                                                    cachedInputTokens: earlier.cachedInputTokens + usage.cachedInputTokens,
                                                    outputTokens: earlier.outputTokens + usage.outputTokens)))
                case .text(let delta):
                    text += delta
                    yield(event)
                case .toolCalls:
                    calledTools = true
                    yield(event)
                default:
                    yield(event)
                }
            }
            guard decoder.stopReason == "pause_turn" else {
                if !calledTools {
                    try ServerStepCheck.checkStepWithoutToolCalls(request, text: text, ending: decoder.stopReason == "max_tokens" ? .tokenLimit : .natural,
                                                                  redactor: model.redactor)
                }
                return
            }
            continuing += decoder.contentBlocks
            earlier = LanguageModelUsage(inputTokens: earlier.inputTokens + last.inputTokens,
                                         cachedInputTokens: earlier.cachedInputTokens + last.cachedInputTokens,
                                         outputTokens: earlier.outputTokens + last.outputTokens)
        }
        throw ClaudeError.api(status: 0, type: "pause_turn", message: "the API paused the turn more than \(Self.maximumContinuations) times")
    }

    /// One streamed request; returns the decoder once `message_stop` has been read.
    private func send(_ request: LanguageModelRequest, continuing: [JSONValue], yield: (LanguageModelEvent) -> Void) async throws -> ClaudeStreamDecoder {
        let model = self.model
        let body = try ClaudeRequestBody(request, settings: model.requestSettings, replay: replay.withLock { $0 }, continuing: continuing)
        let redactor = model.redactor
        let http = HTTPStreamingRequest(url: model.messagesURL, headers: model.headers(betas: body.betas), body: Data(body.text.utf8),
                                        timeout: model.timeout, redactor: redactor)
        let context = ClaudeErrorMapping.Context(contextSize: model.contextSize, sentAPIKey: model.sendsAPIKey, redactor: redactor)
        let response: HTTPStreamingResponse
        do {
            response = try await HTTPStreamingClient.send(http)
        } catch let error as ServerModelError {
            if case .unreachable = error { model.reachability.markUnreachable(error) }
            throw error
        }
        model.reachability.markReachable()
        guard response.statusCode == 200 else {
            let errorBody = try await response.collect(limit: 64 << 10)
            throw ClaudeErrorMapping.error(status: response.statusCode, headers: response.headers, body: errorBody, context: context)
        }
        defer { response.cancel() }
        try await response.requireEventStream(redactor: redactor)
        var parser = ServerSentEventParser()
        var decoder = ClaudeStreamDecoder(errorContext: context)
        for try await chunk in response.body {
            for event in try parser.feed(chunk) {
                for reported in try decoder.consume(name: event.event, data: event.data) {
                    if case .toolCalls(let calls) = reported, let first = calls.first, !decoder.replayBlocks.isEmpty {
                        let blocks = decoder.replayBlocks
                        replay.withLock { $0[first.id] = blocks }
                    }
                    yield(reported)
                }
                if decoder.finished { return decoder }
            }
        }
        try Task.checkCancellation()
        throw ServerModelError.connectionLost("\(model.baseURL.redactedOrigin): the event stream ended before message_stop")
    }
}
