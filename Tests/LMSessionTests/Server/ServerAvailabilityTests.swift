import Foundation
import LMSession
import Testing
import TestSupport

/// Why a server model is unavailable: a base URL that cannot address an HTTP server is a typed error before
/// anything is sent, and an unreachable server's error is carried by ``unavailabilityCause`` and by the error a
/// request on the unavailable model throws.
@Suite("Server models: availability and its cause", .timeLimit(.minutes(1)))
struct ServerAvailabilityTests {
    static func models(_ url: URL) -> [(name: String, model: any LanguageModelDetails, cause: () -> ServerModelError?)] {
        let openAI = OpenAICompatibleLanguageModel(baseURL: url, model: "m", apiKey: OpenAIStreams.secret, timeout: 5)
        let claude = ClaudeLanguageModel(name: ClaudeTestServer.smol, auth: .apiKey(ClaudeTestServer.key), baseURL: url, timeout: 5)
        return [("openai", openAI, { openAI.unavailabilityCause }), ("claude", claude, { claude.unavailabilityCause })]
    }

    /// `URL(string:)` takes all of these; none names an HTTP server (`localhost:8080/v1` has the scheme
    /// "localhost", `api.example.com/v1` none).
    @Test(arguments: [("localhost:8080/v1", "scheme \"localhost\""), ("api.example.com/v1", "no scheme"),
                      ("ftp://127.0.0.1/v1", "scheme \"ftp\""), ("file:///tmp/v1", "scheme \"file\""), ("http:///v1", "no host")])
    func aBaseURLThatIsNotHTTPIsATypedErrorBeforeAnythingIsSent(text: String, what: String) async throws {
        let url = try #require(URL(string: text))
        for (name, model, cause) in Self.models(url) {
            #expect(model.availability == .unavailable(.modelNotReady), "\(name)")
            guard case .invalidBaseURL(let why)? = cause() else { Issue.record("\(name): \(String(describing: cause()))"); continue }
            #expect(why.contains(what), "\(name): \(why)")
            let session = LanguageModelSession(model: model)
            await #expect(performing: { try await session.respond(to: "Hi") }, throws: { error in
                guard case SystemLanguageModel.Error.assetsUnavailable(let info) = error else { return false }
                return info.debugDescription == "The model is unavailable (modelNotReady): Invalid base URL: \(why)."
            })
            #expect(session.transcript.isEmpty)
            // A caller that skips the availability check (a fallback model calls its primary directly) gets the
            // typed error at the first use, with the local model then answering.
            let local = ScriptedProvider([.text(["local answer"])])
            let fallback = LanguageModelSession(model: FallbackLanguageModel(model, fallback: local, when: { _ in false }))
            await #expect(throws: ServerModelError.invalidBaseURL(why), "\(name)") { try await fallback.respond(to: "Hi") }
            #expect(local.requests.isEmpty)
        }
        let openAI = OpenAICompatibleLanguageModel(baseURL: url, model: "m")
        #expect(await openAI.checkAvailability() == .unavailable(.modelNotReady))
    }

    @Test func theTransportReportsAnUnsupportedURLAsAnInvalidBaseURL() async throws {
        let request = HTTPStreamingRequest(url: try #require(URL(string: "localhost:8080/v1/chat/completions")), timeout: 5)
        await #expect(performing: { try await HTTPStreamingClient.send(request) }, throws: { error in
            if case ServerModelError.invalidBaseURL = error { true } else { false }
        })
    }

    @Test(arguments: ["openai", "claude"])
    func anUnreachableServersErrorIsTheCauseOfTheUnavailability(server: String) async throws {
        let port = try RefusingPort()
        let url = server == "openai" ? port.baseURL.appendingPathComponent("v1") : port.baseURL
        let (_, model, cause) = try #require(Self.models(url).first { $0.name == server })
        #expect(model.availability == .available && cause() == nil)
        let session = LanguageModelSession(model: model, instructions: "Be brief.")
        var thrown: ServerModelError?
        let start = ContinuousClock.now
        do { _ = try await session.respond(to: "Hi") } catch let error as ServerModelError { thrown = error }
        guard case .unreachable(let what)? = thrown else { Issue.record("\(String(describing: thrown))"); return }
        // The origin and what failed, in words and as the URLError code.
        #expect(what.hasPrefix(port.baseURL.absoluteString) && what.contains("could not connect") && what.contains("URLError -1004"), "\(what)")
        // The model holds the failure for 5 s (`ServerReachability.holdSeconds`), counted from a moment after
        // `start`. Under a full run on 2 cores this test may resume later than that; only a check made within
        // the hold can expect it.
        let withinHold = { ContinuousClock.now - start < .seconds(5) }
        if withinHold() {
            #expect(model.availability == .unavailable(.modelNotReady))
            #expect(cause() == thrown)
        }
        // The next request, within the hold, is refused by the session with the cause in Apple's error.
        do {
            _ = try await session.respond(to: "Hi again")
            Issue.record("a request to a refusing port answered")
        } catch SystemLanguageModel.Error.assetsUnavailable(let info) {
            #expect(info.debugDescription == "The model is unavailable (modelNotReady): The server is unreachable: \(what).")
        } catch {
            #expect(!withinHold(), "within the hold the session refuses the request itself: \(error)")
        }
        #expect(session.transcript.map(\.kindLabel) == ["instructions"])
        withExtendedLifetime(port) {}
    }

    @Test func checkAvailabilityRecordsAnErrorStatusAsTheCause() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.respond(status: 503, body: Data("loading model".utf8)), .respond(status: 200, body: Data(#"{"data":[]}"#.utf8)))
        let model = OpenAICompatibleLanguageModel(baseURL: proxy.baseURL.appendingPathComponent("v1"), model: "m")
        #expect(await model.checkAvailability() == .unavailable(.modelNotReady))
        #expect(model.unavailabilityCause == .httpStatus(code: 503, bodyExcerpt: "loading model"))
        #expect(await model.checkAvailability() == .available)
        #expect(model.unavailabilityCause == nil)
        #expect(proxy.requests.map(\.path) == ["/v1/models", "/v1/models"])
    }
}
