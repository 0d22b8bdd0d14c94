import Foundation
import LMSession
import Testing
import TestSupport

/// ``ClaudeLanguageModel`` against a real llama-server (b11312, SmolLM2-135M-Instruct, `--jinja`) through its
/// Anthropic-style `/v1/messages`, with the fault proxy in between forwarding (so the tests see what went on
/// the wire) or playing the one step the small model cannot make (a tool call).
///
/// Needs `LMSESSION_LLAMA_SERVER_URL` (see ``ClaudeTestServer``); fails without it unless
/// `LMSESSION_SKIP_LLAMA_SERVER=1`.
@Suite(.serialized, .enabled(if: !ClaudeTestServer.skip, "LMSESSION_SKIP_LLAMA_SERVER=1"))
struct ClaudeRealServerTests {
    static let question = "What is the capital of France?"

    @Test func `respond returns the server's greedy answer, records the turn and sends the Messages API headers`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        let model = ClaudeTestServer.model(proxy: proxy)
        let session = LanguageModelSession(model: model, instructions: "Answer briefly.")
        let response = try await session.respond(to: Self.question, options: ClaudeTestServer.options(12))
        // Greedy decoding: a second session gets the very same text.
        let again = try await LanguageModelSession(model: model, instructions: "Answer briefly.")
            .respond(to: Self.question, options: ClaudeTestServer.options(12))
        #expect(!response.content.isEmpty)
        #expect(response.content == again.content)
        #expect(response.usage.input.totalTokenCount > 10)
        #expect(response.usage.output.totalTokenCount > 0 && response.usage.output.totalTokenCount <= 12)
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "response"])
        guard case .response(let entry)? = session.transcript.last else { Issue.record("no response entry"); return }
        #expect(entry.assetIDs == ["smollm2-135m"])
        #expect(entry.segments.map(\.description) == [response.content])

        let sent = try #require(proxy.requests.first)
        #expect(sent.path == "/v1/messages")
        #expect(sent.headers["x-api-key"] == ClaudeTestServer.key)
        #expect(sent.headers["anthropic-version"] == "2023-06-01")
        let body = try #require(sent.json)
        #expect(body["model"] as? String == "smollm2-135m")
        #expect(body["max_tokens"] as? Int == 12)
        #expect(body["top_k"] as? Int == 1)
        #expect(body["system"] as? String == "Answer briefly.")
        #expect(body["stream"] as? Bool == true)
    }

    @Test func `streaming gives cumulative snapshots that end in the response`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        let stream = session.streamResponse(to: Self.question, options: ClaudeTestServer.options(16))
        var snapshots: [String] = []
        for try await snapshot in stream { snapshots.append(snapshot.content) }
        let response = try await stream.collect()
        #expect(snapshots.count > 3)
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
            #expect(later.hasPrefix(earlier) && later.count > earlier.count, "\(earlier.debugDescription) -> \(later.debugDescription)")
        }
        #expect(snapshots.last == response.content)
        #expect(session.transcript.count == 2)
    }

    @Test func `a tool round trip: the recorded call runs the tool, the real server answers from its output`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.toolCall(id: "toolu_weather1", city: "Oslo"))))
        let weather = GetWeather()
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy), tools: [weather])
        let response = try await session.respond(to: "What is the weather in Oslo?", options: ClaudeTestServer.options(12))
        #expect(weather.cities.values == ["Oslo"])
        #expect(!response.content.isEmpty)
        // A session with tools starts with an instructions entry listing them (no text, so no `system`).
        #expect(session.transcript.map(\.kindLabel) == ["instructions", "prompt", "toolCalls", "toolOutput", "response"])
        #expect(proxy.requests.first?.json?["system"] == nil)
        // Usage sums both model calls: the recorded one (90 in, 12 out) and the real one.
        #expect(response.usage.input.totalTokenCount > 90)
        #expect(response.usage.output.totalTokenCount > 12)

        #expect(proxy.requests.count == 2)
        let first = try #require(proxy.requests.first?.json)
        #expect((first["tools"] as? [[String: Any]])?.map { $0["name"] as? String } == ["get_weather"])
        let messages = try #require(proxy.requests.last?.json?["messages"] as? [[String: Any]])
        #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user"])
        let call = try #require((messages[1]["content"] as? [[String: Any]])?.first)
        #expect(call["type"] as? String == "tool_use" && call["id"] as? String == "toolu_weather1")
        #expect((call["input"] as? [String: Any])?["city"] as? String == "Oslo")
        let result = try #require((messages[2]["content"] as? [[String: Any]])?.first)
        #expect(result["type"] as? String == "tool_result" && result["tool_use_id"] as? String == "toolu_weather1")
        #expect((result["content"] as? String)?.contains("snow") == true)
    }

    @Test func `a prompt over the server's context throws contextSizeExceeded with the server's counts and rolls back`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        let long = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 800) // ~8,000 tokens
        do {
            _ = try await session.respond(to: long, options: ClaudeTestServer.options(4))
            Issue.record("no error")
        } catch LanguageModelError.contextSizeExceeded(let info) {
            #expect(info.contextSize > 0)
            #expect(info.tokenCount > info.contextSize)
        }
        #expect(session.transcript.isEmpty)
        // The session is usable again.
        let response = try await session.respond(to: Self.question, options: ClaudeTestServer.options(4))
        #expect(!response.content.isEmpty)
    }

    @Test func `a Generable request on the server model (no structured output) throws and never reaches the server`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        await #expect {
            _ = try await session.respond(to: "Plan a trip to Oslo.", generating: ClaudeTrip.self)
        } throws: { error in
            if case LanguageModelError.unsupportedGenerationGuide = error { true } else { false }
        }
        #expect(proxy.requests.isEmpty)
        #expect(session.transcript.isEmpty)
    }

    @Test func `stopping a stream early cancels the request, rolls back and frees the session`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        var seen = 0
        for try await _ in session.streamResponse(to: Self.question, options: ClaudeTestServer.options(200)) {
            seen += 1
            if seen == 2 { break }
        }
        #expect(seen == 2)
        // The request is dropped with the iteration: the connection closes and the session is free again.
        let deadline = ContinuousClock.now + .seconds(5)
        while (session.isResponding || proxy.activeConnections > 0) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!session.isResponding)
        #expect(proxy.activeConnections == 0)
        #expect(session.transcript.isEmpty)
        let response = try await session.respond(to: Self.question, options: ClaudeTestServer.options(4))
        #expect(!response.content.isEmpty)
    }

    @Test func `tokenCount for a request is the server's count, the input tokens the answer then reports`() async throws {
        let proxy = try FaultProxy(upstream: try ClaudeTestServer.url())
        defer { proxy.stop() }
        let model = ClaudeTestServer.model(proxy: proxy)
        let instructions = Transcript.Entry.instructions(.init(segments: [.text(.init(content: "Answer briefly."))], toolDefinitions: []))
        let prompt = Transcript.Entry.prompt(.init(segments: [.text(.init(content: Self.question))]))
        let counted = try await model.tokenCount(for: .request(LanguageModelRequest(transcript: Transcript(entries: [instructions, prompt]))))
        let response = try await LanguageModelSession(model: model, instructions: "Answer briefly.")
            .respond(to: Self.question, options: ClaudeTestServer.options(2))
        #expect(counted > 10)
        #expect(counted == response.usage.input.totalTokenCount)
        #expect(proxy.requests.first?.path == "/v1/messages/count_tokens")
        #expect(proxy.requests.first?.json?["max_tokens"] == nil)
    }
}
