import Foundation
import LMSession
import Testing
import TestSupport

/// Every fault a server can produce ends a request in its typed error, within the timeout, with the
/// transcript as it was and the API key in no error text.
@Suite("OpenAI-compatible model, faults", .timeLimit(.minutes(1)))
struct OpenAIFaultTests {
    /// Runs one prompt against a proxy playing `fault` (after a first good exchange, so the transcript has
    /// content to keep), and returns the error and how long the failing request took.
    static func failure(_ fault: FaultProxy.Fault, apiKey: String? = OpenAIStreams.secret, timeout: TimeInterval = 1,
                        limit: Int = 1 << 20) async throws -> (error: any Error, elapsed: Duration, model: OpenAICompatibleLanguageModel) {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let model = OpenAIStreams.model(proxy, apiKey: apiKey, timeout: timeout, limit: limit)
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        proxy.enqueue(.stream(chunks: OpenAIStreams.text(["first"])), fault)
        _ = try await session.respond(to: "one")
        let before = session.transcript
        let start = ContinuousClock.now
        do {
            _ = try await session.respond(to: "two")
        } catch {
            let elapsed = ContinuousClock.now - start
            #expect(session.transcript == before, "the transcript rolls back")
            for text in [String(describing: error), String(reflecting: error), (error as? any LocalizedError)?.errorDescription ?? "",
                         session.transcript.jsonText] {
                #expect(!text.contains(OpenAIStreams.secret), "the key leaked: \(text)")
            }
            return (error, elapsed, model)
        }
        Issue.record("no error for \(fault)")
        throw CancellationError()
    }

    @Test func rateLimitedCarriesTheRetryAfterDate() async throws {
        let sent = Date()
        let (error, _, _) = try await Self.failure(.respond(status: 429, headers: ["Retry-After": "30"],
                                                            body: Data(#"{"error":{"message":"slow down"}}"#.utf8)))
        guard case LanguageModelError.rateLimited(let limited) = error else { Issue.record("\(error)"); return }
        let reset = try #require(limited.resetDate)
        // 30 s after the answer arrived, which lies between the send and now (a loaded machine may answer late).
        #expect(reset.timeIntervalSince(sent) >= 29 && reset.timeIntervalSinceNow <= 31)
    }

    /// A 200 that is not an event stream (a proxy's HTML page, a whole JSON completion) says what came back,
    /// not that the stream was cut.
    @Test(arguments: [("text/html; charset=utf-8", "<html><body>Gateway login for \(OpenAIStreams.secret)</body></html>"),
                      ("application/json", #"{"choices":[{"message":{"role":"assistant","content":"Hi"}}]}"#)])
    func aSuccessThatIsNotAnEventStreamIsAnInvalidResponse(type: String, body: String) async throws {
        let (error, _, _) = try await Self.failure(.respond(status: 200, headers: ["Content-Type": type], body: Data(body.utf8)))
        guard case ServerModelError.invalidResponse(let what) = error else { Issue.record("\(error)"); return }
        #expect(what.contains(type) && what.contains(String(body.prefix(12))))
    }

    @Test func rateLimitedWithAnHTTPDate() async throws {
        let (error, _, _) = try await Self.failure(.respond(status: 429, headers: ["Retry-After": "Wed, 21 Oct 2037 07:28:00 GMT"]))
        guard case LanguageModelError.rateLimited(let limited) = error else { Issue.record("\(error)"); return }
        #expect(limited.resetDate == Date(timeIntervalSince1970: 2_139_722_880))
    }

    @Test func aServerErrorIsAnHTTPStatusWithTheKeyRedacted() async throws {
        // A hostile server echoes the key back in its body.
        let (error, _, _) = try await Self.failure(.respond(status: 500, body: Data("boom: Bearer \(OpenAIStreams.secret)".utf8)))
        #expect(error as? ServerModelError == .httpStatus(code: 500, bodyExcerpt: "boom: Bearer [redacted]"))
    }

    @Test func llamaServersContextOverflowIsContextSizeExceeded() async throws {
        let body = #"{"error":{"code":400,"message":"request (5031 tokens) exceeds the available context size (4096 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5031,"n_ctx":4096}}"#
        let (error, _, _) = try await Self.failure(.respond(status: 400, body: Data(body.utf8)))
        guard case LanguageModelError.contextSizeExceeded(let overflow) = error else { Issue.record("\(error)"); return }
        #expect(overflow.contextSize == 4096 && overflow.tokenCount == 5031)
    }

    @Test func unauthorizedWithoutAKeyIsAMissingCredential() async throws {
        let (error, _, _) = try await Self.failure(.respond(status: 401), apiKey: nil)
        guard case ServerModelError.missingCredential = error else { Issue.record("\(error)"); return }
    }

    @Test func aSlowFirstByteTimesOut() async throws {
        // Loose upper bounds: they only have to show the 1 s timeout cut a 60 s wait short. Under a full test run on
        // 2 cores the runner's threads can be busy for several seconds before the waiting test resumes.
        let (error, elapsed, _) = try await Self.failure(.delay(.seconds(60), then: .stream(chunks: OpenAIStreams.text(["late"]))))
        guard case LanguageModelError.timeout = error else { Issue.record("\(error)"); return }
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(30))
    }

    @Test func anEndlessStreamTimesOut() async throws {
        let (error, elapsed, _) = try await Self.failure(.endless(chunk: OpenAIStreams.delta("again "), interval: .milliseconds(5)))
        guard case LanguageModelError.timeout = error else { Issue.record("\(error)"); return }
        #expect(elapsed < .seconds(30))   // endless otherwise
    }

    @Test func anOversizedBodyIsTooLarge() async throws {
        let (error, _, _) = try await Self.failure(.stream(chunks: Array(repeating: OpenAIStreams.delta(String(repeating: "x", count: 4000)), count: 400)),
                                                   limit: 256 << 10)
        #expect(error as? ServerModelError == .responseTooLarge(limit: 256 << 10))
    }

    @Test func malformedJSONIsAnInvalidResponse() async throws {
        let (error, _, _) = try await Self.failure(.stream(chunks: [OpenAIStreams.delta("ok"), Data("data: {\"choices\": [oops\n\n".utf8)]))
        guard case ServerModelError.invalidResponse = error else { Issue.record("\(error)"); return }
    }

    @Test func aStreamDroppedMidWayIsALostConnection() async throws {
        let (error, _, _) = try await Self.failure(.stream(chunks: [OpenAIStreams.delta("half")], complete: false))
        guard case ServerModelError.connectionLost = error else { Issue.record("\(error)"); return }
    }

    @Test func aStreamEndingWithoutFinishIsALostConnection() async throws {
        // The HTTP body is complete, but the events stop before a finish reason or [DONE].
        let (error, _, _) = try await Self.failure(.stream(chunks: [OpenAIStreams.delta("half")]))
        guard case ServerModelError.connectionLost = error else { Issue.record("\(error)"); return }
    }

    @Test func contentFilterIsARefusal() async throws {
        let (error, _, _) = try await Self.failure(.stream(chunks: [OpenAIStreams.delta("I"), OpenAIStreams.finish("content_filter"), OpenAIStreams.done]))
        guard case LanguageModelError.refusal = error else { Issue.record("\(error)"); return }
    }

    @Test func invalidToolArgumentsAreAParsingErrorWithTheTypedDetail() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [
            OpenAIStreams.event(#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"get_weather","arguments":"{\"city\": "}}]}}]}"#),
            OpenAIStreams.finish("tool_calls"), OpenAIStreams.done]))
        let session = LanguageModelSession(model: OpenAIStreams.model(proxy), tools: [GetWeather()])
        let error = await #expect(throws: GeneratedContent.ParsingError.self) { try await session.respond(to: "x") }
        #expect(error?.rawContent == #"{"city":"#)
        #expect(error?.underlyingError as? ServerModelError == .invalidToolCallArguments(toolName: "get_weather", reason: #"not JSON: {"city":"#))
        #expect(error?.debugDescription == #"The model called get_weather with invalid arguments: not JSON: {"city":"#)
        #expect(session.transcript.map(\.kindLabel) == ["instructions"])
    }

    @Test func anUnreachableServerMakesTheModelUnavailableUntilItAnswers() async throws {
        let port = try RefusingPort()
        let url = port.baseURL
        let model = OpenAICompatibleLanguageModel(baseURL: url.appendingPathComponent("v1"), model: "m", apiKey: OpenAIStreams.secret, timeout: 5)
        let session = LanguageModelSession(model: model)
        let start = ContinuousClock.now
        await #expect { try await session.respond(to: "x") } throws: { error in
            guard case ServerModelError.unreachable(let what) = error else { return false }
            return what.hasPrefix(url.absoluteString)
        }
        // Held for 5 s (`ServerReachability.holdSeconds`); a loaded run may resume this test after it.
        if ContinuousClock.now - start < .seconds(5) { #expect(model.availability == .unavailable(.modelNotReady)) }
        // Checking asks the server again: refused, so unavailable whatever the time.
        #expect(await model.checkAvailability() == .unavailable(.modelNotReady))
        #expect(session.transcript.isEmpty)
        withExtendedLifetime(port) {}
    }

    @Test func theKeyIsInNoDescriptionOfTheModel() throws {
        let model = OpenAICompatibleLanguageModel(baseURL: URL(string: "http://user:pw@127.0.0.1:9/v1")!, model: "m", apiKey: OpenAIStreams.secret)
        var dumped = ""
        dump(model, to: &dumped)
        for text in [String(describing: model), String(reflecting: model), dumped, "\(Mirror(reflecting: model).children.map { "\($0.value)" })"] {
            #expect(!text.contains(OpenAIStreams.secret))
            #expect(!text.contains("pw"))
        }
        #expect(String(describing: model).contains("[redacted]"))
    }
}
