import Foundation
import LMSession
import Testing
import TestSupport

/// The transport against the fault proxy: every way a response can go wrong ends in its typed error,
/// within the timeout.
@Suite("HTTP streaming client", .timeLimit(.minutes(1)))
struct HTTPStreamingClientTests {
    static func request(_ proxy: FaultProxy, timeout: TimeInterval = 5, limit: Int = 1 << 20, headers: [String: String] = [:]) -> HTTPStreamingRequest {
        HTTPStreamingRequest(url: proxy.baseURL.appendingPathComponent("v1/chat/completions"), headers: headers,
                             body: Data("{\"hello\":1}".utf8), timeout: timeout, maximumResponseBytes: limit,
                             redactor: SecretRedactor(["sk-test-secret"]))
    }

    static func body(_ response: HTTPStreamingResponse) async throws -> Data {
        var data = Data()
        for try await chunk in response.body { data += chunk }
        return data
    }

    @Test func aStreamedBodyArrivesWholeAndTheRequestIsRecorded() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        let chunks = (0..<20).map { Data("data: {\"n\":\($0)}\n\n".utf8) }
        proxy.enqueue(.stream(chunks: chunks, interval: .milliseconds(5)))
        let response = try await HTTPStreamingClient.send(Self.request(proxy, headers: ["Authorization": "Bearer sk-test-secret"]))
        #expect(response.statusCode == 200)
        #expect(response.headers["content-type"] == "text/event-stream")
        #expect(try await Self.body(response) == chunks.reduce(Data(), +))
        let recorded = try #require(proxy.requests.first)
        #expect(recorded.method == "POST")
        #expect(recorded.path == "/v1/chat/completions")
        #expect(recorded.headers["authorization"] == "Bearer sk-test-secret")
        #expect(recorded.body == Data("{\"hello\":1}".utf8))
    }

    @Test func anErrorStatusComesWithItsHeadersAndBody() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.respond(status: 429, headers: ["Retry-After": "7"], body: Data("{\"error\":\"slow down\"}".utf8)))
        let response = try await HTTPStreamingClient.send(Self.request(proxy))
        #expect(response.statusCode == 429)
        #expect(response.headers["retry-after"] == "7")
        #expect(try await response.collect(limit: 1000) == Data("{\"error\":\"slow down\"}".utf8))
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let port = try RefusingPort()
        let url = port.baseURL
        let request = HTTPStreamingRequest(url: url.appendingPathComponent("x"), timeout: 5)
        await #expect { try await HTTPStreamingClient.send(request) } throws: { error in
            guard case ServerModelError.unreachable(let what) = error else { return false }
            return what.hasPrefix(url.absoluteString)
        }
        withExtendedLifetime(port) {}
    }

    @Test func aSlowFirstByteTimesOutWithinTheTimeout() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        // The bound only has to show the timeout cut a 60 s wait short: a loaded CI machine runs late.
        proxy.enqueue(.delay(.seconds(60), then: .respond(status: 200)))
        let start = ContinuousClock.now
        await #expect(throws: LanguageModelError.self) { try await HTTPStreamingClient.send(Self.request(proxy, timeout: 0.5)) }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(500) && elapsed < .seconds(30))
    }

    @Test func anEndlessStreamTimesOutWithinTheTimeout() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.endless(chunk: Data(": tick\n\n".utf8), interval: .milliseconds(10)))
        let start = ContinuousClock.now
        let response = try await HTTPStreamingClient.send(Self.request(proxy, timeout: 1))
        await #expect(throws: LanguageModelError.self) { try await Self.body(response) }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(30))   // endless otherwise; loose for a loaded machine
    }

    @Test func anOversizedBodyStopsAtTheLimit() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.oversized(bytes: 50 << 20))
        let response = try await HTTPStreamingClient.send(Self.request(proxy, limit: 1 << 20))
        await #expect(throws: ServerModelError.responseTooLarge(limit: 1 << 20)) { try await Self.body(response) }
    }

    @Test func aStreamCutOffMidWayIsALostConnection() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.stream(chunks: [Data("data: {}\n\n".utf8)], complete: false))
        let response = try await HTTPStreamingClient.send(Self.request(proxy))
        await #expect { try await Self.body(response) } throws: { error in
            if case ServerModelError.connectionLost = error { return true } else { return false }
        }
    }

    @Test func cancellingTheConsumerCancelsTheRequest() async throws {
        let proxy = try FaultProxy()
        defer { proxy.stop() }
        proxy.enqueue(.endless(chunk: Data("data: {}\n\n".utf8), interval: .milliseconds(10)))
        let response = try await HTTPStreamingClient.send(Self.request(proxy, timeout: 30))
        let consumer = Task { try await Self.body(response) }
        try await Task.sleep(for: .milliseconds(200))
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
        // The proxy's handler sees the connection close and ends.
        let deadline = ContinuousClock.now + .seconds(5)
        while proxy.activeConnections > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(proxy.activeConnections == 0)
    }
}
