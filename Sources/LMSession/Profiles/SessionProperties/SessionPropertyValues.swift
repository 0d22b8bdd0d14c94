import Synchronization

/// A key for a value every profile, dynamic instructions and tool of a session can read and write through
/// ``LanguageModelSession/SessionProperty`` (Apple 27's `SessionPropertyKey`).
///
/// Apple declares keys with the `@SessionPropertyEntry` macro; here a key is a type written by hand, and a
/// computed property on ``SessionPropertyValues`` gives it a key path:
///
/// ```swift
/// struct VisitCountKey: SessionPropertyKey { static let defaultValue = 0 }
/// extension SessionPropertyValues {
///     var visitCount: Int {
///         get { self[VisitCountKey.self] }
///         set { self[VisitCountKey.self] = newValue }
///     }
/// }
/// // in a profile, dynamic instructions or a tool:
/// @SessionProperty(\.visitCount) var visitCount
/// ```
public protocol SessionPropertyKey: SendableMetatype {
    associatedtype Value
    /// The value before anything was written.
    static var defaultValue: Value { get }
}

/// The values of one session's properties (Apple 27's `SessionPropertyValues`): its ``history`` and the values
/// of custom ``SessionPropertyKey``s. ``LanguageModelSession/properties`` is the session's; a
/// ``LanguageModelSession/SessionProperty`` reads the values of the session that evaluates it.
///
/// Values live as long as the session and are shared by all its requests. Reads and writes are serialised (tools
/// of one round may run concurrently).
public final class SessionPropertyValues: @unchecked Sendable {
    // @unchecked: every mutable field is in `state`, behind its mutex; custom values (which need not be
    // Sendable, as Apple's keys' values need not be) are only handed out by copy under the lock.
    struct State {
        var values: [ObjectIdentifier: StoredValue] = [:]
        weak var session: LanguageModelSession?
        /// The request that is running, whose transcript ``history`` reads and writes while it runs.
        weak var request: (any RequestHistoryAccess)?
    }
    let state = Mutex(State())

    /// Values not attached to a session (what a ``LanguageModelSession/SessionProperty`` uses outside one).
    public init() {}

    /// The value stored for `key`, or its ``SessionPropertyKey/defaultValue`` until one is written.
    public subscript<K: SessionPropertyKey>(key: K.Type) -> K.Value {
        get {
            let stored = state.withLock { $0.values[ObjectIdentifier(key)] }
            return stored?.value as? K.Value ?? K.defaultValue
        }
        set {
            let stored = StoredValue(value: newValue)
            state.withLock { $0.values[ObjectIdentifier(key)] = stored }
        }
    }

    /// The session's transcript without its instructions entry (Apple 27's `history`).
    ///
    /// While a request runs (in a profile's callbacks, a tool, or a `body` evaluated for a model call), this is the
    /// request's transcript so far: the earlier turns, this request's prompt and its tool rounds. Writing it there
    /// changes what the request continues with and commits: the written entries replace the earlier turns, and
    /// when they end with this request's entries (ids compared), those stay this request's (its response's
    /// `transcriptEntries`); otherwise the request's entries are replaced too. Outside a request it is the session's
    /// ``LanguageModelSession/transcript``'s history. Values not attached to a session hold no history (empty;
    /// writes are ignored). Editing history invalidates a KV cache from the first changed entry on.
    public var history: [Transcript.Entry] {
        get {
            state.withLock { state in
                if let request = state.request { return request.requestHistory }
                return state.session.map { Array($0.transcript.history) } ?? []
            }
        }
        set {
            let session: LanguageModelSession? = state.withLock { state in
                if let request = state.request {
                    request.requestHistory = newValue
                    return nil
                }
                return state.session
            }
            session?.transcript.history = ArraySlice(newValue)
        }
    }

    /// Runs `body` with these values as the ones ``LanguageModelSession/SessionProperty`` reads.
    func bound<R>(_ body: () throws -> R) rethrows -> R {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body` with these values as the ones ``LanguageModelSession/SessionProperty`` reads (and the tasks
    /// it starts, such as tool calls).
    func bound<R>(_ body: () async throws -> R) async rethrows -> R {
        try await Self.$current.withValue(self, operation: body)
    }

    /// The values of the session evaluating a profile, dynamic instructions or tool in this task.
    @TaskLocal static var current: SessionPropertyValues?
}

/// A custom key's value. `@unchecked`: Apple's key values need not be Sendable; each is written and read whole
/// under ``SessionPropertyValues/state``'s lock, and a session's profile, tools and callbacks share it as Apple's do.
struct StoredValue: @unchecked Sendable {
    let value: Any
}

/// The transcript of a running request, as ``SessionPropertyValues/history`` reads and writes it.
protocol RequestHistoryAccess: AnyObject {
    /// The request's transcript without instructions.
    var requestHistory: [Transcript.Entry] { get set }
}

extension LanguageModelSession {
    /// The values of this session's properties (Apple 27): what ``SessionProperty`` wrappers in its profile,
    /// dynamic instructions and tools read and write.
    public final var properties: SessionPropertyValues { propertyValues }
}
