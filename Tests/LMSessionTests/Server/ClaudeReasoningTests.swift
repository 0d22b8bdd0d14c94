import Foundation
import LMSession
import Testing
import TestSupport

/// Claude's thinking: recorded as reasoning entries (never in the response), persisted with the transcript, and
/// sent back signed in front of the tool calls whose results are being answered.
@Suite(.serialized) struct ClaudeReasoningTests {
    static func thought(_ text: String, signature: String?) -> Transcript.Entry {
        .reasoning(Transcript.Reasoning(segments: [.text(.init(content: text))], signature: signature.map { Data($0.utf8) }))
    }

    @Test func `a reasoning entry survives the transcript's JSON with its signature`() throws {
        let transcript = Transcript(entries: [ClaudeRequestBodyTests.prompt("2+2?"), Self.thought("2 + 2 is 4.", signature: "sig-1"),
                                              .response(.init(assetIDs: ["m"], segments: ClaudeRequestBodyTests.text("Four.")))])
        let decoded = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(transcript))
        #expect(decoded == transcript)
        guard case .reasoning(let reasoning) = decoded[1] else { Issue.record("not reasoning"); return }
        #expect(reasoning.signature == Data("sig-1".utf8))
    }

    @Test func `only the current turn's signed reasoning is sent, as thinking before its tool calls`() throws {
        let call = Transcript.ToolCall(id: "toolu_7", toolName: "get_weather", arguments: try GeneratedContent(json: #"{"city":"Oslo"}"#))
        let transcript = Transcript(entries: [
            ClaudeRequestBodyTests.prompt("Earlier"), Self.thought("old thought", signature: "old"),
            .response(.init(assetIDs: [], segments: ClaudeRequestBodyTests.text("Earlier answer."))),
            ClaudeRequestBodyTests.prompt("Weather?"), Self.thought("unsigned", signature: nil), Self.thought("Need the tool.", signature: "sig-2"),
            .toolCalls(Transcript.ToolCalls([call])), .toolOutput(.init(id: "toolu_7", toolName: "get_weather", segments: ClaudeRequestBodyTests.text("snow"))),
        ])
        let body = try ClaudeRequestBody(LanguageModelRequest(transcript: transcript, options: GenerationOptions(maximumResponseTokens: 5)),
                                         settings: .init(model: ClaudeRequestBodyTests.plain))
        let signature = Data("sig-2".utf8).base64EncodedString()
        #expect(body.text.contains(#"{"role":"assistant","content":[{"type":"thinking","thinking":"Need the tool.","signature":"\#(signature)"},{"type":"tool_use","id":"toolu_7""#))
        #expect(!body.text.contains("old thought") && !body.text.contains("unsigned"))
    }

    @Test func `a session records thinking as a reasoning entry and answers with the text alone`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.thinking)))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        let response = try await session.respond(to: "What is 2 + 2?")
        #expect(response.content == "Four.")
        #expect(session.transcript.map(\.kindLabel) == ["prompt", "reasoning", "response"])
        #expect(response.transcriptEntries.map(\.kindLabel) == ["prompt", "reasoning", "response"])
        guard case .reasoning(let reasoning) = session.transcript[1] else { Issue.record("not reasoning"); return }
        #expect(reasoning.segments.map(\.description) == ["2 + 2 is 4."])
        #expect(reasoning.signature == Data("sig-1".utf8))
    }

    @Test func `in a tool loop the step's thinking goes back signed with the tool result`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let thinkThenCall = ClaudeRecordedStreams.sse([
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":40,"output_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"I need the weather."}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2lnLTM="}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_9","name":"get_weather","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\":\"Oslo\"}"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":20}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(thinkThenCall)), .stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.thinking)))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy), tools: [GetWeather()])
        let response = try await session.respond(to: "Weather in Oslo?")
        #expect(response.content == "Four.")
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "reasoning", "toolCalls", "toolOutput", "reasoning", "response"])
        let messages = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        let assistant = try #require(messages.dropFirst().first?["content"] as? [[String: Any]])
        #expect(assistant.map { $0["type"] as? String } == ["thinking", "tool_use"])
        #expect(assistant.first?["signature"] as? String == "c2lnLTM=")
        #expect(assistant.first?["thinking"] as? String == "I need the weather.")
    }

    @Test func `a failed step leaves no reasoning behind, even when the transcript is preserved`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let thinkThenRefuse = ClaudeRecordedStreams.sse([
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":12,"output_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"I should not."}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":3}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        proxy.enqueue(.stream(chunks: [Data(thinkThenRefuse.utf8)]))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        session.transcriptErrorHandlingPolicy = .preserveTranscript
        await #expect {
            _ = try await session.respond(to: "Do the forbidden thing.")
        } throws: { error in
            if case LanguageModelError.refusal = error { true } else { false }
        }
        #expect(session.transcript.map(\.kindLabel) == ["prompt"])
    }
}
