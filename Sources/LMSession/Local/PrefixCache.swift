import LMTransformer
import Synchronization

/// KV caches of rendered prompt prefixes, shared read-only by every session of one local model: a
/// new session whose prompt starts with the same instructions and tool definitions as an earlier
/// one copies their keys and values instead of prefilling them again (the idea of llama.cpp's
/// server prompt cache and vLLM's automatic prefix caching). Tokens restored this way count in
/// `usage.input.cachedTokenCount`.
///
/// Bounded by `byteLimit` (keys and values as halves); the least recently used prefix goes first.
final class PrefixCache: Sendable {
    /// Prefixes shorter than this are not kept: prefilling them costs less than the bookkeeping.
    static let minimumTokens = 16

    let byteLimit: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [Entry] = []
        var clock = 0
        var bytes = 0
    }

    private struct Entry {
        let prefix: KVPrefix
        var lastUse: Int
    }

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// The kept prefix sharing the most leading tokens with `tokens`, and how many it shares.
    func longestMatch(_ tokens: [Int]) -> (prefix: KVPrefix, count: Int)? {
        state.withLock { state in
            var best: (index: Int, count: Int)?
            for (i, entry) in state.entries.enumerated() {
                let n = commonPrefixLength(entry.prefix.tokens, tokens)
                if n >= Self.minimumTokens, n > (best?.count ?? 0) { best = (i, n) }
            }
            guard let best else { return nil }
            state.clock += 1
            state.entries[best.index].lastUse = state.clock
            return (state.entries[best.index].prefix, best.count)
        }
    }

    /// Keeps `prefix` unless a kept one already covers it; a kept prefix that `prefix` extends is
    /// replaced. Least recently used prefixes leave until the total fits `byteLimit`; a prefix larger
    /// than the limit is not kept.
    func insert(_ prefix: KVPrefix) {
        guard prefix.tokens.count >= Self.minimumTokens, prefix.byteCount <= byteLimit else { return }
        state.withLock { state in
            if state.entries.contains(where: { commonPrefixLength($0.prefix.tokens, prefix.tokens) == prefix.tokens.count }) { return }
            let extended = state.entries.filter { commonPrefixLength($0.prefix.tokens, prefix.tokens) == $0.prefix.tokens.count }
            state.bytes -= extended.reduce(0) { $0 + $1.prefix.byteCount }
            state.entries.removeAll { commonPrefixLength($0.prefix.tokens, prefix.tokens) == $0.prefix.tokens.count }
            while state.bytes + prefix.byteCount > byteLimit,
                  let oldest = state.entries.indices.min(by: { state.entries[$0].lastUse < state.entries[$1].lastUse }) {
                state.bytes -= state.entries.remove(at: oldest).prefix.byteCount
            }
            state.clock += 1
            state.entries.append(Entry(prefix: prefix, lastUse: state.clock))
            state.bytes += prefix.byteCount
        }
    }

    /// Bytes held now.
    var byteCount: Int { state.withLock { $0.bytes } }
}

private func commonPrefixLength(_ a: [Int], _ b: [Int]) -> Int {
    var n = 0
    while n < min(a.count, b.count), a[n] == b[n] { n += 1 }
    return n
}

extension LoadedModel {
    /// Keeps the KV of `prompt`'s leading instructions (with the tool definitions the template puts
    /// there) in ``prefixCache`` for later sessions, unless a kept prefix covers them already.
    /// `context` holds `prompt` (just loaded).
    func keepInstructionPrefix(of transcript: Transcript, prompt: [Int], context: InferenceContext) {
        guard let first = transcript.first, case .instructions = first else { return }
        let rendered = renderer.instructionsTokens(first)
        let n = min(commonPrefixLength(rendered, prompt), context.commonPrefixLength(with: prompt), prompt.count - 1)
        guard n >= PrefixCache.minimumTokens else { return }
        if let kept = prefixCache.longestMatch(prompt), kept.count >= n { return }
        prefixCache.insert(KVPrefix(context, count: n))
    }
}
