import Foundation
import LMGrammar

extension ClaudeLanguageModel: LanguageModelDetails {
    /// `.unavailable(.modelNotReady)` when the base URL cannot address an HTTP server (always), or for
    /// ``ServerReachability/holdSeconds`` after a request found the server unreachable (that request threw
    /// ``ServerModelError/unreachable(_:)``); `.available` otherwise, after which the next request tries again.
    /// ``unavailabilityCause`` says why. A missing key does not make the model unavailable: the request throws
    /// ``ClaudeError/missingCredential``, which says what to fix.
    public var availability: SystemLanguageModel.Availability {
        ServerEndpoint.availability(baseURL: baseURL, reachability: reachability).availability
    }

    /// Why the model is unavailable: ``ServerModelError/invalidBaseURL(_:)``, or the
    /// ``ServerModelError/unreachable(_:)`` of the last request; nil when available. Not in Apple's API or the
    /// published package; a request on the unavailable model throws ``SystemLanguageModel/Error/assetsUnavailable(_:)``
    /// carrying this text.
    public var unavailabilityCause: ServerModelError? {
        ServerEndpoint.availability(baseURL: baseURL, reachability: reachability).cause
    }

    /// The model's context window (``ClaudeModel/contextSize``); the server enforces it.
    public var contextSize: Int { model.contextSize }

    /// Tool calling always; guided generation with ``ClaudeModel/Capabilities/structuredOutput``, vision with
    /// ``ClaudeModel/Capabilities/imageInput``, reasoning with ``ClaudeModel/Capabilities/adaptiveThinking``.
    public var capabilities: LanguageModelCapabilities {
        var capabilities: [LanguageModelCapabilities.Capability] = [.toolCalling]
        if model.capabilities.structuredOutput { capabilities.append(.guidedGeneration) }
        if model.capabilities.imageInput { capabilities.append(.vision) }
        if model.capabilities.adaptiveThinking { capabilities.append(.reasoning) }
        return LanguageModelCapabilities(capabilities: capabilities)
    }

    /// The model id, recorded on every response.
    public var assetIDs: [String] { [model.id] }

    /// `.request`: the server's own count (`POST /v1/messages/count_tokens`, the request as it would be sent
    /// less `max_tokens`, sampling and `output_config`). The parts (`.entries`, `.tools`, `.schema`): an
    /// estimate, a quarter of the UTF-8 bytes of their JSON as sent (rounded up), since Claude's tokenizer is
    /// not public. The session's budget check uses neither: the server rejects a request over the context.
    /// - Throws: for `.request`, what a model call throws (``ClaudeError/missingCredential``, the mapped HTTP
    ///   errors, ``ServerModelError/unreachable(_:)``...), and ``ServerModelError/invalidResponse(_:)`` for an
    ///   answer without `input_tokens`.
    public func tokenCount(for input: LanguageModelTokenCountInput) async throws -> Int {
        let text: String
        switch input {
        case .request(let request):
            return try await countTokens(ClaudeRequestBody(request, settings: requestSettings))
        case .entries(let entries):
            text = ClaudeRequestBody.messages(from: Transcript(entries: entries), replay: [:]).messages.map(\.compactText).joined()
                + entries.compactMap { if case .instructions(let i) = $0 { i.segments.descriptionText } else { nil } }.joined()
        case .tools(let tools):
            text = tools.map { ClaudeRequestBody.toolDefinition($0).compactText }.joined()
        case .schema(let schema):
            text = ClaudeRequestBody.strictSchema(schema.jsonValue).compactText
        }
        return (text.utf8.count + 3) / 4
    }

    /// Asks the server how many input tokens `body` takes.
    private func countTokens(_ body: ClaudeRequestBody) async throws -> Int {
        if let problem = ServerEndpoint.problem(with: baseURL) { throw problem }
        if case .apiKey(let key) = auth, key.isEmpty { throw ClaudeError.missingCredential }
        let url = baseURL.appendingPathComponent("v1").appendingPathComponent("messages").appendingPathComponent("count_tokens")
        var headers = headers(betas: body.betas)
        headers["accept"] = "application/json"
        let response = try await HTTPStreamingClient.send(HTTPStreamingRequest(url: url, headers: headers, body: Data(body.countTokensText.utf8),
                                                                             timeout: timeout, redactor: redactor))
        let answer = try await response.collect(limit: 64 << 10)
        guard response.statusCode == 200 else {
            throw ClaudeErrorMapping.error(status: response.statusCode, headers: response.headers, body: answer,
                                           context: .init(contextSize: contextSize, sentAPIKey: sendsAPIKey, redactor: redactor))
        }
        guard let count = (try? JSONValue.parse(String(decoding: answer, as: UTF8.self)))?["input_tokens"]?.intValue else {
            throw ServerModelError.invalidResponse("count_tokens answered without input_tokens: \(redactor.excerpt(answer))")
        }
        return count
    }

    /// Every setting a request depends on: the session keeps one ``Executor`` per distinct value.
    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(model: model, auth: auth, baseURL: baseURL, timeout: timeout, serverTools: serverTools, fixedEffort: fixedEffort)
    }

    /// ``LanguageModelError/unsupportedGenerationGuide(_:)`` naming the schema, before anything is sent: the model
    /// never downgrades to text.
    public func unsupportedSchemaError(schemaName: String?) -> LanguageModelError {
        .schemaWithoutGuidedGeneration(schemaName: schemaName)
    }

    // MARK: - Request parts

    var requestSettings: ClaudeRequestBody.Settings {
        .init(model: model, fixedEffort: fixedEffort, serverTools: serverTools)
    }

    /// `{baseURL}/v1/messages`.
    var messagesURL: URL { baseURL.appendingPathComponent("v1").appendingPathComponent("messages") }

    /// Whether requests carry `x-api-key`.
    var sendsAPIKey: Bool {
        if case .apiKey = auth { true } else { false }
    }

    /// Removes the key and the relay's header values from any server text.
    var redactor: SecretRedactor {
        switch auth {
        case .apiKey(let key): SecretRedactor([key])
        case .proxied(let headers): SecretRedactor(Array(headers.values))
        }
    }

    /// The request headers: content type, `anthropic-version: 2023-06-01`, the credential (`x-api-key`, or the
    /// relay's headers), and `anthropic-beta` when a server tool needs one.
    func headers(betas: [String]) -> [String: String] {
        var headers = ["content-type": "application/json", "accept": "text/event-stream", "anthropic-version": "2023-06-01"]
        switch auth {
        case .apiKey(let key): headers["x-api-key"] = key
        case .proxied(let extra): headers.merge(extra) { _, relay in relay }
        }
        if !betas.isEmpty { headers["anthropic-beta"] = betas.joined(separator: ",") }
        return headers
    }
}
