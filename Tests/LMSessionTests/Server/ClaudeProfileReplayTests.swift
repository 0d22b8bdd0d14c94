import Foundation
import LMSession
import Testing
import TestSupport

/// Blocks the transcript does not hold (redacted thinking) go back to the API in front of the tool call of their
/// step, also when the Claude model is picked by a profile: a profile's body runs before every model call and
/// makes a new `ClaudeLanguageModel` value each time, and the step after the tool still runs in the conversation
/// that kept the blocks.
@Suite(.serialized) struct ClaudeProfileReplayTests {
    /// A step that thinks in a redacted block, then calls `get_weather` for Oslo.
    static let redactedThenCall = ClaudeRecordedStreams.sse([
        ("message_start", #"{"type":"message_start","message":{"id":"msg_r1","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":50,"output_tokens":1}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"redacted_thinking","data":"RVJEQUNURUQtMQ=="}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_R1","name":"get_weather","input":{}}}"#),
        ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\":\"Oslo\"}"}}"#),
        ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
        ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":20}}"#),
        ("message_stop", #"{"type":"message_stop"}"#),
    ])

    struct OnClaude: LanguageModelSession.DynamicProfile {
        let baseURL: URL
        let weather: GetWeather

        var body: some LanguageModelSession.DynamicProfile {
            Profile {
                Instructions("Answer with the tools.")
                weather
            }
            .model(ClaudeLanguageModel(name: ClaudeTestServer.smol, auth: .apiKey(ClaudeTestServer.key), baseURL: baseURL))
        }
    }

    /// The assistant message of the tool step as the second request sends it: its block types, and the redacted
    /// block's data.
    static func replayedStep(_ proxy: FaultProxy) throws -> (types: [String?], data: String?) {
        #expect(proxy.requests.count == 2)
        let messages = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let blocks = try #require(messages.dropFirst().first?["content"] as? [[String: Any]])
        return (blocks.map { $0["type"] as? String }, blocks.first?["data"] as? String)
    }

    @Test func `a profile's Claude model replays redacted thinking after the tool step`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(Self.redactedThenCall)),
                      .stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.llamaServerText)))
        let weather = GetWeather()
        let session = LanguageModelSession(profile: OnClaude(baseURL: proxy.baseURL, weather: weather))
        _ = try await session.respond(to: "What is the weather in Oslo?")
        #expect(weather.cities.values == ["Oslo"])
        let step = try Self.replayedStep(proxy)
        #expect(step.types == ["redacted_thinking", "tool_use"])
        #expect(step.data == "RVJEQUNURUQtMQ==")
    }

    /// The same steps on a session made with the model directly (one conversation for the session's life).
    @Test func `a session's own Claude model replays redacted thinking after the tool step`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(Self.redactedThenCall)),
                      .stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.llamaServerText)))
        let weather = GetWeather()
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy), tools: [weather])
        _ = try await session.respond(to: "What is the weather in Oslo?")
        #expect(weather.cities.values == ["Oslo"])
        let step = try Self.replayedStep(proxy)
        #expect(step.types == ["redacted_thinking", "tool_use"])
        #expect(step.data == "RVJEQUNURUQtMQ==")
    }
}
