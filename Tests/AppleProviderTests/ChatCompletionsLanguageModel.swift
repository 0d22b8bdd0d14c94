// A Chat Completions provider written only from Apple's guide to its model contract: the model, a configuration of
// hashable primitives, an executor that translates `request.transcript` into Chat Completions messages and the
// completion into channel events. The transport is the guide's "your choice": one non-streaming POST through
// URLSession (Linux's Foundation has no `URLSession.bytes`). Written for `import FoundationModels`.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LMSession

public struct ChatCompletionsLanguageModel: Sendable {
    public let modelID: String
    public let baseURL: URL
    public let timeout: TimeInterval

    public init(name: String, baseURL: URL, timeout: TimeInterval = 120) {
        self.modelID = name
        self.baseURL = baseURL
        self.timeout = timeout
    }
}

extension ChatCompletionsLanguageModel: LanguageModel {
    public var capabilities: LanguageModelCapabilities {
        // llama-server enforces `response_format` schemas with a grammar, so guided generation is declared.
        LanguageModelCapabilities([.toolCalling, .guidedGeneration])
    }

    public var executorConfiguration: Executor.Configuration {
        Executor.Configuration(modelID: modelID, baseURL: baseURL, timeout: timeout)
    }
}

/// What the provider reported that the developer may not expect.
public enum ChatCompletionsError: Error, CustomStringConvertible {
    case httpStatus(Int, body: String)
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .httpStatus(let code, let body): "HTTP \(code): \(body)"
        case .malformedResponse(let what): "malformed completion: \(what)"
        }
    }
}

extension ChatCompletionsLanguageModel {
    public struct Executor: LanguageModelExecutor {
        public typealias Model = ChatCompletionsLanguageModel

        public struct Configuration: Hashable, Sendable {
            let modelID: String
            let baseURL: URL
            let timeout: TimeInterval
        }

        private let configuration: Configuration
        private let session: URLSession

        public init(configuration: Configuration) throws {
            self.configuration = configuration
            self.session = URLSession(configuration: .ephemeral)
        }

        public func respond(
            to request: LanguageModelExecutorGenerationRequest,
            model: ChatCompletionsLanguageModel,
            streamingInto channel: LanguageModelExecutorGenerationChannel
        ) async throws {
            var http = URLRequest(url: configuration.baseURL.appendingPathComponent("chat/completions"), timeoutInterval: configuration.timeout)
            http.httpMethod = "POST"
            http.setValue("application/json", forHTTPHeaderField: "Content-Type")
            http.setValue(request.id.uuidString, forHTTPHeaderField: "X-Request-ID")
            http.httpBody = try JSONSerialization.data(withJSONObject: try body(for: request))

            let (data, response) = try await session.data(for: http)
            try Task.checkCancellation()
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status == 429 {
                throw LanguageModelError.rateLimited(.init(resetDate: nil, debugDescription: "HTTP 429"))
            }
            guard status == 200 else { throw ChatCompletionsError.httpStatus(status, body: String(decoding: data, as: UTF8.self)) }
            guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let message = ((json["choices"] as? [[String: Any]])?.first)?["message"] as? [String: Any] else {
                throw ChatCompletionsError.malformedResponse(String(decoding: data, as: UTF8.self))
            }

            let responseEntryID = UUID().uuidString
            let toolCallsEntryID = UUID().uuidString
            if let reasoning = message["reasoning_content"] as? String, !reasoning.isEmpty {
                await channel.send(.reasoning(entryID: nil, action: .appendText(reasoning, tokenCount: 0)))
            }
            if let content = message["content"] as? String, !content.isEmpty {
                await channel.send(.response(entryID: responseEntryID, action: .appendText(content, tokenCount: 0)))
            }
            for call in message["tool_calls"] as? [[String: Any]] ?? [] {
                guard let id = call["id"] as? String, let function = call["function"] as? [String: Any],
                      let name = function["name"] as? String else { continue }
                let arguments = function["arguments"] as? String ?? "{}"
                await channel.send(.toolCalls(entryID: toolCallsEntryID,
                                              action: .toolCall(id: id, name: name, action: .appendArguments(arguments, tokenCount: 0))))
            }
            if let usage = json["usage"] as? [String: Any] {
                let cached = (usage["prompt_tokens_details"] as? [String: Any])?["cached_tokens"] as? Int ?? 0
                let reasoning = (usage["completion_tokens_details"] as? [String: Any])?["reasoning_tokens"] as? Int ?? 0
                await channel.send(.response(entryID: responseEntryID, action: .updateUsage(
                    input: .init(totalTokenCount: usage["prompt_tokens"] as? Int ?? 0, cachedTokenCount: cached),
                    output: .init(totalTokenCount: usage["completion_tokens"] as? Int ?? 0, reasoningTokenCount: reasoning))))
            }
            if let id = json["id"] as? String {
                await channel.send(.response(entryID: responseEntryID, action: .updateMetadata(["completionID": id])))
            }
        }

        /// The Chat Completions body of `request`.
        func body(for request: LanguageModelExecutorGenerationRequest) throws -> [String: Any] {
            var body: [String: Any] = ["model": configuration.modelID, "stream": false,
                                       "messages": request.transcript.flatMap(Self.messages)]
            let options = request.generationOptions
            if let temperature = options.temperature { body["temperature"] = temperature }
            if let maximum = options.maximumResponseTokens { body["max_tokens"] = maximum }
            if let mode = options.samplingMode {
                switch mode.kind {
                case .greedy:
                    body["temperature"] = 0
                case .randomTopK(let k, let seed):
                    body["top_k"] = k
                    if let seed { body["seed"] = Int(seed & 0x7fff_ffff) }
                case .randomProbabilityThreshold(let p, let seed):
                    body["top_p"] = p
                    if let seed { body["seed"] = Int(seed & 0x7fff_ffff) }
                }
            }
            if !request.enabledToolDefinitions.isEmpty {
                body["tools"] = try request.enabledToolDefinitions.map { tool in
                    ["type": "function", "function": ["name": tool.name, "description": tool.description,
                                                      "parameters": try Self.jsonObject(tool.parameters)]]
                }
            }
            if let schema = request.schema {
                body["response_format"] = ["type": "json_schema", "json_schema": ["name": "response", "schema": try Self.jsonObject(schema)]]
            }
            return body
        }

        /// `GenerationSchema` encodes to JSON Schema, as the guide says.
        static func jsonObject(_ schema: GenerationSchema) throws -> Any {
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(schema))
        }

        static func text(_ segments: [Transcript.Segment]) -> String {
            segments.map { segment in
                switch segment {
                case .text(let text): text.content
                case .structure(let structure): structure.content.jsonString
                default: ""
                }
            }.joined()
        }

        static func messages(_ entry: Transcript.Entry) -> [[String: Any]] {
            switch entry {
            case .instructions(let instructions): [["role": "system", "content": text(instructions.segments)]]
            case .prompt(let prompt): [["role": "user", "content": text(prompt.segments)]]
            case .response(let response): [["role": "assistant", "content": text(response.segments)]]
            case .toolCalls(let calls):
                [["role": "assistant", "tool_calls": calls.map { call in
                    ["id": call.id, "type": "function", "function": ["name": call.toolName, "arguments": call.arguments.jsonString]]
                }]]
            case .toolOutput(let output): [["role": "tool", "tool_call_id": output.id, "content": text(output.segments)]]
            default: []  // reasoning: this provider does not send it back
            }
        }
    }
}
