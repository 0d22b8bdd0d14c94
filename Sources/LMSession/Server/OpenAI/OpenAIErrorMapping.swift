import Foundation

/// An OpenAI-style error body: `{"error": {"message", "type", "code", ...}}`; llama.cpp adds the token counts
/// of a context overflow (`n_prompt_tokens`, `n_ctx`).
struct OpenAIErrorBody: Decodable {
    struct Detail: Decodable {
        var message: String?
        var type: String?
        /// A string (OpenAI: "context_length_exceeded") or a number (llama.cpp: the HTTP status).
        var code: String?
        var n_prompt_tokens: Int?
        var n_ctx: Int?

        enum CodingKeys: String, CodingKey { case message, type, code, n_prompt_tokens, n_ctx }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            message = try? c.decode(String.self, forKey: .message)
            type = try? c.decode(String.self, forKey: .type)
            code = (try? c.decode(String.self, forKey: .code)) ?? (try? c.decode(Int.self, forKey: .code)).map(String.init)
            n_prompt_tokens = try? c.decode(Int.self, forKey: .n_prompt_tokens)
            n_ctx = try? c.decode(Int.self, forKey: .n_ctx)
        }

        /// Whether this says the request does not fit the context (OpenAI's code, llama.cpp's type, or the
        /// wording of servers that send neither).
        var isContextOverflow: Bool {
            if code == "context_length_exceeded" || type == "exceed_context_size_error" { return true }
            let text = (message ?? "").lowercased()
            return text.contains("context length") || text.contains("context size") || text.contains("context window")
                || text.contains("maximum context")
        }
    }
    var error: Detail?
}

/// Maps a Chat Completions server's failures to Apple's ``LanguageModelError`` where a case fits, and to
/// ``ServerModelError`` otherwise.
enum OpenAIErrorMapping {
    /// The error for an HTTP response with status `status` (not 200).
    /// - Parameters:
    ///   - body: the start of the response body.
    ///   - contextSize: the model's configured context size, used when the server does not say its own.
    ///   - hasCredential: whether the request carried an API key (401 without one is a missing credential).
    static func httpError(status: Int, headers: [String: String], body: Data, contextSize: Int, hasCredential: Bool,
                          redactor: SecretRedactor, now: Date = Date()) -> any Error {
        let detail = (try? JSONDecoder().decode(OpenAIErrorBody.self, from: body))?.error
        let message = redactor.redact(detail?.message ?? "")
        switch status {
        case 429:
            return LanguageModelError.rateLimited(.init(resetDate: RetryAfter.resetDate(headers: headers, now: now),
                debugDescription: "HTTP 429 from the server\(message.isEmpty ? "" : ": \(message)")"))
        case 401, 403:
            if !hasCredential { return ServerModelError.missingCredential("the server wants an API key (HTTP \(status))") }
            return ServerModelError.authenticationFailed(statusCode: status, message: message.isEmpty ? redactor.excerpt(body) : message)
        case 408, 504:
            return LanguageModelError.timeout(.init(debugDescription: "The server timed out (HTTP \(status)). \(message)"))
        default:
            if let detail, detail.isContextOverflow {
                return contextOverflow(detail, contextSize: contextSize, redactor: redactor)
            }
            return ServerModelError.httpStatus(code: status, bodyExcerpt: redactor.excerpt(body))
        }
    }

    /// The error for an error object sent inside the event stream.
    static func streamError(_ detail: OpenAIErrorBody.Detail, redactor: SecretRedactor, contextSize: Int = 0) -> any Error {
        if detail.isContextOverflow { return contextOverflow(detail, contextSize: contextSize, redactor: redactor) }
        return ServerModelError.invalidResponse("the server reported an error mid-stream: \(redactor.redact(detail.message ?? detail.type ?? "unknown"))")
    }

    private static func contextOverflow(_ detail: OpenAIErrorBody.Detail, contextSize: Int, redactor: SecretRedactor) -> any Error {
        LanguageModelError.contextSizeExceeded(.init(contextSize: detail.n_ctx ?? contextSize, tokenCount: detail.n_prompt_tokens ?? 0,
            debugDescription: "The server says the request does not fit its context: \(redactor.redact(detail.message ?? ""))"))
    }
}
