import Foundation

/// Why a request to a model server failed, for failures Apple's ``LanguageModelError`` has no case for.
///
/// Thrown by the server models (``OpenAICompatibleLanguageModel``, ``ClaudeLanguageModel``) next to
/// ``LanguageModelError`` (rate limits, timeouts, context overflow, refusals). No payload ever holds the
/// model's API key: every text that comes from the server (a body excerpt, a message) passes through
/// ``SecretRedactor`` first, and URLs are reduced to scheme, host and port.
public enum ServerModelError: Error, Sendable, Equatable, LocalizedError, CustomStringConvertible {
    /// The server wants a credential and the model has none (HTTP 401 with no API key set, or a provider
    /// that always needs one).
    case missingCredential(String)
    /// The server rejected the credential (HTTP 401 or 403 with an API key set).
    case authenticationFailed(statusCode: Int, message: String)
    /// The server answered with an HTTP error status that no other case covers; `bodyExcerpt` is the start
    /// of its body (at most ``ServerModelError/bodyExcerptLimit`` characters, secrets redacted).
    case httpStatus(code: Int, bodyExcerpt: String)
    /// The server's answer does not follow the protocol (not JSON, a missing field, a malformed event).
    case invalidResponse(String)
    /// The response body grew past `limit` bytes (the transport stops reading there).
    case responseTooLarge(limit: Int)
    /// No connection could be made (refused, unknown host, no route); the text names the server's origin and
    /// what failed (`http://127.0.0.1:9 (could not connect to the host, URLError -1004)`).
    case unreachable(String)
    /// The model's base URL cannot address an HTTP server (not `http`/`https`, no host): found when the model
    /// is asked for its ``OpenAICompatibleLanguageModel/availability`` or sends a request. Nothing was sent.
    case invalidBaseURL(String)
    /// The connection broke before the response was complete.
    case connectionLost(String)
    /// The model called a tool with arguments that are not a JSON object. Not thrown alone: it is the
    /// `underlyingError` of the ``GeneratedContent/ParsingError`` a request throws (Apple's decoding failure).
    case invalidToolCallArguments(toolName: String, reason: String)
    /// The request required a tool call (``GenerationOptions/ToolCallingMode/required``) and the server answered
    /// without one (llama-server ignores `tool_choice: "required"` for models whose chat template has no tool
    /// format). Not thrown alone: it is the `underlyingError` of the ``GeneratedContent/ParsingError`` the request
    /// throws, whose `rawContent` is the answer. `answer` is its start.
    case requiredToolCallMissing(answer: String)

    /// Characters of an error body kept in ``httpStatus(code:bodyExcerpt:)``.
    public static let bodyExcerptLimit = 512

    public var description: String {
        switch self {
        case .missingCredential(let what): "Missing credential: \(what)"
        case .authenticationFailed(let code, let message): "The server rejected the credential (HTTP \(code)): \(message)"
        case .httpStatus(let code, let body): "The server answered HTTP \(code): \(body)"
        case .invalidResponse(let reason): "Invalid response from the server: \(reason)"
        case .responseTooLarge(let limit): "The server's response is larger than \(limit) bytes."
        case .unreachable(let what): "The server is unreachable: \(what)"
        case .invalidBaseURL(let what): "Invalid base URL: \(what)"
        case .connectionLost(let what): "The connection to the server was lost: \(what)"
        case .invalidToolCallArguments(let name, let reason): "The model called \(name) with invalid arguments: \(reason)"
        case .requiredToolCallMissing(let answer):
            "The request requires a tool call (toolCallingMode .required), but the server answered without one: \(answer)"
        }
    }

    public var errorDescription: String? { description }
}

extension GeneratedContent.ParsingError {
    /// A server model's tool call whose arguments are not a JSON object: a decoding failure of the model's output,
    /// as for the local model, with ``ServerModelError/invalidToolCallArguments(toolName:reason:)`` as
    /// `underlyingError`. `arguments` is the (redacted) text the server sent.
    static func invalidToolCallArguments(toolName: String, reason: String, arguments: String) -> Self {
        let detail = ServerModelError.invalidToolCallArguments(toolName: toolName, reason: reason)
        return Self(rawContent: arguments, underlyingError: detail, debugDescription: detail.description)
    }

    /// A server model's answer without a tool call to a request that required one: output that does not decode as
    /// what was asked (as a local model's tool call that does not decode), with
    /// ``ServerModelError/requiredToolCallMissing(answer:)`` as `underlyingError`. `answer` is the (redacted) text.
    static func requiredToolCallMissing(answer: String) -> Self {
        let excerpt = answer.count > 200 ? String(answer.prefix(200)) + "…" : answer
        let detail = ServerModelError.requiredToolCallMissing(answer: excerpt)
        return Self(rawContent: answer, underlyingError: detail, debugDescription: detail.description)
    }
}

/// Removes secrets (API keys) from text that may end up in an error, a log or a transcript.
///
/// A hostile or misconfigured server can echo the request's headers in an error body; every server text the
/// transport puts in an error goes through ``redact(_:)``.
package struct SecretRedactor: Sendable {
    /// What replaces a secret.
    package static let mask = "[redacted]"
    let secrets: [String]

    /// - Parameter secrets: values never to show; empty strings are ignored.
    package init(_ secrets: [String?]) {
        self.secrets = secrets.compactMap { $0 }.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// `text` with every occurrence of a secret replaced by ``mask``.
    package func redact(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.mask) }
    }

    /// The start of `data` as text (invalid UTF-8 repaired), at most `limit` characters, secrets redacted.
    package func excerpt(_ data: Data, limit: Int = ServerModelError.bodyExcerptLimit) -> String {
        // Redact the whole text first: a secret cut in half by the limit would otherwise survive in part.
        let text = redact(String(decoding: data, as: UTF8.self))
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}

extension URL {
    /// Scheme, host and port only: what an error may say about a server (no user, password, path or query).
    package var redactedOrigin: String {
        var origin = "\(scheme ?? "http")://\(host ?? "?")"
        if let port { origin += ":\(port)" }
        return origin
    }
}
