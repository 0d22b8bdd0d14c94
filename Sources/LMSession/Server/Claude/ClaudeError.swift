import Foundation

/// Failures of ``ClaudeLanguageModel`` that have no ``LanguageModelError`` case (rate limits, context
/// overflow, refusals and timeouts are thrown as ``LanguageModelError``).
///
/// No case ever holds the API key: server messages are scrubbed of it before they are stored.
public enum ClaudeError: Error, LocalizedError, Sendable, Equatable {
    /// No usable credential: `.apiKey("")`. Nothing was sent.
    case missingCredential
    /// The request requires a tool call (``GenerationOptions/ToolCallingMode/required``) and the model does
    /// not accept `tool_choice` `any` (``ClaudeModel/Capabilities/forcedToolUse`` is false). Nothing was sent.
    case forcedToolUseUnsupported
    /// The server rejected the credential (HTTP 401 `authentication_error`, 403 `permission_error`).
    case authenticationFailed(status: Int, message: String)
    /// The service is overloaded (HTTP 529 `overloaded_error`, or 503); retry later.
    case overloaded(status: Int, message: String)
    /// Any other error the API reported: HTTP status (0 for an error event inside the stream), the API's
    /// error type (`invalid_request_error`, `api_error`, ...) and its message.
    case api(status: Int, type: String, message: String)
    /// The response was not a Messages API stream (unreadable JSON, events out of order, the stream ended
    /// before `message_stop`).
    case invalidResponse(String)

    public var errorDescription: String? {
        switch self {
        case .missingCredential:
            "No Claude credential: pass a non-empty API key with .apiKey(_:), or use .proxied(headers:) with a relay that adds it."
        case .forcedToolUseUnsupported:
            "This Claude model cannot be required to call a tool; use the default tool-calling mode."
        case let .authenticationFailed(status, message):
            "The Claude API rejected the credential (HTTP \(status)): \(message)"
        case let .overloaded(status, message):
            "The Claude API is overloaded (HTTP \(status)): \(message)"
        case let .api(status, type, message):
            "The Claude API failed\(status > 0 ? " (HTTP \(status))" : ""): \(type): \(message)"
        case let .invalidResponse(detail):
            "The Claude API's response could not be read: \(detail)"
        }
    }
}
