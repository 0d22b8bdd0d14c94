import Foundation

/// Failures particular to ``ClaudeLanguageModel`` (the published package's `ClaudeError`).
///
/// Failures with an Apple case are thrown as ``LanguageModelError`` (rate limit, context overflow, refusal,
/// timeout); failures every server model shares as ``ServerModelError`` (unreachable, rejected credential,
/// unreadable response). No case holds the API key: server messages are redacted before they are stored.
public enum ClaudeError: Error, LocalizedError, Sendable, Equatable {
    /// No usable credential: `.apiKey("")`. Nothing was sent.
    case missingCredential
    /// The request requires a tool call (``GenerationOptions/ToolCallingMode/required``) and the model does
    /// not accept `tool_choice` `any` (``ClaudeModel/Capabilities/forcedToolUse`` is false). Nothing was sent.
    case forcedToolUseUnsupported
    /// The service is overloaded (HTTP 529 or 503, or an `overloaded_error` event in the stream); retry later.
    case overloaded(message: String)
    /// Another error the API reported: the HTTP status (0 for an `error` event inside the stream), the
    /// API's error type (`invalid_request_error`, `not_found_error`, `api_error`, ...) and its message.
    case api(status: Int, type: String, message: String)

    public var errorDescription: String? {
        switch self {
        case .missingCredential:
            "No Claude credential: pass a non-empty API key with .apiKey(_:), or use .proxied(headers:) with a relay that adds it."
        case .forcedToolUseUnsupported:
            "This Claude model cannot be required to call a tool; use the default tool-calling mode."
        case let .overloaded(message):
            "The Claude API is overloaded; retry later. \(message)"
        case let .api(status, type, message):
            "The Claude API failed\(status > 0 ? " (HTTP \(status))" : ""): \(type): \(message)"
        }
    }
}
