/// A running request whose stream the consuming task may have left without releasing the iterator.
///
/// Leaving a `for try await` loop early normally drops its iterator, and the iterator's end rolls the request back
/// (``LanguageModelSession/ResponseStream``). In top-level code (`main.swift`) the loop's iterator is never
/// released, so nothing marks the request as left; the session learns it when the same task makes its next
/// request: a task that starts a request is not waiting for another one's next snapshot.
protocol LeftBehindRequest: AnyObject, Sendable {
    /// Rolls the request back when no snapshot is being pulled from it and `task` (a ``TaskIdentity``) pulled the
    /// last one; returns whether it did. A request being pulled, collected, or last read by another task stays.
    func endIfLeft(by task: Int) -> Bool
}

/// The identity of the running task, to tell whether two calls come from the same task.
enum TaskIdentity {
    /// The current task's identity; nil outside a task. Equal for calls from one task; a different live task
    /// shares it only if two 64-bit hashes of task addresses collide.
    static var current: Int? {
        withUnsafeCurrentTask { $0?.hashValue }
    }
}
