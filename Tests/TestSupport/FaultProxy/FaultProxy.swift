import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on a loopback port that stands in front of a model server (or of nothing) and
/// either forwards each request to it or plays a fault the real server does not produce: an error status
/// with headers (429 with retry-after, 500), a slow first byte, a stream cut off mid-way, a scripted SSE
/// body (malformed JSON, a recorded tool-calls stream), an endless stream, an oversized body.
///
/// Each request takes the next fault from the queue (``enqueue(_:)``); with the queue empty it gets
/// ``defaultFault`` (``Fault/forward`` when there is an upstream). Every request is recorded
/// (``requests``) so tests can check what a client sent. One thread per connection, blocking sockets;
/// every response closes its connection. For tests only: no TLS, no chunked request bodies.
public final class FaultProxy: Sendable {
    /// What the proxy does with one request.
    public indirect enum Fault: Sendable {
        /// Sends the request to the upstream and relays its answer byte for byte.
        case forward
        /// Answers `status` with `headers` and `body` (Content-Length set).
        case respond(status: Int, headers: [String: String] = [:], body: Data = Data())
        /// Answers 200 `text/event-stream` and sends `chunks` (chunked encoding), `interval` apart; when
        /// `complete` is false the connection closes without the final chunk (a dropped stream).
        case stream(chunks: [Data], interval: Duration = .zero, complete: Bool = true)
        /// Forwards, but closes the connection after `bytes` bytes of the upstream's body (a dropped stream).
        case dropAfter(bytes: Int)
        /// Waits `delay` before doing `then` (a slow first byte).
        case delay(Duration, then: Fault)
        /// Answers 200 `text/event-stream` and repeats `chunk` every `interval` until the client goes away.
        case endless(chunk: Data, interval: Duration)
        /// Decides from the request (for example a stream that echoes the prompt, so concurrent clients can
        /// tell their own answer).
        case dynamic(@Sendable (RecordedRequest) -> Fault)
        /// Answers 200 with a body of `bytes` bytes of `filler` (Content-Length set), written as fast as read.
        case oversized(bytes: Int, filler: UInt8 = UInt8(ascii: "x"))
        /// Answers 200 `text/event-stream` and sends `chunk` again and again with no pause, as fast as the client
        /// reads, until `bytes` bytes of body were sent (then the stream ends) or the client goes away.
        case flood(chunk: Data, bytes: Int)
    }

    /// One request as the proxy received it.
    public struct RecordedRequest: Sendable {
        public var method: String
        public var path: String
        /// Header values by lowercased name.
        public var headers: [String: String]
        public var body: Data
        /// The raw request head (request line and headers) as sent.
        public var rawHead: String

        /// The body parsed as a JSON object (nil when it is not one).
        public var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    /// A forwarded request and the upstream's answer.
    public struct ForwardedExchange: Sendable {
        public var request: RecordedRequest
        /// The answer's body as relayed (headers removed, chunked framing undone), cut where a drop cut it.
        public var responseBody: Data
    }

    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    public let port: Int
    private let listener: LoopbackSocket
    private let upstream: (host: String, port: Int)?
    private let queue = Mutex<[Fault]>([])
    private let recorded = Mutex<[RecordedRequest]>([])
    private let forwarded = Mutex<[ForwardedExchange]>([])
    private let fallback: Fault
    /// Connections whose handler has not finished yet.
    private let active = Atomic(0)

    /// Starts listening on a free loopback port.
    /// - Parameters:
    ///   - upstream: the server to forward to (`http://host:port`, path ignored); nil for a proxy that only plays faults.
    ///   - defaultFault: what a request gets when the queue is empty (``Fault/forward`` with an upstream,
    ///     a 502 without).
    /// - Throws: `FaultProxyError.cannotListen` when no socket could be opened.
    public init(upstream: URL? = nil, defaultFault: Fault? = nil) throws {
        guard let (listener, port) = LoopbackSocket.listen() else { throw FaultProxyError.cannotListen }
        self.listener = listener
        self.port = port
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.upstream = upstream.map { ($0.host ?? "127.0.0.1", $0.port ?? 80) }
        self.fallback = defaultFault ?? (upstream != nil ? .forward : .respond(status: 502, body: Data("no upstream".utf8)))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "FaultProxy.accept.\(port)"
        thread.start()
    }

    /// Queues faults for the next requests, in order.
    public func enqueue(_ faults: Fault...) {
        queue.withLock { $0 += faults }
    }

    /// Every request received so far, in order of arrival.
    public var requests: [RecordedRequest] { recorded.withLock { $0 } }

    /// Every forwarded exchange that has ended, in order of ending.
    public var forwardedExchanges: [ForwardedExchange] { forwarded.withLock { $0 } }

    /// Connections still being served (a test can wait for 0 to know no handler thread is left).
    public var activeConnections: Int { active.load(ordering: .sequentiallyConsistent) }

    private let stopped = Atomic(false)

    /// Stops accepting connections (handlers already running finish on their own). Call it when done: the
    /// accept thread keeps the proxy alive until then. Calling it again does nothing.
    public func stop() {
        // Shut down only: the accept thread closes the descriptor when its loop ends. Closing it here let the
        // thread's next accept() land on a new proxy's listener that reused the descriptor number, so that
        // proxy's requests were served from this one's (empty) queue: a stray "502 no upstream".
        if !stopped.exchange(true, ordering: .sequentiallyConsistent) { listener.shutdownOnly() }
    }

    private func acceptLoop() {
        defer { listener.closeDescriptor() }
        while let client = listener.accept() {
            active.add(1, ordering: .sequentiallyConsistent)
            let thread = Thread { [self] in
                defer {
                    client.shutdownAndClose()
                    active.subtract(1, ordering: .sequentiallyConsistent)
                }
                serve(client)
            }
            thread.name = "FaultProxy.connection.\(port)"
            thread.start()
        }
    }

    private func serve(_ client: LoopbackSocket) {
        guard let request = HTTPRequestReader.read(from: client) else { return }
        recorded.withLock { $0.append(request) }
        let fault = queue.withLock { $0.isEmpty ? fallback : $0.removeFirst() }
        play(fault, request: request, client: client)
    }

    private func play(_ fault: Fault, request: RecordedRequest, client: LoopbackSocket) {
        switch fault {
        case .forward:
            forward(request, to: client, dropAfter: nil)
        case .dropAfter(let bytes):
            forward(request, to: client, dropAfter: bytes)
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            if headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) { head += "Content-Type: application/json\r\n" }
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            _ = client.write(head + "\r\n") && client.write(body)
        case .stream(let chunks, let interval, let complete):
            guard client.write(Self.streamHead) else { return }
            for chunk in chunks {
                if interval > .zero { Thread.sleep(forTimeInterval: interval.seconds) }
                guard client.write(Self.chunked(chunk)) else { return }
            }
            if complete { _ = client.write("0\r\n\r\n") }
        case .dynamic(let decide):
            play(decide(request), request: request, client: client)
        case .delay(let delay, let then):
            Thread.sleep(forTimeInterval: delay.seconds)
            play(then, request: request, client: client)
        case .endless(let chunk, let interval):
            guard client.write(Self.streamHead) else { return }
            let framed = Self.chunked(chunk)
            while client.write(framed) { Thread.sleep(forTimeInterval: interval.seconds) }
        case .flood(let chunk, let bytes):
            guard client.write(Self.streamHead) else { return }
            let framed = Self.chunked(chunk)
            var sent = 0
            while sent < bytes, client.write(framed) { sent += chunk.count }
            if sent >= bytes { _ = client.write("0\r\n\r\n") }
        case .oversized(let bytes, let filler):
            guard client.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n") else { return }
            let block = [UInt8](repeating: filler, count: 65_536)
            var left = bytes
            while left > 0, client.write(block.prefix(left)) { left -= min(left, block.count) }
        }
    }

    /// Sends `request` upstream (with `Connection: close`) and relays the answer; with `dropAfter`, closes
    /// after that many bytes of the upstream's body.
    private func forward(_ request: RecordedRequest, to client: LoopbackSocket, dropAfter: Int?) {
        guard let upstream, let server = LoopbackSocket.connect(host: upstream.host, port: upstream.port) else {
            _ = client.write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        defer { server.shutdownAndClose() }
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: \(upstream.host):\(upstream.port)\r\nConnection: close\r\n"
        for (name, value) in request.headers where !["host", "connection", "expect", "content-length"].contains(name) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\n\r\n"
        guard server.write(head), server.write(request.body) else { return }
        var relayed: [UInt8] = []
        defer { forwarded.withLock { $0.append(ForwardedExchange(request: request, responseBody: Self.body(of: relayed))) } }
        var headerBytes: [UInt8] = []
        var bodySent: Int? = nil
        while true {
            let bytes = server.read()
            if bytes.isEmpty { return }
            relayed += bytes
            guard let limit = dropAfter else {
                if !client.write(bytes) { return }
                continue
            }
            if let sent = bodySent {
                let take = min(bytes.count, limit - sent)
                _ = client.write(bytes.prefix(take))
                bodySent = sent + take
                if sent + take >= limit { return }
                continue
            }
            headerBytes += bytes
            if let end = HTTPRequestReader.headEnd(headerBytes) {
                let take = min(headerBytes.count - end, limit)
                guard client.write(headerBytes.prefix(end + take)) else { return }
                bodySent = take
                if take >= limit { return }
            }
        }
    }

    /// The body of a raw HTTP response: after the head, with chunked framing undone when the head says so.
    static func body(of raw: [UInt8]) -> Data {
        guard let end = HTTPRequestReader.headEnd(raw) else { return Data() }
        let head = String(decoding: raw[..<end], as: UTF8.self).lowercased()
        var rest = Array(raw[end...])
        guard head.contains("transfer-encoding: chunked") else { return Data(rest) }
        var body: [UInt8] = []
        while let lineEnd = rest.indices.dropLast().first(where: { rest[$0] == 13 && rest[$0 + 1] == 10 }),
              let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? "", radix: 16), size > 0 {
            let start = lineEnd + 2
            body += rest[start..<min(rest.count, start + size)]
            guard start + size + 2 <= rest.count else { break }
            rest = Array(rest[(start + size + 2)...])
        }
        return Data(body)
    }

    private static let streamHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"

    private static func chunked(_ data: Data) -> [UInt8] {
        Array("\(String(data.count, radix: 16))\r\n".utf8) + Array(data) + Array("\r\n".utf8)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

public enum FaultProxyError: Error {
    case cannotListen
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
