import Foundation
import LMSession
import Testing
import TestSupport

/// Server tools: configured on the model, sent with every request, their activity recorded as segments of the
/// response between its text, and sent back verbatim on the next turn.
@Suite(.serialized) struct ClaudeServerToolTests {
    @Test func `a web search is recorded between the text and replayed on the next turn`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.serverTool, pieces: 7)),
                      .stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.llamaServerText)))
        let model = ClaudeLanguageModel(name: ClaudeTestServer.smol, auth: .apiKey(ClaudeTestServer.key),
                                        serverTools: [.webSearch(maxUses: 2)], baseURL: proxy.baseURL)
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Is Swift 6.3 out?")
        #expect(response.content == "Let me look. Swift 6.3 is out.")
        guard case .response(let entry)? = session.transcript.last else { Issue.record("no response"); return }
        let shape = entry.segments.map { segment -> String in
            switch segment {
            case .text(let t): "text:\(t.content)"
            case .structure(let s): "tool:\(s.claudeServerToolBlockType ?? "?")"
            case .attachment: "attachment"
            }
        }
        #expect(shape == ["text:Let me look. ", "tool:server_tool_use", "tool:web_search_tool_result", "text:Swift 6.3 is out."])

        // The transcript's JSON keeps the activity.
        let restored = try JSONDecoder().decode(Transcript.self, from: JSONEncoder().encode(session.transcript))
        #expect(restored == session.transcript)

        _ = try await session.respond(to: "Thanks.")
        let first = try #require(proxy.requests.first?.json)
        let tools = try #require(first["tools"] as? [[String: Any]])
        #expect(tools.count == 1 && tools[0]["name"] as? String == "web_search" && tools[0]["max_uses"] as? Int == 2)
        let messages = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let blocks = try #require(messages[1]["content"] as? [[String: Any]])
        #expect(blocks.map { $0["type"] as? String } == ["text", "server_tool_use", "web_search_tool_result", "text"])
        #expect((blocks[1]["input"] as? [String: Any])?["query"] as? String == "swift 6.3")
        #expect(((blocks[2]["content"] as? [[String: Any]])?.first?["encrypted_content"]) as? String == "abc")
    }

    @Test func `a paused turn is sent back and continued within the same response`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let paused = ClaudeRecordedStreams.sse([
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":100,"output_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Searching. "}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"query\":\"oslo\"}"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"pause_turn"},"usage":{"output_tokens":10}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        let resumed = ClaudeRecordedStreams.sse([
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":130,"output_tokens":1}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[]}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
            ("content_block_start", #"{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Done."}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":1}"#),
            ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5}}"#),
            ("message_stop", #"{"type":"message_stop"}"#),
        ])
        proxy.enqueue(.stream(chunks: [Data(paused.utf8)]), .stream(chunks: [Data(resumed.utf8)]))
        let model = ClaudeLanguageModel(name: ClaudeTestServer.smol, auth: .apiKey(ClaudeTestServer.key),
                                        serverTools: [.webSearch()], baseURL: proxy.baseURL)
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Search for Oslo.")
        #expect(response.content == "Searching. Done.")
        #expect(response.usage.input.totalTokenCount == 230 && response.usage.output.totalTokenCount == 15)
        #expect(proxy.requests.count == 2)
        let messages = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant"])
        let sentBack = try #require(messages.last?["content"] as? [[String: Any]])
        #expect(sentBack.map { $0["type"] as? String } == ["text", "server_tool_use"])
        #expect(sentBack.first?["text"] as? String == "Searching. ")
        #expect((sentBack.last?["input"] as? [String: Any])?["query"] as? String == "oslo")
    }
}
