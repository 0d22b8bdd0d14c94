import Foundation
import Testing
import LMSession

@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    /// Feeds `text` split into chunks of every size from 1 to its length, so every split point is tried.
    static func parseAllSplits(_ text: String) throws -> [[ServerSentEvent]] {
        let bytes = Array(text.utf8)
        return try (1...max(1, bytes.count)).map { size in
            var parser = ServerSentEventParser()
            var events: [ServerSentEvent] = []
            var start = 0
            while start < bytes.count {
                events += try parser.feed(bytes[start..<min(bytes.count, start + size)])
                start += size
            }
            return events
        }
    }

    @Test("each stream gives the same events at every chunk split", arguments: [
        ("data: a\n\n", [ServerSentEvent(data: "a")]),
        ("data: a\r\n\r\n", [ServerSentEvent(data: "a")]),
        ("data: a\r\rdata: b\r\r", [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")]),
        ("data: one\ndata: two\n\n", [ServerSentEvent(data: "one\ntwo")]),
        (": keep-alive\n\ndata: x\n\n", [ServerSentEvent(data: "x")]),
        ("event: message_start\ndata: {\"a\":1}\nid: 7\n\n", [ServerSentEvent(event: "message_start", data: "{\"a\":1}", id: "7")]),
        ("data:nospace\n\n", [ServerSentEvent(data: "nospace")]),
        ("data:  two spaces\n\n", [ServerSentEvent(data: " two spaces")]),
        ("data\n\n", [ServerSentEvent(data: "")]),
        ("event: ping\n\n", []),
        ("retry: 10\nfoo: bar\ndata: y\n\n", [ServerSentEvent(data: "y")]),
        ("id: 1\ndata: a\n\ndata: b\n\n", [ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "1")]),
        ("data: é€😀\n\n", [ServerSentEvent(data: "é€😀")]),
        ("data: cut off", []),
    ])
    func parses(_ text: String, _ expected: [ServerSentEvent]) throws {
        for events in try Self.parseAllSplits(text) { #expect(events == expected) }
    }

    @Test func anEventCutOffBeforeItsBlankLineIsReportedAtTheEnd() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("data: a\n\ndata: b\n".utf8)) == [ServerSentEvent(data: "a")])
        let cut = parser.finish()
        #expect(cut)
        var clean = ServerSentEventParser()
        _ = try clean.feed(Array("data: a\n\n".utf8))
        let cleanCut = clean.finish()
        #expect(!cleanCut)
    }

    @Test func aLineLongerThanTheLimitThrows() throws {
        var parser = ServerSentEventParser(maximumLineBytes: 16, maximumEventBytes: 1024)
        #expect(try parser.feed(Array("data: 0123456789\n\n".utf8)).count == 1)
        #expect(throws: ServerModelError.self) { try parser.feed(Array(repeating: UInt8(ascii: "x"), count: 17)) }
    }

    @Test func anEventLargerThanTheLimitThrows() throws {
        var parser = ServerSentEventParser(maximumLineBytes: 64, maximumEventBytes: 20)
        #expect(throws: ServerModelError.invalidResponse("an event's data is longer than 20 bytes")) {
            try parser.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8))
        }
    }
}

@Suite("Retry-After")
struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func deltaSeconds() {
        #expect(RetryAfter.parse("120", now: now) == now.addingTimeInterval(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == now)
    }

    @Test func httpDates() {
        let expected = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT (RFC 9110's example)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == expected)
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == expected)
        #expect(RetryAfter.parse("Sun Nov  6 08:49:37 1994", now: now) == expected)
    }

    @Test func garbageAndNegativeAreNil() {
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("", now: now) == nil)
    }

    @Test func millisecondsWin() {
        #expect(RetryAfter.resetDate(headers: ["retry-after": "5", "retry-after-ms": "1500"], now: now) == now.addingTimeInterval(1.5))
        #expect(RetryAfter.resetDate(headers: ["retry-after": "5"], now: now) == now.addingTimeInterval(5))
        #expect(RetryAfter.resetDate(headers: [:], now: now) == nil)
    }
}

@Suite("Secret redaction")
struct SecretRedactionTests {
    @Test func secretsAreMaskedEvenWhenTheExcerptWouldCutThem() {
        let redactor = SecretRedactor(["sk-secret-123", nil, ""])
        #expect(redactor.redact("key sk-secret-123 bad") == "key [redacted] bad")
        let body = Data(("x" + "sk-secret-123").utf8)
        #expect(redactor.excerpt(body, limit: 5) == "x[red…")
        #expect(!redactor.excerpt(body, limit: 8).contains("sk-"))
    }

    @Test func originDropsCredentialsPathAndQuery() {
        #expect(URL(string: "https://user:pw@host.example:8443/v1/x?key=abc")!.redactedOrigin == "https://host.example:8443")
    }
}
