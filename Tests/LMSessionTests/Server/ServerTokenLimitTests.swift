import Foundation
import LMSession
import Testing
import TestSupport

/// How the server models end a response the token limit stopped (`finish_reason: "length"`,
/// `stop_reason: "max_tokens"`) and what `maximumResponseTokens: 0` does: as the local model, a structured value
/// the limit cut is a `GeneratedContent.ParsingError` (a bare number could have gone on), text is kept, and a
/// budget of 0 generates nothing.
@Suite("Server models at the token limit", .timeLimit(.minutes(2)))
struct ServerTokenLimitTests {
    static func claudeStream(_ deltas: [String], stopReason: String) -> [Data] {
        var events: [(String, String)] = [
            ("message_start", #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":20,"output_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ]
        for delta in deltas {
            let quoted = String(decoding: try! JSONEncoder().encode(delta), as: UTF8.self)
            events.append(("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":\#(quoted)}}"#))
        }
        events += [
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"\#(stopReason)"},"usage":{"output_tokens":2}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ]
        return ClaudeTestServer.chunks(ClaudeRecordedStreams.sse(events))
    }

    /// One scripted answer of `pieces`, ended by the token limit or naturally, in the shape of `server`.
    static func answer(_ server: String, _ pieces: [String], cut: Bool) -> FaultProxy.Fault {
        server == "openai"
            ? .stream(chunks: pieces.map(OpenAIStreams.delta) + [OpenAIStreams.finish(cut ? "length" : "stop"), OpenAIStreams.usage(prompt: 9, cached: 0, completion: 2), OpenAIStreams.done])
            : .stream(chunks: claudeStream(pieces, stopReason: cut ? "max_tokens" : "end_turn"))
    }

    static func model(_ server: String, _ proxy: FaultProxy) -> any LanguageModel {
        server == "openai" ? OpenAIStreams.model(proxy) : ClaudeTestServer.model(ClaudeTestServer.structured, proxy: proxy)
    }

    static let twoTokens = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2)

    @Test("a bare number cut by the token limit is a ParsingError, streamed or not; one the model ended is kept",
          arguments: ["openai", "claude"])
    func aCutNumberIsAParsingError(server: String) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(Self.answer(server, ["1", "2"], cut: true), Self.answer(server, ["1", "2"], cut: true), Self.answer(server, ["1", "2"], cut: false))
        let session = LanguageModelSession(model: Self.model(server, proxy))
        let expected = "The number was cut off by maximumResponseTokens (2); it could have gone on: 12"
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "A big number", generating: Int.self, options: Self.twoTokens)
        }
        #expect(error?.debugDescription == expected)
        #expect(error?.rawContent == "12")
        let streamed = await #expect(throws: GeneratedContent.ParsingError.self) {
            for try await _ in session.streamResponse(to: "A big number", generating: Int.self, options: Self.twoTokens) {}
        }
        #expect(streamed?.debugDescription == expected)
        #expect(session.transcript.isEmpty)
        #expect(try await session.respond(to: "A big number", generating: Int.self, options: Self.twoTokens).content == 12)
    }

    @Test("a cut object says the limit cut it; a whole value at the limit and cut text are kept", arguments: ["openai", "claude"])
    func cutObjectsFailAndWholeValuesPass(server: String) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(Self.answer(server, [#"{"city":"Os"#], cut: true), Self.answer(server, [#"{"city":"Oslo","days":3}"#], cut: true),
                      Self.answer(server, ["La fem", "me de"], cut: true))
        let session = LanguageModelSession(model: Self.model(server, proxy))
        let options = GenerationOptions(maximumResponseTokens: 5)
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "A trip", generating: ClaudeTrip.self, options: options)
        }
        #expect(error?.debugDescription == #"The response was cut off by maximumResponseTokens (5) before the value was complete: {"city":"Os"#)
        #expect(try await session.respond(to: "A trip", generating: ClaudeTrip.self, options: options).content == ClaudeTrip(city: "Oslo", days: 3))
        // Text cut by the limit ends early with no error (Apple's documented behaviour).
        #expect(try await session.respond(to: "Hi", options: options).content == "La femme de")
        #expect(session.transcript.count == 4)
    }

    @Test("maximumResponseTokens 0 sends nothing: empty text, and a ParsingError for a schema", arguments: ["openai", "claude"])
    func zeroTokensSendsNothing(server: String) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let session = LanguageModelSession(model: Self.model(server, proxy))
        let zero = GenerationOptions(maximumResponseTokens: 0)
        let response = try await session.respond(to: "Hi", options: zero)
        #expect(response.content == "")
        #expect(response.usage.output.totalTokenCount == 0)
        await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "A trip", generating: ClaudeTrip.self, options: zero) }
        #expect(proxy.requests.isEmpty)
        #expect(session.transcript.map(\.kindLabel) == ["prompt", "response"])
    }
}

/// The same limits on the real servers next to the local model (SmolLM2 on both sides).
@Suite("Token limits: local model and llama-server agree", .enabled(if: LlamaServer.enabled), .timeLimit(.minutes(5)))
struct ServerTokenLimitRealTests {
    @Test func maximumResponseTokensZeroGivesTheSameOutcomeOnAllThreeModels() async throws {
        let base = try LlamaServer.baseURL()
        let models: [any LanguageModel] = [
            RealModel.model,
            OpenAICompatibleLanguageModel(baseURL: base.appendingPathComponent("v1"), model: "smollm2", contextSize: 4096, timeout: 120),
            ClaudeLanguageModel(name: ClaudeTestServer.structured, auth: .apiKey(ClaudeTestServer.key), baseURL: base, timeout: 120),
        ]
        let zero = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 0)
        for model in models {
            let session = LanguageModelSession(model: model)
            #expect(try await session.respond(to: "Say hello.", options: zero).content == "", "\(model)")
            await #expect(throws: GeneratedContent.ParsingError.self, "\(model)") {
                try await session.respond(to: "A trip to Oslo", generating: ClaudeTrip.self, options: zero)
            }
            #expect(session.transcript.count == 2)
        }
    }

    /// llama-server follows the integer schema and stops at `max_tokens` 2 with "10" (`finish_reason: "length"`,
    /// checked with b11312): a number that could have gone on, as the local model reports it.
    @Test func aNumberCutByMaxTokensOnLlamaServerIsAParsingError() async throws {
        let model = OpenAICompatibleLanguageModel(baseURL: try LlamaServer.baseURL().appendingPathComponent("v1"), model: "smollm2",
                                                  contextSize: 4096, timeout: 120)
        let options = GenerationOptions(samplingMode: .greedy, maximumResponseTokens: 2)
        let session = LanguageModelSession(model: model)
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "Pick a big number", generating: Int.self, options: options)
        }
        #expect(error?.debugDescription.hasPrefix("The number was cut off by maximumResponseTokens (2); it could have gone on: ") == true)
        #expect(Int(error?.rawContent ?? "") != nil)
        let streamed = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.streamResponse(to: "Pick a big number", generating: Int.self, options: options).collect()
        }
        #expect(streamed?.rawContent == error?.rawContent)
        #expect(session.transcript.isEmpty)
    }
}
