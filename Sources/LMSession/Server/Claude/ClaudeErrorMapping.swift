import Foundation
import LMGrammar

/// Turns the Messages API's error answers (an HTTP error status with a JSON body, or an `error` event inside
/// the stream) into the error a session throws. Pure: tested on recorded bodies.
///
/// The body is the API's `{"type":"error","error":{"type":…,"message":…}}`, or llama.cpp's
/// `{"error":{"code":…,"message":…,"type":…,"n_prompt_tokens":…,"n_ctx":…}}` (its stream's `error` event
/// carries the inner object alone). Every message is redacted before it is stored.
package enum ClaudeErrorMapping {
    /// What the mapping needs to know about the model and the request.
    package struct Context: Sendable {
        /// The model's context size, for an overflow the server did not size.
        var contextSize: Int
        /// Whether the request carried an API key (a 401 without one is a missing credential).
        var sentAPIKey: Bool
        var redactor: SecretRedactor

        package init(contextSize: Int, sentAPIKey: Bool, redactor: SecretRedactor) {
            self.contextSize = contextSize
            self.sentAPIKey = sentAPIKey
            self.redactor = redactor
        }
    }

    /// The error for an HTTP error response.
    ///
    /// - 429 or `rate_limit_error` → ``LanguageModelError/rateLimited(_:)`` with the reset date from
    ///   `retry-after` (else the earliest `anthropic-ratelimit-*-reset`), nil when neither is sent.
    /// - A prompt over the context (`prompt is too long: N tokens > M maximum`, `… exceed context limit:
    ///   A + B > M`, llama.cpp's `exceed_context_size_error`) → ``LanguageModelError/contextSizeExceeded(_:)``.
    /// - 408, 504 → ``LanguageModelError/timeout(_:)``.
    /// - 401 → ``ServerModelError/authenticationFailed(statusCode:message:)`` with a key, else
    ///   ``ClaudeError/missingCredential`` (a relay that added none); 403 → `authenticationFailed`.
    /// - 529, 503, `overloaded_error` → ``ClaudeError/overloaded(message:)``.
    /// - Any other readable error → ``ClaudeError/api(status:type:message:)``; an unreadable body →
    ///   ``ServerModelError/httpStatus(code:bodyExcerpt:)``.
    package static func error(status: Int, headers: [String: String], body: Data, context: Context, now: Date = Date()) -> any Error {
        let detail = (try? JSONValue.parse(String(decoding: body, as: UTF8.self))).flatMap(errorObject)
        let type = detail?["type"]?.stringValue ?? ""
        let message = context.redactor.redact(detail?["message"]?.stringValue ?? "")
        if status == 429 || type == "rate_limit_error" {
            let reset = RetryAfter.resetDate(headers: headers, now: now) ?? rateLimitReset(headers)
            return LanguageModelError.rateLimited(.init(resetDate: reset, debugDescription: "HTTP \(status): \(message)",
                                                        metadata: ["status": status]))
        }
        if let overflow = contextOverflow(type: type, message: message, detail: detail, context: context) { return overflow }
        switch status {
        case 408, 504:
            return LanguageModelError.timeout(.init(debugDescription: "HTTP \(status): \(message)"))
        case 401:
            return context.sentAPIKey ? ServerModelError.authenticationFailed(statusCode: status, message: message) : ClaudeError.missingCredential
        case 403:
            return ServerModelError.authenticationFailed(statusCode: status, message: message)
        case 503, 529:
            return ClaudeError.overloaded(message: message)
        default:
            if type == "overloaded_error" { return ClaudeError.overloaded(message: message) }
            if detail != nil, !type.isEmpty || !message.isEmpty { return ClaudeError.api(status: status, type: type, message: message) }
            return ServerModelError.httpStatus(code: status, bodyExcerpt: context.redactor.excerpt(body))
        }
    }

    /// The error for an `error` event in the stream (`data` is its JSON text).
    package static func streamError(data: String, context: Context) -> any Error {
        guard let json = try? JSONValue.parse(data), let detail = errorObject(json) else {
            return ServerModelError.invalidResponse("unreadable error event: \(context.redactor.excerpt(Data(data.utf8)))")
        }
        let type = detail["type"]?.stringValue ?? ""
        let message = context.redactor.redact(detail["message"]?.stringValue ?? "")
        if type == "rate_limit_error" { return LanguageModelError.rateLimited(.init(debugDescription: message)) }
        if type == "overloaded_error" { return ClaudeError.overloaded(message: message) }
        if let overflow = contextOverflow(type: type, message: message, detail: detail, context: context) { return overflow }
        return ClaudeError.api(status: detail["code"]?.intValue ?? 0, type: type, message: message)
    }

    /// The object that describes the error: `error` inside the body, or the body itself when it has `message`.
    private static func errorObject(_ json: JSONValue) -> JSONValue? {
        if let inner = json["error"], case .object = inner { return inner }
        if json["message"] != nil { return json }
        return nil
    }

    /// ``LanguageModelError/contextSizeExceeded(_:)`` when the error says the input is over the context.
    private static func contextOverflow(type: String, message: String, detail: JSONValue?, context: Context) -> LanguageModelError? {
        var counts: (needed: Int, size: Int)?
        if type == "exceed_context_size_error" {
            counts = (detail?["n_prompt_tokens"]?.intValue ?? 0, detail?["n_ctx"]?.intValue ?? context.contextSize)
        } else if message.hasPrefix("prompt is too long") || message.contains("exceed context limit") {
            // "prompt is too long: 201234 tokens > 200000 maximum", "… exceed context limit: 188240 + 21333 > 200000"
            let numbers = message.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            if numbers.count >= 2, let size = numbers.last {
                counts = (numbers.dropLast().reduce(0, +), size)
            } else {
                counts = (0, context.contextSize)
            }
        }
        guard let counts else { return nil }
        return .contextSizeExceeded(.init(contextSize: counts.size, tokenCount: counts.needed, debugDescription:
            "Content contains \(counts.needed) tokens, which exceeds the model's context size of \(counts.size) (\(message))."))
    }

    /// The earliest of the `anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-reset` dates (RFC 3339).
    private static func rateLimitReset(_ headers: [String: String]) -> Date? {
        let names = ["requests", "tokens", "input-tokens", "output-tokens"].map { "anthropic-ratelimit-\($0)-reset" }
        let formatter = ISO8601DateFormatter()
        return names.compactMap { headers[$0].flatMap(formatter.date(from:)) }.min()
    }
}
