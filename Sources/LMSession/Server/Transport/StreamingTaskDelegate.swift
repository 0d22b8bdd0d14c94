import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// Turns one URLSession data task's delegate callbacks into a response head (a continuation) and a body
/// stream, and enforces the request's total timeout and body size limit.
///
/// Every way a request ends goes through ``fail(_:)`` or the task's completion, whichever comes first;
/// the first one wins and later ones are ignored, so the head continuation is resumed exactly once and the
/// body stream finished exactly once.
final class StreamingTaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: NSObject subclass; all mutable state is in `state` (a Mutex), the rest is immutable.
    private struct State {
        var task: URLSessionDataTask?
        var head: CheckedContinuation<HTTPStreamingResponse, any Error>?
        var headDelivered = false
        /// Set once the request has ended (failure or completion); later events are ignored.
        var ended = false
        var failure: (any Error)?
        var receivedBytes = 0
        var deadline: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let request: HTTPStreamingRequest
    private let body: AsyncThrowingStream<Data, any Error>
    private let bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation

    init(request: HTTPStreamingRequest) {
        self.request = request
        (body, bodyContinuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        super.init()
        bodyContinuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.fail(CancellationError()) }
        }
    }

    /// Starts `task`; `head` is resumed with the response head or the error that came first.
    func start(_ task: URLSessionDataTask, head: CheckedContinuation<HTTPStreamingResponse, any Error>) {
        let failure: (any Error)? = state.withLock { state in
            if state.ended { return state.failure ?? CancellationError() }
            state.task = task
            state.head = head
            return nil
        }
        if let failure { return head.resume(throwing: failure) }
        let timeout = request.timeout
        let origin = request.url.redactedOrigin
        let deadline = Task { [weak self] in
            guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return }
            self?.fail(LanguageModelError.timeout(.init(debugDescription: "No complete response from \(origin) within \(timeout) s.")))
        }
        state.withLock { $0.deadline = deadline }
        task.resume()
    }

    /// Ends the request with `error` (first end wins): the pending head or the body stream throws it, and the
    /// task is cancelled.
    func fail(_ error: any Error) {
        let (task, head, deadline) = state.withLock { state -> (URLSessionDataTask?, CheckedContinuation<HTTPStreamingResponse, any Error>?, Task<Void, Never>?) in
            guard !state.ended else { return (nil, nil, nil) }
            state.ended = true
            state.failure = error
            defer { state.head = nil; state.task = nil; state.deadline = nil }
            return (state.task, state.head, state.deadline)
        }
        deadline?.cancel()
        task?.cancel()
        head?.resume(throwing: error)
        bodyContinuation.finish(throwing: error)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return fail(ServerModelError.invalidResponse("not an HTTP response"))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        let response = HTTPStreamingResponse(statusCode: http.statusCode, headers: headers, body: body) { [weak self] in
            self?.fail(CancellationError())
        }
        let head = state.withLock { state -> CheckedContinuation<HTTPStreamingResponse, any Error>? in
            guard !state.ended else { return nil }
            state.headDelivered = true
            defer { state.head = nil }
            return state.head
        }
        completionHandler(head == nil ? .cancel : .allow)
        head?.resume(returning: response)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = request.maximumResponseBytes
        let accepted = state.withLock { state -> Bool? in
            guard !state.ended else { return nil }
            state.receivedBytes += data.count
            return state.receivedBytes <= limit
        }
        switch accepted {
        case true?: bodyContinuation.yield(data)
        case false?: fail(ServerModelError.responseTooLarge(limit: limit))
        case nil: break
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (headDelivered, deadline, alreadyEnded) = state.withLock { state -> (Bool, Task<Void, Never>?, Bool) in
            defer { state.deadline = nil }
            return (state.headDelivered, state.deadline, state.ended)
        }
        guard !alreadyEnded else { return }
        deadline?.cancel()
        if let error {
            return fail(Self.map(error, headDelivered: headDelivered, origin: request.url.redactedOrigin, timeout: request.timeout))
        }
        let finished = state.withLock { state -> Bool in
            guard !state.ended else { return false }
            state.ended = true
            state.task = nil
            return true
        }
        if finished { bodyContinuation.finish() }
    }

    /// A URLSession error as the transport's typed error. The URL's path, query and credentials never
    /// appear (only its origin), nor does the system's message, which may quote the URL: the error code is
    /// named instead (``reason(_:)``).
    static func map(_ error: any Error, headDelivered: Bool, origin: String, timeout: TimeInterval) -> any Error {
        guard let urlError = error as? URLError else {
            let code = (error as NSError).code
            return headDelivered ? ServerModelError.connectionLost("\(origin) (error \(code))")
                                 : ServerModelError.unreachable("\(origin) (error \(code))")
        }
        switch urlError.code {
        case .cancelled: return CancellationError()
        case .timedOut: return LanguageModelError.timeout(.init(debugDescription: "No complete response from \(origin) within \(timeout) s."))
        case .unsupportedURL, .badURL:
            return ServerModelError.invalidBaseURL("\(origin) is not a URL URLSession can request (URLError \(urlError.code.rawValue))")
        default:
            let what = "\(origin) (\(reason(urlError.code)), URLError \(urlError.code.rawValue))"
            return headDelivered ? ServerModelError.connectionLost(what) : ServerModelError.unreachable(what)
        }
    }

    /// What a URLSession error code means, in a few words.
    static func reason(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: "could not connect to the host (connection refused?)"
        case .cannotFindHost, .dnsLookupFailed: "the host name did not resolve"
        case .networkConnectionLost: "the network connection was lost"
        case .notConnectedToInternet: "no network connection"
        case .secureConnectionFailed: "the TLS handshake failed"
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            "the server's TLS certificate is not trusted"
        case .badServerResponse: "the server's answer is not valid HTTP"
        case .httpTooManyRedirects: "too many redirects"
        case .resourceUnavailable: "the resource is unavailable"
        default: "the request failed"
        }
    }
}
