#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs parsing and rendering on a thread of its own with a large stack, and waits for it.
///
/// The parser and renderer recurse once per level of template nesting and macro call (bounded by
/// ``JinjaLimits``); at the limits that takes a few MiB in a debug build, more than the 512 KiB
/// of a secondary thread on Apple platforms. A dedicated thread makes the bound independent of
/// the caller's thread. The stack is reserved address space, committed only as it is touched.
enum LargeStack {
    static let size = 32 << 20

    /// The state shared with the worker thread; the caller blocks in `pthread_join` while the
    /// worker runs, so it is never touched by both at once.
    private final class Job: @unchecked Sendable {  // handed across one pthread_create/join pair
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static func run<T>(_ body: () throws(JinjaError) -> T) throws(JinjaError) -> T {
        var result: Result<T, JinjaError>?
        withoutActuallyEscaping({ result = Result { () throws(JinjaError) -> T in try body() } }) { work in
            let job = Unmanaged.passRetained(Job(work))
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, size)
            #if canImport(Darwin)
            var thread: pthread_t?
            #else
            var thread = pthread_t()
            #endif
            let started = pthread_create(&thread, &attributes, { context in
                #if canImport(Darwin)
                let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
                #else
                guard let context else { return nil }
                let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
                #endif
                job.body()
                return nil
            }, job.toOpaque())
            if started == 0 {
                #if canImport(Darwin)
                if let thread { pthread_join(thread, nil) }
                #else
                pthread_join(thread, nil)
                #endif
            } else {
                // No thread available: run here, within the caller's stack.
                job.takeRetainedValue().body()
            }
        }
        guard let result else { throw .runtime(message: "render thread did not run", at: .unknown) }
        return try result.get()
    }
}
