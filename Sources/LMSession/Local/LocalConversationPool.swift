import Synchronization

/// The local model's idle conversations (each with its KV cache), found again by the transcript they last ran, as
/// Apple's guide advises executors to keep state: a request whose transcript only appends entries to a saved one
/// continues that conversation, so a session's next turn re-uses its own cache (the KV cache itself keeps the
/// longest common token prefix, so a wrong pick costs prefill time, never output). Any other request gets a new
/// conversation; the shared start of instructions comes from the model's ``PrefixCache``.
///
/// Holds at most ``limit`` idle conversations, dropping the least recently used beyond it, so sessions that come
/// and go cannot grow memory without bound; a conversation running a request is out of the pool.
final class LocalConversationPool: Sendable {
    private struct Idle {
        let conversation: LocalConversation
        /// The entries of the request (or prewarm) it last ran.
        let entries: [Transcript.Entry]
    }

    /// Idle conversations kept at most.
    let limit: Int
    /// Least recently used first.
    private let idle = Mutex<[Idle]>([])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The idle conversation with the longest saved transcript that `transcript` starts with, taken out of the
    /// pool; a new one from `make` when none is.
    func take(for transcript: Transcript, make: () -> LocalConversation) -> LocalConversation {
        let entries = transcript.entries
        return idle.withLock { idle in
            var best: Int?
            for (index, kept) in idle.enumerated() where kept.entries.count <= entries.count && entries.starts(with: kept.entries) {
                if best.map({ kept.entries.count >= idle[$0].entries.count }) ?? true { best = index }
            }
            if let best { return idle.remove(at: best).conversation }
            return make()
        }
    }

    /// Puts `conversation` back, saved under `transcript`, dropping the least recently used beyond ``limit``.
    func put(_ conversation: LocalConversation, transcript: Transcript) {
        let dropped = idle.withLock { idle -> [Idle] in
            idle.append(Idle(conversation: conversation, entries: transcript.entries))
            let excess = idle.count - limit
            guard excess > 0 else { return [] }
            defer { idle.removeFirst(excess) }
            return Array(idle.prefix(excess))
        }
        // Released here, outside the lock: a conversation's deinit gives its cache back to the budget.
        withExtendedLifetime(dropped) {}
    }

    /// Drops every idle conversation (their caches go back as their queued work ends).
    func removeAll() {
        let dropped = idle.withLock { idle -> [Idle] in
            defer { idle.removeAll() }
            return idle
        }
        withExtendedLifetime(dropped) {}
    }

    /// Idle conversations kept now.
    var count: Int { idle.withLock { $0.count } }
}
