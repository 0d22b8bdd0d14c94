import Foundation
import LMGrammar
import Synchronization

/// A model served over the OpenAI Chat Completions API: llama.cpp's `llama-server`, vLLM, Ollama, OpenAI, or
/// any server that speaks `POST {baseURL}/chat/completions` with Server-Sent Events.
///
/// Responses stream into the session's cumulative snapshots; reasoning the server sends apart from the answer
/// (`reasoning_content` or `reasoning` in the deltas: llama-server with `--reasoning-format deepseek`, vLLM,
/// DeepSeek, OpenRouter) becomes a ``Transcript/Entry/reasoning(_:)`` entry, never content; tools go out as `tools` and come back as
/// `tool_calls` (several in one round run concurrently); a response schema goes out as
/// `response_format: json_schema` (strict), and the session still checks the answer against the schema, so a
/// server that ignores the schema makes the request throw instead of returning free text.
///
/// Errors: HTTP 429 -> ``LanguageModelError/rateLimited(_:)`` (reset date from `retry-after`); a context
/// overflow -> ``LanguageModelError/contextSizeExceeded(_:)``; no complete answer within `timeout` ->
/// ``LanguageModelError/timeout(_:)``; a refusal or `content_filter` -> ``LanguageModelError/refusal(_:)``;
/// everything else (unreachable, other statuses, malformed streams, oversized bodies, bad tool arguments) ->
/// ``ServerModelError``. A failed request leaves the transcript as it was.
///
/// A ``LanguageModel`` in Apple's shape: its ``Executor`` streams the server's deltas into the session's channel.
///
/// The API key is sent only in the `Authorization` header. It never appears in errors, descriptions,
/// `dump` output or the transcript: every server text put in an error is redacted.
public struct OpenAICompatibleLanguageModel: LanguageModelDetails, CustomStringConvertible, CustomReflectable {
    /// The API's root, e.g. `http://127.0.0.1:8080/v1` or `https://api.openai.com/v1`; requests go to
    /// `{baseURL}/chat/completions`.
    public let baseURL: URL
    /// The `model` field of every request (llama-server ignores it; OpenAI needs it).
    public let model: String
    /// Tokens the server's context holds; reported as ``contextSize``. The server decides overflow; this is
    /// used only when its error does not say its own size.
    public let contextSize: Int
    /// Seconds one model call may take in all: connecting, the first byte and the whole stream.
    public let timeout: TimeInterval
    /// Extra request headers (for example an organization header), sent on every request.
    public let headers: [String: String]
    public let capabilities: LanguageModelCapabilities
    /// Most bytes one response body may have (64 MiB by default); past it the call throws
    /// ``ServerModelError/responseTooLarge(limit:)``.
    public let maximumResponseBytes: Int
    /// The fields that carry a request's reasoning level (both by default; pass `[.reasoningEffort]` for OpenAI's
    /// own API, which rejects `chat_template_kwargs`, or `[]` to send none).
    public let reasoningParameters: ReasoningParameters
    let apiKey: APIKey?
    /// Whether the last call reached the server (drives ``availability``); shared by copies.
    let reachability = ServerReachability()

    /// - Parameters:
    ///   - baseURL: the API's root, ending before `/chat/completions` (usually in `/v1`).
    ///   - model: the model name the server expects.
    ///   - apiKey: sent as `Authorization: Bearer <key>`; nil sends none.
    ///   - contextSize: the server's context size in tokens (llama-server's `--ctx-size`).
    ///   - timeout: seconds one model call may take in all.
    ///   - headers: extra headers for every request.
    ///   - capabilities: what the served model can do (guided generation and tool calling by default).
    ///   - reasoningParameters: the fields that carry a request's reasoning level (see ``ReasoningParameters``).
    public init(baseURL: URL, model: String, apiKey: String? = nil, contextSize: Int = 8192, timeout: TimeInterval = 60,
                headers: [String: String] = [:],
                capabilities: LanguageModelCapabilities = LanguageModelCapabilities(capabilities: [.guidedGeneration, .toolCalling]),
                maximumResponseBytes: Int = 64 << 20,
                reasoningParameters: ReasoningParameters = [.reasoningEffort, .chatTemplateKwargs]) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : APIKey(value: $0) }
        self.contextSize = contextSize
        self.timeout = timeout
        self.headers = headers
        self.capabilities = capabilities
        self.maximumResponseBytes = maximumResponseBytes
        self.reasoningParameters = reasoningParameters
    }

    /// `.unavailable(.modelNotReady)` when the base URL cannot address an HTTP server (always), or for
    /// a few seconds after a call found the server unreachable (then the next request tries again);
    /// `.available` otherwise. ``unavailabilityCause`` says why.
    public var availability: SystemLanguageModel.Availability {
        ServerEndpoint.availability(baseURL: baseURL, reachability: reachability).availability
    }

    /// Why the model is unavailable: ``ServerModelError/invalidBaseURL(_:)`` or the
    /// ``ServerModelError/unreachable(_:)`` of the last call; nil when available. Not in Apple's API (its
    /// `Availability` has no room for a cause); a request on the unavailable model throws
    /// ``SystemLanguageModel/Error/assetsUnavailable(_:)`` carrying this text.
    public var unavailabilityCause: ServerModelError? {
        ServerEndpoint.availability(baseURL: baseURL, reachability: reachability).cause
    }

    /// Asks the server (`GET {baseURL}/models`, within `timeout`) and returns the availability it implies:
    /// `.available` when it answers 200, `.unavailable(.modelNotReady)` otherwise (recorded for ``availability``
    /// and ``unavailabilityCause``: the transport's error, or ``ServerModelError/httpStatus(code:bodyExcerpt:)``).
    public func checkAvailability() async -> SystemLanguageModel.Availability {
        guard ServerEndpoint.problem(with: baseURL) == nil else { return availability }
        var request = makeHTTPRequest(path: "models", body: nil)
        request.method = "GET"
        request.maximumResponseBytes = 1 << 20
        do {
            let response = try await HTTPStreamingClient.send(request)
            guard response.statusCode == 200 else {
                let body = (try? await response.collect(limit: 4 << 10)) ?? Data()
                reachability.markUnreachable(.httpStatus(code: response.statusCode, bodyExcerpt: redactor.excerpt(body)))
                return availability
            }
            response.cancel()
            reachability.markReachable()
        } catch let error as ServerModelError {
            reachability.markUnreachable(error)
        } catch {
            reachability.markUnreachable(.unreachable("\(baseURL.redactedOrigin): \(error)"))
        }
        return availability
    }

    public var assetIDs: [String] { [model] }

    /// An estimate, not the server's count: UTF-8 bytes / 4 (rounded up) of each message's text, plus 4
    /// tokens per message for its role markers. The session does not use it for its budget check (the
    /// server decides and its overflow error becomes ``LanguageModelError/contextSizeExceeded(_:)``).
    public func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        func estimate(_ text: String) -> Int { (text.utf8.count + 3) / 4 }
        switch input {
        case .request(let request): return estimate(OpenAIChatRequest.body(for: request, model: model, reasoning: reasoningParameters).compactText)
        case .entries(let entries): return entries.reduce(0) { $0 + 4 + estimate(OpenAIChatRequest.messages(for: $1).map(\.compactText).joined()) }
        case .tools(let tools):
            return estimate(JSONValue.items(tools.map { .fields([("name", .text($0.name)), ("description", .text($0.description)),
                                                                  ("parameters", $0.parameters.jsonValue)]) }).compactText)
        case .schema(let schema): return estimate(schema.jsonSchemaText())
        }
    }

    /// The endpoint, model name and key: the session keeps one ``Executor`` per distinct value.
    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(baseURL: baseURL, model: model, apiKey: apiKey)
    }

    /// ``LanguageModelError/unsupportedGenerationGuide(_:)`` naming the schema: the model never downgrades to text.
    public func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        .schemaWithoutGuidedGeneration(schemaName: schemaName)
    }

    public var description: String {
        "OpenAICompatibleLanguageModel(\(baseURL.redactedOrigin), model: \(model), apiKey: \(apiKey == nil ? "none" : SecretRedactor.mask))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["baseURL": baseURL.redactedOrigin, "model": model, "contextSize": contextSize, "timeout": timeout,
                                "apiKey": apiKey == nil ? "none" : SecretRedactor.mask], displayStyle: .struct)
    }

    /// A request to `{baseURL}/{path}` with the model's headers, key, timeout and size limit.
    func makeHTTPRequest(path: String, body: Data?) -> HTTPStreamingRequest {
        var all = headers
        all["Content-Type"] = "application/json"
        all["Accept"] = body == nil ? "application/json" : "text/event-stream"
        if let apiKey { all["Authorization"] = "Bearer \(apiKey.value)" }
        return HTTPStreamingRequest(url: baseURL.appendingPathComponent(path), headers: all, body: body, timeout: timeout,
                                    maximumResponseBytes: maximumResponseBytes, redactor: redactor)
    }

    /// Removes the API key (and any secret-looking header value) from server text.
    var redactor: SecretRedactor { SecretRedactor([apiKey?.value] + headers.values.map { Optional($0) }.filter { ($0?.count ?? 0) >= 16 }) }
}

/// An API key that does not print: its description, debug description and mirror show only a mask.
struct APIKey: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String
    var description: String { SecretRedactor.mask }
    var debugDescription: String { SecretRedactor.mask }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
