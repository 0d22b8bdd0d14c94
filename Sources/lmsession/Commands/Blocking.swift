import Dispatch
import Synchronization

/// Runs `work` on the concurrency pool and waits for it: the commands are synchronous.
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        box.value.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return box.value.withLock { $0 } ?? .failure(CancellationError())
}

private final class ResultBox<T: Sendable>: Sendable {
    let value = Mutex<Result<T, any Error>?>(nil)
}
