import Foundation

/// What a request does when every KV cache a local model allows is held by a generating session.
public enum SessionLimitPolicy: Sendable, Equatable {
    /// Wait until a session finishes its request (cancelling the request stops the wait).
    case wait
    /// Throw ``LocalModelError/tooManySessions(limit:)`` at once.
    case fail
}

/// The KV caches the sessions of one local model hold at once, at most `limit` (nil: no limit).
///
/// A session takes a cache for each request and keeps it afterwards (the next request re-uses the
/// cached prefix), but an idle session's cache is given back, least recently used first, when a
/// request needs one and the budget is spent; that session prefills its whole prompt again next time.
/// When every cache belongs to a generating session, the request waits or fails (``SessionLimitPolicy``).
///
/// `@unchecked Sendable`: every field is guarded by `condition`.
final class KVCacheBudget: @unchecked Sendable {
    let limit: Int?
    let policy: SessionLimitPolicy
    private let condition = NSCondition()
    /// Sessions holding a cache: whether each is in a request, when it last used the cache, and how
    /// to take its cache back.
    private var holders: [ObjectIdentifier: Holder] = [:]
    private var clock = 0

    private struct Holder {
        var busy: Bool
        var lastUse: Int
        /// Drops the session's cache (called with the budget's lock held, while the session is idle).
        let evict: @Sendable () -> Void
    }

    init(limit: Int?, policy: SessionLimitPolicy) {
        self.limit = limit
        self.policy = policy
    }

    /// Caches held now (idle or busy).
    var held: Int { condition.withLock { holders.count } }

    /// Marks `owner`'s cache in use for a request, taking one from the budget if it holds none. Until
    /// ``release(_:)``, the cache is not taken back.
    /// - Parameters:
    ///   - evict: drops the owner's cache when it is idle and another session needs one.
    ///   - isCancelled: polled while waiting.
    /// - Returns: false when cancelled while waiting.
    /// - Throws: ``LocalModelError/tooManySessions(limit:)`` under ``SessionLimitPolicy/fail``, or
    ///   under `.wait` when `wait` is false (prewarming).
    func acquire(_ owner: AnyObject, wait: Bool = true, evict: @escaping @Sendable () -> Void,
                 isCancelled: () -> Bool) throws(LocalModelError) -> Bool {
        let id = ObjectIdentifier(owner)
        condition.lock()
        defer { condition.unlock() }
        clock += 1
        if holders[id] != nil {
            holders[id]?.busy = true
            holders[id]?.lastUse = clock
            return true
        }
        while let limit, holders.count >= limit {
            if let (idle, holder) = holders.filter({ !$0.value.busy }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                holders[idle] = nil
                holder.evict()
                continue
            }
            guard policy == .wait, wait else { throw .tooManySessions(limit: limit) }
            if isCancelled() { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.05))
        }
        holders[id] = Holder(busy: true, lastUse: clock, evict: evict)
        return true
    }

    /// The request of `owner` ended: its cache stays, idle (another session may take it back).
    func release(_ owner: AnyObject) {
        condition.withLock {
            holders[ObjectIdentifier(owner)]?.busy = false
            condition.broadcast()
        }
    }

    /// `owner` is gone (its cache with it).
    func remove(_ owner: ObjectIdentifier) {
        condition.withLock {
            holders[owner] = nil
            condition.broadcast()
        }
    }
}
