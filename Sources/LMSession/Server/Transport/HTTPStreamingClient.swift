import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request whose response body is read as it arrives.
package struct HTTPStreamingRequest: Sendable {
    package var url: URL
    package var method: String
    /// Request headers (the API key goes here and nowhere else).
    package var headers: [String: String]
    package var body: Data?
    /// Seconds from sending the request to the end of the response body, all included (connecting, the
    /// first byte, the stream); past it the request is cancelled and throws ``LanguageModelError/timeout(_:)``.
    package var timeout: TimeInterval
    /// Most bytes of response body read; past it the request is cancelled and throws
    /// ``ServerModelError/responseTooLarge(limit:)``.
    package var maximumResponseBytes: Int
    /// Removes secrets from any server text that goes into an error.
    package var redactor: SecretRedactor

    package init(url: URL, method: String = "POST", headers: [String: String] = [:], body: Data? = nil,
                 timeout: TimeInterval = 60, maximumResponseBytes: Int = 64 << 20, redactor: SecretRedactor = SecretRedactor([])) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.redactor = redactor
    }
}

/// The status and headers of a response, and its body as a stream of chunks.
///
/// The body stream throws the transport's errors (timeout, size limit, lost connection). Ending its
/// iteration early (a `break`, the consuming task cancelled) or calling ``cancel()`` cancels the request.
package struct HTTPStreamingResponse: Sendable {
    package let statusCode: Int
    /// Header values by lowercased name.
    package let headers: [String: String]
    /// The body in chunks as they arrive.
    package let body: AsyncThrowingStream<Data, any Error>
    private let cancelRequest: @Sendable () -> Void

    init(statusCode: Int, headers: [String: String], body: AsyncThrowingStream<Data, any Error>, cancel: @escaping @Sendable () -> Void) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.cancelRequest = cancel
    }

    /// Stops the request; the body stream ends.
    package func cancel() { cancelRequest() }

    /// The body up to `limit` bytes (the rest is not read; the request is cancelled there). For error bodies.
    /// - Throws: the body stream's errors.
    package func collect(limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(chunk.prefix(limit - data.count))
            if data.count >= limit { break }
        }
        cancel()
        return data
    }
}

/// Sends HTTP requests with URLSession and streams their response bodies.
///
/// Built on a delegate-based data task (``StreamingTaskDelegate``) because swift-corelibs-foundation has no
/// `URLSession.bytes(for:)`; each request gets its own `URLSession` (invalidated when its task ends), so
/// requests share no session state (tested with 16 concurrent streams).
package enum HTTPStreamingClient {
    /// Sends `request` and returns once the response's status and headers have arrived.
    /// - Throws: ``ServerModelError/unreachable(_:)`` when no connection could be made,
    ///   ``LanguageModelError/timeout(_:)`` past `request.timeout`, `CancellationError` when the calling
    ///   task is cancelled, ``ServerModelError/invalidResponse(_:)`` for a non-HTTP answer.
    package static func send(_ request: HTTPStreamingRequest) async throws -> HTTPStreamingResponse {
        // URLSession's own timeouts are set past ours: corelibs fired them at once for sub-second values
        // (seen with 0.5 s), and the delegate's deadline is the one that counts.
        let backstop = request.timeout + 5
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: backstop)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = backstop
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        let delegate = StreamingTaskDelegate(request: request)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: urlRequest)
        // The session keeps the delegate until its one task ends, then lets both go.
        session.finishTasksAndInvalidate()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(task, head: continuation)
            }
        } onCancel: {
            delegate.fail(CancellationError())
        }
    }
}
