import Foundation
import LMSession
import Testing
import TestSupport

/// Reasoning that OpenAI-compatible servers send apart from the answer (`reasoning_content`: llama-server with
/// `--reasoning-format deepseek`, DeepSeek; `reasoning`: vLLM, OpenRouter), and the reasoning level in the request.
@Suite("OpenAI-compatible reasoning content", .timeLimit(.minutes(1)))
struct OpenAIReasoningContentTests {
    /// A delta chunk with `field` set to `text` (and nothing else), in llama-server's chunk shape.
    static func delta(_ field: String, _ text: String) -> Data {
        let quoted = String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        return OpenAIStreams.event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{"\#(field)":\#(quoted)}}],"object":"chat.completion.chunk"}"#)
    }

    /// Recorded from llama-server b11312 (`--jinja --reasoning-format deepseek`, Qwen3-0.6B's chat template from
    /// llama.cpp's models/templates) serving ``TinyThinkingModel``, which writes `<think>Hm</think>OK`: a first chunk
    /// with the role and `content: null`, the thinking in `reasoning_content` deltas, the answer in `content` deltas.
    static let llamaServerStream: [Data] = [
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"reasoning_content":"H"}}],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"reasoning_content":"m"}}],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"O"}}],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":null,"index":0,"delta":{"content":"K"}}],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk"}"#,
        #"{"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk"}"#,
        #"{"choices":[],"created":1796177764,"id":"chatcmpl-YKzy1VLy5clq3Fw1V1c3wAmUE7yxuEl2","model":"/tmp/s14-thinking.gguf","system_fingerprint":"b1-0c1e570","object":"chat.completion.chunk","usage":{"completion_tokens":7,"prompt_tokens":21,"total_tokens":28,"prompt_tokens_details":{"cached_tokens":0}},"timings":{"cache_n":0,"prompt_n":21,"prompt_ms":0.425,"prompt_per_token_ms":0.02023809523809524,"prompt_per_second":49411.76470588236,"predicted_n":7,"predicted_ms":0.78,"predicted_per_token_ms":0.13,"predicted_per_second":7692.3076923076915}}"#,
    ].map { OpenAIStreams.event($0) } + [OpenAIStreams.done]

    static func reasoningTexts(_ entries: some Sequence<Transcript.Entry>) -> [String] {
        entries.compactMap { entry -> String? in
            guard case .reasoning(let reasoning) = entry else { return nil }
            return reasoning.segments.map { if case .text(let t) = $0 { t.content } else { "" } }.joined()
        }
    }

    @Test func reasoningContentBecomesAnEntryAndNeverContent() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: Self.llamaServerStream))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        let response = try await session.respond(to: "Hi")
        #expect(response.content == "OK")
        #expect(Self.reasoningTexts(response.transcriptEntries) == ["Hm"])
        #expect(session.transcript.map(\.kindLabel) == ["prompt", "reasoning", "response"])
        #expect(response.usage.input.totalTokenCount == 21)
        #expect(response.usage.output.totalTokenCount == 7)
        // The next request does not send the reasoning back (Chat Completions has no field for it).
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["Nine."])))
        _ = try await session.respond(to: "3*3?")
        let messages = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user"])
        #expect(messages[1]["content"] as? String == "OK")
        #expect(messages.allSatisfy { $0["reasoning_content"] == nil })
    }

    /// Reasoning in several deltas is one entry, trimmed of the line breaks around it.
    @Test func reasoningDeltasMakeOneTrimmedEntry() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [Self.delta("reasoning_content", "\nThe user"), Self.delta("reasoning_content", " wants 2+2."),
                                       Self.delta("reasoning_content", " That is 4.\n")] + OpenAIStreams.text(["Four", "."])))
        let response = try await LanguageModelSession(model: OpenAIStreams.model(proxy)).respond(to: "2+2?")
        #expect(response.content == "Four.")
        #expect(Self.reasoningTexts(response.transcriptEntries) == ["The user wants 2+2. That is 4."])
    }

    @Test func streamedSnapshotsNeverShowTheReasoning() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: Self.llamaServerStream, interval: .milliseconds(2)))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Hi") { snapshots.append(snapshot.content) }
        #expect(snapshots == ["O", "OK"])
        #expect(Self.reasoningTexts(session.transcript) == ["Hm"])
    }

    /// vLLM (since 0.10) and OpenRouter name the field `reasoning`; a server that sends both names with the same
    /// text (vLLM while it moved) gets it once.
    @Test(arguments: [["reasoning"], ["reasoning_content", "reasoning"]])
    func theReasoningFieldIsReadToo(_ fields: [String]) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        func both(_ text: String) -> Data {
            let quoted = String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
            let members = fields.map { #""\#($0)":\#(quoted)"# }.joined(separator: ",")
            return OpenAIStreams.event(#"{"choices":[{"finish_reason":null,"index":0,"delta":{\#(members)}}],"object":"chat.completion.chunk"}"#)
        }
        proxy.enqueue(.stream(chunks: [both("Count "), both("the r's.")] + OpenAIStreams.text(["Three."])))
        let response = try await LanguageModelSession(model: OpenAIStreams.model(proxy)).respond(to: "r's in strawberry?")
        #expect(response.content == "Three.")
        #expect(Self.reasoningTexts(response.transcriptEntries) == ["Count the r's."])
    }

    @Test func reasoningComesBeforeTheToolCallsOfItsStep() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [Self.delta("reasoning_content", "Two cities: two calls.")] + OpenAIStreams.twoToolCalls()),
                      .stream(chunks: [Self.delta("reasoning_content", "Both snowy.")] + OpenAIStreams.text(["Snow in both."])))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy), tools: [GetWeather()])
        let response = try await session.respond(to: "Weather in Paris and Oslo?")
        #expect(response.content == "Snow in both.")
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "reasoning", "toolCalls", "toolOutput", "toolOutput",
                                                   "reasoning", "response"])
        #expect(Self.reasoningTexts(session.transcript) == ["Two cities: two calls.", "Both snowy."])
    }

    @Test func aStreamWithoutReasoningMakesNoEntry() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [Self.delta("reasoning_content", "")] + OpenAIStreams.text(["Hi"])))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy))
        _ = try await session.respond(to: "Hello")
        #expect(session.transcript.map(\.kindLabel) == ["prompt", "response"])
    }

    struct LevelCase: Sendable, CustomStringConvertible {
        let level: ContextOptions.ReasoningLevel?
        let parameters: OpenAICompatibleLanguageModel.ReasoningParameters
        let effort: String?
        let enableThinking: Bool?
        var description: String { "\(level.map { "\($0)" } ?? "nil") \(parameters.rawValue)" }
    }

    static let levelCases: [LevelCase] = [
        LevelCase(level: nil, parameters: [.reasoningEffort, .chatTemplateKwargs], effort: nil, enableThinking: nil),
        LevelCase(level: .light, parameters: [.reasoningEffort, .chatTemplateKwargs], effort: "low", enableThinking: true),
        LevelCase(level: .moderate, parameters: [.reasoningEffort, .chatTemplateKwargs], effort: "medium", enableThinking: true),
        LevelCase(level: .deep, parameters: [.reasoningEffort, .chatTemplateKwargs], effort: "high", enableThinking: true),
        LevelCase(level: .custom("minimal"), parameters: [.reasoningEffort, .chatTemplateKwargs], effort: "minimal", enableThinking: true),
        LevelCase(level: .custom("off"), parameters: [.reasoningEffort, .chatTemplateKwargs], effort: "none", enableThinking: false),
        LevelCase(level: .deep, parameters: [.reasoningEffort], effort: "high", enableThinking: nil),
        LevelCase(level: .custom("none"), parameters: [.chatTemplateKwargs], effort: nil, enableThinking: false),
        LevelCase(level: .deep, parameters: [], effort: nil, enableThinking: nil),
    ]

    @Test(arguments: levelCases)
    func theLevelGoesOutAsEffortAndTheTemplatesThinkingSwitch(_ c: LevelCase) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["ok"])))
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "qwen3", timeout: 5,
                                                  reasoningParameters: c.parameters)
        _ = try await LanguageModelSession(model: model).respond(to: "x", options: GenerationOptions(),
                                                                 contextOptions: ContextOptions(reasoningLevel: c.level))
        let json = try #require(proxy.requests.first?.json)
        #expect(json["reasoning_effort"] as? String == c.effort)
        let kwargs = json["chat_template_kwargs"] as? [String: Any]
        #expect(kwargs?["enable_thinking"] as? Bool == c.enableThinking)
        #expect((kwargs == nil) == (c.enableThinking == nil))
    }
}
