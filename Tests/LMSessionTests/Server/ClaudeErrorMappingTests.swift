import Foundation
import LMSession
import Testing

/// HTTP error answers of the Messages API (and of llama-server's `/v1/messages`) mapped to what a session throws.
@Suite struct ClaudeErrorMappingTests {
    static let key = "sk-ant-api03-SECRET-KEY-0123"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func map(_ status: Int, _ body: String, headers: [String: String] = [:], sentAPIKey: Bool = true) -> any Error {
        ClaudeErrorMapping.error(status: status, headers: headers, body: Data(body.utf8),
                                 context: .init(contextSize: 200_000, sentAPIKey: sentAPIKey, redactor: SecretRedactor([key])), now: now)
    }

    static func apiError(_ type: String, _ message: String) -> String {
        #"{"type":"error","error":{"type":"\#(type)","message":"\#(message)"}}"#
    }

    @Test func `429 is rateLimited with the reset date from retry-after seconds`() {
        let error = Self.map(429, Self.apiError("rate_limit_error", "Number of requests has exceeded your rate limit"), headers: ["retry-after": "17"])
        guard case LanguageModelError.rateLimited(let info) = error else { Issue.record("got \(error)"); return }
        #expect(info.resetDate == Self.now.addingTimeInterval(17))
    }

    @Test func `429 without retry-after takes the earliest anthropic-ratelimit reset, or none`() {
        let headers = ["anthropic-ratelimit-tokens-reset": "2027-01-15T08:00:30Z", "anthropic-ratelimit-requests-reset": "2027-01-15T08:00:05Z"]
        guard case LanguageModelError.rateLimited(let info) = Self.map(429, "{}", headers: headers) else { Issue.record("not rateLimited"); return }
        #expect(info.resetDate == ISO8601DateFormatter().date(from: "2027-01-15T08:00:05Z"))
        guard case LanguageModelError.rateLimited(let bare) = Self.map(429, "") else { Issue.record("not rateLimited"); return }
        #expect(bare.resetDate == nil)
    }

    @Test(arguments: [
        (Self.apiError("invalid_request_error", "prompt is too long: 201234 tokens > 200000 maximum"), 201_234, 200_000),
        (Self.apiError("invalid_request_error", "input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again"), 209_573, 200_000),
        (#"{"error":{"code":400,"message":"request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#, 5000, 4096),
    ])
    func `a prompt over the context is contextSizeExceeded with both counts`(body: String, needed: Int, size: Int) {
        guard case LanguageModelError.contextSizeExceeded(let info) = Self.map(400, body) else { Issue.record("not contextSizeExceeded"); return }
        #expect(info.tokenCount == needed)
        #expect(info.contextSize == size)
    }

    @Test func `401 is a rejected credential with a key, a missing one behind a relay; 403 is rejected`() {
        let body = Self.apiError("authentication_error", "invalid x-api-key")
        #expect(Self.map(401, body) as? ServerModelError == .authenticationFailed(statusCode: 401, message: "invalid x-api-key"))
        #expect(Self.map(401, body, sentAPIKey: false) as? ClaudeError == .missingCredential)
        #expect(Self.map(403, Self.apiError("permission_error", "no access")) as? ServerModelError == .authenticationFailed(statusCode: 403, message: "no access"))
    }

    @Test func `overload, other API errors and unreadable bodies each keep what the server said`() {
        #expect(Self.map(529, Self.apiError("overloaded_error", "Overloaded")) as? ClaudeError == .overloaded(message: "Overloaded"))
        #expect(Self.map(404, Self.apiError("not_found_error", "model: claude-nope")) as? ClaudeError
                == .api(status: 404, type: "not_found_error", message: "model: claude-nope"))
        #expect(Self.map(502, "<html>Bad Gateway</html>") as? ServerModelError == .httpStatus(code: 502, bodyExcerpt: "<html>Bad Gateway</html>"))
        guard case LanguageModelError.timeout = Self.map(504, "") else { Issue.record("504 is not a timeout"); return }
    }

    @Test func `a key the server echoes never reaches the error`() {
        let echoed = Self.apiError("authentication_error", "invalid x-api-key: \(Self.key)")
        let errors = [Self.map(401, echoed), Self.map(400, Self.apiError("invalid_request_error", "bad header \(Self.key)")),
                      Self.map(500, "oops \(Self.key)")]
        for error in errors {
            #expect(!"\(error)".contains(Self.key))
            #expect((error as? LocalizedError)?.errorDescription?.contains(Self.key) != true)
        }
    }
}

