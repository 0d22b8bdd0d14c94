import Foundation

extension HTTPStreamingResponse {
    /// Checks that a successful response is an event stream before it is read as one: a server (or a proxy in
    /// front of it) that answers 200 with an HTML page or a whole JSON completion would otherwise look like a
    /// stream that ended early. A response without a `Content-Type` is let through.
    /// - Throws: ``ServerModelError/invalidResponse(_:)`` naming the type and the start of the body (secrets
    ///   redacted).
    package func requireEventStream(redactor: SecretRedactor) async throws {
        guard let type = headers["content-type"], !type.lowercased().hasPrefix("text/event-stream") else { return }
        let start = try await collect(limit: 4 << 10)
        throw ServerModelError.invalidResponse(
            "expected an event stream (text/event-stream) but the server answered \(type): \(redactor.excerpt(start, limit: 200))")
    }

    /// The body read as Server-Sent Events, in order. Iteration throws the transport's errors and the
    /// parser's size-limit errors (see ``ServerSentEventParser``); an event cut off by the end of the body is
    /// dropped, so a protocol's own end marker (`[DONE]`, `message_stop`) is what tells a complete stream.
    package func events(parser: ServerSentEventParser = ServerSentEventParser()) -> ServerSentEventSequence {
        ServerSentEventSequence(body: body, parser: parser)
    }
}

/// The events of a `text/event-stream` body (``HTTPStreamingResponse/events(parser:)``).
package struct ServerSentEventSequence: AsyncSequence {
    package typealias Element = ServerSentEvent
    let body: AsyncThrowingStream<Data, any Error>
    let parser: ServerSentEventParser

    package struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: AsyncThrowingStream<Data, any Error>.AsyncIterator
        var parser: ServerSentEventParser
        var pending: [ServerSentEvent] = []
        var nextIndex = 0

        package mutating func next() async throws -> ServerSentEvent? {
            while nextIndex == pending.count {
                guard let chunk = try await chunks.next() else { return nil }
                pending = try parser.feed(chunk)
                nextIndex = 0
            }
            defer { nextIndex += 1 }
            return pending[nextIndex]
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: body.makeAsyncIterator(), parser: parser)
    }
}
