import Foundation
import LMSession
import Testing

/// Reads recorded Messages API streams through the SSE parser and ``ClaudeStreamDecoder``, in chunks of a few
/// bytes so that events and UTF-8 sequences are split across chunks.
@Suite struct ClaudeStreamDecoderTests {
    static let context = ClaudeErrorMapping.Context(contextSize: 200_000, sentAPIKey: true, redactor: SecretRedactor(["sk-ant-SECRET"]))

    struct Decoded {
        var events: [LanguageModelEvent]
        var decoder: ClaudeStreamDecoder
        var text: String {
            events.compactMap { event -> String? in if case .text(let t) = event { return t } else { return nil } }.joined()
        }
        var usage: LanguageModelUsage? {
            events.compactMap { event -> LanguageModelUsage? in if case .usage(let u) = event { return u } else { return nil } }.last
        }
        var calls: [Transcript.ToolCall] {
            events.flatMap { event -> [Transcript.ToolCall] in if case .toolCalls(let c) = event { return c } else { return [] } }
        }
    }

    static func decode(_ body: String, chunkSize: Int = 5) throws -> Decoded {
        var parser = ServerSentEventParser()
        var decoder = ClaudeStreamDecoder(errorContext: context)
        var events: [LanguageModelEvent] = []
        let bytes = Array(body.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            for event in try parser.feed(bytes[start..<min(start + chunkSize, bytes.count)]) {
                events += try decoder.consume(name: event.event, data: event.data)
            }
        }
        return Decoded(events: events, decoder: decoder)
    }

    @Test func `llama-server's text stream becomes text deltas and its usage`() throws {
        let decoded = try Self.decode(ClaudeRecordedStreams.llamaServerText)
        #expect(decoded.events == [.text("La"), .text(" fem"), .text("me"), .text(" de"),
                                   .usage(LanguageModelUsage(inputTokens: 24, cachedInputTokens: 0, outputTokens: 4))])
        #expect(decoded.decoder.finished)
    }

    @Test(arguments: [1, 3, 64, 100_000])
    func `a tool call is reported once, whole, after the usage, however the bytes are split`(chunkSize: Int) throws {
        let decoded = try Self.decode(ClaudeRecordedStreams.toolUse, chunkSize: chunkSize)
        #expect(decoded.text == "Checking.")
        #expect(decoded.calls == [Transcript.ToolCall(id: "toolu_01A", toolName: "get_weather", arguments: try GeneratedContent(json: #"{"city":"Oslo"}"#))])
        // input_tokens + cache_creation + cache_read; the cache reads are the cached part.
        #expect(decoded.usage == LanguageModelUsage(inputTokens: 310 + 40 + 1200, cachedInputTokens: 1200, outputTokens: 57))
        #expect(decoded.events.last.map { if case .toolCalls = $0 { true } else { false } } == true)
    }

    @Test func `thinking stays out of the text and is reported whole with its decoded signature`() throws {
        let decoded = try Self.decode(ClaudeRecordedStreams.thinking)
        #expect(decoded.text == "Four.")
        #expect(decoded.events.first == .reasoning(text: "2 + 2 is 4.", signature: Data("sig-1".utf8)))
        #expect(decoded.decoder.replayBlocksJSON.isEmpty)
    }

    @Test func `server tool calls and results stay out of the text and are kept in order`() throws {
        let decoded = try Self.decode(ClaudeRecordedStreams.serverTool)
        #expect(decoded.calls.isEmpty)
        // Reported as segments between the two pieces of text, in the order they came.
        let kinds = decoded.events.map { event -> String in
            switch event {
            case .text(let t): "text \(t)"
            case .segment(.structure(let s)): "segment \(s.claudeServerToolBlockType ?? "?")"
            case .usage: "usage"
            default: "other"
            }
        }
        #expect(kinds == ["text Let me look. ", "segment server_tool_use", "segment web_search_tool_result", "text Swift 6.3 is out.", "usage"])
        let kept = decoded.decoder.replayBlocksJSON
        #expect(kept.count == 2)
        #expect(kept.first == #"{"type":"server_tool_use","id":"srvtoolu_9","name":"web_search","input":{"query":"swift 6.3"}}"#)
        #expect(kept.last?.hasPrefix(#"{"type":"web_search_tool_result","tool_use_id":"srvtoolu_9""#) == true)
    }

    @Test func `text a block starts with is reported before its deltas`() throws {
        let decoded = try Self.decode(ClaudeRecordedStreams.serverTool)
        #expect(decoded.text == "Let me look. Swift 6.3 is out.")
    }

    @Test func `stop_reason refusal throws LanguageModelError.refusal`() throws {
        #expect {
            _ = try Self.decode(ClaudeRecordedStreams.refusal)
        } throws: { error in
            if case LanguageModelError.refusal = error { true } else { false }
        }
    }

    @Test func `an overloaded error event throws ClaudeError.overloaded with the message`() throws {
        let body = ClaudeRecordedStreams.sse([
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":0}}}"#),
            ("error", #"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
        ])
        #expect(throws: ClaudeError.overloaded(message: "Overloaded")) { _ = try Self.decode(body) }
    }

    @Test func `llama-server's context overflow event carries both counts`() throws {
        let body = ClaudeRecordedStreams.sse([
            ("error", #"{"code":400,"message":"request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}"#),
        ])
        #expect {
            _ = try Self.decode(body)
        } throws: { error in
            guard case LanguageModelError.contextSizeExceeded(let info) = error else { return false }
            return info.tokenCount == 5000 && info.contextSize == 4096
        }
    }

    @Test func `events before message_start and unreadable JSON are invalid responses`() throws {
        let early = ClaudeRecordedStreams.sse([("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#)])
        #expect(throws: ServerModelError.self) { _ = try Self.decode(early) }
        let garbled = ClaudeRecordedStreams.sse([("message_start", #"{"type":"message_start","message":"#)])
        #expect(throws: ServerModelError.self) { _ = try Self.decode(garbled) }
    }

    @Test func `tool arguments that are not a JSON object throw, naming the tool`() throws {
        let body = ClaudeRecordedStreams.sse([
            ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":0}}}"#),
            ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"get_weather","input":{}}}"#),
            ("content_block_delta", #"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"[1,2"}}"#),
            ("content_block_stop", #"{"type":"content_block_stop","index":0}"#),
        ])
        #expect {
            _ = try Self.decode(body)
        } throws: { error in
            guard let parsing = error as? GeneratedContent.ParsingError,
                  case ServerModelError.invalidToolCallArguments(let name, let reason)? = parsing.underlyingError else { return false }
            return name == "get_weather" && reason == "not a JSON object: [1,2" && parsing.rawContent == "[1,2"
        }
    }
}
