import Foundation
import Synchronization

/// Whether the last request of a server model reached its server, and why not, shared by every copy of the
/// model and by its conversations (``OpenAICompatibleLanguageModel``, ``ClaudeLanguageModel``).
///
/// An unreachable server makes the model `.unavailable(.modelNotReady)` for ``holdSeconds``: long enough for a
/// ``FallbackLanguageModel`` or the app to see it, short enough that a session (which refuses to call an
/// unavailable model) tries the server again soon without anyone calling `checkAvailability()`.
final class ServerReachability: Sendable {
    /// When the last request found the server unreachable and the error it threw; nil once a request reached it.
    private let failure = Mutex<(date: Date, error: ServerModelError)?>(nil)
    /// Seconds after an unreachable failure during which the model reports itself unavailable.
    static let holdSeconds: TimeInterval = 5

    /// Records that a request could not connect; `error` is what it threw (``ServerModelError/unreachable(_:)``).
    func markUnreachable(_ error: ServerModelError, now: Date = Date()) { failure.withLock { $0 = (now, error) } }
    func markReachable() { failure.withLock { $0 = nil } }

    /// The error of an unreachable failure less than ``holdSeconds`` ago; nil otherwise.
    func recentFailure(now: Date = Date()) -> ServerModelError? {
        failure.withLock { last in last.flatMap { now.timeIntervalSince($0.date) < Self.holdSeconds ? $0.error : nil } }
    }

    /// True within ``holdSeconds`` of an unreachable failure.
    func isUnreachable(now: Date = Date()) -> Bool { recentFailure(now: now) != nil }
}

/// Checks a server model's base URL before anything is sent: Foundation accepts `localhost:8080/v1` as a URL
/// (scheme `localhost`), and URLSession then fails with an unsupported-URL error that says nothing useful.
enum ServerEndpoint {
    /// Why `baseURL` cannot address an HTTP server (a scheme other than `http`/`https`, no host), or nil when
    /// it can. The text names the URL's scheme and host only (a path or query may hold a secret).
    static func problem(with baseURL: URL) -> ServerModelError? {
        let scheme = baseURL.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            let what = scheme.map { "scheme \"\($0)\"" } ?? "no scheme"
            return .invalidBaseURL("\(what) in the base URL; it must start with http:// or https:// (e.g. http://127.0.0.1:8080/v1)")
        }
        guard let host = baseURL.host, !host.isEmpty else {
            return .invalidBaseURL("the base URL has no host; it must look like \(scheme!)://HOST[:PORT][/PATH]")
        }
        return nil
    }

    /// The availability a model with this base URL and reachability has, and the cause when unavailable.
    static func availability(baseURL: URL, reachability: ServerReachability)
        -> (availability: SystemLanguageModel.Availability, cause: ServerModelError?) {
        if let problem = problem(with: baseURL) { return (.unavailable(.modelNotReady), problem) }
        if let failure = reachability.recentFailure() { return (.unavailable(.modelNotReady), failure) }
        return (.available, nil)
    }
}
