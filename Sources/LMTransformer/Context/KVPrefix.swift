/// The KV cache of a token prefix, copied out of a context so that other contexts of the same model
/// can start from it instead of prefilling it again (a shared prompt prefix: instructions and tool
/// definitions, as llama.cpp's server prompt cache and vLLM's automatic prefix caching keep).
///
/// Read-only once made, so one prefix can be restored into many contexts at once.
/// `@unchecked Sendable`: its cache is written only in `init`.
public final class KVPrefix: @unchecked Sendable {
    /// The tokens whose keys and values are held, at positions `0..<tokens.count`.
    public let tokens: [Int]
    let cache: KVCache

    /// Copies the first `count` positions of `context`.
    /// - Precondition: `0 < count <= context.tokens.count` (a programmer error; it traps).
    public init(_ context: InferenceContext, count: Int) {
        precondition(count > 0 && count <= context.tokens.count, "a prefix of \(count) of \(context.tokens.count) tokens")
        let c = context.model.config
        tokens = Array(context.tokens[..<count])
        cache = KVCache(nLayer: c.nLayer, contextSize: count, nKVHead: c.nKVHead, headDim: c.headDim)
        cache.copyPositions(from: context.cache, count: count)
    }

    /// Bytes held: keys and values as halves.
    public var byteCount: Int {
        KVCache.bytes(nLayer: cache.nLayer, contextSize: tokens.count, nKVHead: cache.nKVHead, headDim: cache.headDim)
    }
}

extension InferenceContext {
    /// Replaces the cached tokens with `prefix`'s first `count` tokens and their keys and values.
    /// - Precondition: `prefix` comes from a context of the same model, `count <= prefix.tokens.count`
    ///   and `count <= contextSize` (programmer errors; they trap).
    public func restore(_ prefix: KVPrefix, count: Int) {
        precondition(prefix.cache.nLayer == model.config.nLayer, "a prefix of another model")
        precondition(count >= 0 && count <= prefix.tokens.count && count <= contextSize, "cannot restore \(count) tokens")
        truncate(to: 0)
        cache.copyPositions(from: prefix.cache, count: count)
        replaceTokens(with: prefix.tokens[..<count])
    }
}
