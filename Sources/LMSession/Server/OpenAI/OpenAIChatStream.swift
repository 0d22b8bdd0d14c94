import Foundation

/// One `chat.completion.chunk` of a streamed Chat Completions response (only the fields read here).
struct OpenAIChatChunk: Decodable {
    struct Choice: Decodable {
        var delta: Delta?
        var finish_reason: String?
    }
    struct Delta: Decodable {
        var content: String?
        /// Reasoning sent apart from the answer: `reasoning_content` (llama-server's `--reasoning-format deepseek`,
        /// DeepSeek, vLLM before 0.10) or `reasoning` (vLLM since, OpenRouter, Ollama). A server may send both with
        /// the same text; `reasoning_content` is then read.
        var reasoning_content: String?
        var reasoning: String?
        var refusal: String?
        var tool_calls: [ToolCallDelta]?
    }
    struct ToolCallDelta: Decodable {
        var index: Int?
        var id: String?
        var function: FunctionDelta?
    }
    struct FunctionDelta: Decodable {
        var name: String?
        var arguments: String?
    }
    struct Usage: Decodable {
        struct PromptDetails: Decodable { var cached_tokens: Int? }
        /// OpenAI's reasoning models (o-series, gpt-5) report the reasoning part of `completion_tokens` here.
        struct CompletionDetails: Decodable { var reasoning_tokens: Int? }
        var prompt_tokens: Int?
        var completion_tokens: Int?
        var prompt_tokens_details: PromptDetails?
        var completion_tokens_details: CompletionDetails?
    }
    var choices: [Choice]?
    var usage: Usage?
    /// Sent by llama.cpp (and others) instead of a chunk when generation fails mid-stream.
    var error: OpenAIErrorBody.Detail?
}

/// Reads a Chat Completions event stream, one SSE event at a time, into ``LanguageModelEvent``s.
///
/// Text deltas pass straight through; reasoning deltas are collected in ``reasoning``; tool-call fragments are collected by `index` (the id and name arrive
/// once, the arguments as JSON text in pieces) and become one `.toolCalls` event when the stream ends; the
/// usage chunk (sent last, with `stream_options.include_usage`) becomes `.usage`.
struct OpenAIChatStream {
    private struct PendingCall {
        var id: String?
        var name = ""
        var arguments = ""
    }
    private var calls: [Int: PendingCall] = [:]
    private var refusal = ""
    /// The reasoning text so far (`reasoning_content` or `reasoning` deltas), never part of the answer.
    private(set) var reasoning = ""
    private(set) var finishReason: String?
    private(set) var done = false
    private(set) var usage: LanguageModelUsage?
    let redactor: SecretRedactor

    init(redactor: SecretRedactor) {
        self.redactor = redactor
    }

    /// The text delta of `event` (nil when it has none), after recording its tool-call fragments, finish
    /// reason and usage.
    /// - Throws: ``ServerModelError/invalidResponse(_:)`` when the data is not a chunk; the mapped error
    ///   when the chunk is an error (``OpenAIErrorMapping``).
    mutating func read(_ event: ServerSentEvent) throws -> String? {
        // Only a short payload can be the end marker; a chunk is decoded as sent (JSON allows the spaces), so a
        // large one is not copied through Foundation's trimming.
        let data = event.data
        if data.utf8.count <= 32, data.trimmingCharacters(in: .whitespaces) == "[DONE]" {
            done = true
            return nil
        }
        let chunk: OpenAIChatChunk
        do {
            chunk = try JSONDecoder().decode(OpenAIChatChunk.self, from: Data(data.utf8))
        } catch {
            throw ServerModelError.invalidResponse("a stream event is not a chat completion chunk: \(redactor.excerpt(Data(data.utf8), limit: 200))")
        }
        if let detail = chunk.error {
            throw OpenAIErrorMapping.streamError(detail, redactor: redactor)
        }
        if let usage = chunk.usage, let input = usage.prompt_tokens, let output = usage.completion_tokens {
            self.usage = LanguageModelUsage(inputTokens: input, cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0, outputTokens: output,
                                            reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0)
        }
        guard let choice = chunk.choices?.first else { return nil }
        if let reason = choice.finish_reason { finishReason = reason }
        for fragment in choice.delta?.tool_calls ?? [] {
            // Mutated in place: arguments that stream in many pieces grow without being copied each time.
            let index = fragment.index ?? 0
            if let id = fragment.id, !id.isEmpty { calls[index, default: PendingCall()].id = id }
            calls[index, default: PendingCall()].name += fragment.function?.name ?? ""
            calls[index, default: PendingCall()].arguments += fragment.function?.arguments ?? ""
        }
        if let text = choice.delta?.refusal { refusal += text }
        if let text = choice.delta?.reasoning_content ?? choice.delta?.reasoning { reasoning += text }
        let text = choice.delta?.content ?? ""
        return text.isEmpty ? nil : text
    }

    /// Checks how the stream ended and returns its tool calls (empty for a text answer).
    /// - Throws: ``ServerModelError/connectionLost(_:)`` when it ended with neither a finish reason nor
    ///   `[DONE]`; ``LanguageModelError/refusal(_:)`` for a refusal or `content_filter`;
    ///   ``GeneratedContent/ParsingError`` (its `underlyingError` ``ServerModelError/invalidToolCallArguments(toolName:reason:)``)
    ///   for arguments that are not a JSON object.
    func finish() throws -> [Transcript.ToolCall] {
        guard finishReason != nil || done else {
            throw ServerModelError.connectionLost("the event stream ended before the response was complete")
        }
        if !refusal.isEmpty {
            throw LanguageModelError.refusal(.init(debugDescription: "The model refused: \(redactor.redact(refusal))"))
        }
        if finishReason == "content_filter" {
            throw LanguageModelError.refusal(.init(debugDescription: "The server's content filter stopped the response."))
        }
        return try calls.keys.sorted().map { index in
            let call = calls[index]!
            let text = call.arguments.trimmingCharacters(in: .whitespacesAndNewlines)
            func invalid(_ what: String) -> GeneratedContent.ParsingError {
                .invalidToolCallArguments(toolName: call.name, reason: "\(what): \(redactor.redact(String(text.prefix(200))))",
                                          arguments: redactor.redact(text))
            }
            let arguments: GeneratedContent
            do {
                arguments = try GeneratedContent(json: text.isEmpty ? "{}" : text)
            } catch {
                throw invalid("not JSON")
            }
            guard arguments.isComplete else { throw invalid("not JSON") }
            guard case .structure = arguments.kind else { throw invalid("not a JSON object") }
            return Transcript.ToolCall(id: call.id ?? "call_\(index)", toolName: call.name, arguments: arguments)
        }
    }
}
