import Foundation
import LMSession
import Testing
import TestSupport

/// A server that streams as fast as it can past the response cap (64 MiB by default): the request ends in
/// ``ServerModelError/responseTooLarge(limit:)`` after reading the cap, in seconds, not minutes. Every layer
/// reads per chunk or per event (the parser finds line ends with `memchr`; text, tool arguments and Claude's
/// blocks grow in place), so the cost is linear in the bytes.
@Suite("Server models: a fast stream past the response cap", .serialized, .timeLimit(.minutes(3)))
struct ServerLargeStreamTests {
    /// One event carrying `kilobytes` KiB of text, in each server's shape.
    static func bigDelta(_ server: String, kilobytes: Int = 64) -> Data {
        let text = String(repeating: "abcdefgh", count: kilobytes * 128)
        if server == "openai" { return OpenAIStreams.delta(text) }
        return Data("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"\(text)\"}}\n\n".utf8)
    }

    static let claudeOpening = Data(ClaudeRecordedStreams.sse([
        ("message_start", #"{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"claude-test","usage":{"input_tokens":5,"output_tokens":1}}}"#),
        ("content_block_start", #"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
    ]).utf8)

    @Test("the default 64 MiB cap is reached and reported within seconds, streamed and not", arguments: ["openai", "claude"])
    func theDefaultCapIsReachedFast(server: String) async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        // 80 MiB of text events, no pause between them (Claude's stream opens its text block first).
        let flood = FaultProxy.Fault.flood(chunk: Self.bigDelta(server), bytes: 80 << 20)
        let fault: FaultProxy.Fault = server == "openai" ? flood
            : .stream(chunks: [Self.claudeOpening] + Array(repeating: Self.bigDelta(server), count: 1280))
        proxy.enqueue(fault, fault)
        let model: any LanguageModel = server == "openai"
            ? OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "m", timeout: 120)
            : ClaudeTestServer.model(proxy: proxy)
        let session = LanguageModelSession(model: model)
        for streamed in [false, true] {
            let start = ContinuousClock.now
            await #expect(throws: ServerModelError.responseTooLarge(limit: 64 << 20), "streamed: \(streamed)") {
                if streamed {
                    for try await _ in session.streamResponse(to: "Everything") {}
                } else {
                    _ = try await session.respond(to: "Everything")
                }
            }
            // Loose: a loaded machine with a debug build reads 64 MiB in a few seconds; a per-byte or quadratic
            // path took minutes.
            #expect(ContinuousClock.now - start < .seconds(60), "streamed: \(streamed)")
            #expect(session.transcript.isEmpty)
        }
    }

    @Test func theParserReadsManyMegabytesOfLinesInLargeChunks() throws {
        // 16 MiB of events of 1 KiB data each, in 256 KiB chunks (split mid-line and mid-CRLF).
        let event = Data("data: \(String(repeating: "x", count: 1024))\r\n\r\n".utf8)
        var body = Data()
        for _ in 0..<(16 << 20) / event.count { body.append(event) }
        var parser = ServerSentEventParser()
        var events = 0
        var bytes = 0
        var start = 0
        while start < body.count {
            let chunk = body.subdata(in: start..<min(body.count, start + (256 << 10) + 1))
            for parsed in try parser.feed(chunk) {
                events += 1
                bytes += parsed.data.utf8.count
            }
            start += (256 << 10) + 1
        }
        #expect(events == (16 << 20) / event.count)
        #expect(bytes == events * 1024)
        let cutOff = parser.finish()
        #expect(!cutOff)
    }
}
