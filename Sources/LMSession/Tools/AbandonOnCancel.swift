import Synchronization

/// The value of `work`, or `CancellationError` as soon as the calling task is cancelled: `work` is then cancelled
/// and left to end on its own, its result discarded. A tool that ignores cancellation would otherwise hold its
/// request, and with it the session (one request at a time), for as long as it runs.
func abandoningOnCancel<T: Sendable>(_ work: Task<T, any Error>) async throws -> T {
    let outcome = Outcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.wait(continuation)
            Task { outcome.deliver(await work.result) }
        }
    } onCancel: {
        work.cancel()
        outcome.deliver(.failure(CancellationError()))
    }
}

/// The first result delivered, handed to the continuation once both are there.
private final class Outcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var resumed = false
    }

    private let state = Mutex(State())

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        let ready = state.withLock { state -> Result<T, any Error>? in
            guard let result = state.result, !state.resumed else {
                state.continuation = continuation
                return nil
            }
            state.resumed = true
            return result
        }
        if let ready { continuation.resume(with: ready) }
    }

    func deliver(_ result: Result<T, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard !state.resumed, state.result == nil else { return nil }
            state.result = result
            guard let continuation = state.continuation else { return nil }
            state.resumed = true
            return continuation
        }
        waiting?.resume(with: result)
    }
}
