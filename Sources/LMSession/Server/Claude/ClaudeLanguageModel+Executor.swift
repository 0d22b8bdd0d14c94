import Foundation
import LMGrammar
import Synchronization

extension ClaudeLanguageModel {
    /// Generates for a ``ClaudeLanguageModel`` (Apple's executor shape): each `respond` is one streamed
    /// `POST /v1/messages` (more when the API pauses the turn), whose events go into the channel as they arrive.
    ///
    /// The server checks the context budget (an overflow comes back as
    /// ``LanguageModelError/contextSizeExceeded(_:)``). Blocks of a step that ended in tool calls and that the
    /// transcript does not hold (redacted thinking, server tool calls and results) are kept by the id of the step's
    /// first tool call, and sent back in front of those calls whenever a later transcript holds them; thinking goes
    /// back from the transcript's reasoning entries. The blocks are kept per configuration, so every session on
    /// models with equal settings finds them (tool call ids are the API's, unique), outside the executor, so that an
    /// executor dropped from the session's cache loses none; the last ``replayLimit`` steps' are kept.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = ClaudeLanguageModel

        /// Every setting a request depends on: models with equal settings (a profile that makes the model anew
        /// before each call) share an executor, and with it the blocks replayed after a tool step.
        public struct Configuration: Hashable, Sendable {
            let model: ClaudeModel, auth: AuthMode, baseURL: URL, timeout: TimeInterval
            let serverTools: Set<ClaudeServerTool>, fixedEffort: ClaudeModel.Effort?
        }

        /// Steps whose replayed blocks are kept; past it the oldest step's are dropped, so a long-lived process
        /// cannot grow them without bound.
        static let replayLimit = 4096

        private let configuration: Configuration

        public init(configuration: Configuration) {
            self.configuration = configuration
        }

        /// - Throws: see ``run(_:model:yield:)``.
        public func respond(to request: LanguageModelExecutorGenerationRequest, model: ClaudeLanguageModel,
                            streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            let writer = ChannelWriter(channel)
            try await run(LanguageModelRequest(request), model: model) { await writer.send($0) }
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
        private func run(_ request: LanguageModelRequest, model: ClaudeLanguageModel, yield: (LanguageModelEvent) async -> Void) async throws {
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
                let decoder = try await send(request, model: model, continuing: continuing) { event in
                    switch event {
                    case .usage(let usage):
                        last = usage
                        await yield(.usage(LanguageModelUsage(inputTokens: earlier.inputTokens + usage.inputTokens,
                                                        cachedInputTokens: earlier.cachedInputTokens + usage.cachedInputTokens,
                                                        outputTokens: earlier.outputTokens + usage.outputTokens)))
                    case .text(let delta):
                        text += delta
                        await yield(event)
                    case .toolCalls:
                        calledTools = true
                        await yield(event)
                    default:
                        await yield(event)
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
        private func send(_ request: LanguageModelRequest, model: ClaudeLanguageModel, continuing: [JSONValue],
                          yield: (LanguageModelEvent) async -> Void) async throws -> ClaudeStreamDecoder {
            let body = try ClaudeRequestBody(request, settings: model.requestSettings, replay: ReplayedBlocks.shared.blocks(of: configuration), continuing: continuing)
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
                            ReplayedBlocks.shared.keep(decoder.replayBlocks, for: first.id, of: configuration)
                        }
                        await yield(reported)
                    }
                    if decoder.finished { return decoder }
                }
            }
            try Task.checkCancellation()
            throw ServerModelError.connectionLost("\(model.baseURL.redactedOrigin): the event stream ended before message_stop")
        }
    }
}

/// The blocks replayed in front of a step's tool calls, by executor configuration and the id of the step's first
/// call, for the last ``ClaudeLanguageModel/Executor/replayLimit`` steps of the process.
final class ReplayedBlocks: Sendable {
    static let shared = ReplayedBlocks()

    typealias Configuration = ClaudeLanguageModel.Executor.Configuration
    private struct Key: Hashable {
        let configuration: Configuration
        let callID: String
    }
    private struct State {
        var blocks: [Configuration: [String: [JSONValue]]] = [:]
        /// Keys in the order their blocks were kept, oldest first.
        var order: [Key] = []
    }
    private let state = Mutex(State())

    /// The blocks kept for `configuration`, by call id.
    func blocks(of configuration: Configuration) -> [String: [JSONValue]] {
        state.withLock { $0.blocks[configuration] ?? [:] }
    }

    func keep(_ blocks: [JSONValue], for callID: String, of configuration: Configuration) {
        state.withLock { state in
            if state.blocks[configuration, default: [:]].updateValue(blocks, forKey: callID) == nil {
                state.order.append(Key(configuration: configuration, callID: callID))
            }
            guard state.order.count > ClaudeLanguageModel.Executor.replayLimit else { return }
            let oldest = state.order.removeFirst()
            state.blocks[oldest.configuration]?[oldest.callID] = nil
            if state.blocks[oldest.configuration]?.isEmpty == true { state.blocks[oldest.configuration] = nil }
        }
    }
}
