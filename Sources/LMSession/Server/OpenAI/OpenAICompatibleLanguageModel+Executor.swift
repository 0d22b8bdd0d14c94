import Foundation

extension OpenAICompatibleLanguageModel {
    /// Generates for an ``OpenAICompatibleLanguageModel`` (Apple's executor shape): each `respond` is one streamed
    /// `POST {baseURL}/chat/completions`, whose deltas go into the channel as they arrive. It keeps nothing between
    /// calls (the server gets the whole transcript every time) and leaves the context budget to the server.
    public struct Executor: LanguageModelExecutor {
        public typealias Model = OpenAICompatibleLanguageModel

        /// The endpoint, model name and credential: models that share them share an executor. The request itself is
        /// built from the model `respond` is given (its headers, limits, reasoning fields and reachability).
        public struct Configuration: Hashable, Sendable {
            let baseURL: URL
            let model: String
            let apiKey: APIKey?
        }

        public init(configuration: Configuration) {}

        /// Text deltas as they arrive, then the reasoning (when the server sent reasoning apart from the answer),
        /// then the tool calls (when the model called tools), then usage. Cancelling the task cancels the HTTP request.
        /// - Throws: see ``run(_:model:emit:)``.
        public func respond(to request: LanguageModelExecutorGenerationRequest, model: OpenAICompatibleLanguageModel,
                            streamingInto channel: LanguageModelExecutorGenerationChannel) async throws {
            let writer = ChannelWriter(channel)
            try await Self.run(LanguageModelRequest(request), model: model) { await writer.send($0) }
        }

        /// Sends the request and reads its event stream.
        ///
        /// `maximumResponseTokens` 0 sends nothing and reports an empty step, as the local model generates no token
        /// (servers differ: llama-server generates one token for `max_tokens: 0`, OpenAI rejects it).
        /// - Throws: see ``OpenAICompatibleLanguageModel``; ``ServerModelError/invalidBaseURL(_:)`` before sending
        ///   for a base URL that is not `http(s)://host`; what ``ServerStepCheck`` throws for a step that required a
        ///   tool call and made none, or a structured value the token limit cut.
        static func run(_ request: LanguageModelRequest, model: OpenAICompatibleLanguageModel,
                        emit: (LanguageModelEvent) async -> Void) async throws {
            if let problem = ServerEndpoint.problem(with: model.baseURL) { throw problem }
            if request.options.maximumResponseTokens == 0 { return }
            let body = Data(OpenAIChatRequest.body(for: request, model: model.model, reasoning: model.reasoningParameters).compactText.utf8)
            let redactor = model.redactor
            let response: HTTPStreamingResponse
            do {
                response = try await HTTPStreamingClient.send(model.makeHTTPRequest(path: "chat/completions", body: body))
            } catch let error as ServerModelError {
                if case .unreachable = error { model.reachability.markUnreachable(error) }
                throw error
            }
            model.reachability.markReachable()
            defer { response.cancel() }
            guard response.statusCode == 200 else {
                let excerpt = try await response.collect(limit: 64 << 10)
                throw OpenAIErrorMapping.httpError(status: response.statusCode, headers: response.headers, body: excerpt,
                                                   contextSize: model.contextSize, hasCredential: model.apiKey != nil, redactor: redactor)
            }
            try await response.requireEventStream(redactor: redactor)
            var stream = OpenAIChatStream(redactor: redactor)
            var text = ""
            for try await event in response.events() {
                do {
                    if let delta = try stream.read(event) {
                        text += delta
                        await emit(.text(delta))
                    }
                } catch LanguageModelError.contextSizeExceeded(var overflow) where overflow.contextSize == 0 {
                    overflow.contextSize = model.contextSize
                    throw LanguageModelError.contextSizeExceeded(overflow)
                }
                if stream.done { break }
            }
            try Task.checkCancellation()
            let calls = try stream.finish()
            let reasoning = stream.reasoning.trimmingCharacters(in: .whitespacesAndNewlines)
            if !reasoning.isEmpty { await emit(.reasoning(text: reasoning, signature: nil)) }
            if calls.isEmpty {
                try ServerStepCheck.checkStepWithoutToolCalls(request, text: text, ending: stream.finishReason == "length" ? .tokenLimit : .natural,
                                                              redactor: redactor)
            } else {
                await emit(.toolCalls(calls))
            }
            if let usage = stream.usage { await emit(.usage(usage)) }
        }
    }
}
