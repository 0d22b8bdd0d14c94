import Foundation

/// One session's connection to an ``OpenAICompatibleLanguageModel``: each `generate` is one streamed
/// `POST {baseURL}/chat/completions`. It keeps no state between calls (the server gets the whole transcript
/// every time), and leaves the context budget to the server (``ChecksContextBudget``).
final class OpenAIConversation: LanguageModelConversation, ChecksContextBudget {
    let model: OpenAICompatibleLanguageModel

    init(model: OpenAICompatibleLanguageModel) {
        self.model = model
    }

    /// Text deltas as they arrive, then `.reasoning` (when the server sent reasoning apart from the answer), then
    /// `.toolCalls` (when the model called tools), then `.usage`.
    /// Terminating the stream cancels the HTTP request.
    func generate(_ request: LanguageModelRequest) -> AsyncThrowingStream<LanguageModelEvent, any Error> {
        let model = self.model
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await Self.run(request, model: model) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Sends the request and reads its event stream.
    ///
    /// `maximumResponseTokens` 0 sends nothing and reports an empty step, as the local model generates no token
    /// (servers differ: llama-server generates one token for `max_tokens: 0`, OpenAI rejects it).
    /// - Throws: see ``OpenAICompatibleLanguageModel``; ``ServerModelError/invalidBaseURL(_:)`` before sending
    ///   for a base URL that is not `http(s)://host`; what ``ServerStepCheck`` throws for a step that required a
    ///   tool call and made none, or a structured value the token limit cut.
    static func run(_ request: LanguageModelRequest, model: OpenAICompatibleLanguageModel,
                    emit: (LanguageModelEvent) -> Void) async throws {
        if let problem = ServerEndpoint.problem(with: model.baseURL) { throw problem }
        if request.options.maximumResponseTokens == 0 { return }
        let body = Data(OpenAIChatRequest.body(for: request, model: model.model, reasoning: model.reasoningParameters).text.utf8)
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
                    emit(.text(delta))
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
        if !reasoning.isEmpty { emit(.reasoning(text: reasoning, signature: nil)) }
        if calls.isEmpty {
            try ServerStepCheck.checkStepWithoutToolCalls(request, text: text, ending: stream.finishReason == "length" ? .tokenLimit : .natural,
                                                          redactor: redactor)
        } else {
            emit(.toolCalls(calls))
        }
        if let usage = stream.usage { emit(.usage(usage)) }
    }
}
