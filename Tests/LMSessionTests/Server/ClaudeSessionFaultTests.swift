import Foundation
import LMSession
import Testing
import TestSupport

/// A session on ``ClaudeLanguageModel`` against the fault proxy playing recorded streams and error answers
/// (no model server needed): errors as typed values, rollback, structured output, tools, and the key kept secret.
@Suite(.serialized) struct ClaudeSessionFaultTests {
    static func apiError(_ type: String, _ message: String) -> Data {
        Data(#"{"type":"error","error":{"type":"\#(type)","message":"\#(message)"}}"#.utf8)
    }

    /// Runs `body` on a session whose transcript holds one earlier turn, then checks that a failure left it as it was.
    static func expectRollback(_ session: LanguageModelSession, _ body: () async throws -> Void, matches: (any Error) -> Bool) async {
        let before = session.transcript
        do {
            try await body()
            Issue.record("no error thrown")
        } catch {
            #expect(matches(error), "unexpected error: \(error)")
        }
        #expect(session.transcript == before)
        #expect(!session.isResponding)
    }

    @Test func `429 throws rateLimited with retry-after's reset date and rolls back`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.respond(status: 429, headers: ["retry-after": "30", "content-type": "application/json"],
                               body: Self.apiError("rate_limit_error", "Slow down")))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy), instructions: "Be brief.")
        let sent = Date()
        // The reset is 30 s after the answer arrived: bounded by the send and the error's arrival, so a
        // loaded machine that answers late does not move it out of the window.
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { error in
            guard case LanguageModelError.rateLimited(let info) = error, let reset = info.resetDate else { return false }
            return reset.timeIntervalSince(sent) >= 29 && reset.timeIntervalSinceNow <= 31
        }
    }

    @Test func `a 200 answer that is an HTML page is an invalid response, not a lost connection`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.respond(status: 200, headers: ["content-type": "text/html"], body: Data("<html>Sign in</html>".utf8)))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { error in
            guard case ServerModelError.invalidResponse(let what) = error else { return false }
            return what.contains("text/html") && what.contains("<html>Sign in")
        }
    }

    @Test func `a refusal throws LanguageModelError.refusal and the partial text is not kept`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.refusal)))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        await Self.expectRollback(session, { _ = try await session.respond(to: "Do the forbidden thing.") }) { error in
            if case LanguageModelError.refusal = error { true } else { false }
        }
    }

    @Test func `a slow server past the timeout throws LanguageModelError.timeout`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.delay(.seconds(60), then: .stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.llamaServerText))))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy, timeout: 1))
        let start = ContinuousClock.now
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { error in
            if case LanguageModelError.timeout = error { true } else { false }
        }
        #expect(ContinuousClock.now - start < .seconds(30))   // cut a 60 s wait short, on a loaded 2-core machine too
    }

    @Test func `a stream cut before message_stop fails and rolls back`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let whole = ClaudeRecordedStreams.llamaServerText
        let cut = String(whole[..<whole.range(of: "event: message_delta")!.lowerBound])
        proxy.enqueue(.stream(chunks: [Data(cut.utf8)], complete: false))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { error in
            if case ServerModelError.connectionLost = error { true } else { false }
        }
    }

    @Test func `overloaded and other API errors keep their type and message`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.respond(status: 529, body: Self.apiError("overloaded_error", "Overloaded")),
                      .respond(status: 404, body: Self.apiError("not_found_error", "model: smollm2-135m")))
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { $0 as? ClaudeError == .overloaded(message: "Overloaded") }
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) {
            $0 as? ClaudeError == .api(status: 404, type: "not_found_error", message: "model: smollm2-135m")
        }
    }

    @Test func `an empty API key throws missingCredential and sends nothing`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy, key: ""))
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { $0 as? ClaudeError == .missingCredential }
        #expect(proxy.requests.isEmpty)
    }

    @Test func `an unreachable server throws unreachable and makes the model unavailable for a moment`() async throws {
        // Port 9 (discard) on loopback: nothing listens there in the test environment.
        let model = ClaudeLanguageModel(name: ClaudeTestServer.smol, auth: .apiKey(ClaudeTestServer.key), baseURL: URL(string: "http://127.0.0.1:9")!, timeout: 10)
        #expect(model.availability == .available)
        let session = LanguageModelSession(model: model)
        await Self.expectRollback(session, { _ = try await session.respond(to: "Hi") }) { error in
            if case ServerModelError.unreachable(let what) = error { what.contains("127.0.0.1:9") } else { false }
        }
        #expect(model.availability == .unavailable(.modelNotReady))
    }

    @Test func `a schema on a model without structured output throws unsupportedGenerationGuide before sending`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let session = LanguageModelSession(model: ClaudeTestServer.model(proxy: proxy))
        await Self.expectRollback(session, { _ = try await session.respond(to: "Plan a trip.", generating: ClaudeTrip.self) }) { error in
            if case LanguageModelError.unsupportedGenerationGuide(let info) = error { info.schemaName == "ClaudeTrip" } else { false }
        }
        #expect(proxy.requests.isEmpty)
    }

    @Test func `a model with structured output sends output_config.format and decodes the streamed value`() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: ClaudeTestServer.chunks(ClaudeRecordedStreams.structured)))
        let session = LanguageModelSession(model: ClaudeTestServer.model(ClaudeTestServer.structured, proxy: proxy))
        var partialCities: [String?] = []
        let stream = session.streamResponse(to: "Plan a trip.", generating: ClaudeTrip.self)
        for try await snapshot in stream { partialCities.append(snapshot.content.city) }
        let response = try await stream.collect()
        #expect(response.content == ClaudeTrip(city: "Oslo", days: 3))
        #expect(partialCities.last == "Oslo")
        #expect(response.usage.input.totalTokenCount == 150 && response.usage.output.totalTokenCount == 14)
        let body = try #require(proxy.requests.first?.json)
        let format = try #require((body["output_config"] as? [String: Any])?["format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        #expect(((format["schema"] as? [String: Any])?["required"] as? [String]).map(Set.init) == ["city", "days"])
        guard case .response(let entry)? = session.transcript.last, case .structure(let segment)? = entry.segments.first else {
            Issue.record("no structured response entry"); return
        }
        #expect(segment.source == "ClaudeTrip")
    }

    @Test func `the key never reaches errors, descriptions, dump or the transcript`() async throws {
        let key = ClaudeTestServer.key
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        // A hostile server echoes the key in its error and in its answer's text.
        proxy.enqueue(.respond(status: 401, body: Self.apiError("authentication_error", "invalid x-api-key \(key)")),
                      .stream(chunks: [Data(ClaudeRecordedStreams.sse([
                          ("message_start", #"{"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":0}}}"#),
                          ("message_delta", #"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}"#),
                          ("message_stop", #"{"type":"message_stop"}"#)]).utf8)]))
        let model = ClaudeTestServer.model(proxy: proxy)
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        do {
            _ = try await session.respond(to: "Hi")
            Issue.record("no error")
        } catch {
            #expect(error as? ServerModelError == .authenticationFailed(statusCode: 401, message: "invalid x-api-key [redacted]"))
            for text in ["\(error)", String(reflecting: error), error.localizedDescription] { #expect(!text.contains(key)) }
        }
        do { _ = try await session.respond(to: "Hi") } catch {
            Issue.record("the second request failed (\(error)); the proxy saw: \(proxy.requests.map { "\($0.method) \($0.path) \($0.rawHead.count)" })")
            throw error
        }
        #expect(proxy.requests.count == 2)
        #expect(proxy.requests.allSatisfy { $0.headers["x-api-key"] == key && !$0.body.contains(Data(key.utf8)) })
        let transcriptJSON = String(decoding: try JSONEncoder().encode(session.transcript), as: UTF8.self)
        var dumped = ""
        dump(model, to: &dumped)
        for text in [transcriptJSON, String(describing: model), String(reflecting: model), dumped, "\(ClaudeLanguageModel.AuthMode.apiKey(key))"] {
            #expect(!text.contains(key), "\(text)")
        }
        #expect(dumped.contains("apiKey(<redacted>)"))
    }
}
